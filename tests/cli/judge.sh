#!/bin/sh
# judge.sh - `tcreview judge` against the local fake LLM server
# (tests/fake_llm.c): every run judged, the lines and their values, --judge,
# --limit, --concurrency (seen in the server's log), the cache (--refresh,
# a changed prompt), failures (HTTP 500, answers that are not JSON, a fenced
# answer, 429 with Retry-After), the three rubrics, an unreadable record,
# the request bodies, and that the API key is written nowhere. Talks only
# to 127.0.0.1; every wait is bounded.
. "$TCR_SRCDIR/tests/cli/lib.sh"

fake_llm_need

# Nothing goes anywhere but to the fake server: no proxy, no inherited base
# URLs or keys; the key is a dummy the test can look for afterwards.
unset http_proxy HTTP_PROXY https_proxy HTTPS_PROXY all_proxy ALL_PROXY \
	OPENAI_BASE_URL AZURE_OPENAI_ENDPOINT AZURE_OPENAI_API_KEY ANTHROPIC_API_KEY ANTHROPIC_BASE_URL
no_proxy='*' NO_PROXY='*'
export no_proxy NO_PROXY
KEY=sk-tcr-test-DUMMY-4f1c9a07e2
OPENAI_API_KEY=$KEY
export OPENAI_API_KEY

# A folder per case, each with its own copy of the runs, so that every case
# starts with an empty cache (FIRST_INPUT.judgements.jsonl).
fresh() {
	rm -rf "$TMP/$1"
	mkdir "$TMP/$1"
	cp "$TCR_SRCDIR/tests/data/screen-runs.jsonl" "$TCR_SRCDIR/tests/data/screen-tasks.jsonl" "$TMP/$1/"
	D=$TMP/$1
}

# judge NAME ARGS...: `tcreview judge ARGS` in $D, the runs given relatively
# (so the lines say screen-runs.jsonl:N); stdout in $TMP/NAME.out, stderr in
# $TMP/NAME.err; sets $RC. A run longer than 300 s is killed (RC 124): a
# guard against a hang, far past what a loaded machine needs.
if command -v timeout >/dev/null 2>&1; then
	watchdog() { timeout 300 "$@"; }
else
	watchdog() { "$@"; }
fi
judge() {
	name=$1
	shift
	(cd "$D" && watchdog "$TCR_BIN" judge "$@") >"$TMP/$name.out" 2>"$TMP/$name.err"
	RC=$?
	cp "$TMP/$name.err" "$TMP/err"
}

lines_of() { if [ -f "$1" ]; then wc -l < "$1" | tr -d ' '; else echo 0; fi; }

# fields FILE: "run|judge|status|score|passed" per line, in order. The
# lines are written with their keys in a fixed order, so sed reads them
# (jq and python may be missing).
fields() {
	sed -n 's/^{"run":"\([^"]*\)","source":"[^"]*","judge":"\([^"]*\)","type":"[^"]*","status":"\([^"]*\)","score":\([^,]*\),"passed":\([^,]*\),"details":.*/\1|\2|\3|\4|\5/p' "$1"
}
# errors FILE: the "error" of each line (the last key).
errors() { sed -n 's/.*,"error":\(.*\)}$/\1/p' "$1"; }
# line_of FILE RUN JUDGE: that run's line for that judge.
line_of() { grep -F "{\"run\":\"$2\"," "$1" | grep -F "\"judge\":\"$3\"," | head -n 1; }
# at_ms LOG: the arrival time of each request, in order.
at_ms() { sed -n 's/.*"at_ms":\([0-9]*\),"answer":.*/\1/p' "$1"; }
# max_in_flight LOG: the most requests the server held unanswered at once
# (the log's "waiting" as each arrived): a count, whatever the load.
max_in_flight() {
	sed -n 's/.*,"waiting":\([0-9]*\)}$/\1/p' "$1" | sort -n | tail -n 1
}

TOOLS='[{name: get_order, description: looks an order up}, {name: track_parcel, description: tracks a parcel}, {name: refund_order, description: refunds an order}]'

# ---- tool-appropriateness: every run, scores as Mastra computes them -------

