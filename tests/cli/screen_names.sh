#!/bin/sh
# screen_names.sh - names that tell runs apart, and red for a problem only,
# on the tau-bench sample with its expected file set up as `tcreview init`
# proposes it (trajectory-match in superset mode): at 80x24 and 120x40
# every run of the list shows a distinct id and the model they all share
# is said once in the header; a run whose trajectory-match passed shows no
# "✗ extra" (its extra calls are the mode's to allow: "+ extra"); at 80
# columns a failed call's badge shows though the call's name is cut for
# it. The sample is read from the shared folder and skipped when absent.
# Eleven verdict rows are labelled 1-9, a, b. Then, in tmux with
# NO_COLOR=1, the selected run is a reverse-video bar with '>', its
# verdict cells inside it.
. "$TCR_SRCDIR/tests/cli/lib.sh"
. "$TCR_SRCDIR/tests/cli/screen_lib.sh"

# list_ids SCREEN: the id of each run row of a dump (after '>' and the mark).
list_ids() {
	awk 'NR >= 3 { if (substr($0, 4, 1) == " ") exit; s = substr($0, 4); split(s, a, " "); print a[1] }' "$1"
}

# reverse_at LINE: for each character of a line captured with its escapes
# (tmux capture-pane -e), 1 where reverse video (SGR 7) is on, else 0; SGR
# is cumulative, so the state is followed from the start of the line.
reverse_at() {
	printf '%s\n' "$1" | awk '{
		s = $0; out = ""; rev = 0
		while (length(s) > 0) {
			if (match(s, /^\033\[[0-9;]*m/)) {
				n = split(substr(s, 3, RLENGTH - 3), p, ";")
				if (n == 0) rev = 0
				for (i = 1; i <= n; i++) {
					if (p[i] == "" || p[i] == "0") rev = 0
					else if (p[i] == "7") rev = 1
					else if (p[i] == "27") rev = 0
				}
				s = substr(s, RLENGTH + 1)
				continue
			}
			c = substr(s, 1, 1); s = substr(s, 2)
			if (c ~ /[^\200-\277]/) out = out rev    # one digit per character
		}
		print out
	}'
}

R="${TCR_SHARED_DIR:-}/fixtures/real"
RUNS=taubench_v1_airline_sample.jsonl
TRUTH=taubench_v1_airline_expected_sample.jsonl
if [ -f "$R/$RUNS" ] && [ -f "$R/$TRUTH" ]; then
	mkdir -p "$TMP/tau"
	cp "$R/$RUNS" "$R/$TRUTH" "$TMP/tau/"
	(cd "$TMP/tau" && "$TCR_BIN" init "$RUNS" "$TRUTH") > "$TMP/tau-init.out" 2>&1; RC=$?
	assert_rc "init proposes the tau-bench configuration" 0
	assert_grep "with trajectory-match in superset mode" "$TMP/tau/tcreview.yaml" "mode: superset"
	SCREEN_CONFIG=tau/tcreview.yaml
	run_screen names-tau-80x24 '' "tau/$RUNS"
	check_screen names-tau-80x24
	ids=$(list_ids "$TMP/names-tau-80x24.screen")
	assert_eq "at 80x24 the list shows 12 runs" "$(echo "$ids" | wc -l | tr -d ' ')" 12
	assert_eq "each with an id of its own" "$(echo "$ids" | sort -u | wc -l | tr -d ' ')" 12
	screen_has names-tau-80x24 "…task000-trial1"
	screen_has names-tau-80x24 "id  all gpt-4o"
	SCREEN_COLS=120 SCREEN_LINES=40
	run_screen names-tau-120x40 '' "tau/$RUNS"
	check_screen names-tau-120x40
	ids=$(list_ids "$TMP/names-tau-120x40.screen")
	assert_eq "at 120x40 too, 12 distinct ids" "$(echo "$ids" | sort -u | wc -l | tr -d ' ')" 12
	# The eighth and ninth runs passed trajectory-match (the fourth
	# column): the whole timeline of each, in a tall screen.
	SCREEN_COLS=200 SCREEN_LINES=400
	run_screen names-tau-pass 'jjjjjjj
:save-display %D/names-tau-pass1.screen
j' "tau/$RUNS"
	for s in names-tau-pass1 names-tau-pass; do
		if grep -q "trajectory:info.task.actions .* pass" "$TMP/$s.screen"; then
			pass "$s: a run whose trajectory-match passed"
		else
			fail "$s: a run whose trajectory-match passed" "$(head -40 "$TMP/$s.screen")"
		fi
		assert_no_grep "$s: shows no ✗ extra" "$TMP/$s.screen" "✗ extra"
	done
	screen_has names-tau-pass "trajectory:info.task.actions + extra"
	# At 80 columns the first run's fifth call failed: its badge shows,
	# the call's name cut for it (before, "…" stood for the badge). Tab
	# and twenty j select that call in the timeline.
	SCREEN_COLS=80 SCREEN_LINES=24
	run_screen names-tau-call-80x24 '<Tab>jjjjjjjjjjjjjjjjjjjj' "tau/$RUNS"
	check_screen names-tau-call-80x24
	screen_has names-tau-call-80x24 "#5 book_reservat…  tool-errors ✗ failed"
	SCREEN_COLS=80 SCREEN_LINES=24 SCREEN_CONFIG=screen.yaml
