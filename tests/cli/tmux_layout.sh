#!/bin/sh
# tmux_layout.sh - the transcript gets the screen, in a real terminal (issue
# 25): z gives the focused pane the whole width and back, and Enter on a
# call whose head is on the timeline's last row scrolls its unfolded lines
# into view. Every wait polls the pane, bounded by a minute: a guard
# against a hang, never a measure of time.
. "$TCR_SRCDIR/tests/cli/lib.sh"

. "$TCR_SRCDIR/tests/cli/tmux_lib.sh"
tmux_setup "the layout in tmux" layout
cp "$TCR_SRCDIR/tests/data/screen.yaml" "$TCR_SRCDIR/tests/data/screen-tasks.jsonl" \
	"$TCR_SRCDIR/tests/data/screen-runs.jsonl" "$TMP/"

# One run: a user message of 40 lines, then a call of 12 arguments (folded
# to its first lines), so that Down from the message puts the call's head
# on the timeline's last row at 80x24.
{
	printf '{"id": "edge", "model": "gpt-4o", "messages": [{"role": "user", "content": "'
	i=1
	while [ "$i" -le 40 ]; do
		[ "$i" -gt 1 ] && printf '\\n'
		printf 'line %d of the request' "$i"
		i=$((i + 1))
	done
	printf '"}, {"role": "assistant", "content": null, "tool_calls": [{"id": "c1", "type": "function", '
	printf '"function": {"name": "write_file", "arguments": "{'
	i=1
	while [ "$i" -le 11 ]; do
		printf '\\"k%02d\\": \\"value %d\\", ' "$i" "$i"
		i=$((i + 1))
	done
	printf '\\"k12\\": \\"the-last-argument\\"}"}}]}, {"role": "tool", "tool_call_id": "c1", "content": "written"}, '
	printf '{"role": "assistant", "content": "Done."}]}\n'
} > "$TMP/edge.jsonl"
printf 'scorers:\n  - id: errors\n    type: tool-errors\n' > "$TMP/edge.yaml"

# start NAME CONFIG RUNS: the screen in a detached 80x24 session NAME.
start() {
	{
		printf 'cd "%s" || exit 1\n' "$TMP"
		printf 'env TERM=%s LANG=C.UTF-8 LC_ALL=C.UTF-8 TZ=UTC NO_COLOR=1 HOME="%s" ' "$PANE_TERM" "$TMP"
		printf '"%s" -c %s -a %s.annot.jsonl --reviewer qa %s\n' "$TCR_BIN" "$2" "$1" "$3"
		printf 'echo "EXITED $?"\n'
	} > "$TMP/$1.sh"
	tmux_spawn "$1" 80 24
}





# tl_cols NAME: the columns the timeline has, from where its title starts.
tl_cols() {
	cap "$1" | awk 'i = index($0, "[timeline]") { print 80 - (i - 1); exit }'
}

# ---- zoom ------------------------------------------------------------------

start zoom screen.yaml screen-runs.jsonl
if ! $T has-session -t zoom 2>/dev/null; then
	skip "the layout in tmux" "tmux could not start a server here"
	finish
fi
expect zoom "the list shows" "run 1 of 6"
assert_eq "beside six runs the timeline has 44 of 80 columns" "$(tl_cols zoom)" 44
$T send-keys -t zoom Tab z
expect_gone zoom "z on the timeline hides the list" "[runs]"
w=$(tl_cols zoom)
if [ "${w:-0}" -ge 72 ]; then pass "zoomed, the timeline has $w of 80 columns (at least 90%)"
else fail "zoomed, the timeline has at least 90% of the width" "it has ${w:-no} columns:" "$(cap zoom)"; fi
expect zoom "the status line stays" "run 1 of 6"
$T send-keys -t zoom Tab
expect zoom "zoomed, Tab moves the zoom to the verdicts" "[verdicts]"
expect_gone zoom "and the timeline gives way" "[timeline]"
$T send-keys -t zoom BTab z
expect zoom "z again gives the panes back" "[runs] 6 runs"
assert_eq "and the timeline its 44 columns" "$(tl_cols zoom)" 44
$T send-keys -t zoom q
expect zoom "q quits" "EXITED 0"

# ---- Enter on a call at the timeline's last row -----------------------------

start edge edge.yaml edge.jsonl
expect edge "the run shows, at its user message" "line 14 of the request"
assert_eq "a file of one run gives the timeline the whole width" "$(tl_cols edge)" 80
$T send-keys -t edge Tab Down Down
expect edge "Down selects the call, its head on the last row" ">  #1 write_file"
if cap edge | grep -qF '"k01"'; then
	fail "its arguments are below the pane" "$(cap edge)"
else
	pass "its arguments are below the pane"
fi
$T send-keys -t edge Enter
expect edge "Enter unfolds it and scrolls its arguments into view" '"k12": "the-last-argument"'
expect edge "with the call's head still on screen" ">  #1 write_file"
$T send-keys -t edge Enter
expect edge "Enter folds it again, its head in view" "more lines (Enter in the timeline to unfold)"
expect edge "the head stays" ">  #1 write_file"
$T send-keys -t edge q
expect edge "q quits" "EXITED 0"
finish
