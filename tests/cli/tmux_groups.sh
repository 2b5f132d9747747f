#!/bin/sh
# tmux_groups.sh - the groups overlay (=) in a real terminal (tmux): the runs
# in view by tools, then by verdicts (b), a digit on a group asks y/n with
# the number of runs it touches, y writes one line per run with one group
# id, Enter shows the group's runs in the list, and x on one of them asks
# whether the whole group goes and takes it back with one line; t tags the
# whole group through the tag prompt, which completes from the file's codes. Every wait
# polls what the pane shows, bounded by a minute: a guard against a hang,
# never a measure of time.
. "$TCR_SRCDIR/tests/cli/lib.sh"

. "$TCR_SRCDIR/tests/cli/tmux_lib.sh"
tmux_setup "the groups in tmux" groups

call() { # ID NAME RESULT
	printf '{"role":"assistant","content":null,"tool_calls":[{"id":"%s","type":"function","function":{"name":"%s","arguments":"{}"}}]},{"role":"tool","tool_call_id":"%s","content":"%s"},' "$1" "$2" "$1" "$3"
}
run() { # ID CALLS...
	id=$1
	shift
	printf '{"id":"%s","messages":[{"role":"user","content":"hi"},%s{"role":"assistant","content":"done"}]}\n' "$id" "$*"
}
{
	run r4 "$(call a get_user mia)" "$(call b book 'Error: flight HAT001 is full')"
	run r2 "$(call a get_user 'Error: user 17 not found')"
	run r3 "$(call a get_user ok)" "$(call b book 'Error: flight HAT202 is full')"
	run r1 ""
	run r5 "$(call a get_user ok)" "$(call b book ok)"
} > "$TMP/set.jsonl"
printf 'scorers:\n  - id: errors\n    type: tool-errors\n' > "$TMP/set.yaml"
A=$TMP/set.annot.jsonl

printf 'cd "%s" || exit 1\nenv TERM=%s LANG=C.UTF-8 LC_ALL=C.UTF-8 TZ=UTC HOME="%s" "%s" -c set.yaml -a set.annot.jsonl --reviewer qa set.jsonl\necho "EXITED $?"\n' \
	"$TMP" "$PANE_TERM" "$TMP" "$TCR_BIN" > "$TMP/g.sh"
tmux_spawn g 100 30
if ! $T has-session -t g 2>/dev/null; then
	skip "the groups in tmux" "tmux could not start a server here"
	finish
fi
expect g "the runs show" "[runs] 5 runs"
$T send-keys -t g =
expect g "= opens the groups of the runs in view, by tools" "[groups] 5 runs in view by tools: 3 groups"
expect g "the largest group first, with its count and share" "     3   60%  get_user → book"
$T send-keys -t g b b
expect g "b b: by verdicts" "[groups] 5 runs in view by verdicts: 2 groups"
expect g "the failing runs are one group" "     3   60%  errors ✗"
expect g "the selected group's runs are listed below" "r2  r3  r4"
$T send-keys -t g 0
expect g "a digit asks first, naming the scorer, the label and the runs it touches" "label 'errors' 0 on 3 runs? y/n"
[ -s "$A" ] && fail "nothing is written before the y" "$(cat "$A")" || pass "nothing is written before the y"
$T send-keys -t g y
expect g "y: saved on the three runs" "'errors' labelled 0 on 3 runs (saved"
assert_eq "one line per run" "$(wc -l < "$A" | tr -d ' ')" 3
assert_eq "all three with one group id" "$(grep -o '"group":"[^"]*"' "$A" | sort -u | wc -l | tr -d ' ')" 1
assert_eq "each its own run" "$(grep -o '"run":"r[0-9]"' "$A" | sort | tr '\n' ' ')" '"run":"r2" "run":"r3" "run":"r4" '
$T send-keys -t g Enter
expect g "Enter shows the group's runs in the list" "run 1 of 3"
$T send-keys -t g Tab Tab x
expect g "x on a verdict of the group asks whether the whole group goes" "take back the whole group (3 runs)? y/n/o(nly this run)"
$T send-keys -t g n
expect g "n: nothing taken back" "cancelled: nothing written"
assert_eq "n writes nothing" "$(wc -l < "$A" | tr -d ' ')" 3
$T send-keys -t g x
expect g "x asks again" "take back the whole group (3 runs)?"
$T send-keys -t g y
expect g "y: the whole group is taken back" "taken back (3 decisions) (saved)"
assert_eq "by one line" "$(wc -l < "$A" | tr -d ' ')" 4
assert_grep "a retract of the group" "$A" '"decision":"retract"'
assert_eq "which names the group" "$(tail -1 "$A" | grep -o '"retracts":"group","group":"[^"]*"' | wc -l | tr -d ' ')" 1
# A group tagged at once: the tag prompt of t, its completions included.
$T send-keys -t g =
expect g "= again: the groups of the three runs in view" "[groups] 3 runs in view"
$T send-keys -t g t
expect g "t asks for the tag of the whole group" "tag the group's runs with:"
$T send-keys -t g -l "flight full"
$T send-keys -t g Enter
expect g "the tag asks first, with the runs it touches" "on 3 runs? y/n"
$T send-keys -t g y
expect g "y: the three runs tagged" "(saved"
assert_eq "three tag lines, one group id" \
	"$(grep '"decision":"tag"' "$A" | grep '"tag":"flight full"' | grep -o '"group":"[^"]*"' | sort | uniq -c | awk '{ print $1 }')" 3
$T send-keys -t g t
$T send-keys -t g -l "fli"
$T send-keys -t g Tab
expect g "the group's tag prompt completes from the codes in the file" "tag the group's runs with: flight full"
$T send-keys -t g Escape
$T send-keys -t g Escape
$T send-keys -t g q
expect g "q quits" "EXITED 0"
finish
