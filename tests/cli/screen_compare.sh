#!/bin/sh
# screen_compare.sh - the side by side of two runs as a person sees it, on
# the shared tau-bench sample split into its trials: trial 0 is the base,
# trial 1 the candidate, paired by task_id. Task 3's two trials make the
# same six calls, then part ways (the base looks up two more reservations):
# the screen opens on task 0, ] steps to task 3, d jumps to the first
# divergence. Goldens tests/screens/compare-tau-*.screen at 80x24 (one
# column, the candidate's differences inline) and 200x60 (two columns).
# No server.
. "$TCR_SRCDIR/tests/cli/lib.sh"
. "$TCR_SRCDIR/tests/cli/screen_lib.sh"

TCR_NO_ANIMATION=1
export TCR_NO_ANIMATION
R="${TCR_SHARED_DIR:-}/fixtures/real"
RUNS=taubench_v1_airline_sample.jsonl
EXPECTED=taubench_v1_airline_expected_sample.jsonl
if [ ! -f "$R/$RUNS" ] || [ ! -f "$R/$EXPECTED" ]; then
	skip "the side by side on tau-bench" "the shared sample is absent (set TCR_SHARED_DIR to the shared reference folder)"
	finish
fi
mkdir -p "$TMP/tau"
cp "$R/$RUNS" "$R/$EXPECTED" "$TMP/tau/"
(cd "$TMP/tau" && HOME="$TMP" TCR_OLLAMA_URL=http://127.0.0.1:9 "$TCR_BIN" init "$RUNS" "$EXPECTED" \
	> "$TMP/init.out" 2> "$TMP/init.err")
RC=$?
assert_rc "init proposes a configuration for tau-bench with its expected file" 0
grep -E '"trial": *0[,}]' "$TMP/tau/$RUNS" > "$TMP/tau/t0.jsonl"
grep -E '"trial": *1[,}]' "$TMP/tau/$RUNS" > "$TMP/tau/t1.jsonl"
assert_eq "trial 0 holds six runs" "$(wc -l < "$TMP/tau/t0.jsonl" | tr -d ' ')" 6
assert_eq "trial 1 holds six runs" "$(wc -l < "$TMP/tau/t1.jsonl" | tr -d ' ')" 6
SCREEN_CONFIG=tau/tcreview.yaml

for size in 80x24 120x40 200x60; do
	SCREEN_COLS=${size%x*} SCREEN_LINES=${size#*x}
	nm=compare-tau-$SCREEN_COLS
	run_screen "$nm" ":save-display %D/$nm-open.screen
]]]
:save-display %D/$nm-task3.screen
d" --compare --task task_id tau/t0.jsonl tau/t1.jsonl
	[ "$SCREEN_COLS" = 120 ] || { check_screen "$nm-open"; check_screen "$nm"; }
	screen_has "$nm-open" "[side by side] task 0 (1 of 6)"
	screen_has "$nm-task3" "[side by side] task 3 (4 of 6)  14 of 22 rows differ, the first is row 7 (d)"
	screen_has "$nm" "first divergence: only base"
	screen_has "$nm" "#7 get_reservation_details {\"reservation_id\":\"4BMN53\"}"
	screen_has "$nm" "tool-errors"
	screen_has "$nm" "fail 0.75"
	screen_has "$nm" "fail 0.929"
	screen_has "$nm" "preference: none yet"
done
# 80 columns: one column, the base's own calls as - lines.
screen_has compare-tau-80 "- base: tau1-airline-gpt-4o-task003-trial0"
screen_has compare-tau-80 "+ candidate: tau1-airline-gpt-4o-task003-trial1"
screen_has compare-tau-80 "- #7 get_reservation_details"
# 200 columns: two columns, a call both made on one line.
screen_has compare-tau-200 "B base: tau1-airline-gpt-4o-task003-trial0"
screen_has compare-tau-200 "C candidate: tau1-airline-gpt-4o-task003-trial1"
if grep -q '#6 get_reservation_details.*│.*#6 get_reservation_details' "$TMP/compare-tau-200-task3.screen"; then
	pass "two columns: the sixth call, made alike, on one line"
else
	fail "two columns: the sixth call, made alike, on one line" "$(cat "$TMP/compare-tau-200-task3.screen")"
fi
SCREEN_COLS=80 SCREEN_LINES=24

# Without a task key the screen opens on the list, each run's side marked.
run_screen compare-list-80 "" --compare tau/t0.jsonl tau/t1.jsonl
screen_has compare-list-80 "B …task000-trial0"
screen_has compare-list-80 "C …task000-trial1"
screen_has compare-list-80 "--task PATH"

finish