# The answers depend on the run (the analyse step names the tools called);
# the reason step gets its own answer. Rules are tried in order.
cat > "$TMP/appr.json" <<'EOF'
{"rules": [
 {"match": {"body_contains": "The score is 0.67, on a scale"}, "content": "Two of the three calls served the request."},
 {"match": {"body_contains": "Explain a score for a person"}, "content": "The calls fit the request."},
 {"match": {"body_contains": "called, in order: get_order, track_parcel"}, "content": {"evaluations": [
   {"toolCalled": "get_order", "wasAppropriate": true, "reasoning": "the order was asked about"},
   {"toolCalled": "track_parcel", "wasAppropriate": true, "reasoning": "where the parcel is"},
   {"toolCalled": "get_order", "wasAppropriate": false, "reasoning": "a second look was not needed"}],
   "missingTools": []}},
 {"match": {"body_contains": "called, in order: get_order, refund_order"}, "content": {"evaluations": [
   {"toolCalled": "get_order", "wasAppropriate": true, "reasoning": "r"},
   {"toolCalled": "refund_order", "wasAppropriate": true, "reasoning": "r"}], "missingTools": []}},
 {"match": {"body_contains": "called, in order: track_parcel"}, "content": {"evaluations": [
   {"toolCalled": "track_parcel", "wasAppropriate": false, "reasoning": "no tracking number was given"}],
   "missingTools": ["get_order"]}},
 {"match": {"body_contains": "called, in order: get_order"}, "content": {"evaluations": [
   {"toolCalled": "get_order", "wasAppropriate": true, "reasoning": "r"}]}},
 {"match": {"body_contains": "called, in order: None"}, "content": {"evaluations": [], "missingTools": []}}
], "default": {"status": 418, "raw": "no rule for this request"}}
EOF
fake_llm_start appr "$TMP/appr.json"
APPR_PORT=$PORT
fresh appr
cat > "$D/judges.yaml" <<EOF
judges:
  - id: appr
    rubric: tool-appropriateness
    model: openai/judge-model
    base_url: http://127.0.0.1:$APPR_PORT/v1
    tools: $TOOLS
  - id: appr-strict
    rubric: tool-appropriateness
    model: openai/judge-model
    base_url: http://127.0.0.1:$APPR_PORT/v1
    tools: $TOOLS
    threshold: 0.7
EOF
judge appr1 -c judges.yaml screen-runs.jsonl
assert_rc "judge: every run judged, exit 0" 0
assert_eq "judge: one line per run and judge, in input order; 2 of 3 appropriate is 0.67" "$(fields "$TMP/appr1.out")" \
"en-pass|appr|ok|0.67|true
en-pass|appr-strict|ok|0.67|false
ja-fail|appr|ok|0|false
ja-fail|appr-strict|ok|0|false
zh-refund|appr|ok|1|true
zh-refund|appr-strict|ok|1|true
esc-codes|appr|ok|1|true
esc-codes|appr-strict|ok|1|true
no-task|appr|ok|1|true
no-task|appr-strict|ok|1|true
screen-runs.jsonl:6|appr|error|null|null
screen-runs.jsonl:6|appr-strict|error|null|null"
assert_eq "judge: 12 lines, the unreadable record's included" "$(lines_of "$TMP/appr1.out")" 12
line_of "$TMP/appr1.out" en-pass appr > "$TMP/l"
assert_grep "judge: a line's keys and values" "$TMP/l" \
	'{"run":"en-pass","source":"screen-runs.jsonl:1","judge":"appr","type":"tool-appropriateness","status":"ok","score":0.67,"passed":true,"details":{"score":0.67,"reason":"Two of the three calls served the request.",'
assert_grep "judge: an ok line has error null" "$TMP/l" ',"error":null}'
assert_grep "judge: details keep the judge's evaluations" "$TMP/l" \
	'"analyzeStepResult":{"evaluations":[{"toolCalled":"get_order","wasAppropriate":true,"reasoning":"the order was asked about"},'
assert_grep "judge: details keep the calls as Mastra extracts them" "$TMP/l" \
	'"preprocessStepResult":{"actualTools":["get_order","track_parcel"],"hasToolCalls":true,'
