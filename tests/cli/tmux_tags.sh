#!/bin/sh
# tmux_tags.sh - failure-mode tags in a real terminal (tmux): t tags a run
# with a free code and a call (selected in the timeline) with another, the
# list and the timeline show them; the tags pane (T) counts them, two codes
# marked with Space are merged into a defined tag (m, completed with Tab),
# Enter filters the list to that tag's runs, and x takes a tag back. What
# a person sees is read from the pane, what is kept from the annotations
# file. Every wait polls what the pane shows, bounded by a minute: a guard
# against a hang, never a measure of time.
. "$TCR_SRCDIR/tests/cli/lib.sh"

. "$TCR_SRCDIR/tests/cli/tmux_lib.sh"
tmux_setup "tags in tmux" tags

call='{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"get_order","arguments":"{\"order\":1}"}}]},{"role":"tool","tool_call_id":"c1","content":"shipped"}'
for r in r1 r2 r3; do
	printf '{"id":"%s","messages":[{"role":"user","content":"where is order 1"},%s,{"role":"assistant","content":"it shipped"}]}\n' \
		"$r" "$call" >> "$TMP/runs.jsonl"
done
cat > "$TMP/tcreview.yaml" <<'YAML'
tags:
  - id: wrong-tool
    description: Called a tool that does not fit the request
    key: w
  - id: policy-breach
    description: Acted against the policy
YAML
A="$TMP/runs.jsonl.annotations.jsonl"

printf 'cd "%s" || exit 1\nenv TERM=%s LANG=C.UTF-8 LC_ALL=C.UTF-8 TZ=UTC HOME="%s" "%s" --reviewer qa runs.jsonl\necho "EXITED $?"\n' \
	"$TMP" "$PANE_TERM" "$TMP" "$TCR_BIN" > "$TMP/tags.sh"
tmux_spawn tags 100 30
if ! $T has-session -t tags 2>/dev/null; then
	skip "tags in tmux" "tmux could not start a server here"
	finish
fi
expect tags "the runs show" "[runs] 3 runs"

# tag NAME TEXT: t, the text, Enter.
tag() {
	$T send-keys -t tags t
	wait_for tags "tag " >/dev/null
	$T send-keys -t tags -l "$1"
	$T send-keys -t tags Enter
}
lines() { grep -c -- "$1" "$A" 2>/dev/null || true; }

# ---- a run, then a call ---------------------------------------------------------

tag "slow reply"
expect tags "t on the run writes a free code" "the run tagged slow reply (saved)"
expect tags "the list shows the run's tag" "slow reply"
expect tags "the timeline's title names it with its reviewer" "slow reply (qa)"
$T send-keys -t tags j
tag "lookup"
expect tags "the second run tagged" "the run tagged lookup (saved)"
$T send-keys -t tags j
expect tags "the third run is shown" "[runs] 3 runs"
# the timeline: its first entry (the user's message), the assistant's, its call
$T send-keys -t tags Tab g j j t
expect tags "t on a call in the timeline asks for the call's tag" "tag call #1:"
$T send-keys -t tags -l "bad args"
$T send-keys -t tags Enter
expect tags "the call is tagged" "call #1 tagged bad args (saved)"
expect tags "the call's line carries the tag as a badge" "#1 get_order  "$(printf '\342\232\221')" bad args"
assert_eq "three tag lines in the file" "$(lines '"decision":"tag"')" 3
assert_eq "the call's tag keeps its number, id and tool" \
	"$(lines '"tag":"bad args","call":1,"call_id":"c1","tool":"get_order"')" 1

# ---- the tags pane: a merge into a defined tag, then Enter --------------------

$T send-keys -t tags T
expect tags "T opens the tags pane" "[tags]"
expect tags "a free code with its run" "slow reply"
$T send-keys -t tags g j j j Space Space m
expect tags "m asks where the marked codes go" "merge 2 codes into:"
$T send-keys -t tags -l "pol"
expect tags "the prompt offers the defined tag" "policy-breach  Acted against the policy"
$T send-keys -t tags Tab Enter
expect tags "the merge is saved" "2 codes merged into policy-breach (saved)"
expect tags "a merged code says what it counts under" "$(printf '\342\206\222') policy-breach"
assert_eq "one tag-alias line per merged code" "$(lines '"decision":"tag-alias"')" 2
$T send-keys -t tags g j Enter
expect tags "Enter filters the list to the tag's runs" "[runs] 2 of 3 runs"
$T send-keys -t tags f
expect tags "the filter menu names the tag in force" "t  tag policy-breach  $(printf '\342\206\220') in use"
$T send-keys -t tags t
expect tags "its letter keeps it" "[runs] 2 of 3 runs"

# ---- x takes a tag back -----------------------------------------------------------

$T send-keys -t tags x
expect tags "x takes this reviewer's latest tag back, and says which" "tag lookup taken back from the run (your latest)"
assert_eq "one retract line, of a tag" "$(lines '"decision":"retract".*"tag":"lookup".*"retracts":"tag"')" 1
$T send-keys -t tags q
expect tags "q quits" "EXITED 0"
finish
