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
cp "$TMP/out" "$TMP/table"
assert_rc "the demo's table exits 0" 0
assert_grep "the demo's table" "$TMP/out" "scorer               type"
assert_grep "the demo scores every run" "$TMP/out" "tool-order           tool-call-accuracy       40"
assert_no_grep "the demo loads every run" "$TMP/out" "run: "
assert_eq "the demo reports no load problems" "$(wc -c < "$TMP/err" | tr -d ' ')" 0
run_tcr "$TMP/out" "$TMP/err" score -c "$TCR_SRCDIR/examples/scorers.yaml" -o jsonl "$TCR_SRCDIR/examples/runs"
assert_eq "demo jsonl: 40 runs x 6 scorers" "$(wc -l < "$TMP/out" | tr -d ' ')" 240
# One error, on purpose: oc-001's first call was cut off mid-arguments, which
# agentevals cannot parse either; the trajectory scorer says so for that run.
assert_eq "demo jsonl: one error" "$(grep -c '"status":"error"' "$TMP/out")" 1
assert_grep "the broken call's run" "$TMP/out" '"run":"oc-001","source":"'
assert_grep "named by the trajectory scorer" "$TMP/out" 'trajectory-match: arguments \"{\"order_id\": \"KO-204817\"\" are not JSON'
assert_grep "the benchmark's own reward beside ours" "$TMP/out" '"run":"t2-001",'
assert_grep "runs without a reward are skipped" "$TMP/out" 'record-field: the record has no reward_info.reward'
assert_grep "the reward table row" "$TMP/table" "reward               record-field             40     10      7"
finish
