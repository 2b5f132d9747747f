#!/bin/sh
# judge_examples.sh - `tcreview judge` with a judge that has examples:,
# against the local fake LLM server (tests/fake_llm.c): the labels of the
# annotations file beside the input (or -a FILEs) become the examples sent
# in the prompt with their grades and reasons, never the run judged; the
# verdict lines list them; the same examples are a cache hit, others ask
# again; a stale label is left out; no labels still judges, with a note;
# the annotations are only read. Talks only to 127.0.0.1; every wait is
# bounded.
. "$TCR_SRCDIR/tests/cli/lib.sh"

fake_llm_need

unset http_proxy HTTP_PROXY https_proxy HTTPS_PROXY all_proxy ALL_PROXY \
	OPENAI_BASE_URL AZURE_OPENAI_ENDPOINT AZURE_OPENAI_API_KEY ANTHROPIC_API_KEY ANTHROPIC_BASE_URL
no_proxy='*' NO_PROXY='*'
export no_proxy NO_PROXY
OPENAI_API_KEY=sk-tcr-test-DUMMY-examples
export OPENAI_API_KEY

if command -v timeout >/dev/null 2>&1; then
	watchdog() { timeout 300 "$@"; }
else
	watchdog() { "$@"; }
fi

D=$TMP/fs
mkdir "$D"
cp "$TCR_SRCDIR/tests/data/screen-runs.jsonl" "$D/runs.jsonl"

# judge NAME ARGS...: in $D; stdout to $TMP/NAME.out, stderr $TMP/NAME.err.
judge() {
	name=$1
	shift
	(cd "$D" && watchdog "$TCR_BIN" judge "$@") >"$TMP/$name.out" 2>"$TMP/$name.err"
	RC=$?
}
requests() { wc -l < "$TMP/fs.log" | tr -d ' '; }
line_of() { grep -F "{\"run\":\"$2\"," "$1" | head -n 1; }
# label RUN REVIEWER SCORE REASON AT [RUN_HASH]: one v2 decision line on acc.
label() {
	hash=null
	[ -n "${6:-}" ] && hash="\"$6\""
	printf '{"v":2,"run":"%s","source":"runs.jsonl:1","run_hash":%s,"scorer":"acc",' "$1" "$hash"
	printf '"scorer_type":"tool-call-accuracy-1to5","model":"openai/judge-model",'
	printf '"prompt_hash":"fedcba9876543210","machine_score":3,"machine_passed":true,'
	printf '"decision":"override","score":%s,"reason":"%s","reviewer":"%s","blind":false,' "$3" "$4" "$2"
	printf '"at":"%s","config":"0123456789abcdef"}\n' "$5"
}

cat > "$TMP/fs.json" <<'EOF'
{"rules": [], "default": {"content": {"score": 4, "reason": "fine", "status": "completed"}}}
EOF
fake_llm_start fs "$TMP/fs.json"

cat > "$D/judges.yaml" <<EOF
judges:
  - id: acc
    rubric: tool-call-accuracy-1to5
    model: openai/judge-model
    base_url: http://127.0.0.1:$PORT/v1
    max_retries: 0
    tools: [{name: get_order, description: looks an order up}, {name: track_parcel, description: tracks a parcel}, {name: refund_order, description: refunds an order}]
    examples: {k: 2, pick: recent, split: train, splits: "train=1"}
EOF

# ---- the annotations beside the input --------------------------------------

{
	label ja-fail ann 2 "tracked a parcel number nobody gave" 2026-01-02T09:00:00Z
	label esc-codes bob 5 "went straight to the order" 2026-01-03T09:00:00Z
	label zh-refund ann 1 "a label on an older text of the run" 2026-01-04T09:00:00Z \
		0000000000000000000000000000000000000000000000000000000000000000
} > "$D/runs.jsonl.annotations.jsonl"
cp "$D/runs.jsonl.annotations.jsonl" "$TMP/annotations.before"

judge first -c judges.yaml runs.jsonl
assert_rc "judge: with examples, exit 0" "$RC" 0
assert_grep "judge: says how many labelled runs it may show" "$TMP/first.err" \
	"tcreview judge: acc: 2 labelled runs to choose 2 examples from (split train)"
