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

# One description of a scale: score's details, the screen's, stats and
# export all say a binary record-field passes at 1 (not 0..1 at 0.5).
if command -v sha256sum >/dev/null 2>&1; then
	sha() { printf '%s' "$1" | sha256sum | cut -d' ' -f1; }
else
	sha() { printf '%s' "$1" | shasum -a 256 | cut -d' ' -f1; }
fi
: > "$TMP/labels.jsonl"
n=0
while IFS= read -r line; do
	n=$((n + 1))
	printf '{"v":2,"run":"r%s","source":"runs.jsonl:%s","run_hash":"%s","scorer":"reward","decision":"override","score":%s,"reviewer":"ann","blind":false,"at":"2026-01-01T00:00:00Z"}\n' \
		"$n" "$n" "$(sha "$line")" "$((n % 2))" >> "$TMP/labels.jsonl"
done < "$TMP/runs.jsonl"
run_tcr "$TMP/stats" "$TMP/err" stats -c "$TMP/rf.yaml" -o table -a "$TMP/labels.jsonl" "$TMP/runs.jsonl"
assert_rc "stats exits 0" 0
assert_grep "stats: binary, passes at 1" "$TMP/stats" "reward  (binary, passes at 1)"
run_tcr "$TMP/sj" "$TMP/err" stats -c "$TMP/rf.yaml" -o jsonl -a "$TMP/labels.jsonl" "$TMP/runs.jsonl"
assert_grep "stats jsonl: the scale is binary" "$TMP/sj" '"criterion":"reward","kind":"machine-human","scale":"binary",'
run_tcr "$TMP/export" "$TMP/err" export -c "$TMP/rf.yaml" -a "$TMP/labels.jsonl" "$TMP/runs.jsonl"
assert_rc "export exits 0" 0
assert_grep "export: binary, threshold 1" "$TMP/export" '"criterion":"reward","kind":"scorer","scale":"binary","threshold":1,'

printf 'scorers:\n  - id: x\n    type: record-field\n    path: r\n    scale: {min: 0, max: 10, pass: 11}\n' > "$TMP/bad.yaml"
run_tcr "$TMP/out" "$TMP/err" score -c "$TMP/bad.yaml" "$TMP/runs.jsonl"
assert_rc "a pass off the scale stops the program" 2
assert_grep "with its position" "$TMP/err" "bad.yaml:2:5: scale: pass lies outside min..max"
# --fail-under X is a share of each scorer's scale: stars of 2 and 4 on 1..5
# have the mean 3, half of the scale.
printf 'scorers:\n  - id: stars\n    type: record-field\n    path: stars\n    scale: {min: 1, max: 5, pass: 4}\n' > "$TMP/stars.yaml"
printf '{"id":"a","stars":2,"messages":[{"role":"user","content":"hi"}]}\n{"id":"b","stars":4,"messages":[{"role":"user","content":"hi"}]}\n' > "$TMP/stars.jsonl"
run_tcr "$TMP/out" "$TMP/err" score -c "$TMP/stars.yaml" --fail-under 0.5 "$TMP/stars.jsonl"
assert_rc "--fail-under 0.5 on 1..5: the mean 3 is half the scale, met" 0
run_tcr "$TMP/out" "$TMP/err" score -c "$TMP/stars.yaml" --fail-under 0.6 "$TMP/stars.jsonl"
assert_rc "--fail-under 0.6 on 1..5: missed" 1
assert_grep "... said on the scorer's scale" "$TMP/err" "stars: mean score 3.000 on 1..5, 0.500 of the scale, is under 0.6"

finish
