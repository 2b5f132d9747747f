#!/bin/sh
# screen_verdict.sh - the opened verdict as a person reads it (script mode,
# goldens in tests/screens/): what decided a failing trajectory-match first
# (the call whose arguments differ, expected against actual), what its
# mode allows after it, folded; PgDn in the details scrolls by a page and
# stops at their end; j and Enter follow an item to its call in the
# timeline. The data: screen-marks.jsonl with screen-marks.yaml (superset
# mode: the booking of HAT999 differs from the reference's HAT136, the
# flight search is an extra call the mode allows). On the shared tau-bench
# sample with its expected file, as `tcreview init` proposes it, the
# opened verdict of its first failing run, when the sample is present.
. "$TCR_SRCDIR/tests/cli/lib.sh"
. "$TCR_SRCDIR/tests/cli/screen_lib.sh"

SCREEN_CONFIG=screen-marks.yaml

# ---- the failing verdict opened, at 80x24 and 120x40 --------------------------

run_screen verdict-open-80 '<Tab><Tab><Enter>' screen-marks.jsonl
check_screen verdict-open-80
screen_has verdict-open-80 "✗ call 3 book: arguments differ"
screen_has verdict-open-80 "- expected \"HAT136\""
screen_has verdict-open-80 "+ actual   \"HAT999\""
screen_has verdict-open-80 "▸ 1 finding this scorer allows (Enter"
# What decided it comes before the explanation's words.
first_finding=$(grep -n "arguments differ" "$TMP/verdict-open-80.screen" | head -1 | cut -d: -f1)
first_help=$(grep -n "human: no decision yet" "$TMP/verdict-open-80.screen" | head -1 | cut -d: -f1)
if [ -n "$first_finding" ] && { [ -z "$first_help" ] || [ "$first_finding" -lt "$first_help" ]; }; then
	pass "the failing argument is the details' first line"
else
	fail "the failing argument is the details' first line" "$(cat "$TMP/verdict-open-80.screen")"
fi

SCREEN_COLS=120 SCREEN_LINES=40
run_screen verdict-open-120 '<Tab><Tab><Enter>jj<Enter>' screen-marks.jsonl
check_screen verdict-open-120
screen_has verdict-open-120 "flight  expected \"HAT136\"  actual \"HAT999\""
screen_has verdict-open-120 "▾ 1 finding this scorer allows (Enter folds)"
screen_has verdict-open-120 "· call 2 search_flights: extra"
SCREEN_COLS=80 SCREEN_LINES=24

# ---- PgDn stops at the end ----------------------------------------------------

# Ten PgDn are more than the details have: the last one changes nothing,
# their last line stands on the pane's last row above the next verdict,
# and no "more lines" hint is left.
run_screen verdict-pgdn '<Tab><Tab><Enter><PgDn><PgDn><PgDn><PgDn><PgDn><PgDn><PgDn><PgDn><PgDn>
:save-display %D/verdict-pgdn-9.screen
<PgDn>' screen-marks.jsonl
check_screen verdict-pgdn
if cmp -s "$TMP/verdict-pgdn-9.screen" "$TMP/verdict-pgdn.screen"; then
	pass "PgDn at the end of the details changes nothing"
else
	fail "PgDn at the end of the details changes nothing" "$(diff "$TMP/verdict-pgdn-9.screen" "$TMP/verdict-pgdn.screen")"
fi
assert_no_grep "no more-lines hint at the end" "$TMP/verdict-pgdn.screen" "more lines (PgDn)"
above=$(grep -B1 "^ *2 names" "$TMP/verdict-pgdn.screen" | head -1)
case "$above" in
*"screen-marks.jsonl:1)"*) pass "the details' last line is right above the next verdict" ;;
*) fail "the details' last line is right above the next verdict" "$(cat "$TMP/verdict-pgdn.screen")" ;;
esac
run_screen verdict-pgup '<Tab><Tab><Enter><PgDn><PgDn><PgDn><PgDn><PgUp><PgUp><PgUp><PgUp><PgUp>' screen-marks.jsonl
if cmp -s "$TMP/verdict-pgup.screen" "$TMP/verdict-open-80.screen"; then
	pass "PgUp comes back to the top and stops there"
else
	fail "PgUp comes back to the top and stops there" "$(diff "$TMP/verdict-open-80.screen" "$TMP/verdict-pgup.screen")"
fi

# ---- an item leads to its call ------------------------------------------------

run_screen verdict-jump '<Tab><Tab><Enter>j<Enter>' screen-marks.jsonl
check_screen verdict-jump
screen_has verdict-jump ">  #3 book  actions ≠ #2 args"
screen_has verdict-jump '"flight": "HAT999"'

# ---- the checks: the failed call, the unanswered one --------------------------------

# screen-checks: lookup_order's result begins "Error:" (tool-errors), refund
# got none (unanswered-calls): each opened verdict names its call first.
SCREEN_CONFIG=screen-checks.yaml
run_screen verdict-failed '<Tab><Tab><Enter>' screen-checks.jsonl
check_screen verdict-failed
run_screen verdict-unanswered '<Tab><Tab>j<Enter>' screen-checks.jsonl
check_screen verdict-unanswered

# ---- tau-bench, as init proposes it ----------------------------------------------

R="${TCR_SHARED_DIR:-}/fixtures/real"
if [ -z "${TCR_SHARED_DIR:-}" ] || [ ! -f "$R/taubench_v1_airline_sample.jsonl" ] ||
	[ ! -f "$R/taubench_v1_airline_expected_sample.jsonl" ]; then
	skip "the opened verdict on the tau-bench sample" "the shared real samples are absent"
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
run_screen verdict-tau-80 '<Tab><Tab>jjj<Enter>' taubench_v1_airline_sample.jsonl
check_screen verdict-tau-80
SCREEN_COLS=120 SCREEN_LINES=40
run_screen verdict-tau-120 '<Tab><Tab>jjj<Enter>' taubench_v1_airline_sample.jsonl
check_screen verdict-tau-120
# A long list in the details wraps under its label's value, not at the
# pane's edge: the tool-order verdict's calls, zoomed, at 80 columns.
SCREEN_COLS=80 SCREEN_LINES=24
run_screen verdict-tau-list '<Tab><Tab>jjjj<Enter>z' taubench_v1_airline_sample.jsonl
check_screen verdict-tau-list
screen_has verdict-tau-list "    actual    get_user_details, search_direct_flight, search_onestop_flight,"
screen_has verdict-tau-list "              calculate, book_reservation, think, calculate, book_reservation"

finish
