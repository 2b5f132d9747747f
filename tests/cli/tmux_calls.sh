#!/bin/sh
# tmux_calls.sh - labels and corrections of calls in a real terminal (tmux):
# with the timeline on a call, a digit labels it (the label beside the
# call's name, wrong in the fail colour); e opens the editor (a fake one, a
# sed script named by EDITOR, so every edit is known) on the call as JSON
# and the correction shows under the call; D asks, then says the call
# should not have been made; i on the last call asks before or after and
# shows what is missing; x takes back the latest on the call; a digit
# beyond the scale says the scale. Each step is checked on the pane and in
# the annotations file. Every wait polls what the pane shows, bounded by a
# minute: a guard against a hang, never a measure of time.
. "$TCR_SRCDIR/tests/cli/lib.sh"

. "$TCR_SRCDIR/tests/cli/tmux_lib.sh"
tmux_setup "call labels and corrections in tmux" calls
cp "$TCR_SRCDIR/tests/data/screen-refs.jsonl" "$TCR_SRCDIR/tests/data/screen-refs.yaml" \
	"$TCR_SRCDIR/tests/data/screen-refs-tasks.jsonl" "$TMP/"
cat > "$TMP/fake-editor.sh" <<'ED'
#!/bin/sh
if grep -q '"name": ""' "$1"; then
	sed 's/"name": ""/"name": "list_airports"/' "$1" > "$1.new"
else
	sed 's/2024-05-20/2024-05-22/' "$1" > "$1.new"
fi
mv "$1.new" "$1"
ED
chmod +x "$TMP/fake-editor.sh"
A="$TMP/calls.annot.jsonl"

printf 'cd "%s" || exit 1\nunset VISUAL\nenv TERM=%s LANG=C.UTF-8 LC_ALL=C.UTF-8 TZ=UTC HOME="%s" EDITOR="%s" "%s" -c screen-refs.yaml -a calls.annot.jsonl --reviewer qa screen-refs.jsonl\necho "EXITED $?"\n' \
	"$TMP" "$PANE_TERM" "$TMP" "$TMP/fake-editor.sh" "$TCR_BIN" > "$TMP/calls.sh"
tmux_spawn calls 120 40
if ! $T has-session -t calls 2>/dev/null; then
	skip "call labels and corrections in tmux" "tmux could not start a server here"
	finish
fi
lines() { if [ -f "$A" ]; then wc -l < "$A" | tr -d ' '; else echo 0; fi; }
last() { tail -n 1 "$A"; }

expect calls "the run shows" "[timeline] 11 entries"
# Tab: the timeline; j j: from the user's message to the first call.
$T send-keys -t calls Tab j j 3
expect calls "3 labels the call: its name beside the call's" "#1 get_user  labelled wrong"
assert_grep "the label is a call-label line on call 1" "$A" '"decision":"call-label","score":0,"reason":null,"reviewer":"qa"'
assert_grep "with the call's id and tool" "$A" '"call":1,"call_id":"c1","tool":"get_user","label":"wrong"'
$T send-keys -t calls 4
expect calls "a digit beyond the scale says the scale" "4 is not a call label: calls are labelled 1 correct, 2 partly, 3 wrong"
assert_eq "and writes nothing" "$(lines)" 1

# e on the third call (search_flights): the editor moves the date.
$T send-keys -t calls j
sgr_has calls "off the selection, wrong is drawn in the fail colour" "labelled wrong" 31
$T send-keys -t calls j j j e
expect calls "e: the correction under the call, as what it changes" 'should be: search_flights(date: "2024-05-22")'
assert_grep "a replace line with what the editor saved" "$A" \
	'"correction":"replace","expected":{"name":"search_flights","arguments":{"origin":"JFK","destination":"SEA","date":"2024-05-22"}}'

# D on the second call (think): asked, then said.
$T send-keys -t calls k k D
expect calls "D asks first" "think should not have been called? (y/n)"
$T send-keys -t calls y
expect calls "y: the call is marked" "should not have been called"
assert_grep "a remove line on call 2" "$A" '"call":2,"call_id":"c2","tool":"think","correction":"remove"'

# i on the last call: before or after; a: at the end.
$T send-keys -t calls j j j j i
expect calls "i on the last call asks where" "a call is missing: b before this call, a after it (at the end)?"
$T send-keys -t calls a
expect calls "a: the missing call shows after the last" "missing after it: list_airports()"
assert_grep "an insert line after the last call (call 5 of 4)" "$A" '"call":5,"correction":"insert","expected":{"name":"list_airports","arguments":{}}'

# x on the last call takes the insertion back; x again: nothing on it.
$T send-keys -t calls x
expect calls "x says what it took back" "book: insertion taken back"
expect_gone calls "the missing call is no longer shown" "missing after it"
assert_grep "a retract of the insert" "$A" '"retracts":"correct"'
$T send-keys -t calls x
expect calls "x with nothing left on the call" "nothing to take back on this call"
assert_eq "five lines in all" "$(lines)" 5

# Off a call, digits label the verdict as before.
$T send-keys -t calls Tab 1
expect calls "a digit with the verdicts focused labels the verdict" "tool-errors labelled 1"
$T send-keys -t calls q
expect calls "q quits" "EXITED 0"
finish