assert_grep "judge: details name the model and count two requests" "$TMP/l" '"model":"openai/judge-model","prompt_hash":"'
assert_grep "judge: usage of both steps" "$TMP/l" '"usage":{"prompt_tokens":22,"completion_tokens":14,"total_tokens":36,"requests":2,'
line_of "$TMP/appr1.out" ja-fail appr > "$TMP/l"
assert_grep "judge: missing tools are kept" "$TMP/l" '"missingTools":["get_order"]'
line_of "$TMP/appr1.out" no-task appr > "$TMP/l"
assert_grep "judge: no calls and nothing missing scores 1 (Mastra)" "$TMP/l" '"status":"ok","score":1,"passed":true'
grep -F '"run":"screen-runs.jsonl:6"' "$TMP/appr1.out" > "$TMP/l"
assert_eq "judge: a record that does not parse gets an error line per judge" "$(fields "$TMP/l")" \
"screen-runs.jsonl:6|appr|error|null|null
screen-runs.jsonl:6|appr-strict|error|null|null"
assert_eq "judge: the unreadable record's line says why" "$(errors "$TMP/l" | head -n 1)" \
	"\"screen-runs.jsonl:6: premature end of input near '\\\"cut off' (column 60)\""
assert_grep "judge: the unreadable record's line names its source" "$TMP/l" '"source":"screen-runs.jsonl:6","judge":"appr",'
assert_grep "judge: the unreadable record is named on stderr" "$TMP/appr1.err" "tcreview judge: screen-runs.jsonl:6: premature end of input"
assert_grep "judge: progress on stderr ends with the totals" "$TMP/appr1.err" "judge: 12/12 done,"
assert_grep "judge: progress counts the errors" "$TMP/appr1.err" "2 errors, 0 cached"
assert_eq "judge: two requests per readable run and judge" "$(lines_of "$TMP/appr.log")" 20

# What was sent. The log holds each body as the server parsed it.
L=$TMP/appr.log
grep -F 'called, in order: get_order, track_parcel' "$L" | head -n 1 > "$TMP/req0"
grep -F 'The score is 0.67, on a scale' "$L" | head -n 1 > "$TMP/req1"
assert_grep "request: POST to base_url/chat/completions" "$TMP/req0" '"method":"POST","path":"/v1/chat/completions"'
assert_grep "request: the key as a bearer token (to the server only)" "$TMP/req0" "\"authorization\":\"Bearer $KEY\""
assert_grep "request: the model without its provider prefix" "$TMP/req0" '"body":{"model":"judge-model","messages":[{"role":"system","content":"You review the tool choices of an AI assistant.'
assert_grep "request: the user message carries the run" "$TMP/req0" \
	'{"role":"user","content":"The user'"'"'s request:\n<<<\nWhere is my order 1042? It was supposed to arrive on Monday.\n>>>'
assert_grep "request: the tools as name: description lines" "$TMP/req0" '\nget_order: looks an order up\ntrack_parcel: tracks a parcel\nrefund_order: refunds an order\n'
assert_grep "request: temperature 0" "$TMP/req0" '"temperature":0,'
assert_grep "request: structured output, strict JSON schema" "$TMP/req0" \
	'"response_format":{"type":"json_schema","json_schema":{"name":"tool_appropriateness","strict":true,"schema":{"type":"object","properties":{"evaluations":'
assert_grep "request: strict schemas are closed" "$TMP/req0" '"required":["evaluations","missingTools"],"additionalProperties":false'
assert_grep "reason step: the score Mastra computed is in the prompt" "$TMP/req1" 'The score is 0.67, on a scale from 0 to 1'
assert_grep "reason step: the evaluations are in the prompt" "$TMP/req1" 'The judgement of each call: [{\"toolCalled\":\"get_order\",\"wasAppropriate\":true,'
assert_no_grep "reason step: free text, no response_format" "$TMP/req1" '"response_format"'
assert_grep "reason step: temperature 0 too" "$TMP/req1" '"temperature":0'
assert_eq "request: half of the requests ask for a schema" "$(grep -c '"response_format"' "$L")" 10

# ---- the cache ------------------------------------------------------------

judge appr2 -c judges.yaml screen-runs.jsonl
assert_rc "cache: a second run exits 0" 0
assert_eq "cache: a second run makes no request" "$(lines_of "$TMP/appr.log")" 20
if cmp -s "$TMP/appr1.out" "$TMP/appr2.out"; then
	pass "cache: a second run gives the same lines"
else
	fail "cache: a second run gives the same lines" "$(diff "$TMP/appr1.out" "$TMP/appr2.out" | head -c 2000)"
fi
assert_grep "cache: progress says the verdicts were cached" "$TMP/appr2.err" "2 errors, 10 cached"
assert_eq "cache: one line per verdict beside the first input" "$(lines_of "$D/screen-runs.jsonl.judgements.jsonl")" 10
assert_grep "cache: a line names the run, judge and model" "$D/screen-runs.jsonl.judgements.jsonl" \
	'"run":"en-pass","judge":"appr","model":"judge-model","prompt_hash":"'
