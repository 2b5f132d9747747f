#!/bin/sh
# score_outputs.sh - `tcreview score` in its three outputs.
. "$TCR_SRCDIR/tests/cli/lib.sh"
D="$TCR_SRCDIR/tests/data"

run_tcr "$TMP/out" "$TMP/err" score -c "$D/mini.yaml" -o jsonl "$D/mini-runs.jsonl"
assert_rc "jsonl exits 0" 0
assert_eq "jsonl: one line per run and scorer" "$(wc -l < "$TMP/out" | tr -d ' ')" 9
assert_grep "jsonl: key order and values of a pass" "$TMP/out" \
  '{"run":"pass-1","source":"'"$D"'/mini-runs.jsonl:1","format":"openai-chat","scorer":"order","type":"tool-call-accuracy","status":"ok","score":1,"passed":true,"details":{"actualTools":["get_order","track_parcel"],"strictMode":false,"expectedToolOrder":["get_order","track_parcel"],"hasToolCalls":true,"correctToolCalled":false,"toolCallInfos":[{"toolName":"get_order","toolCallId":"c1","messageIndex":1,"invocationIndex":0},{"toolName":"track_parcel","toolCallId":"c2","messageIndex":3,"invocationIndex":0}],"correctOrderCalled":true},"error":null}'
assert_grep "jsonl: a fail" "$TMP/out" '"run":"fail-2","source":"'"$D"'/mini-runs.jsonl:2","format":"openai-chat","scorer":"order","type":"tool-call-accuracy","status":"ok","score":0,"passed":false'
assert_grep "jsonl: a missing expectation is skipped with its reason" "$TMP/out" \
  '"run":"skip-3","source":"'"$D"'/mini-runs.jsonl:3","format":"openai-chat","scorer":"order","type":"tool-call-accuracy","status":"skipped","score":null,"passed":null,"details":null,"error":null,"reason":"expectedToolOrder: no expectation for this run (no expectation has task_id = \"t9\")"}'
assert_grep "jsonl: word inclusion details" "$TMP/out" '"scorer":"words","type":"word-inclusion","status":"ok","score":0.75,"passed":true,"details":{"totalWords":4,"matchedWords":3}'

# jsonl is the default when stdout is not a terminal
run_tcr "$TMP/out2" "$TMP/err" score -c "$D/mini.yaml" "$D/mini-runs.jsonl"
assert_eq "jsonl is the default off a terminal" "$(cmp -s "$TMP/out" "$TMP/out2" && echo same)" same

run_tcr "$TMP/table" "$TMP/err" score -c "$D/mini.yaml" -o table "$D/mini-runs.jsonl"
assert_rc "table exits 0" 0
assert_grep "table header" "$TMP/table" "scorer               type                   runs scored passed   mean skipped errors"
assert_grep "table row for order" "$TMP/table" "order                tool-call-accuracy        3      2      1  0.500       1      0"
assert_grep "table lists failing runs" "$TMP/table" "fail-2"
assert_grep "table lists skipped runs with the reason" "$TMP/table" "no expectation has task_id"

run_tcr "$TMP/junit" "$TMP/err" score -c "$D/mini.yaml" -o junit "$D/mini-runs.jsonl"
assert_rc "junit exits 0" 0
assert_grep "junit totals" "$TMP/junit" '<testsuites name="tcreview" tests="9" failures="4" errors="0" skipped="1">'
assert_grep "junit suite per scorer" "$TMP/junit" '<testsuite name="order" tests="3" failures="1" errors="0" skipped="1">'
assert_grep "junit failure" "$TMP/junit" '<testcase classname="order" name="fail-2"'
assert_grep "junit skipped" "$TMP/junit" '<skipped message="expectedToolOrder: no expectation for this run (no expectation has task_id = &quot;t9&quot;)"/>'
if command -v xmllint >/dev/null 2>&1; then
	if xmllint --noout "$TMP/junit" 2>"$TMP/xerr"; then pass "junit is well-formed XML"; else fail "junit is well-formed XML" "$(cat "$TMP/xerr")"; fi
else
	skip "junit is well-formed XML" "xmllint not installed"
fi

# --expect overrides the YAML's file; standard input works
printf '%s\n' '{"task_id": "t9", "tools": ["nothing"]}' > "$TMP/other.jsonl"
run_tcr "$TMP/out3" "$TMP/err" score -c "$D/mini.yaml" --expect "$TMP/other.jsonl" -o jsonl "$D/mini-runs.jsonl"
assert_grep "--expect replaces the expectations file" "$TMP/out3" '"run":"skip-3","source":"'"$D"'/mini-runs.jsonl:3","format":"openai-chat","scorer":"order","type":"tool-call-accuracy","status":"ok","score":0'
"$TCR_BIN" score -c "$D/mini.yaml" -o jsonl - < "$D/mini-runs.jsonl" > "$TMP/stdin" 2>"$TMP/err"
RC=$?
assert_rc "standard input exits 0" 0
assert_grep "standard input is named -" "$TMP/stdin" '"run":"pass-1","source":"-:1"'

# runs: {id: PATH} names runs; a folder is read recursively
mkdir -p "$TMP/tree/sub"
cp "$D/mini-runs.jsonl" "$TMP/tree/sub/b.jsonl"
cat > "$TMP/ids.yaml" <<YAML
runs:
  id: task_id
scorers:
  - id: lookup
    type: tool-call-accuracy
    expectedTool: get_order
YAML
run_tcr "$TMP/out4" "$TMP/err" score -c "$TMP/ids.yaml" -o jsonl "$TMP/tree"
assert_grep "runs.id names runs" "$TMP/out4" '{"run":"t9","source":"'"$TMP"'/tree/sub/b.jsonl:3"'
# --jobs changes how many threads score, never what is written
cat "$D/mini-runs.jsonl" "$D/mini-runs.jsonl" "$D/mini-runs.jsonl" > "$TMP/three.jsonl"
run_tcr "$TMP/j-default" "$TMP/err" score -c "$D/mini.yaml" -o jsonl "$TMP/three.jsonl"
for j in 0 1 3; do
	run_tcr "$TMP/j$j" "$TMP/err" score -c "$D/mini.yaml" -o jsonl -j "$j" "$TMP/three.jsonl"
	assert_eq "--jobs $j writes what the default writes" \
	  "$(cmp -s "$TMP/j-default" "$TMP/j$j" && echo same)" same
done
assert_eq "--jobs: every row" "$(wc -l < "$TMP/j0" | tr -d ' ')" 27
run_tcr "$TMP/o" "$TMP/err" score -c "$D/mini.yaml" --jobs 17 "$TMP/three.jsonl"
assert_rc "--jobs past 16 is a usage error" 2
assert_grep "--jobs says what it takes" "$TMP/err" "tcreview score: --jobs needs a number from 0 to 16, not '17'"
finish
