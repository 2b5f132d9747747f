#!/bin/sh
# tmux_find.sh - search inside the run, in a real terminal (tmux): `/` brings
# a match that only a folded tool argument holds into view, unfolded and
# drawn in the theme's search slot; n and N step through the run's matches,
# say where they are, and go on to the next run's; a match deep in a long
# result (a lazy text, never held as lines) is scrolled to. Every wait polls
# what the pane shows, bounded by a minute: a guard against a hang, never a
# measure of time. And an opened verdict's item leads to its call: Enter
# focuses the timeline on it, in view.
. "$TCR_SRCDIR/tests/cli/lib.sh"

. "$TCR_SRCDIR/tests/cli/tmux_lib.sh"
tmux_setup "search in tmux" find
cp "$TCR_SRCDIR/tests/data/screen-fold.jsonl" "$TCR_SRCDIR/tests/data/screen-runs.jsonl" \
	"$TCR_SRCDIR/tests/data/screen.yaml" "$TCR_SRCDIR/tests/data/screen-tasks.jsonl" \
	"$TCR_SRCDIR/tests/data/screen-marks.yaml" "$TCR_SRCDIR/tests/data/screen-marks.jsonl" \
	"$TCR_SRCDIR/tests/data/screen-orphan.jsonl" "$TMP/"

# start NAME WIDTH HEIGHT ARGS...: the screen in colour in a detached pane.
start() {
	name=$1 w=$2 h=$3
	shift 3
	printf 'cd "%s" || exit 1\nenv TERM=%s LANG=C.UTF-8 LC_ALL=C.UTF-8 TZ=UTC HOME="%s" "%s" -a %s.annot.jsonl --reviewer qa %s\necho "EXITED $?"\n' \
		"$TMP" "$PANE_TERM" "$TMP" "$TCR_BIN" "$name" "$*" > "$TMP/$name.sh"
	tmux_spawn "$name" $w $h
}
# search NAME WORDS: / WORDS Enter.
search() {
	$T send-keys -t "$1" /
	$T send-keys -t "$1" -l "$2"
	$T send-keys -t "$1" Enter
}
# The default theme's search slot: black (30) on yellow (43).
highlighted() { sgr_has "$1" "$2" "$3" 43; }

# ---- a word only inside a folded tool argument --------------------------------

start fold 80 24 screen-fold.jsonl
if ! $T has-session -t fold 2>/dev/null; then
	skip "search in tmux" "tmux could not start a server here"
	finish
fi
expect fold "the run shows" "[timeline] 6 entries"
if cap fold | grep -qF "torn on arrival"; then
	fail "the argument is folded away before the search" "$(cap fold)"
else
	pass "the argument is folded away before the search"
fi
search fold "TORN on arrival"
expect fold "/ finds the word inside the run, and says where" "/TORN on arrival  match 1 of 1 in this run"
expect fold "the folded call is unfolded and the line brought into view" '"note": "torn on arrival"'
highlighted fold "the match is drawn in the search slot" "torn on arrival"
search fold 3141
expect fold "a word in four places: the first" "/3141  match 1 of 4 in this run"
highlighted fold "every match on screen is highlighted" "3141"
$T send-keys -t fold n
expect fold "n: the next match in the run" "/3141  match 2 of 4 in this run"
$T send-keys -t fold n n
expect fold "n n: the last" "/3141  match 4 of 4 in this run"
expect fold "the last match's line is in view" "Your refund of 249 EUR for order 3141 is"
$T send-keys -t fold n
expect fold "n past the last: the only run again, from the top" "/3141  match 1 of 4 in this run  (from the top)"
$T send-keys -t fold N
expect fold "N before the first: from the bottom" "/3141  match 4 of 4 in this run  (from the bottom)"
$T send-keys -t fold q
expect fold "q quits after searching" "EXITED 0"

# ---- from run to run ------------------------------------------------------------

start runs 80 24 -c screen.yaml screen-runs.jsonl
expect runs "the runs show" "[runs] 6 runs"
search runs "Kumo Outfitters"
expect runs "the current run's match comes first" "/Kumo Outfitters  match 1 of 1 in this run"
expect runs "the cursor stays on the first run" ">  en-pass"
$T send-keys -t runs n
expect runs "n after the run's last match: the next run's first" ">  ja-fail"
expect runs "and its count" "/Kumo Outfitters  match 1 of 1 in this run"
$T send-keys -t runs q
expect runs "q quits" "EXITED 0"

# ---- from an opened verdict to its call ---------------------------------------------

# screen-marks: the actions verdict fails on the booking's arguments; the
# timeline first shows the top of the run, the booking below the pane.
start jump 80 24 -c screen-marks.yaml screen-marks.jsonl
expect jump "the run shows" "[timeline] 8 entries"
$T send-keys -t jump Tab Tab Enter
expect jump "the opened verdict shows the failing argument first" "✗ call 3 book: arguments differ"
$T send-keys -t jump j
expect jump "j selects the item" ">✗ call 3 book: arguments differ"
$T send-keys -t jump Enter
expect jump "Enter on it: the timeline focused on that call" ">  #3 book  actions ≠ #2 args"
expect jump "unfolded, its arguments in view" '"flight": "HAT999"'
$T send-keys -t jump j
expect jump "the keys move in the timeline now" ">assistant"
$T send-keys -t jump q
expect jump "q quits after the jump" "EXITED 0"

# ---- deep in a long result ----------------------------------------------------

# A result of 200,000 lines (over 7 MB): drawn lazily, never held as lines.
awk 'BEGIN {
	printf "{\"id\": \"long-result\", \"model\": \"m\", \"messages\": [{\"role\": \"user\", \"content\": \"go\"}, "
	printf "{\"role\": \"assistant\", \"content\": null, \"tool_calls\": [{\"id\": \"c1\", \"type\": \"function\", "
	printf "\"function\": {\"name\": \"sh\", \"arguments\": \"{\\\"cmd\\\": \\\"cat log\\\"}\"}}]}, "
	printf "{\"role\": \"tool\", \"tool_call_id\": \"c1\", \"content\": \""
	for (i = 0; i < 200000; i++) {
		printf "log line %d of the output", i
		if (i == 150000) printf " with the lone needle in it"
		printf "\\n"
	}
	printf "\"}, {\"role\": \"assistant\", \"content\": \"done\"}]}\n"
}' > "$TMP/long.jsonl"
start long 120 40 long.jsonl
expect long "the long run shows" "[timeline] 4 entries"
search long "lone needle"
expect long "the match deep in the result is found" "/lone needle  match 1 of 1 in this run"
expect long "its line is in view" "log line 150000 of the output with the lone needle in it"
highlighted long "and highlighted" "lone needle"
$T send-keys -t long q
expect long "q quits" "EXITED 0"

# ---- a result no call has, folded like a call's --------------------------------

# Its JSON object is folded to its first lines; the word on its last is
# found, the result unfolded and the line brought into view.
start orphan 80 24 screen-orphan.jsonl
expect orphan "a result no call has is shown folded" "for call id zz9, which no call has"
expect orphan "with the hint that more follows" "more lines (Enter in the timeline to unfold)"
search orphan "needle-word"
expect orphan "/ finds the word in the folded result" "/needle-word  match 1 of 1 in this run"
expect orphan "the result is unfolded and the line in view" '"note": "the needle-word is here"'
highlighted orphan "and highlighted" "needle-word"
$T send-keys -t orphan q
expect orphan "q quits" "EXITED 0"

finish