judge appr3 -c judges.yaml --refresh screen-runs.jsonl
assert_eq "cache: --refresh asks again" "$(lines_of "$TMP/appr.log")" 40
assert_eq "cache: --refresh gives the same verdicts" "$(fields "$TMP/appr3.out")" "$(fields "$TMP/appr1.out")"
judge appr4 -c judges.yaml --judge appr-strict screen-runs.jsonl
assert_eq "cache: after --refresh the newest verdicts are used" "$(lines_of "$TMP/appr.log")" 40

# ---- --judge and --limit ----------------------------------------------------

fresh only
cp "$TMP/appr/judges.yaml" "$D/"
before=$(lines_of "$TMP/appr.log")
judge only1 -c judges.yaml --judge appr-strict screen-runs.jsonl
assert_rc "--judge: exit 0" 0
assert_eq "--judge ID: only that judge's lines" "$(fields "$TMP/only1.out")" \
"en-pass|appr-strict|ok|0.67|false
ja-fail|appr-strict|ok|0|false
zh-refund|appr-strict|ok|1|true
esc-codes|appr-strict|ok|1|true
no-task|appr-strict|ok|1|true
screen-runs.jsonl:6|appr-strict|error|null|null"
assert_eq "--judge ID: only that judge asks" "$(($(lines_of "$TMP/appr.log") - before))" 10
judge only2 -c judges.yaml --judge nope screen-runs.jsonl
assert_rc "--judge with an unknown id exits 2" 2
assert_grep "--judge: the unknown id is named" "$TMP/only2.err" "tcreview judge: no judge 'nope' in the configuration"
assert_eq "--judge: nothing written for an unknown id" "$(lines_of "$TMP/only2.out")" 0

fresh limit
cp "$TMP/appr/judges.yaml" "$D/"
before=$(lines_of "$TMP/appr.log")
judge limit1 -c judges.yaml --limit 2 --judge appr screen-runs.jsonl
assert_eq "--limit 2: the first two runs only" "$(fields "$TMP/limit1.out")" \
"en-pass|appr|ok|0.67|true
ja-fail|appr|ok|0|false"
assert_eq "--limit 2: two runs asked about" "$(($(lines_of "$TMP/appr.log") - before))" 4
assert_grep "--limit 2: progress counts two" "$TMP/limit1.err" "judge: 2/2 done,"

fresh nojudge
printf 'scorers: []\n' > "$D/none.yaml"
judge nojudge -c none.yaml screen-runs.jsonl
assert_rc "no judges configured exits 2" 2
assert_grep "no judges configured: it says so" "$TMP/nojudge.err" "no judges configured (judges: in the YAML)"
judge conc0 -c none.yaml --concurrency 0 screen-runs.jsonl
assert_rc "--concurrency 0 exits 2" 2

# ---- tool-call-accuracy-1to5 ------------------------------------------------

cat > "$TMP/acc.json" <<'EOF'
{"rules": [
 {"match": {"body_contains": "call_en-pass_0"}, "content": {"reason": "Right tools, right parameters.", "score": 5, "status": "completed",
   "properties": {"tool_calls_made_by_agent": 2, "correct_tool_calls_made_by_agent": 2, "per_tool_call_details": [],
     "excess_tool_calls": {"total": 0, "details": []}, "missing_tool_calls": {"total": 0, "details": []}}}},
 {"match": {"body_contains": "call_ja-fail_0"}, "content": {"reason": "The tracking number was made up.", "score": 2, "status": "completed", "properties": null}},
 {"match": {"body_contains": "call_zh-refund_0"}, "content": {"reason": "Correct.", "score": 4, "status": "completed", "properties": null}},
 {"match": {"body_contains": "call_esc-codes_0"}, "content": {"reason": "Nothing to grade.", "score": null, "status": "skipped", "properties": null}}
], "default": {"status": 418, "raw": "no rule for this request"}}
EOF
fake_llm_start acc "$TMP/acc.json"
fresh acc
cat > "$D/judges.yaml" <<EOF
judges:
  - id: acc
    rubric: tool-call-accuracy-1to5
    model: openai/judge-model
    base_url: http://127.0.0.1:$PORT/v1
    tools: $TOOLS
  - id: acc-5
    rubric: tool-call-accuracy-1to5
    model: openai/judge-model
    base_url: http://127.0.0.1:$PORT/v1
    tools: $TOOLS
    threshold: 5
