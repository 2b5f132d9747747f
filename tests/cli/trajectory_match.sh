#!/bin/sh
# trajectory_match.sh - `tcreview score` with trajectory-match: a flat
# reference joined from an expectations file, the options tcreview adds
# (in-order, tolerance, case), the details a reviewer reads, configuration
# errors with their position, and the real tau-bench sample per mode.
. "$TCR_SRCDIR/tests/cli/lib.sh"

call() { # NAME ARGS-JSON-TEXT
	printf '{"id":"c%s","type":"function","function":{"name":"%s","arguments":%s}}' "$1" "$1" "$2"
}
cat > "$TMP/runs.jsonl" <<JSONL
{"id":"r1","task":"t1","messages":[{"role":"user","content":"book it"},{"role":"assistant","content":"","tool_calls":[$(call get_user '"{\"user\":\"mia\"}"')]},{"role":"tool","tool_call_id":"cget_user","content":"ok"},{"role":"assistant","content":"","tool_calls":[$(call book '"{\"flight\":\"HAT136\",\"seats\":2}"')]},{"role":"tool","tool_call_id":"cbook","content":"ok"},{"role":"assistant","content":"done"}]}
{"id":"r2","task":"t1","messages":[{"role":"user","content":"book it"},{"role":"assistant","content":"","tool_calls":[$(call book '"{\"flight\":\"hat136 \",\"seats\":2.0000001}"')]},{"role":"tool","tool_call_id":"cbook","content":"ok"},{"role":"assistant","content":"done"}]}
{"id":"r3","task":"t1","messages":[{"role":"user","content":"book it"},{"role":"assistant","content":"","tool_calls":[$(call book '"{\"flight\":\"HAT136\",\"seats\":2}"')]},{"role":"tool","tool_call_id":"cbook","content":"ok"},{"role":"assistant","content":"","tool_calls":[$(call get_user '"{\"user\":\"mia\"}"')]},{"role":"tool","tool_call_id":"cget_user","content":"ok"},{"role":"assistant","content":"done"}]}
JSONL
cat > "$TMP/expected.jsonl" <<'JSONL'
{"task_id":"t1","actions":[{"name":"get_user","kwargs":{"user":"mia"}},{"name":"book","kwargs":{"seats":2,"flight":"HAT136"}}]}
JSONL
conf() { # MODE ARGS [EXTRA-YAML-LINE]
	cat > "$TMP/tm.yaml" <<YAML
expectations:
  file: expected.jsonl
  match: {run: task, expected: task_id}
scorers:
  - id: actions
    type: trajectory-match
    reference: {from: expected.actions}
    mode: $1
    args: $2
${3:-}
YAML
}
verdicts() { # prints RUN:passed-or-status per run
	run_tcr "$TMP/out" "$TMP/err" score -c "$TMP/tm.yaml" -o jsonl "$TMP/runs.jsonl"
	python3 -c '
import json, sys
print(" ".join("%s:%s" % (d["run"], d["passed"] if d["status"] == "ok" else d["status"])
               for d in map(json.loads, open(sys.argv[1]))))' "$TMP/out"
}

conf strict exact
assert_eq "strict against flat calls: same calls, same order" "$(verdicts)" "r1:True r2:False r3:False"
conf unordered exact
assert_eq "unordered ignores order" "$(verdicts)" "r1:True r2:False r3:True"
conf in-order exact
assert_eq "in-order: the reference as a subsequence" "$(verdicts)" "r1:True r2:False r3:False"
conf superset ignore
assert_eq "superset with arguments ignored" "$(verdicts)" "r1:True r2:False r3:True"
conf subset exact
assert_eq "subset: every call made was expected" "$(verdicts)" "r1:True r2:False r3:True"
conf subset exact '    numbers: {tolerance: 0.001}
    strings: {case: insensitive, whitespace: trim}'
assert_eq "tolerance, case and white space make r2's booking equal" "$(verdicts)" "r1:True r2:True r3:True"
conf superset exact '    args_overrides: {book: [seats]}'
assert_eq "a key list override compares only those keys" "$(verdicts)" "r1:True r2:False r3:True"

