#!/bin/sh
# tmux.sh - the real binary in a real terminal: tmux runs it in a detached
# 80x24 pane on a private server, the test types keys, resizes the window,
# clicks with the mouse and reads the pane back (STYLE.md 9.4). What only
# a pty shows: SIGWINCH, terminfo, the mouse, the alternate screen, the
# terminal restored on q, Ctrl-C, SIGTERM and SIGHUP, the call marks in the
# theme's colours. Every wait polls for what the pane shows, bounded by a
# minute: a guard against a hang, never a measure of time.
. "$TCR_SRCDIR/tests/cli/lib.sh"

. "$TCR_SRCDIR/tests/cli/tmux_lib.sh"
tmux_setup "the screen in tmux" test
# SGR mouse reports (ESC [ < b ; x ; y M) are what ncurses asks for where
# the entry's kmous is \E[< (xterm-256color); tmux's entries use X10.
MOUSE_TERM=xterm-256color
infocmp "$MOUSE_TERM" >/dev/null 2>&1 || MOUSE_TERM=
cp "$TCR_SRCDIR/tests/data/screen.yaml" "$TCR_SRCDIR/tests/data/screen-tasks.jsonl" \
	"$TCR_SRCDIR/tests/data/screen-runs.jsonl" "$TCR_SRCDIR/tests/data/screen-marks.yaml" \
	"$TCR_SRCDIR/tests/data/screen-marks.jsonl" "$TMP/"
PANE_CONFIG=screen.yaml PANE_RUNS=screen-runs.jsonl PANE_COLOR=

# start NAME TERM [ARGS]: runs the screen in a new detached 80x24 session NAME
# (ARGS go before the runs, e.g. --blind) on $PANE_CONFIG and $PANE_RUNS,
# without colour unless PANE_COLOR=1. The
# pane runs a shell that saves the tty settings, runs the program (its pid
# in $TMP/NAME.pid), then says whether the settings came back and how the
# program exited; remain-on-exit keeps the pane to read that.
start() {
	name=$1 term=$2 extra=${3:-} nocolor=NO_COLOR=1
	[ "${PANE_COLOR:-}" = 1 ] && nocolor=
	cat > "$TMP/$name.sh" <<EOF
cd "$TMP" || exit 1
trap 'true' INT    # Ctrl-C is for the program; this shell stays to report
before=\$(stty -g)
sh -c 'echo \$\$ > $name.pid; exec env TERM=$term LANG=C.UTF-8 LC_ALL=C.UTF-8 TZ=UTC $nocolor \
	HOME="$TMP" TCR_FAKE_NOW=2026-01-15T09:30:00Z "$TCR_BIN" -c $PANE_CONFIG -a $name.annot.jsonl \
	--reviewer qa $extra $PANE_RUNS'
rc=\$?
after=\$(stty -g)
if [ "\$before" = "\$after" ]; then echo "TTY RESTORED"; else echo "TTY CHANGED"; echo "\$before" > $name.stty-before; echo "\$after" > $name.stty-after; fi
echo "EXITED \$rc"
EOF
	rm -f "$TMP/$name.pid"
	tmux_spawn "$name" 80 24
}





# The list is whole once the last (broken) record has its cells.
LOADED='…runs.jsonl:6            . ! ! !'

# ---- keys, resize, quit ---------------------------------------------------

start main "$PANE_TERM"
if ! $T has-session -t main 2>/dev/null; then
	skip "the screen in tmux" "tmux could not start a server here"
	finish
fi
expect main "the list shows in a real terminal (TERM=$PANE_TERM)" "$LOADED"
expect main "the status line counts the runs, with the run's format" "run 1 of 6 (openai-chat)  reviewed 0 of 6"
assert_eq "the screen is on the alternate screen" "$($T display -p -t main '#{alternate_on}')" 1
$T send-keys -t main j
expect main "j selects the next run" ">  ja-fail"
expect main "and the timeline shows it, in Japanese" "注文番号1042の荷物はどこにありますか？月"
$T send-keys -t main Tab
expect main "Tab moves the focus to the timeline, on the first user message" ">user"
$T send-keys -t main BTab
expect_gone main "BTab moves it back" ">user"

# Wider, the verdicts pane has room for the type column; narrower again, not.
$T resize-window -t main -x 120 -y 30
expect main "a wider window shows the verdicts' type column" "tool-call-accuracy"
expect main "and more of the model name" "gpt-4o-mi…"
$T resize-window -t main -x 80 -y 24
expect_gone main "back at 80 columns the type column is gone" "tool-call-accuracy"
$T resize-window -t main -x 30 -y 8
expect main "a 30x8 window says it is too small" "tcreview needs at least 40x10"
$T resize-window -t main -x 80 -y 24
expect main "and 80x24 brings the list back" "$LOADED"