EOF
judge acc1 -c judges.yaml screen-runs.jsonl
assert_rc "1to5: exit 0" 0
assert_eq "1to5: levels, passing at the threshold (3, or 5)" "$(fields "$TMP/acc1.out")" \
"en-pass|acc|ok|5|true
en-pass|acc-5|ok|5|true
ja-fail|acc|ok|2|false
ja-fail|acc-5|ok|2|false
zh-refund|acc|ok|4|true
zh-refund|acc-5|ok|4|false
esc-codes|acc|skipped|null|null
esc-codes|acc-5|skipped|null|null
no-task|acc|skipped|null|null
no-task|acc-5|skipped|null|null
screen-runs.jsonl:6|acc|error|null|null
screen-runs.jsonl:6|acc-5|error|null|null"
line_of "$TMP/acc1.out" en-pass acc > "$TMP/l"
assert_grep "1to5: Azure's result keys" "$TMP/l" \
	'"details":{"tool_call_accuracy":5,"tool_call_accuracy_score":5,"tool_call_accuracy_result":"pass","tool_call_accuracy_passed":true,"tool_call_accuracy_reason":"Right tools, right parameters.","tool_call_accuracy_status":"completed","tool_call_accuracy_threshold":3,'
assert_grep "1to5: the judge's counters are kept" "$TMP/l" '"tool_call_accuracy_properties":{"tool_calls_made_by_agent":2,'
line_of "$TMP/acc1.out" zh-refund acc-5 > "$TMP/l"
assert_grep "1to5: threshold 5 fails a 4" "$TMP/l" '"tool_call_accuracy_result":"fail","tool_call_accuracy_passed":false,'
line_of "$TMP/acc1.out" esc-codes acc > "$TMP/l"
assert_grep "1to5: a judge that answers skipped gives skipped, with its reason" "$TMP/l" '"error":"Not applicable: Nothing to grade."}'
line_of "$TMP/acc1.out" no-task acc > "$TMP/l"
assert_grep "1to5: a run without calls is not applicable" "$TMP/l" \
	'"error":"Not applicable: No tool calls found in response or provided tool_calls."}'
assert_eq "1to5: one request per run with calls and judge; none for no-task" "$(lines_of "$TMP/acc.log")" 8
assert_no_grep "1to5: no-task is never sent" "$TMP/acc.log" "Do you sell gift cards?"
grep -F 'call_en-pass_0' "$TMP/acc.log" | head -n 1 > "$TMP/req0"
assert_grep "1to5 request: the calls with arguments and results" "$TMP/req0" \
	'{\"id\":\"call_en-pass_0\",\"name\":\"get_order\",\"arguments\":{\"order_id\":\"1042\"},'
assert_grep "1to5 request: the tool definitions as JSON" "$TMP/req0" '{\"name\":\"get_order\",\"description\":\"looks an order up\"}'
assert_grep "1to5 request: strict schema" "$TMP/req0" '"response_format":{"type":"json_schema","json_schema":{"name":"tool_call_accuracy","strict":true,'
assert_grep "1to5 request: temperature 0" "$TMP/req0" '"temperature":0,'

# ---- custom -------------------------------------------------------------------

cat > "$TMP/cust.json" <<'EOF'
{"rules": [
 {"match": {"body_contains": "RUN=en-pass;"}, "content": {"score": 8, "reason": "Clear and correct."}},
 {"match": {"body_contains": "RUN=ja-fail;"}, "content": {"score": 3, "reason": "Apologises without helping."}},
 {"match": {"body_contains": "RUN=zh-refund;"}, "content": {"score": 6, "reason": "At the pass mark."}},
 {"match": {"body_contains": "RUN=esc-codes;"}, "content": {"score": 10, "reason": "Short."}}
], "default": {"status": 418, "raw": "no rule for this request"}}
EOF
fake_llm_start cust "$TMP/cust.json"
CUST_PORT=$PORT
fresh cust
cat > "$D/helpful.txt" <<'EOF'
# A custom judge's prompt: notes before the first section are not sent.
=== system
You grade the answers of a support agent.
=== user
RUN={{run_id}};
Request: {{input}}
Answer: {{output}}
Calls: {{tool_calls}}
Expected: {{expected}}
Give a score from {{min}} to {{max}}; {{pass}} passes.
EOF
cat > "$D/judges.yaml" <<EOF
expectations:
  file: screen-tasks.jsonl
  match: {run: task_id, expected: task_id}