assert_grep "judge: a stale label is left out, and said so" "$TMP/first.err" \
	"1 stale label left out of the examples"
assert_grep "judge: a line for en-pass" "$TMP/first.out" \
	'{"run":"en-pass",'
line_of "$TMP/first.out" en-pass > "$TMP/en"
assert_grep "judge: the details list the examples shown" "$TMP/en" '"examples":["esc-codes","ja-fail"]'
line_of "$TMP/first.out" ja-fail > "$TMP/ja"
assert_grep "judge: never the run judged" "$TMP/ja" '"examples":["esc-codes"]'
grep -F call_en-pass_0 "$TMP/fs.log" | head -n 1 > "$TMP/en.req"
assert_grep "judge: the prompt holds a grade" "$TMP/en.req" \
	"The reviewer's grade: 5 (on 1..5; a pass)\\nThe reviewer's reason: went straight to the order"
assert_grep "judge: and the other one" "$TMP/en.req" \
	"The reviewer's grade: 2 (on 1..5; a fail)\\nThe reviewer's reason: tracked a parcel number nobody gave"
assert_grep "judge: an example is rendered like the input" "$TMP/en.req" \
	"The user's request:\\n<<<\\nWhere is order 77?"
assert_no_grep "judge: the stale label is not shown" "$TMP/en.req" "an older text"
if cmp -s "$D/runs.jsonl.annotations.jsonl" "$TMP/annotations.before"; then
	pass "judge: the annotations are only read"
else
	fail "judge: the annotations are only read" "the file changed"
fi

# ---- the cache -------------------------------------------------------------

n0=$(requests)
judge again -c judges.yaml runs.jsonl
assert_rc "judge: again, exit 0" "$RC" 0
assert_eq "judge: the same examples are cached" "$(requests)" "$n0"
line_of "$TMP/again.out" en-pass > "$TMP/en2"
assert_grep "judge: a cached verdict still lists its examples" "$TMP/en2" \
	'"examples":["esc-codes","ja-fail"]'

# -a instead of the default file: other labels, other examples, asked again.
label no-task ann 1 "did nothing at all" 2026-01-05T09:00:00Z > "$D/mine.jsonl"
label esc-codes bob 5 "went straight to the order" 2026-01-03T09:00:00Z > "$D/theirs.jsonl"
judge other -c judges.yaml -a mine.jsonl -a theirs.jsonl runs.jsonl
assert_rc "judge -a: exit 0" "$RC" 0
line_of "$TMP/other.out" en-pass > "$TMP/en3"
assert_grep "judge -a: the labels of every file" "$TMP/en3" '"examples":["no-task","esc-codes"]'
if [ "$(requests)" -gt "$n0" ]; then
	pass "judge -a: other examples ask again"
else
	fail "judge -a: other examples ask again" "requests: $(requests), before: $n0"
fi
assert_no_grep "judge -a: the default file is not read then" "$TMP/other.out" '"ja-fail"]'

judge missing -c judges.yaml -a nowhere.jsonl runs.jsonl
assert_rc "judge -a: a file that is not there, exit 3" "$RC" 3
assert_grep "judge -a: says which" "$TMP/missing.err" "nowhere.jsonl: no such annotations file"
if [ -e "$D/nowhere.jsonl" ]; then
	fail "judge -a: nothing is created" "nowhere.jsonl exists"
else
	pass "judge -a: nothing is created"
fi

# ---- no labels at all ------------------------------------------------------

rm -f "$D/runs.jsonl.annotations.jsonl" "$D/runs.jsonl.judgements.jsonl"
judge bare -c judges.yaml runs.jsonl
assert_rc "judge: no labels, exit 0" "$RC" 0
assert_grep "judge: no labels, a note" "$TMP/bare.err" \
	"acc: no labelled run to show as an example (no annotations file); asked without examples"
line_of "$TMP/bare.out" en-pass > "$TMP/en4"
assert_grep "judge: no labels, judged all the same" "$TMP/en4" '"status":"ok","score":4'
assert_grep "judge: no labels, no examples listed" "$TMP/en4" '"examples":[]'
if [ -e "$D/runs.jsonl.annotations.jsonl" ]; then
	fail "judge: no annotations file is made" "it exists"
else
	pass "judge: no annotations file is made"
fi

finish
