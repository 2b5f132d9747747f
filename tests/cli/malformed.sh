#!/bin/sh
# malformed.sh - broken records are reported with FILE:LINE and counted as
# errors; the rest of the file is still scored; nothing crashes.
. "$TCR_SRCDIR/tests/cli/lib.sh"
D="$TCR_SRCDIR/tests/data"

{
	head -n 1 "$D/mini-runs.jsonl"
	printf '{"id":"cut","messages":[{"role":"user","content":"hal\n'
	printf '\n'
	printf '{"id":"notjson" this is not json}\r\n'
	printf '{"id":"weird","messages":"not a list"}\n'
	printf '{"id":"esc","task_id":"t1","messages":[{"role":"user","content":"\\u001b[31mred\\u001b[0m"},{"role":"assistant","content":"\\u001b]0;title\\u0007ok"}]}\n'
	printf '{"id":"bad-utf8","messages":[{"role":"user","content":"caf\351"}]}\n'
	tail -n 1 "$D/mini-runs.jsonl" | tr -d '\n'
} > "$TMP/broken.jsonl"

run_tcr "$TMP/out" "$TMP/err" score -c "$D/mini.yaml" -o jsonl "$TMP/broken.jsonl"
assert_rc "a file with broken records still exits 0" 0
assert_grep "a truncated line is reported with FILE:LINE" "$TMP/err" "$TMP/broken.jsonl:2: "
assert_grep "a non-JSON line is reported with FILE:LINE" "$TMP/err" "$TMP/broken.jsonl:4: "
assert_grep "a record of no known shape is named with its line" "$TMP/err" "$TMP/broken.jsonl:5: not a transcript format"
assert_grep "records after the broken ones are scored" "$TMP/out" '"run":"skip-3"'
assert_grep "a broken record is an error verdict" "$TMP/out" '"run":"'"$TMP"'/broken.jsonl:2","source":"'"$TMP"'/broken.jsonl:2","format":null,"scorer":"order","type":"tool-call-accuracy","status":"error"'
assert_grep "escape codes are kept as JSON escapes in the output" "$TMP/out" '"run":"esc"'
assert_grep "invalid UTF-8 is repaired, not refused" "$TMP/out" '"run":"bad-utf8"'
assert_eq "every record has a verdict per scorer" "$(wc -l < "$TMP/out" | tr -d ' ')" 21
run_tcr "$TMP/table" "$TMP/err" score -c "$D/mini.yaml" -o table "$TMP/broken.jsonl"
assert_grep "the table counts the errors" "$TMP/table" "order                tool-call-accuracy        7      2      1  0.500       2      3"

# escape codes in ids and in error messages are shown, never sent
printf '{"id":"\\u001b[2J\\u001b]0;pwned\\u0007x","task_id":1,"traj":[{"role":"\\u001b[31mnarrator","content":"hi"}]}\n' > "$TMP/esc.jsonl"
run_tcr "$TMP/out" "$TMP/err" score -c "$D/mini.yaml" -o table "$TMP/esc.jsonl"
assert_rc "escape codes: exits 3 (its one record does not load), not a crash" 3
assert_grep "escape codes in a run id are visible in the table" "$TMP/out" '^[[2J^[]0;pwned^Gx'
assert_grep "escape codes in an error message are visible" "$TMP/err" 'unknown role "^[[31mnarrator"'
if grep -q "$(printf '\033')" "$TMP/out" "$TMP/err"; then fail "no raw ESC reaches the terminal"; else pass "no raw ESC reaches the terminal"; fi

printf '[{"id":"a","messages":[]},' > "$TMP/cut.json"
run_tcr "$TMP/out" "$TMP/err" score -c "$D/mini.yaml" -o jsonl "$TMP/cut.json"
assert_rc "a truncated .json exits 3 (nothing in it could be read), not a crash" 3
assert_grep "a truncated .json is reported with its line" "$TMP/err" "$TMP/cut.json:1: "

printf '\000\001\002garbage' > "$TMP/bin.jsonl"
run_tcr "$TMP/out" "$TMP/err" score -c "$D/mini.yaml" -o jsonl "$TMP/bin.jsonl"
assert_rc "binary garbage does not crash (exits 3: nothing could be read)" 3
finish
