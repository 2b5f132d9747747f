#!/bin/sh
# demo.sh - the README's first command: ./tcreview on the bundled demo.
. "$TCR_SRCDIR/tests/cli/lib.sh"
# Off a terminal the screen says so and points to `tcreview score`.
TCREVIEW_DATADIR="$TCR_SRCDIR" "$TCR_BIN" > "$TMP/out" 2>"$TMP/err" < /dev/null
RC=$?
assert_rc "off a terminal the screen exits 2" 2
assert_grep "and says why" "$TMP/err" "standard output is not a terminal"
assert_grep "and suggests tcreview score" "$TMP/err" "tcreview score"
run_tcr "$TMP/out" "$TMP/err" score -c "$TCR_SRCDIR/examples/scorers.yaml" -o table "$TCR_SRCDIR/examples/runs"
assert_rc "the demo's table exits 0" 0
assert_grep "the demo's table" "$TMP/out" "scorer               type"
assert_grep "the demo scores every run" "$TMP/out" "tool-order           tool-call-accuracy       40"
assert_no_grep "the demo loads every run" "$TMP/out" "run: "
assert_eq "the demo reports no load problems" "$(wc -c < "$TMP/err" | tr -d ' ')" 0
run_tcr "$TMP/out" "$TMP/err" score -c "$TCR_SRCDIR/examples/scorers.yaml" -o jsonl "$TCR_SRCDIR/examples/runs"
assert_eq "demo jsonl: 40 runs x 4 scorers" "$(wc -l < "$TMP/out" | tr -d ' ')" 160
assert_eq "demo jsonl: no errors" "$(grep -c '"status":"error"' "$TMP/out")" 0
finish
