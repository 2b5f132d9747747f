#!/bin/sh
# record_field.sh - `tcreview score` with a record-field scorer: a
# recorded reward and an Inspect-style mapped score become verdicts.
. "$TCR_SRCDIR/tests/cli/lib.sh"

cat > "$TMP/rf.yaml" <<'YAML'
scorers:
  - id: reward
    type: record-field
    path: reward
  - id: match
    type: record-field
    path: scores.match.value
    map: {C: 1, I: 0}
YAML
cat > "$TMP/runs.jsonl" <<'JSONL'
{"id":"r1","reward":1.0,"scores":{"match":{"value":"C"}},"messages":[{"role":"user","content":"hi"},{"role":"assistant","content":"hello"}]}
{"id":"r2","reward":0,"scores":{"match":{"value":"I"}},"messages":[{"role":"user","content":"hi"},{"role":"assistant","content":"hello"}]}
{"id":"r3","reward":"n/a","scores":{"match":{"value":"P"}},"messages":[{"role":"user","content":"hi"},{"role":"assistant","content":"hello"}]}
JSONL

run_tcr "$TMP/out" "$TMP/err" score -c "$TMP/rf.yaml" -o jsonl "$TMP/runs.jsonl"
assert_rc "jsonl exits 0" 0
assert_grep "a recorded reward passes" "$TMP/out" \
  '"scorer":"reward","type":"record-field","status":"ok","score":1,"passed":true,"details":{"path":"reward","value":1,"scale":"binary","min":0,"max":1,"pass":1}'
assert_grep "a mapped I fails" "$TMP/out" \
  '"scorer":"match","type":"record-field","status":"ok","score":0,"passed":false,"details":{"path":"scores.match.value","value":"I","mapped":0,'
assert_grep "an unmapped text is an error naming path and value" "$TMP/out" \
  'record-field: scores.match.value = \"P\" is a text value that map does not name'

run_tcr "$TMP/table" "$TMP/err" score -c "$TMP/rf.yaml" -o table "$TMP/runs.jsonl"
assert_grep "table row for reward" "$TMP/table" "reward               record-field              3      2      1"

printf 'scorers:\n  - id: x\n    type: record-field\n    path: r\n    scale: {min: 0, max: 10, pass: 11}\n' > "$TMP/bad.yaml"
run_tcr "$TMP/out" "$TMP/err" score -c "$TMP/bad.yaml" "$TMP/runs.jsonl"
assert_rc "a pass off the scale stops the program" 2
assert_grep "with its position" "$TMP/err" "bad.yaml:2:5: scale: pass lies outside min..max"
finish
