#!/bin/sh
# exec_scorer.sh - `tcreview score -j 4` with an exec scorer over several
# runs: every run scored once by its own process, a failing run an error
# verdict that stops nothing, no process left behind. Every entry has a
# timeout of 5 minutes: only a guard, since a busy machine may take many
# seconds to start python or node, and no case here waits for a timeout.
. "$TCR_SRCDIR/tests/cli/lib.sh"

mkdir -p "$TMP/checks"
cat > "$TMP/checks/calls.py" <<'PY'
import json, sys
run = json.load(sys.stdin)
if run["id"] == "r7":
    sys.stderr.write("cannot score r7\n")
    sys.exit(4)
n = len(run["calls"])
print(json.dumps({"score": n % 2, "reason": "%d calls" % n, "details": {"id": run["id"]}}))
PY
cat > "$TMP/s.yaml" <<'YAML'
scorers:
  - id: calls
    type: exec
    command: [python3, checks/calls.py]
    timeout: 5m
YAML
i=0
: > "$TMP/runs.jsonl"
while [ $i -lt 12 ]; do
	calls=""
	k=0
	while [ $k -lt $((i % 3)) ]; do
		[ -n "$calls" ] && calls="$calls,"
		calls="$calls{\"id\":\"c$k\",\"type\":\"function\",\"function\":{\"name\":\"f\",\"arguments\":\"{}\"}}"
		k=$((k + 1))
	done
	if [ -n "$calls" ]; then
		printf '{"id":"r%d","messages":[{"role":"user","content":"hi"},{"role":"assistant","content":null,"tool_calls":[%s]}]}\n' $i "$calls" >> "$TMP/runs.jsonl"
	else
		printf '{"id":"r%d","messages":[{"role":"user","content":"hi"},{"role":"assistant","content":"hello"}]}\n' $i >> "$TMP/runs.jsonl"
	fi
	i=$((i + 1))
done

run_tcr "$TMP/out" "$TMP/err" score -c "$TMP/s.yaml" -o jsonl -j 4 "$TMP/runs.jsonl"
assert_rc "score -j 4 exits 0" 0
assert_eq "one verdict per run" "$(wc -l < "$TMP/out" | tr -d ' ')" 12
assert_eq "eleven scored" "$(grep -c '"status":"ok"' "$TMP/out")" 11
assert_grep "each run's own document: r4 has 1 call" "$TMP/out" \
  '"run":"r4","source":"'"$TMP"'/runs.jsonl:5","format":"openai-chat","scorer":"calls","type":"exec","status":"ok","score":1,"passed":true,"details":{"reason":"1 calls","details":{"id":"r4"}}'
assert_grep "r5 has 2 calls" "$TMP/out" '"run":"r5",'
assert_grep "r5 scores 0" "$TMP/out" '"details":{"reason":"2 calls","details":{"id":"r5"}}'
assert_grep "r7 is an error with its exit status and stderr" "$TMP/out" \
  'exec: exit status 4; stderr: cannot score r7'

run_tcr "$TMP/table" "$TMP/err" score -c "$TMP/s.yaml" -o table -j 4 "$TMP/runs.jsonl"
assert_grep "table: 12 runs, 11 scored, 1 error" "$TMP/table" "12     11"

printf 'scorers:\n  - {id: x, type: exec, command: [./nope.py]}\n' > "$TMP/bad.yaml"
run_tcr "$TMP/out" "$TMP/err" score -c "$TMP/bad.yaml" "$TMP/runs.jsonl"
assert_rc "a missing program is a configuration error" 2
assert_grep "named with its position" "$TMP/err" "bad.yaml:2:34: program '"
# The man page's two examples run as written.
man_example() { # LANGUAGE-LINE OUT
	awk -v want="$1" 'found && /^\.fi/ {exit} found == 2 {print} found == 1 && /^\.nf/ {found = 2}
	                  $0 == want {found = 1}' "$TCR_SRCDIR/doc/tcreview.1" > "$2"
}
man_example "In Python:" "$TMP/checks/man.py"
man_example "In JavaScript (node):" "$TMP/checks/man.js"
printf 'scorers:\n  - {id: py, type: exec, command: [python3, checks/man.py], timeout: 5m}\n  - {id: js, type: exec, command: [node, checks/man.js], timeout: 5m}\n' > "$TMP/man.yaml"
printf '%s\n' '{"id":"m1","messages":[{"role":"user","content":"refund"},{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"issue_refund","arguments":"{}"}}]},{"role":"assistant","content":"Sorry for the wait."}]}' > "$TMP/man.jsonl"
run_tcr "$TMP/out" "$TMP/err" score -c "$TMP/man.yaml" -o jsonl "$TMP/man.jsonl"
assert_grep "man page Python example" "$TMP/out" '"scorer":"py","type":"exec","status":"ok","score":0,"passed":false,"details":{"reason":"refund without lookup","details":{"calls":["issue_refund"]}}'
assert_grep "man page JavaScript example" "$TMP/out" '"scorer":"js","type":"exec","status":"ok","score":1,"passed":true,"details":{"reason":"polite"}'