judges:
  - id: helpful
    rubric: custom
    model: openai/judge-model
    base_url: http://127.0.0.1:$CUST_PORT/v1
    prompt_file: helpful.txt
    scale: {min: 0, max: 10, pass: 6}
EOF
judge cust1 -c judges.yaml screen-runs.jsonl
assert_rc "custom: exit 0" 0
assert_eq "custom: scores on its own scale, passing at its pass mark" "$(fields "$TMP/cust1.out")" \
"en-pass|helpful|ok|8|true
ja-fail|helpful|ok|3|false
zh-refund|helpful|ok|6|true
esc-codes|helpful|ok|10|true
no-task|helpful|skipped|null|null
screen-runs.jsonl:6|helpful|error|null|null"
line_of "$TMP/cust1.out" en-pass helpful > "$TMP/l"
assert_grep "custom: details have the reason and the scale" "$TMP/l" \
	'"details":{"score":8,"reason":"Clear and correct.","scale":{"min":0,"max":10,"pass":6},"prompt":"RUN=en-pass;\nRequest: Where is my order 1042?'
line_of "$TMP/cust1.out" no-task helpful > "$TMP/l"
assert_grep "custom: {{expected}} without an expectation skips the run" "$TMP/l" \
	'"error":"the prompt uses {{expected}} but this run has no expectation"}'
assert_eq "custom: one request per judged run" "$(lines_of "$TMP/cust.log")" 4
grep -F 'RUN=en-pass;' "$TMP/cust.log" > "$TMP/req0"
assert_grep "custom request: the system section" "$TMP/req0" '"messages":[{"role":"system","content":"You grade the answers of a support agent."},'
assert_grep "custom request: placeholders filled, notes left out" "$TMP/req0" \
	'{"role":"user","content":"RUN=en-pass;\nRequest: Where is my order 1042? It was supposed to arrive on Monday.\nAnswer: Your order 1042 has shipped and the parcel JD014 is in transit; it should arrive on Thursday.\nCalls: [\n  {\"id\":\"call_en-pass_0\",'
assert_grep "custom request: {{expected}} and the scale" "$TMP/req0" \
	'Expected: {\"task_id\":\"where\",\"tools\":[\"get_order\",\"track_parcel\"]}\nGive a score from 0 to 10; 6 passes."}'
assert_grep "custom request: structured output with its scale" "$TMP/req0" \
	'"temperature":0,"response_format":{"type":"json_schema","json_schema":{"name":"score","strict":true,"schema":{"type":"object","properties":{"score":{"type":"integer","description":"from 0 to 10"},'

judge cust2 -c judges.yaml screen-runs.jsonl
assert_eq "custom cache: no request the second time" "$(lines_of "$TMP/cust.log")" 4
# A changed prompt is another question: asked again.
printf '\nBe brief.\n' >> "$D/helpful.txt"
judge cust3 -c judges.yaml screen-runs.jsonl
assert_eq "custom cache: a changed prompt file asks again" "$(lines_of "$TMP/cust.log")" 8
assert_eq "custom cache: ... with the same verdicts" "$(fields "$TMP/cust3.out")" "$(fields "$TMP/cust1.out")"
assert_grep "custom cache: the new prompt was sent" "$TMP/cust.log" '6 passes.\n\nBe brief."}'
judge cust4 -c judges.yaml screen-runs.jsonl
assert_eq "custom cache: the changed prompt's verdicts are cached in turn" "$(lines_of "$TMP/cust.log")" 8

# ---- --concurrency --------------------------------------------------------------

# With --concurrency 2 the server answers only once two requests wait
# (until_held): every run answered proves two went at once, whatever the
# timing (with one at a time the first would wait for its timeout). The
# log counts the requests waiting as each arrived: never more than two.
cat > "$TMP/slow.json" <<'EOF'
{"default": {"until_held": 2, "content": {"score": 5, "reason": "slow"}}}
EOF
fake_llm_start slow "$TMP/slow.json"
fresh conc
cp "$TMP/cust/helpful.txt" "$D/"
sed "s|127.0.0.1:$CUST_PORT|127.0.0.1:$PORT|" "$TMP/cust/judges.yaml" > "$D/judges.yaml"
judge conc2 -c judges.yaml --concurrency 2 screen-runs.jsonl
assert_rc "--concurrency 2: exit 0" 0
assert_eq "--concurrency 2: every run judged" "$(fields "$TMP/conc2.out" | cut -d'|' -f3 | tr '\n' ' ')" "ok ok ok ok skipped error "
assert_eq "--concurrency 2: four requests" "$(lines_of "$TMP/slow.log")" 4
assert_eq "--concurrency 2: two requests in flight at most, and two at once" "$(max_in_flight "$TMP/slow.log")" 2