# The help: in sections, where it is and that more follows, Shift-Tab by
# its name; Tab goes to the next section; the status line keeps its hint.
expect main "the status line shows the help's key at 80 columns" "? help"
$T send-keys -t main '?'
expect main "? opens the help at its first section" "[help] Moving  lines 1-22 of "
expect main "the help says more follows" ", ↓ more"
expect main "the help names Shift-Tab" "Shift-Tab         focus-prev"
if cap main | grep -qF BTab; then fail "the help never says BTab" "$(cap main)"; else pass "the help never says BTab"; fi
$T send-keys -t main Tab
expect main "Tab goes to the next section" "[help] Reading  lines"
$T send-keys -t main Escape
expect main "Esc closes the help" "$LOADED"
# The filter menu: a letter picks, the title says of how many.
$T send-keys -t main f
expect main "f opens the filter menu" "│ u  unreviewed"
$T send-keys -t main u
expect main "u picks unreviewed: the title says of how many" "[runs] 5 of 6 runs"
$T send-keys -t main f
expect main "the menu marks the filter in use" "│ u  unreviewed  ← in use"
$T send-keys -t main Escape
expect_gone main "Esc closes the menu" "← in use"
$T send-keys -t main f a
expect main "f a shows every run again" "[runs] 6 runs"
$T send-keys -t main a
expect main "a accepts in a real terminal" "accepted (saved)"
$T send-keys -t main q
expect main "q quits with status 0" "EXITED 0"
expect main "q restores the tty settings" "TTY RESTORED"
expect_gone main "q leaves the alternate screen: the list is gone" "[runs]"
assert_eq "the pane is back on the normal screen" "$($T display -p -t main '#{alternate_on}')" 0
assert_eq "the accept reached the file" "$(grep -c '"decision":"accept"' "$TMP/main.annot.jsonl" 2>/dev/null)" 1

# ---- calibrating: digits, the calibration overlay, another reviewer ------------

start calib "$PANE_TERM"
expect calib "the list shows before labelling" "$LOADED"
$T send-keys -t calib 1
expect calib "a digit labels the selected row (an accept: it agrees)" "run 1 of 6  tool-order labelled 1 (agrees: accepted) (saved)"
$T send-keys -t calib M
expect calib "M shows the message in the log, with its time" "09:30:00  tool-order labelled 1 (agrees: accepted) (saved)"
$T send-keys -t calib Escape
expect_gone calib "Esc closes the log" "[messages]"
expect calib "and the next row of the run is selected" ">2 lookup"
$T send-keys -t calib 1
expect calib "the next digit labels lookup" ">3 words"
$T send-keys -t calib 1
expect calib "the last row of the run: an override of 0.5" "words labelled 1 (saved)"
expect calib "the run reviewed, the next unreviewed run is selected" ">  ja-fail"
expect calib "and its first row" ">1 tool-order      0  fail"
expect calib "the first run shows as overridden" " ✎ en-pass"
$T send-keys -t calib K
expect calib "K opens the calibration" "[calibration]"
expect calib "one labelled run per criterion" "> scorer:tool-order        1   1.00"
expect calib "words: the label 1 agrees with the machine's pass" "  scorer:words             1   1.00"
expect calib "an undefined kappa says why" "– kappa: one category only"
# Another reviewer labels ja-fail's tool-order in a process of their own,
# on the same file; the open overlay reads it (it looks each second).
printf 'j0\n' > "$TMP/rb.keys"
(cd "$TMP" && TCR_SCRIPT="$TMP/rb.keys" TCR_FAKE_NOW=2026-01-15T09:31:00Z "$TCR_BIN" -c screen.yaml \
	-a calib.annot.jsonl --reviewer rb screen-runs.jsonl >/dev/null 2>"$TMP/rb.err" </dev/null)
assert_eq "the other reviewer's screen wrote its label" "$(grep -c '"reviewer":"rb"' "$TMP/calib.annot.jsonl")" 1
expect calib "the overlay counts the other reviewer's label" "> scorer:tool-order        2   1.00   1.00"
$T send-keys -t calib Right
$T send-keys -t calib Enter
expect calib "Enter on an empty cell says so" "no run in the cell scorer:tool-order fail / human pass"
$T send-keys -t calib Left
$T send-keys -t calib Enter
expect calib "Enter on the cell fail/fail filters the runs" "1 run where scorer:tool-order said fail and h… (M: messages)  ? help"
$T send-keys -t calib M
expect calib "M shows the cut message whole" "09:30:00  1 run where scorer:tool-order said fail and human fail (f a shows all"
expect calib "wrapped under itself by display width" "           runs)"
$T send-keys -t calib Escape
expect_gone calib "Esc closes the log" "[messages]"
expect calib "to exactly its run" "[runs] 1 of 6 runs"
$T send-keys -t calib f
expect calib "f opens the filter menu" "│ a  all"
$T send-keys -t calib a
expect calib "f a leaves the cell filter" "[runs] 6 runs"
$T send-keys -t calib q
expect calib "q quits after calibrating" "EXITED 0"
assert_eq "qa's three labels are in the file" "$(grep -c '"reviewer":"qa"' "$TMP/calib.annot.jsonl")" 3

