#!/bin/sh
# judge_batch.sh - the OpenAI Batch API files: --batch-out writes the
# requests without sending them, --batch-in reads a finished batch's
# output into the verdicts and the cache. No server is contacted here.
. "$TCR_SRCDIR/tests/cli/lib.sh"
cp "$TCR_SRCDIR"/tests/data/screen-runs.jsonl "$TMP/runs.jsonl"
cat > "$TMP/prompt.txt" <<'TXT'
=== system
You rate how helpful the agent's final answer is, from 1 to 5.
=== user
Request: {{input}}
Answer: {{output}}
Reply with JSON {"score": 1-5, "reason": "..."}.
TXT
cat > "$TMP/j.yaml" <<'YAML'
judges:
  - id: helpful
    rubric: custom
    model: openai/batch-model
    base_url: http://127.0.0.1:9/v1
    prompt_file: prompt.txt
    scale: {min: 1, max: 5, pass: 4}
YAML
export OPENAI_API_KEY=sk-test-never-written
run_tcr "$TMP/o1" "$TMP/e1" judge -c "$TMP/j.yaml" --batch-out "$TMP/batch.in.jsonl" "$TMP/runs.jsonl"
assert_rc "--batch-out exits 0" 0
assert_eq "--batch-out writes one request per readable run" "$(wc -l < "$TMP/batch.in.jsonl" | tr -d ' ')" 5
assert_grep "the requests are in the Batch API input format" "$TMP/batch.in.jsonl" '"method":"POST","url":"/v1/chat/completions","body":{"model":"batch-model","messages":[{"role":"system"'
assert_grep "--batch-out says what it wrote" "$TMP/e1" "wrote 5 requests"
assert_no_grep "the key is not in the batch file" "$TMP/batch.in.jsonl" "sk-test-never-written"
assert_eq "nothing is judged yet" "$(grep -c '"status":"ok"' "$TMP/o1")" 0
# A batch output for all but the third request, as the Batch API returns it.
n=0
: > "$TMP/batch.out.jsonl"
while IFS= read -r line; do
	n=$((n + 1))
	[ "$n" -eq 3 ] && continue
	id=$(printf '%s\n' "$line" | sed 's/^{"custom_id":"\([^"]*\)".*/\1/')
	printf '{"id":"batch_req_%s","custom_id":"%s","response":{"status_code":200,"request_id":"r%s","body":{"id":"c%s","object":"chat.completion","model":"batch-model","choices":[{"index":0,"message":{"role":"assistant","content":"{\\"score\\": 5, \\"reason\\": \\"read from the batch\\"}"},"finish_reason":"stop"}],"usage":{"prompt_tokens":3,"completion_tokens":2,"total_tokens":5}}},"error":null}\n' \
		"$n" "$id" "$n" "$n" >> "$TMP/batch.out.jsonl"
done < "$TMP/batch.in.jsonl"
run_tcr "$TMP/o2" "$TMP/e2" judge -c "$TMP/j.yaml" --batch-in "$TMP/batch.out.jsonl" "$TMP/runs.jsonl"
assert_rc "--batch-in exits 0" 0
assert_eq "--batch-in gives the batch's verdicts" "$(grep -c '"status":"ok","score":5,"passed":true' "$TMP/o2")" 4
assert_grep "a request the batch did not answer is an error that says so" "$TMP/o2" "no answer for it in the batch output"
assert_eq "the answers went to the cache" "$(grep -c 'read from the batch' "$TMP/runs.jsonl.judgements.jsonl")" 4
run_tcr "$TMP/o3" "$TMP/e3" judge -c "$TMP/j.yaml" --batch-out "$TMP/again.jsonl" "$TMP/runs.jsonl"
assert_eq "a second --batch-out asks only what the cache lacks" "$(wc -l < "$TMP/again.jsonl" | tr -d ' ')" 1
assert_no_grep "the key is not in the cache" "$TMP/runs.jsonl.judgements.jsonl" "sk-test-never-written"
run_tcr "$TMP/o4" "$TMP/e4" judge -c "$TMP/j.yaml" --batch-out a --batch-in b "$TMP/runs.jsonl"
assert_rc "--batch-out with --batch-in is a usage error" 2
finish