# The stream protocol: the man page's two stream examples as written, on
# a run whose call failed and one without calls.
man_example "In Python, protocol stream:" "$TMP/checks/man_stream.py"
man_example "In JavaScript (node), protocol stream:" "$TMP/checks/man_stream.js"
cat > "$TMP/stream.yaml" <<'YAML'
scorers:
  - {id: py, type: exec, command: [python3, checks/man_stream.py], protocol: stream, timeout: 5m}
  - {id: js, type: exec, command: [node, checks/man_stream.js], protocol: stream, timeout: 5m}
YAML
{
	cat "$TMP/man.jsonl"
	printf '%s\n' '{"id":"m2","messages":[{"role":"user","content":"where is it"},{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"get_order","arguments":"{}"}}]},{"role":"tool","tool_call_id":"c1","content":"Error: order not found"},{"role":"assistant","content":"I could not find it."}]}'
} > "$TMP/man2.jsonl"
run_tcr "$TMP/out" "$TMP/err" score -c "$TMP/stream.yaml" -o jsonl -j 2 "$TMP/man2.jsonl"
assert_rc "stream examples: score exits 0 or 1" "$([ "$RC" -le 1 ] && echo "$RC" || echo 0)"
assert_grep "man page Python stream example" "$TMP/out" '"run":"m1",'
assert_grep "Python stream: no call failed" "$TMP/out" '"scorer":"py","type":"exec","status":"ok","score":1,"passed":true,"details":{"reason":"no call failed","details":{"calls":["issue_refund"]}}'
assert_grep "JavaScript stream: calls and words" "$TMP/out" '"scorer":"js","type":"exec","status":"ok","score":1,"passed":true,"details":{"reason":"1 calls, 5 words"}'

# The calls check written for the stream protocol gives what the per-run
# one gave, with one process per worker at most.
cat > "$TMP/checks/calls_stream.py" <<'PY'
import json, os, sys
for line in sys.stdin:
    run = json.loads(line)
    if run["id"] == "r7":
        sys.stderr.write("cannot score r7\n")
        sys.exit(4)
    n = len(run["calls"])
    print(json.dumps({"id": run["id"], "score": n % 2, "reason": "%d calls" % n,
                      "details": {"id": run["id"], "pid": os.getpid()}}), flush=True)
PY
sed 's/calls.py]/calls_stream.py]\n    protocol: stream/' "$TMP/s.yaml" > "$TMP/s_stream.yaml"
run_tcr "$TMP/out_stream" "$TMP/err" score -c "$TMP/s_stream.yaml" -o jsonl -j 2 "$TMP/runs.jsonl"
assert_eq "stream: one verdict per run" "$(wc -l < "$TMP/out_stream" | tr -d ' ')" 12
assert_eq "stream: eleven scored" "$(grep -c '"status":"ok"' "$TMP/out_stream")" 11
assert_grep "stream: r7 is an error with its exit status and stderr" "$TMP/out_stream" \
  '"run":"r7",'
assert_grep "stream: r7's error" "$TMP/out_stream" 'exec: exit status 4; stderr: cannot score r7'
run_tcr "$TMP/out" "$TMP/err" score -c "$TMP/s.yaml" -o jsonl -j 2 "$TMP/runs.jsonl"
strip_pid() { sed -e 's/,"pid":[0-9]*//' -e 's/"error":"[^"]*"/"error"/' "$1"; }
assert_eq "stream and per-run give the same verdicts" "$(strip_pid "$TMP/out_stream")" "$(strip_pid "$TMP/out")"
pids=$(grep -o '"pid":[0-9]*' "$TMP/out_stream" | sort -u | wc -l | tr -d ' ')
if [ "$pids" -ge 1 ] && [ "$pids" -le 3 ]; then pass "stream: $pids processes for 12 runs on 2 workers (r7's death costs one)"; else fail "stream: processes" "$pids processes for 12 runs"; fi

# The cache: scoring the file again runs nothing; editing the script asks again.
printf 'import json, sys\nrun = json.load(sys.stdin)\nopen("%s/count", "a").write("x\\n")\nprint(json.dumps({"score": 1}))\n' "$TMP" > "$TMP/checks/count.py"
printf 'scorers:\n  - {id: n, type: exec, command: [python3, checks/count.py], timeout: 5m}\n' > "$TMP/count.yaml"
run_tcr "$TMP/out" "$TMP/err" score -c "$TMP/count.yaml" -o jsonl -j 2 "$TMP/runs.jsonl"
assert_eq "first scoring runs the command 12 times" "$(wc -l < "$TMP/count" | tr -d ' ')" 12
run_tcr "$TMP/out2" "$TMP/err" score -c "$TMP/count.yaml" -o jsonl -j 2 "$TMP/runs.jsonl"
assert_eq "scoring again runs it no more" "$(wc -l < "$TMP/count" | tr -d ' ')" 12
assert_eq "with the same verdicts" "$(cat "$TMP/out2")" "$(cat "$TMP/out")"
printf '# edited\n' >> "$TMP/checks/count.py"
run_tcr "$TMP/out" "$TMP/err" score -c "$TMP/count.yaml" -o jsonl -j 2 "$TMP/runs.jsonl"
assert_eq "an edited script runs again" "$(wc -l < "$TMP/count" | tr -d ' ')" 24
# One file per command and script version: calls.py, the four man page
# examples, calls_stream.py, count.py before and after its edit.
assert_eq "the cache lives in TCR_CACHE_DIR, a file per command" "$(ls "$TCR_CACHE_DIR/exec" | grep -c '\.jsonl$')" 8
finish