conf superset exact
verdicts > /dev/null
assert_grep "details: what was missing" "$TMP/out" '"missing":[{"ref":1,"name":"get_user"}]'
assert_grep "details: the argument paths that differed" "$TMP/out" \
  '"diffs":[{"path":"flight","output":"hat136 ","reference":"HAT136"},{"path":"seats","output":2.0000001,"reference":2}]'
assert_grep "details: rates as Azure counts them" "$TMP/out" '"precision":0,"recall":0,"f1":0'
assert_grep "details: marks for the timeline" "$TMP/out" \
  '"call_marks":[{"call":1,"mark":"matched","ref":1},{"call":2,"mark":"matched","ref":2}]'
assert_grep "details: an argument mismatch is marked against its reference call" "$TMP/out" \
  '"call_marks":[{"call":1,"mark":"args","ref":2}]'

# One numbering: call_marks name a call by the number extra and args_differ
# give it (from 1), so the timeline and the details agree.
for mode in strict superset subset; do
	conf $mode exact
	verdicts > /dev/null
	if out=$(python3 -c '
import json, sys
seen = 0
for d in map(json.loads, open(sys.argv[1])):
    det = d.get("details") or {}
    marks = det.get("call_marks", [])
    for mark, key in (("extra", "extra"), ("args", "args_differ")):
        a = sorted(m["call"] for m in marks if m["mark"] == mark)
        b = sorted(x["call"] for x in det.get(key, []))
        assert a == b, (d["run"], mark, a, b)
        seen += len(a)
    assert all(m["call"] >= 1 for m in marks), marks
assert seen, "no extra or args mark to compare"' "$TMP/out" 2>&1); then
		pass "call numbers: call_marks and the details agree ($mode)"
	else
		fail "call numbers: call_marks and the details agree ($mode)" "$out"
	fi
done

conf sideways exact
run_tcr "$TMP/out" "$TMP/err" score -c "$TMP/tm.yaml" "$TMP/runs.jsonl"
assert_rc "an unknown mode stops the program" 2
assert_grep "at the value's line and column" "$TMP/err" "tm.yaml:8:11: mode: unknown (strict, unordered, subset, superset, in-order)"
conf strict loose
run_tcr "$TMP/out" "$TMP/err" score -c "$TMP/tm.yaml" "$TMP/runs.jsonl"
assert_grep "an unknown argument mode too" "$TMP/err" "tm.yaml:9:11: args: unknown argument mode"
conf strict exact '    args_overrides: {book: fuzzy}'
run_tcr "$TMP/out" "$TMP/err" score -c "$TMP/tm.yaml" "$TMP/runs.jsonl"
assert_grep "and one in an override" "$TMP/err" 'args_overrides.book: unknown argument mode "fuzzy"'

# The real tau-bench sample: expected actions with arguments, per mode.
R="${TCR_SHARED_DIR:-}/fixtures/real"
if [ -f "$R/taubench_v1_airline_sample.jsonl" ] && [ -f "$R/taubench_v1_airline_expected_sample.jsonl" ]; then
	cp "$R/taubench_v1_airline_expected_sample.jsonl" "$TMP/tb_expected.jsonl"
	got=""
	for m in strict unordered subset superset in-order; do
		for a in exact ignore; do
			cat > "$TMP/tb.yaml" <<YAML
expectations:
  file: tb_expected.jsonl
  match: {run: task_id, expected: task_id}
scorers:
  - id: actions
    type: trajectory-match
    reference: {from: expected.expected_actions}
    mode: $m
    args: $a
YAML
			run_tcr "$TMP/out" "$TMP/err" score -c "$TMP/tb.yaml" -o jsonl "$R/taubench_v1_airline_sample.jsonl"
			got="$got $m/$a=$(grep -c '"passed":true' "$TMP/out")/$(grep -c '"status":"ok"' "$TMP/out")"
		done
	done
	assert_eq "tau-bench sample: runs passing per mode" "$got" \
	  " strict/exact=0/12 strict/ignore=0/12 unordered/exact=0/12 unordered/ignore=0/12 subset/exact=2/12 subset/ignore=2/12 superset/exact=2/12 superset/ignore=5/12 in-order/exact=2/12 in-order/ignore=4/12"
else
	skip "tau-bench sample" "not found (set TCR_SHARED_DIR to the shared reference folder)"
fi
finish
