#!/bin/sh
# tmux_compare.sh - the side by side in a real terminal (tmux), on the
# shared tau-bench sample split into its trials (trial 0 the base, trial 1
# the candidate, paired by task_id): ] steps to task 3, whose first
# divergence (the base's seventh call, a lookup the candidate never made)
# is below the first screen at 80x24; d brings it on screen with its
# marker. At 200 columns j scrolls both columns as one. From the list, C
# offers the other side's run of the same task and Enter opens the pair.
# A preference is written (the annotations file's line read back), a
# second one on the same pair replaces it, and x takes it back. Every wait
# polls what the pane shows, bounded by a minute: a guard against a hang,
# never a measure of time.
. "$TCR_SRCDIR/tests/cli/lib.sh"

. "$TCR_SRCDIR/tests/cli/tmux_lib.sh"
tmux_setup "the side by side in tmux" compare

R="${TCR_SHARED_DIR:-}/fixtures/real"
RUNS=taubench_v1_airline_sample.jsonl
EXPECTED=taubench_v1_airline_expected_sample.jsonl
if [ ! -f "$R/$RUNS" ] || [ ! -f "$R/$EXPECTED" ]; then
	skip "the side by side in tmux" "the shared sample is absent (set TCR_SHARED_DIR to the shared reference folder)"
	finish
fi
cp "$R/$RUNS" "$R/$EXPECTED" "$TMP/"
(cd "$TMP" && HOME="$TMP" TCR_OLLAMA_URL=http://127.0.0.1:9 "$TCR_BIN" init "$RUNS" "$EXPECTED" \
	> "$TMP/init.out" 2> "$TMP/init.err")
RC=$?
assert_rc "init proposes a configuration for tau-bench" 0
grep -E '"trial": *0[,}]' "$TMP/$RUNS" > "$TMP/t0.jsonl"
grep -E '"trial": *1[,}]' "$TMP/$RUNS" > "$TMP/t1.jsonl"
A="$TMP/t0.jsonl.annotations.jsonl"

# spawn NAME COLS LINES
spawn() {
	printf 'cd "%s" || exit 1\nenv TERM=%s LANG=C.UTF-8 LC_ALL=C.UTF-8 TZ=UTC HOME="%s" "%s" --compare --task task_id --reviewer qa t0.jsonl t1.jsonl\necho "EXITED $?"\n' \
		"$TMP" "$PANE_TERM" "$TMP" "$TCR_BIN" > "$TMP/$1.sh"
	tmux_spawn "$1" "$2" "$3"
}
spawn cmp 80 24
if ! $T has-session -t cmp 2>/dev/null; then
	skip "the side by side in tmux" "tmux could not start a server here"
	finish
fi
MARK="$(printf '\342\226\266') first divergence: only base"
expect cmp "--compare with a task key opens on the first task both sides ran" "[side by side] task 0 (1 of 6)"

# ---- ] to task 3, d to its first divergence ----------------------------------------

$T send-keys -t cmp ']' ']' ']'
expect cmp "] steps to task 3" "[side by side] task 3 (4 of 6)  14 of 22 rows differ, the first is row 7 (d)"
if cap cmp | grep -qF -- "$MARK" || cap cmp | grep -qF -- "#7 get_reservation_details"; then
	fail "before d, the divergence is below the screen" "$(cap cmp)"
else
	pass "before d, the divergence is below the screen"
fi
$T send-keys -t cmp d
expect cmp "d shows the first divergence's marker" "$MARK"
expect cmp "and the divergent call, the base's own (-)" "- #7 get_reservation_details {\"reservation_id\":\"4BMN53\"}"
expect cmp "and the base's next lone call" "- #8 get_reservation_details {\"reservation_id\":\"Q0ZF0J\"}"
expect cmp "the status line says which row" "row 7 of 22: only base"
$T send-keys -t cmp n
expect cmp "n goes to the next divergence" "row 8 of 22: only base"
$T send-keys -t cmp N
expect cmp "N back to the previous" "row 7 of 22: only base"
$T send-keys -t cmp n n
expect cmp "n twice: row 9, shown below what was said before it" "row 9 of 22: only base"
expect cmp "what the agent said before the divergent call is on screen" "- agent: Thank you for the clarification."
$T send-keys -t cmp n
expect cmp "n from there goes on, past the same calls of row 10" "row 11 of 22: arguments differ"