# ---- call marks in colour ----------------------------------------------------


# The default theme's colours: pass green (32), the arguments that differ
# in the skipped slot's yellow (33), an extra call the mode allows dim (2).
PANE_CONFIG=screen-marks.yaml PANE_RUNS=screen-marks.jsonl PANE_COLOR=1
start marks "$PANE_TERM"
PANE_CONFIG=screen.yaml PANE_RUNS=screen-runs.jsonl PANE_COLOR=
$T resize-window -t marks -x 100 -y 24
expect marks "the badges show in a real terminal, beside the call matched" "#1 get_user  actions ✓ #1  names ✓ #1  id c0"
expect marks "beside the extra call, allowed by superset" "#2 search_flights  actions + extra  names + extra"
expect marks "beside the call whose arguments differ" "#3 book  actions ≠ #2 args  names ✓ #2  id c2"
sgr_has marks "a matched call's badge is drawn in the pass colour" "actions ✓ #1" 32
# red is for a problem: an extra call superset allows is dim (2), not red
sgr_has marks "an allowed extra call's badge is dim" "actions + extra" 2
case ";$(sgr_before marks "actions + extra")" in
*";31;"*) fail "an allowed extra call's badge is not in the fail colour" "$($T capture-pane -e -p -t marks | cat -v)" ;;
*) pass "an allowed extra call's badge is not in the fail colour" ;;
esac
sgr_has marks "arguments that differ in the skipped slot's colour" "actions ≠ #2 args" 33
$T send-keys -t marks q
expect marks "q quits after the call marks" "EXITED 0"

# ---- the mouse ------------------------------------------------------------

if [ -n "$MOUSE_TERM" ]; then
	start mouse "$MOUSE_TERM"
	expect mouse "the list shows (TERM=$MOUSE_TERM)" "$LOADED"
	# zh-refund is the third run: row 4 of the screen (0-based), so y=5 in
	# the 1-based coordinates of a report; x=6 is on its id. Press, release.
	$T send-keys -t mouse -H 1b 5b 3c 30 3b 36 3b 35 4d
	$T send-keys -t mouse -H 1b 5b 3c 30 3b 36 3b 35 6d
	expect mouse "a click on a run row selects it" ">  zh-refund"
	expect mouse "and shows its run" "我的订单 2087 收到时已经损坏了"
	expect mouse "the status line follows the click" "run 3 of 6"
	$T send-keys -t mouse q
	expect mouse "q quits after mouse use" "EXITED 0"
	expect mouse "the mouse session leaves the tty as it was" "TTY RESTORED"
else
	skip "a click on a run row selects it" "no xterm-256color terminfo entry"
fi

# ---- SIGTERM --------------------------------------------------------------

start term "$PANE_TERM"
expect term "the list shows before SIGTERM" "$LOADED"
n=0
while [ ! -s "$TMP/term.pid" ] && [ "$n" -lt 600 ]; do n=$((n + 1)); sleep 0.1; done
if [ -s "$TMP/term.pid" ] && kill -TERM "$(cat "$TMP/term.pid")" 2>/dev/null; then
	expect term "SIGTERM ends the screen" "EXITED "
	expect term "SIGTERM restores the tty settings" "TTY RESTORED"
	expect_gone term "SIGTERM leaves the alternate screen" "[runs]"
	assert_eq "the pane is back on the normal screen after SIGTERM" \
		"$($T display -p -t term '#{alternate_on}')" 0
else
	fail "SIGTERM ends the screen" "no pid to signal in $TMP/term.pid"
fi

# ---- Ctrl-C (SIGINT from the terminal) and SIGHUP ------------------------------

start intr "$PANE_TERM"
expect intr "the list shows before Ctrl-C" "$LOADED"
$T send-keys -t intr C-c
expect intr "Ctrl-C ends the screen with 130" "EXITED 130"
expect intr "Ctrl-C restores the tty settings" "TTY RESTORED"

start hup "$PANE_TERM"
expect hup "the list shows before SIGHUP" "$LOADED"
n=0
while [ ! -s "$TMP/hup.pid" ] && [ "$n" -lt 600 ]; do n=$((n + 1)); sleep 0.1; done
if [ -s "$TMP/hup.pid" ] && kill -HUP "$(cat "$TMP/hup.pid")" 2>/dev/null; then
	expect hup "SIGHUP ends the screen with 129" "EXITED 129"
	expect hup "SIGHUP restores the tty settings" "TTY RESTORED"
else
	fail "SIGHUP ends the screen" "no pid to signal in $TMP/hup.pid"
fi

finish