else
	skip "the tau-bench sample's names and marks" "$R/$RUNS not found (set TCR_SHARED_DIR to the shared reference folder)"
fi

# ---- verdict rows past nine ------------------------------------------------

# Eleven scorers: the rows are labelled 1-9, a, b, as the list's cell
# columns are headed; no two share a label (before: 1 … 9 0 1).
{
	sed -n '/^expectations:/,/^scorers:/p' "$TMP/screen.yaml"
	for i in 1 2 3 4 5 6 7 8 9 10 11; do
		printf '  - id: w%s\n    type: word-inclusion\n' "$i"
	done
} > "$TMP/screen-eleven.yaml"
SCREEN_CONFIG=screen-eleven.yaml SCREEN_COLS=120 SCREEN_LINES=40
run_screen names-eleven '<Tab><Tab>jjjjjjjjjj'
SCREEN_CONFIG=screen.yaml SCREEN_COLS=80 SCREEN_LINES=24
check_screen names-eleven
screen_has names-eleven "# 1 2 3 4 5 6 7 8 9 a b"
screen_has names-eleven " 9 w9 "
screen_has names-eleven " a w10 "
screen_has names-eleven ">b w11 "
if grep -q "^ *[ >]0 w" "$TMP/names-eleven.screen"; then
	fail "no verdict row is labelled 0" "$(cat "$TMP/names-eleven.screen")"
else
	pass "no verdict row is labelled 0"
fi

# ---- the selection without colour, in a real terminal ------------------------

if ! command -v tmux >/dev/null 2>&1; then
	skip "the selection with NO_COLOR in tmux" "tmux is not installed"
	finish
fi
PANE_TERM=
for t in tmux-256color screen-256color xterm-256color; do
	if infocmp "$t" >/dev/null 2>&1; then
		PANE_TERM=$t
		break
	fi
done
if [ -z "$PANE_TERM" ]; then
	skip "the selection with NO_COLOR in tmux" "no terminfo entry for tmux-256color, screen-256color or xterm-256color"
	finish
fi
unset TMUX TMUX_PANE
export LANG=C.UTF-8 LC_ALL=C.UTF-8
T="tmux -u -L tcr-names-$$ -f /dev/null"
trap '$T kill-server >/dev/null 2>&1; rm -rf "$TMP"' EXIT
cat > "$TMP/mono.sh" <<SH
cd "$TMP" || exit 1
exec env TERM=$PANE_TERM NO_COLOR=1 HOME="$TMP" TCR_FAKE_NOW=2026-01-15T09:30:00Z "$TCR_BIN" \
	-c screen.yaml -a mono.annot.jsonl --reviewer qa screen-runs.jsonl
SH
$T new-session -d -s mono -x 80 -y 24 "sh '$TMP/mono.sh'" \; set-option -g escape-time 0 >/dev/null 2>&1
# the selected row's line of the pane with its escapes, once it shows
sel_line() { $T capture-pane -e -p -t mono 2>/dev/null | grep -F -- ">  " | grep -F -- "$1" | head -1; }
n=0
until [ -n "$(sel_line en-pass)" ] || [ "$n" -ge 600 ]; do
	n=$((n + 1))
	sleep 0.1
done
line=$(sel_line en-pass)
if [ -z "$line" ]; then
	fail "NO_COLOR: the first run is selected" "$($T capture-pane -p -t mono)"
else
	# reverse video from '>' to the end of the list's pane (36 columns),
	# the verdict cells too
	rev=$(reverse_at "$line" | cut -c1-36)
	case "$rev" in
	*0*|"") fail "NO_COLOR: the selected run is one reverse-video bar from '>', cells and all" \
		"$rev" "$(echo "$line" | cat -v)" ;;
	*) pass "NO_COLOR: the selected run is one reverse-video bar from '>', cells and all" ;;
	esac
	rev=$(reverse_at "$($T capture-pane -e -p -t mono | grep -F ja-fail | head -1)" | cut -c1-36)
	case "$rev" in
	*1*|"") fail "NO_COLOR: the other runs are not reversed" "$rev" ;;
	*) pass "NO_COLOR: the other runs are not reversed" ;;
	esac
fi
$T send-keys -t mono j
n=0
until [ -n "$(sel_line ja-fail)" ] || [ "$n" -ge 600 ]; do
	n=$((n + 1))
	sleep 0.1
done
if [ -n "$(sel_line ja-fail)" ]; then pass "NO_COLOR: j moves the bar"
else fail "NO_COLOR: j moves the bar" "$($T capture-pane -p -t mono)"; fi
$T send-keys -t mono q
finish