# ---- preferences ---------------------------------------------------------------------

prefs() { grep -c '"decision":"prefer"' "$A" 2>/dev/null || true; }
$T send-keys -t cmp '>'
expect cmp "> records that the candidate is better" "saved: candidate better (qa)"
expect cmp "the view shows the standing preference" "preference: candidate better (qa)"
line=$(grep '"decision":"prefer"' "$A" | tail -1)
for field in '"run":"tau1-airline-gpt-4o-task003-trial0"' '"other":"tau1-airline-gpt-4o-task003-trial1"' \
	'"prefer":"cand"' '"task":"3"' '"reviewer":"qa"'; do
	case "$line" in
	*"$field"*) pass "the preference line holds $field" ;;
	*) fail "the preference line holds $field" "$line" ;;
	esac
done
if printf '%s\n' "$line" | grep -qE '"run_hash":"[0-9a-f]{64}"' &&
   printf '%s\n' "$line" | grep -qE '"other_hash":"[0-9a-f]{64}"'; then
	pass "both runs' record hashes, 64 hex digits"
else
	fail "both runs' record hashes, 64 hex digits" "$line"
fi
$T send-keys -t cmp '<'
expect cmp "< on the same pair: base better" "saved: base better (qa)"
expect cmp "it replaces the standing one" "preference: base better (qa)"
assert_eq "two preference lines, the later one stands" "$(prefs)" 2
$T send-keys -t cmp x
expect cmp "x takes the latest back" "taken back: your preference on this pair (qa)"
expect cmp "the one before it stands again" "preference: candidate better (qa)"
assert_eq "one retract line, of a preference" \
	"$(grep -c '"decision":"retract".*"retracts":"prefer","other":"tau1-airline-gpt-4o-task003-trial1"' "$A")" 1

# ---- the picker from the list ------------------------------------------------------

$T send-keys -t cmp Escape
expect cmp "Esc closes the side by side: the list, each run's side marked" "B …task003-trial0"
$T send-keys -t cmp C
expect cmp "C offers the other side's run of the same task" "C  tau1-airline-gpt-4o-task003-trial1  other side, same task"
$T send-keys -t cmp Enter
expect cmp "Enter opens the pair" "[side by side] task 3"
expect cmp "the base on top" "- base: tau1-airline-gpt-4o-task003-trial0"
$T send-keys -t cmp q
expect cmp "q quits" "EXITED 0"

# ---- 200 columns: j moves both sides -------------------------------------------------

spawn wide 200 50
expect wide "two columns" "C candidate: tau1-airline-gpt-4o-task000-trial1"
$T send-keys -t wide ']' ']' ']'
expect wide "task 3, whose first calls both runs made alike" "C candidate: tau1-airline-gpt-4o-task003-trial1"
row3() { cap wide | sed -n 3p; }
before=$(row3)
case "$before" in
*"system: # Airline Agent Policy"*"system: # Airline Agent Policy"*) pass "the first line: both system prompts" ;;
*) fail "the first line: both system prompts" "$before" ;;
esac
$T send-keys -t wide j
n=0
while [ "$(row3)" = "$before" ] && [ "$n" -lt 600 ]; do n=$((n + 1)); sleep 0.1; done
after=$(row3)
case "$after" in
*"user: Hi! I need to change my flight back"*"user: Hi, I'd like to adjust my return flight"*) pass "j scrolls both columns together" ;;
*) fail "j scrolls both columns together" "$after" ;;
esac
$T send-keys -t wide q
expect wide "q quits" "EXITED 0"
finish