cat > "$TMP/slow1.json" <<'EOF'
{"default": {"delay_ms": 400, "content": {"score": 5, "reason": "slow"}}}
EOF
fake_llm_start slow1 "$TMP/slow1.json"
sed "s|127.0.0.1:$CUST_PORT|127.0.0.1:$PORT|" "$TMP/cust/judges.yaml" > "$D/judges.yaml"
judge conc1 -c judges.yaml --concurrency 1 --refresh screen-runs.jsonl
assert_eq "--concurrency 1: four requests" "$(lines_of "$TMP/slow1.log")" 4
assert_eq "--concurrency 1: one after another" "$(max_in_flight "$TMP/slow1.log")" 1
assert_eq "--concurrency 1: the lines stay in input order" "$(fields "$TMP/conc1.out" | cut -d'|' -f1 | tr '\n' ' ')" \
	"en-pass ja-fail zh-refund esc-codes no-task screen-runs.jsonl:6 "

# ---- failures -------------------------------------------------------------------

# A custom judge on the first run only (--limit 1), one server per case.
# fail_case NAME SCRIPT-JSON [YAML-EXTRA]: runs it; the line in $TMP/NAME.out.
fail_case() {
	printf '%s\n' "$2" > "$TMP/$1.json"
	fake_llm_start "$1" "$TMP/$1.json"
	fresh "$1"
	cp "$TMP/cust/helpful.txt" "$D/"
	sed "s|127.0.0.1:$CUST_PORT|127.0.0.1:$PORT|" "$TMP/cust/judges.yaml" > "$D/judges.yaml"
	[ -n "${3:-}" ] && printf '%s\n' "$3" >> "$D/judges.yaml"
	judge "$1" -c judges.yaml --limit 1 screen-runs.jsonl
}

fail_case e500 '{"default": {"status": 500, "raw": "server exploded"}}' '    max_retries: 2'
assert_rc "HTTP 500: still exits 0 (the verdict says error)" 0
assert_eq "HTTP 500: an error line" "$(fields "$TMP/e500.out")" "en-pass|helpful|error|null|null"
assert_eq "HTTP 500: the cause, after the retries" "$(errors "$TMP/e500.out")" '"judge: HTTP 500: server exploded (after 2 retries)"'
assert_eq "HTTP 500: max_retries 2 is three requests" "$(lines_of "$TMP/e500.log")" 3
assert_grep "HTTP 500: details keep the status" "$TMP/e500.out" '"details":{"http_status":500,"step":0,'
assert_eq "HTTP 500: an error is not cached" "$(lines_of "$D/screen-runs.jsonl.judgements.jsonl")" 0
judge e500b -c judges.yaml --limit 1 screen-runs.jsonl
assert_eq "HTTP 500: the next run asks again" "$(lines_of "$TMP/e500.log")" 6

fail_case notjson '{"default": {"content": "I would say it is fine."}}'
assert_eq "not JSON twice: an error line" "$(fields "$TMP/notjson.out")" "en-pass|helpful|error|null|null"
assert_eq "not JSON twice: the error says why" "$(errors "$TMP/notjson.out")" \
	'"judge: unusable answer after a retry: no JSON object in the answer"'
assert_grep "not JSON twice: details keep the raw reply" "$TMP/notjson.out" \
	'"details":{"error":"no JSON object in the answer","step":0,"raw_reply":"I would say it is fine.",'
assert_eq "not JSON twice: asked twice" "$(lines_of "$TMP/notjson.log")" 2
sed -n 2p "$TMP/notjson.log" > "$TMP/req1"
assert_grep "not JSON: the second request says what was wrong" "$TMP/req1" \
	'Your previous reply could not be used: no JSON object in the answer.\nReply again with a single JSON object'
assert_grep "not JSON: the second request spells out the schema" "$TMP/req1" 'It must match this JSON Schema exactly:\n{\n  \"type\": \"object\"'
assert_no_grep "not JSON: the retry does not ask for structured output" "$TMP/req1" '"response_format"'

