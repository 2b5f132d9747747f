#!/bin/sh
# screen_groups.sh - the groups overlay (=) as a person reads it (script
# mode, goldens in tests/screens/), on the shared tau-bench sample with its
# expected file as `tcreview init` proposes it: the runs by tools at 80x24,
# by error (the seats error one group whatever the flight) at 120x40, by
# verdicts with the y/n before a group label at 120x40. Skipped when the
# sample is absent.
. "$TCR_SRCDIR/tests/cli/lib.sh"
. "$TCR_SRCDIR/tests/cli/screen_lib.sh"

R="${TCR_SHARED_DIR:-}/fixtures/real"
if [ -z "${TCR_SHARED_DIR:-}" ] || [ ! -f "$R/taubench_v1_airline_sample.jsonl" ] ||
	[ ! -f "$R/taubench_v1_airline_expected_sample.jsonl" ]; then
	skip "the groups on the tau-bench sample" "the shared real samples are absent"
	finish
fi
cp "$R/taubench_v1_airline_sample.jsonl" "$R/taubench_v1_airline_expected_sample.jsonl" "$TMP/"
(cd "$TMP" && HOME="$TMP" XDG_CONFIG_HOME="$TMP/xdg" "$TCR_BIN" init taubench_v1_airline_sample.jsonl \
	taubench_v1_airline_expected_sample.jsonl >"$TMP/init.out" 2>&1)
if [ ! -f "$TMP/tcreview.yaml" ]; then
	fail "init proposes a configuration for the tau-bench sample" "$(cat "$TMP/init.out")"
	finish
fi
SCREEN_CONFIG=tcreview.yaml
run_screen groups-tau-80 '=' taubench_v1_airline_sample.jsonl
check_screen groups-tau-80
screen_has groups-tau-80 "[groups] 12 runs in view by tools: 11 groups"
screen_has groups-tau-80 "     2   17%  (no tool calls)"

SCREEN_COLS=120 SCREEN_LINES=40
run_screen groups-tau-120 '=b' taubench_v1_airline_sample.jsonl
check_screen groups-tau-120
screen_has groups-tau-120 "Error: not enough seats on flight <id>"
screen_has groups-tau-120 "its runs (Enter shows them in the list):"

run_screen groups-tau-confirm '=bb0' taubench_v1_airline_sample.jsonl
check_screen groups-tau-confirm
screen_has groups-tau-confirm "label 'tool-errors' 0 on 5 runs? y/n"
assert_eq "nothing is written before the y" "$(cat "$ANNOT" 2>/dev/null | wc -l | tr -d ' ')" 0
finish