fail_case fence '{"default": {"content": "Here is my verdict:\n```json\n{\"score\": 7, \"reason\": \"fenced\"}\n```\nThanks."}}'
assert_eq "a reply in a json fence parses" "$(fields "$TMP/fence.out")" "en-pass|helpful|ok|7|true"
assert_grep "a fenced reply: its reason" "$TMP/fence.out" '"reason":"fenced"'
assert_eq "a fenced reply: one request" "$(lines_of "$TMP/fence.log")" 1

fail_case rate '{"rules": [{"times": 1, "status": 429, "headers": {"Retry-After": "1"}, "body": {"error": {"message": "slow down", "type": "rate_limit"}}}],
 "default": {"content": {"score": 9, "reason": "after the wait"}}}'
assert_eq "429 with Retry-After, then an answer: ok" "$(fields "$TMP/rate.out")" "en-pass|helpful|ok|9|true"
assert_eq "429: two requests" "$(lines_of "$TMP/rate.log")" 2
gap=$(at_ms "$TMP/rate.log" | awk 'NR == 1 { a = $1 } NR == 2 { print $1 - a }')
if [ -n "$gap" ] && [ "$gap" -ge 990 ]; then
	pass "429: the retry waits the second Retry-After asks"
else
	fail "429: the retry waits the second Retry-After asks" "gap '$gap' ms"
fi

fail_case badscore '{"default": {"content": {"score": 11, "reason": "off the scale"}}}'
assert_eq "a score off the scale twice: error" "$(errors "$TMP/badscore.out")" \
	'"judge: unusable answer after a retry: score 11 is outside the scale 0..10"'
assert_eq "a score off the scale: asked twice" "$(lines_of "$TMP/badscore.log")" 2

# A server that echoes the key: the key is masked before anyone sees it.
fail_case echo "{\"default\": {\"status\": 401, \"body\": {\"error\": {\"message\": \"Incorrect API key provided: $KEY\"}}}}"
assert_eq "401: an error line" "$(fields "$TMP/echo.out")" "en-pass|helpful|error|null|null"
assert_grep "401: the server's message, the key masked" "$TMP/echo.out" '"error":"judge: HTTP 401: Incorrect API key provided: ****'
assert_eq "401 is not retried" "$(lines_of "$TMP/echo.log")" 1
fail_case echo2 "{\"default\": {\"content\": {\"score\": 7, \"reason\": \"you sent $KEY\"}}}"
assert_grep "an answer that echoes the key: masked in the verdict" "$TMP/echo2.out" '"reason":"you sent ****'
assert_eq "... and cached masked" "$(grep -c 'you sent \*\*\*\*' "$D/screen-runs.jsonl.judgements.jsonl")" 1

# No key: the judge says which variable to set, and nothing is sent.
fake_llm_start nokey "$TMP/slow1.json"
fresh nokey
cp "$TMP/cust/helpful.txt" "$D/"
sed "s|127.0.0.1:$CUST_PORT|127.0.0.1:$PORT|" "$TMP/cust/judges.yaml" > "$D/judges.yaml"
(OPENAI_API_KEY='' && export OPENAI_API_KEY && judge nokey -c judges.yaml --limit 1 screen-runs.jsonl)
assert_eq "no key: the error names the variable" "$(errors "$TMP/nokey.out")" '"judge: OPENAI_API_KEY is not set"'
assert_eq "no key: nothing is sent" "$(lines_of "$TMP/nokey.log")" 0

# ---- the key is written nowhere ---------------------------------------------------

# Every file tcreview wrote (caches, its stdout and stderr) but the servers'
# own logs, which hold the requests as received.
found=$(grep -rlF -- "$KEY" "$TMP" 2>/dev/null | grep -v '\.log$' | grep -v '\.json$' | grep -v '/req[01]$' | sed "s|^$TMP/||")
assert_eq "the API key is in no file written and in no stderr text" "$found" ""
assert_grep "(the key did go to the server)" "$TMP/appr.log" "Bearer $KEY"
cat "$TMP"/*.err > "$TMP/all.err"
assert_no_grep "no sanitizer report" "$TMP/all.err" "Sanitizer"
assert_no_grep "no runtime error report" "$TMP/all.err" "runtime error"
cat "$TMP"/*.srv.err > "$TMP/srv.all" 2>/dev/null
assert_no_grep "no sanitizer report from the servers" "$TMP/srv.all" "Sanitizer"

finish
