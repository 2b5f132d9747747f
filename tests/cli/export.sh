#!/bin/sh
# export.sh - `tcreview export`: the labelled set of two reviewers (their
# annotations lines written here) and of a third who labels through the
# screen's script mode, in jsonl, csv and openai-ft, each parsed back with
# python3's json and csv modules; the split stable across exports, seeds
# and a reordered input, and its proportions on a generated set;
# --criterion, --reviewer, --include-stale, --only-split, -o; the
# fine-tuning lines against the prompts the judges sent to the local test
# server (tests/fake_llm.c), whose answers are the machine verdicts in the
# judge cache; and bad inputs. Talks only to 127.0.0.1.
. "$TCR_SRCDIR/tests/cli/lib.sh"

fake_llm_need

unset http_proxy HTTP_PROXY https_proxy HTTPS_PROXY all_proxy ALL_PROXY OPENAI_BASE_URL
no_proxy='*' NO_PROXY='*'
OPENAI_API_KEY=sk-tcr-test-export
export no_proxy NO_PROXY OPENAI_API_KEY

if command -v python3 >/dev/null 2>&1; then PY=python3; else PY=; fi
# py NAME SCRIPT ARGS...: a python3 check; its last line of output is
# "ok" or what went wrong. Without python3 the case is skipped, saying so.
py() {
	name=$1 script=$2
	shift 2
	if [ -z "$PY" ]; then
		skip "$name" "python3 is not installed, so the output is not parsed back"
		return
	fi
	"$PY" -c "$script" "$@" > "$TMP/py.out" 2>&1
	if [ "$(tail -n 1 "$TMP/py.out")" = ok ]; then pass "$name"; else fail "$name" "$(head -c 3000 "$TMP/py.out")"; fi
}

D=$TMP/d
mkdir "$D"
cp "$TCR_SRCDIR/tests/data/screen-runs.jsonl" "$TCR_SRCDIR/tests/data/screen-tasks.jsonl" "$D/"

# export NAME ARGS...: `tcreview export ARGS` in $D; stdout in $TMP/NAME.out,
# stderr in $TMP/NAME.err (and $TMP/err for assert_rc); sets RC.
if command -v timeout >/dev/null 2>&1; then
	watchdog() { timeout 300 "$@"; }
else
	watchdog() { "$@"; }
fi
export_() {
	name=$1
	shift
	(cd "$D" && watchdog "$TCR_BIN" export "$@") >"$TMP/$name.out" 2>"$TMP/$name.err"
	RC=$?
	cp "$TMP/$name.err" "$TMP/err"
}
lines_of() { if [ -f "$1" ]; then wc -l < "$1" | tr -d ' '; else echo 0; fi; }

# ---- the judges, answered by the local server ------------------------------

cat > "$TMP/llm.json" <<'EOF'
{"rules": [
 {"match": {"body_contains": "You grade how well an AI agent used its tools"}, "content": {"reason": "Right tools.", "score": 3, "status": "completed", "properties": null}},
 {"match": {"body_contains": "Rate the agent's answer"}, "content": {"score": 4, "reason": "Clear and short."}},
 {"match": {"body_contains": "Explain a score for a person"}, "content": "The calls fit the request."},
 {"match": {"body_contains": "The score is"}, "content": "The calls fit the request."},
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
fake_llm_start llm "$TMP/llm.json"
cat > "$D/rate.txt" <<'EOF'
# a custom judge for the export tests
=== system
Rate the agent's answer from {{min}} to {{max}}; {{pass}} passes.
=== user
Request: {{input}}
Answer: {{output}}
EOF
cat > "$D/export.yaml" <<EOF
expectations:
  file: screen-tasks.jsonl
  match: {run: task_id, expected: task_id}
scorers:
  - id: tool-order
    type: tool-call-accuracy
    expectedToolOrder: {from: expected.tools}
  - id: lookup
    type: tool-call-accuracy
    expectedTool: get_order
  - id: words
    type: word-inclusion
judges:
  - id: appr
    rubric: tool-appropriateness
    model: openai/judge-model
    base_url: http://127.0.0.1:$PORT/v1
    tools: [{name: get_order, description: looks an order up}, {name: track_parcel, description: tracks a parcel}, {name: refund_order, description: refunds an order}]
  - id: rate
    rubric: custom
    model: openai/rater
    base_url: http://127.0.0.1:$PORT/v1
    prompt_file: rate.txt
    scale: {min: 1, max: 5, pass: 4}
  - id: acc
    rubric: tool-call-accuracy-1to5
    model: openai/grader
    base_url: http://127.0.0.1:$PORT/v1
    tools: [{name: get_order, description: looks an order up}, {name: track_parcel, description: tracks a parcel}, {name: refund_order, description: refunds an order}]
EOF
(cd "$D" && watchdog "$TCR_BIN" judge -c export.yaml screen-runs.jsonl) >"$TMP/judge.out" 2>"$TMP/judge.err"
RC=$?
cp "$TMP/judge.err" "$TMP/err"
assert_rc "setup: the judges answer every run (the judge cache is filled)" 0
# appr and rate on five runs, acc on the four with calls (no-task is skipped).
assert_eq "setup: fourteen verdicts cached" "$(lines_of "$D/screen-runs.jsonl.judgements.jsonl")" 14
REQUESTS=$(lines_of "$TMP/llm.log")

# ---- two reviewers' labels ----------------------------------------------------

# The SHA-256 of each record's bytes (the line without its end), as a label
# made on that run records it.
hash_of() { sed -n "${1}p" "$D/screen-runs.jsonl" | tr -d '\n' | sha256sum | cut -c1-64; }
if ! command -v sha256sum >/dev/null 2>&1; then
	fail "sha256sum is installed" "the labels need the runs' hashes"
	finish
fi
H1=$(hash_of 1) H2=$(hash_of 2) H3=$(hash_of 3) H4=$(hash_of 4) H5=$(hash_of 5)
OLD=0000000000000000000000000000000000000000000000000000000000000000

# label FILE RUN ROW TYPE REVIEWER DECISION SCORE REASON AT HASH [BLIND]:
# one decision line of schema v2 (REASON null for none). An accept
# records the machine's score, which is its label.
label() {
	reason=$8 machine=null
	[ "$reason" = null ] || reason="\"$reason\""
	[ "$6" = accept ] && machine=$7
	printf '{"v":2,"run":"%s","source":"screen-runs.jsonl","run_hash":"%s","scorer":"%s","scorer_type":"%s","model":null,"prompt_hash":null,"machine_score":%s,"machine_passed":null,"decision":"%s","score":%s,"reason":%s,"reviewer":"%s","blind":%s,"at":"%s","config":"c"}\n' \
		"$2" "${10}" "$3" "$4" "$machine" "$6" "$7" "$reason" "$5" "${11:-false}" "$9" >> "$1"
}
A=$D/labels.jsonl
T0=2026-01-10T10:00:00Z T1=2026-01-10T11:00:00Z T2=2026-01-10T12:00:00Z
label "$A" en-pass lookup tool-call-accuracy ann accept 1 null $T0 "$H1"
label "$A" en-pass lookup tool-call-accuracy bob override 0 "looked the order up twice" $T1 "$H1"
label "$A" en-pass appr tool-appropriateness ann accept 0.67 null $T0 "$H1"
label "$A" en-pass appr tool-appropriateness bob accept 0.67 null $T1 "$H1"
label "$A" ja-fail appr tool-appropriateness ann override 0 "the parcel had no tracking number" $T0 "$H2" true
label "$A" ja-fail appr tool-appropriateness bob override 0 "wrong tool" $T1 "$H2"
label "$A" zh-refund appr tool-appropriateness bob override 0 "the refund was not asked for" $T1 "$H3"
label "$A" zh-refund appr tool-appropriateness ann override 0 "no refund was asked for" $T0 "$H3"
label "$A" zh-refund words word-inclusion ann accept 1 null $T0 "$H3"
label "$A" zh-refund words word-inclusion bob override 0.5 "half of it" $T1 "$OLD"
label "$A" zh-refund rate custom ann override 2 "too curt" $T0 "$H3"
label "$A" zh-refund rate custom bob override 2 null $T1 "$H3"
label "$A" esc-codes rate custom ann override 5 "fine" $T0 "$H4"
label "$A" esc-codes rate custom bob override 4 "good enough" $T1 "$H4"
label "$A" ja-fail acc tool-call-accuracy-1to5 ann override 2 "the tracking number was made up" $T0 "$H2"
label "$A" ja-fail acc tool-call-accuracy-1to5 bob override 2 "made up" $T1 "$H2"
label "$A" esc-codes acc tool-call-accuracy-1to5 ann override 5 "optimal" $T0 "$H4"
label "$A" esc-codes acc tool-call-accuracy-1to5 bob override 4 "one call too many" $T1 "$H4"
label "$A" no-task lookup tool-call-accuracy bob accept 0 null $T1 "$OLD"
label "$A" no-task words word-inclusion ann accept 0.4 null $T0 "$H5"
label "$A" no-task words word-inclusion ann retract null null $T2 "$H5"

# ---- jsonl ------------------------------------------------------------------------

export_ jsonl -c export.yaml -a labels.jsonl screen-runs.jsonl
assert_rc "jsonl: exits 0" 0
assert_eq "jsonl: one line per run and criterion with a label that counts" "$(lines_of "$TMP/jsonl.out")" 9
assert_grep "jsonl: stderr counts the rows and runs" "$TMP/jsonl.err" "tcreview export: wrote 9 rows of 4 runs to standard output"
assert_grep "jsonl: a row whose only label is stale is counted" "$TMP/jsonl.err" "left out 1 row whose only labels are stale"
assert_grep "jsonl: the unreadable record is named" "$TMP/jsonl.err" "screen-runs.jsonl:6: premature end of input"
assert_eq "jsonl: asks no judge" "$(lines_of "$TMP/llm.log")" "$REQUESTS"
assert_grep "jsonl: fixed keys, in order" "$TMP/jsonl.out" \
	"{\"run\":\"en-pass\",\"source\":\"screen-runs.jsonl:1\",\"run_hash\":\"$H1\",\"criterion\":\"lookup\",\"kind\":\"scorer\",\"scale\":\"binary\",\"threshold\":1,\"input\":\"Where is my order 1042? It was supposed to arrive on Monday.\",\"output\":"

py "jsonl: every line parses, with the keys of the man page in order" '
import json, sys
keys = "run source run_hash criterion kind scale threshold input output calls expected machine consensus labels tags call_labels split".split()
rows = [json.loads(l) for l in open(sys.argv[1], encoding="utf-8")]
bad = [r["run"] for r in rows if list(r) != keys]
print(bad or "ok")' "$TMP/jsonl.out"

py "jsonl: the rows, their consensus and labels" '
import json, sys
rows = {(r["run"], r["criterion"]): r for r in map(json.loads, open(sys.argv[1], encoding="utf-8"))}
want = {("en-pass", "lookup"): ("tie", None), ("en-pass", "appr"): ("ok", 0.67),
        ("ja-fail", "appr"): ("ok", 0), ("zh-refund", "appr"): ("ok", 0),
        ("zh-refund", "words"): ("ok", 1), ("zh-refund", "rate"): ("ok", 2),
        ("esc-codes", "rate"): ("tie", None), ("ja-fail", "acc"): ("ok", 2),
        ("esc-codes", "acc"): ("tie", None)}
got = {k: (r["consensus"]["status"], r["consensus"]["score"]) for k, r in rows.items()}
assert got == want, got
r = rows[("en-pass", "lookup")]
assert r["consensus"] == {"status": "tie", "score": None, "passed": None, "n": 2}, r["consensus"]
assert r["labels"] == [
  {"reviewer": "ann", "decision": "accept", "score": 1, "passed": True, "reason": None,
   "at": "2026-01-10T10:00:00Z", "blind": False, "stale": False},
  {"reviewer": "bob", "decision": "override", "score": 0, "passed": False,
   "reason": "looked the order up twice", "at": "2026-01-10T11:00:00Z", "blind": False, "stale": False}], r["labels"]
assert r["machine"] == {"status": "ok", "score": 1, "passed": True, "message": None, "model": None,
                        "prompt_hash": None}, r["machine"]
assert r["scale"] == "binary" and r["threshold"] == 1 and r["kind"] == "scorer"
assert [c["name"] for c in r["calls"]] == ["get_order", "track_parcel"], r["calls"]
assert r["calls"][0]["arguments"] == {"order_id": "1042"}, r["calls"][0]
assert r["calls"][0]["error"] is None and r["calls"][0]["result"] is not None
assert r["expected"] == {"task_id": "where", "tools": ["get_order", "track_parcel"]}, r["expected"]
assert r["output"] and r["input"].startswith("Where is my order 1042?")
# A blind label says so; the consensus of two 0s is 0, failing.
r = rows[("ja-fail", "appr")]
assert [l["blind"] for l in r["labels"]] == [True, False], r["labels"]
assert r["consensus"] == {"status": "ok", "score": 0, "passed": False, "n": 2}
# The judge verdicts come from the cache: model, prompt hash, score.
r = rows[("en-pass", "appr")]
m = r["machine"]
assert m["status"] == "ok" and m["score"] == 0.67 and m["passed"] is True, m
assert m["model"] == "openai/judge-model" and len(m["prompt_hash"]) == 16, m
assert r["kind"] == "judge" and r["scale"] == "0..1" and r["threshold"] == 0.5
r = rows[("zh-refund", "rate")]
assert r["scale"] == "1..5" and r["threshold"] == 4 and r["machine"]["model"] == "openai/rater", r
assert r["machine"]["score"] == 4 and r["consensus"]["passed"] is False
# 1..5 counts in whole steps, for the built-in rubric and a custom judge
# alike: two middle labels that differ are a tie.
r = rows[("esc-codes", "acc")]
assert r["scale"] == "1..5" and r["threshold"] == 3 and r["machine"]["score"] == 3, r
r = rows[("esc-codes", "rate")]
assert r["scale"] == "1..5" and r["consensus"]["status"] == "tie", r
# A stale label is shown, flagged, and not counted.
r = rows[("zh-refund", "words")]
assert [(l["reviewer"], l["stale"]) for l in r["labels"]] == [("ann", False), ("bob", True)], r["labels"]
assert r["consensus"]["n"] == 1 and r["consensus"]["score"] == 1
# Every row of a run is in the same split, one of the default three.
splits = {}
for (run, _), r in rows.items():
    splits.setdefault(run, set()).add(r["split"])
assert all(len(s) == 1 and s <= {"train", "dev", "test"} for s in splits.values()), splits
print("ok")' "$TMP/jsonl.out"

py "jsonl: run_hash is the SHA-256 of the record, source its place" '
import json, sys, hashlib
lines = open(sys.argv[2], "rb").read().split(b"\n")
for r in map(json.loads, open(sys.argv[1], encoding="utf-8")):
    n = int(r["source"].rsplit(":", 1)[1])
    assert r["run_hash"] == hashlib.sha256(lines[n - 1]).hexdigest(), r["run"]
print("ok")' "$TMP/jsonl.out" "$D/screen-runs.jsonl"

export_ jsonl2 -c export.yaml -a labels.jsonl screen-runs.jsonl
if cmp -s "$TMP/jsonl.out" "$TMP/jsonl2.out"; then pass "jsonl: a second export is the same, byte for byte"
else fail "jsonl: a second export is the same, byte for byte" "$(diff "$TMP/jsonl.out" "$TMP/jsonl2.out" | head -c 2000)"; fi

# ---- csv --------------------------------------------------------------------------

export_ csv -c export.yaml -a labels.jsonl --format csv screen-runs.jsonl
assert_rc "csv: exits 0" 0
assert_eq "csv: the header line" "$(head -n 1 "$TMP/csv.out")" \
	"$(printf 'run,source,run_hash,criterion,kind,scale,threshold,input,output,calls,expected,machine,consensus,labels,tags,call_labels,split\r')"
py "csv: parsed back (RFC 4180), each cell is the jsonl row's value" '
import csv, io, json, sys
rows = [json.loads(l) for l in open(sys.argv[1], encoding="utf-8")]
with open(sys.argv[2], newline="", encoding="utf-8") as f:
    data = f.read()
assert data.endswith("\r\n") and data.count("\r\n") >= len(rows) + 1
table = list(csv.reader(io.StringIO(data, newline="")))
head, body = table[0], table[1:]
assert head == list(rows[0]), head
assert len(body) == len(rows), (len(body), len(rows))
def cell(v):
    if v is None: return ""
    if isinstance(v, bool): return "true" if v else "false"
    if isinstance(v, str): return v
    return None
for r, line in zip(rows, body):
    for k, got in zip(head, line):
        v = r[k]
        want = cell(v)
        if want is None:
            assert json.loads(got) == v, (k, got, v)
        else:
            assert got == want, (k, got, want)
print("ok")' "$TMP/jsonl.out" "$TMP/csv.out"

# ---- openai-ft ----------------------------------------------------------------------

export_ ft -c export.yaml -a labels.jsonl --format openai-ft screen-runs.jsonl
assert_rc "openai-ft: exits 0" 0
assert_eq "openai-ft: one line per judge row with a consensus" "$(lines_of "$TMP/ft.out")" 5
assert_grep "openai-ft: the scorer rows left out are counted" "$TMP/ft.err" "left out 2 scorer rows (openai-ft is for judges)"
assert_grep "openai-ft: the ties left out are counted" "$TMP/ft.err" "left out 2 ties (the reviewers do not agree on a label)"
assert_grep "openai-ft: stderr counts the lines" "$TMP/ft.err" "wrote 5 training lines of 3 runs"
py "openai-ft: system and user are the prompt the judge sent for that run" '
import json, sys
sent = []
for l in open(sys.argv[2], encoding="utf-8"):
    b = json.loads(l).get("body")
    if isinstance(b, dict) and "messages" in b:
        sent.append(b)
for l in open(sys.argv[1], encoding="utf-8"):
    o = json.loads(l)
    assert list(o) == ["messages"], list(o)
    m = o["messages"]
    assert [x["role"] for x in m] == ["system", "user", "assistant"], m
    assert all(list(x) == ["role", "content"] for x in m)
    first = [b for b in sent if b["messages"] == m[:2]]
    assert first, "no request had this prompt: " + m[1]["content"][:200]
    assert all("response_format" in b for b in first), "not the first step"
print("ok")' "$TMP/ft.out" "$TMP/llm.log"
py "openai-ft: the assistant answers in each judge's own form" '
import json, sys
got = {}
for l in open(sys.argv[1], encoding="utf-8"):
    m = json.loads(l)["messages"]
    got[m[0]["content"] + "\n" + m[1]["content"]] = json.loads(m[2]["content"])
def one(*texts):
    hits = [a for u, a in got.items() if all(t in u for t in texts)]
    assert len(hits) == 1, (texts, len(hits))
    return hits[0]
# en-pass: the label is the judge own 0.67, so its own ratings stand.
a = one("called, in order: get_order, track_parcel\n")
assert [e["wasAppropriate"] for e in a["evaluations"]] == [True, True, False], a
assert a["evaluations"][2]["reasoning"] == "a second look was not needed"
# ja-fail: 0 is the judge own score too, its missing tools kept.
a = one("called, in order: track_parcel\n")
assert a == {"evaluations": [{"toolCalled": "track_parcel", "wasAppropriate": False,
             "reasoning": "no tracking number was given"}], "missingTools": ["get_order"]}, a
# zh-refund: the reviewers said 0 where the judge said 1: every call rated
# inappropriate with the first reviewer reason (ann, by name).
a = one("called, in order: get_order, refund_order\n")
assert a == {"evaluations": [
  {"toolCalled": "get_order", "wasAppropriate": False, "reasoning": "no refund was asked for"},
  {"toolCalled": "refund_order", "wasAppropriate": False, "reasoning": "no refund was asked for"}],
  "missingTools": []}, a
# The custom judge: {score, reason} with the consensus and a reviewer
# reason; on its 1..5 (whole steps) the 5 and 4 of esc-codes are a tie,
# left out.
a = one("Request: \u6211\u7684\u8ba2\u5355 2087")
assert a == {"score": 2, "reason": "too curt"}, a
assert not [u for u in got if "Request: Where is order 77?" in u], "a tie was written"
# 1..5: the level and the reason, status completed, no counters.
a = one("You grade how well", "\u6ce8\u6587\u756a\u53f71042")
assert a == {"reason": "the tracking number was made up", "score": 2, "status": "completed",
             "properties": None}, a
print("ok")' "$TMP/ft.out"
export_ ft_scorer -c export.yaml -a labels.jsonl --format openai-ft --criterion lookup screen-runs.jsonl
assert_rc "openai-ft: only scorers asked for: exits 0" 0
assert_eq "openai-ft: no line for a scorer" "$(lines_of "$TMP/ft_scorer.out")" 0
assert_grep "openai-ft: says so" "$TMP/ft_scorer.err" "left out 1 scorer row (openai-ft is for judges)"

# A consensus between the calls' all and none has no answer in
# appropriateness' form: left out, with the reason.
cp "$A" "$D/half.jsonl"
label "$D/half.jsonl" esc-codes appr tool-appropriateness ann override 0.5 "half right" $T0 "$H4"
export_ ft_half -c export.yaml -a half.jsonl --format openai-ft --criterion appr screen-runs.jsonl
assert_eq "openai-ft: a label the form cannot say is left out" "$(lines_of "$TMP/ft_half.out")" 3
assert_grep "openai-ft: and the reason is given" "$TMP/ft_half.err" \
	"left out 1 label the judge's answer cannot say; the first: screen-runs.jsonl:4: a label of 0.5 does not say which of the 1 calls were appropriate"

# ---- --criterion, --reviewer, --include-stale ----------------------------------------

export_ crit -c export.yaml -a labels.jsonl --criterion rate --criterion lookup screen-runs.jsonl
assert_eq "--criterion: only those rows" "$(sed 's/.*"criterion":"\([^"]*\)".*/\1/' "$TMP/crit.out" | sort | tr '\n' ' ')" "lookup rate rate "
export_ crit_bad -c export.yaml -a labels.jsonl --criterion nope screen-runs.jsonl
assert_rc "--criterion: an unknown id exits 2" 2
assert_grep "--criterion: and is named" "$TMP/crit_bad.err" "--criterion nope: no scorer or judge of that id in the configuration"

export_ ann -c export.yaml -a labels.jsonl --reviewer ann screen-runs.jsonl
assert_eq "--reviewer: the rows that reviewer labelled" "$(lines_of "$TMP/ann.out")" 9
assert_no_grep "--reviewer: no other reviewer's label" "$TMP/ann.out" '"reviewer":"bob"'
assert_grep "--reviewer: the consensus is that reviewer's" "$TMP/ann.out" \
	'"criterion":"lookup","kind":"scorer"'
py "--reviewer: one reviewer's labels make the consensus" '
import json, sys
rows = {(r["run"], r["criterion"]): r for r in map(json.loads, open(sys.argv[1], encoding="utf-8"))}
assert rows[("en-pass", "lookup")]["consensus"] == {"status": "ok", "score": 1, "passed": True, "n": 1}
assert rows[("esc-codes", "rate")]["consensus"]["score"] == 5
print("ok")' "$TMP/ann.out"
export_ nobody -c export.yaml -a labels.jsonl --reviewer nobody screen-runs.jsonl
assert_rc "--reviewer: an unknown reviewer exits 0" 0
assert_eq "--reviewer: and gives no rows" "$(lines_of "$TMP/nobody.out")" 0
assert_grep "--reviewer: with a warning" "$TMP/nobody.err" "--reviewer nobody: no decision of that reviewer in the annotations"

export_ stale -c export.yaml -a labels.jsonl --include-stale screen-runs.jsonl
assert_eq "--include-stale: the stale-only row comes in" "$(lines_of "$TMP/stale.out")" 10
py "--include-stale: stale labels count in the consensus" '
import json, sys
rows = {(r["run"], r["criterion"]): r for r in map(json.loads, open(sys.argv[1], encoding="utf-8"))}
r = rows[("no-task", "lookup")]
assert r["labels"][0]["stale"] is True and r["consensus"]["score"] == 0, r
r = rows[("zh-refund", "words")]
assert r["consensus"] == {"status": "ok", "score": 0.75, "passed": True, "n": 2}, r["consensus"]
print("ok")' "$TMP/stale.out"

# ---- the split ---------------------------------------------------------------------------

# splits FILE: "run split" pairs, sorted and unique.
splits() { sed 's/^{"run":"\([^"]*\)".*"split":"\([^"]*\)"}$/\1 \2/' "$1" | sort -u; }
# The same runs in the reverse order, under another name: the same bytes,
# so the same hashes (the labels are not stale) and the same splits.
sed -n '1,5p' "$D/screen-runs.jsonl" | sed -n '1!G;h;$p' > "$D/reversed.jsonl"
export_ rev -c export.yaml -a labels.jsonl --include-stale reversed.jsonl
assert_eq "split: a reordered input puts every run in the same split" "$(splits "$TMP/rev.out")" "$(splits "$TMP/stale.out")"
assert_eq "split: a reordered input has the same rows" "$(lines_of "$TMP/rev.out")" 10
assert_eq "no judge cache is made where there was none" "$(ls "$D" | grep -c '^reversed.jsonl.judgements.jsonl$')" 0
py "without a cache the judge rows say not_judged" '
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1], encoding="utf-8")]
js = [r["machine"] for r in rows if r["kind"] == "judge"]
assert js and all(m["status"] == "not_judged" and m["score"] is None and m["model"] for m in js), js
print("ok")' "$TMP/rev.out"
assert_grep "split: the rows follow the new order" "$TMP/rev.out" '{"run":"no-task","source":"reversed.jsonl:1",'

export_ onlytrain -c export.yaml -a labels.jsonl --include-stale --split a=1,b=1 --only-split a screen-runs.jsonl
assert_no_grep "--only-split: no run of another split" "$TMP/onlytrain.out" '"split":"b"'
export_ onlyb -c export.yaml -a labels.jsonl --include-stale --split a=1,b=1 --only-split b screen-runs.jsonl
assert_eq "--only-split: the two halves make the whole" "$(($(lines_of "$TMP/onlytrain.out") + $(lines_of "$TMP/onlyb.out")))" 10
NB=$(lines_of "$TMP/onlyb.out")
[ "$NB" -eq 1 ] && ROWS=row || ROWS=rows
assert_grep "--only-split: the rows of the other split are counted" "$TMP/onlytrain.err" "left out $NB $ROWS of other splits"

# A generated set: 3000 runs, one label each (made on other bytes, so
# counted with --include-stale).
G=$TMP/g
mkdir "$G"
awk 'BEGIN { for (i = 1; i <= 3000; i++)
	printf "{\"id\":\"gen-%d\",\"messages\":[{\"role\":\"user\",\"content\":\"question %d\"},{\"role\":\"assistant\",\"content\":\"answer %d\"}]}\n", i, i, i }' > "$G/gen.jsonl"
awk 'BEGIN { for (i = 1; i <= 3000; i++)
	printf "{\"v\":2,\"run\":\"gen-%d\",\"run_hash\":null,\"scorer\":\"words\",\"decision\":\"override\",\"score\":1,\"reviewer\":\"gen\",\"at\":\"2026-01-10T10:00:00Z\"}\n", i }' > "$G/gen.labels.jsonl"
printf 'scorers:\n  - id: words\n    type: word-inclusion\n' > "$G/gen.yaml"
sed -n '1!G;h;$p' "$G/gen.jsonl" > "$G/gen-reversed.jsonl"
gen() { name=$1; shift; (cd "$G" && watchdog "$TCR_BIN" export -c gen.yaml -a gen.labels.jsonl --include-stale "$@") >"$TMP/$name.out" 2>"$TMP/$name.err"; RC=$?; cp "$TMP/$name.err" "$TMP/err"; }
# within NAME SPLIT WANT TOLERANCE: how many rows of FILE are in SPLIT.
within() {
	n=$(grep -c "\"split\":\"$3\"}\$" "$TMP/$1.out")
	if [ "$n" -ge $(($4 - $5)) ] && [ "$n" -le $(($4 + $5)) ]; then pass "$2 ($n)"
	else fail "$2" "$n rows, expected $4 +- $5"; fi
}
gen gen1 gen.jsonl
assert_rc "generated: exits 0" 0
assert_eq "generated: a row per run" "$(lines_of "$TMP/gen1.out")" 3000
# 4 standard deviations of a binomial count: 3000 runs at 0.6 and 0.2.
within gen1 "generated: about 60% train" train 1800 107
within gen1 "generated: about 20% dev" dev 600 88
within gen1 "generated: about 20% test" test 600 88
gen gen2 gen-reversed.jsonl
assert_eq "generated: reversed, every run keeps its split" "$(splits "$TMP/gen2.out")" "$(splits "$TMP/gen1.out")"
gen gen3 --seed 7 gen.jsonl
if [ "$(splits "$TMP/gen3.out")" != "$(splits "$TMP/gen1.out")" ]; then pass "generated: --seed 7 moves runs to other splits"
else fail "generated: --seed 7 moves runs to other splits" "the same splits as seed 0"; fi
within gen3 "generated: --seed 7 keeps the proportions" train 1800 107
gen gen4 --seed 7 gen.jsonl
if cmp -s "$TMP/gen3.out" "$TMP/gen4.out"; then pass "generated: the same seed twice, the same export"
else fail "generated: the same seed twice, the same export" "they differ"; fi
gen gen5 --split 'few=1, many=3' gen.jsonl
within gen5 "generated: weights are normalized (1:3)" many 2250 95
within gen5 "generated: and the other share" few 750 95

# ---- -o FILE -------------------------------------------------------------------------------

echo "old content" > "$D/set.jsonl"
export_ ofile -c export.yaml -a labels.jsonl -o set.jsonl screen-runs.jsonl
assert_rc "-o: exits 0" 0
assert_eq "-o: nothing on standard output" "$(lines_of "$TMP/ofile.out")" 0
if cmp -s "$D/set.jsonl" "$TMP/jsonl.out"; then pass "-o: FILE holds the export (replacing what was there)"
else fail "-o: FILE holds the export (replacing what was there)" "$(head -c 500 "$D/set.jsonl")"; fi
assert_eq "-o: no temporary file is left beside it" "$(ls -a "$D" | grep -c '^\.set\.jsonl\.')" 0
assert_grep "-o: stderr names the file" "$TMP/ofile.err" "to set.jsonl"
export_ onodir -c export.yaml -a labels.jsonl -o no/such/dir/set.jsonl screen-runs.jsonl
assert_rc "-o: a folder that does not exist exits 3" 3
assert_grep "-o: and is named" "$TMP/onodir.err" "no/such/dir/set.jsonl: cannot write beside it"

if [ -w /dev/full ]; then
	(cd "$D" && watchdog "$TCR_BIN" export -c export.yaml -a labels.jsonl screen-runs.jsonl) >/dev/full 2>"$TMP/full.err"
	RC=$?
	cp "$TMP/full.err" "$TMP/err"
	assert_rc "stdout: a full device exits 3" 3
	assert_grep "stdout: and says so" "$TMP/full.err" "tcreview export: standard output: "
else
	skip "stdout: a full device exits 3" "no /dev/full on this system"
fi

# ---- a third reviewer, through the screen ----------------------------------------------------

# cy accepts every verdict of the first run in the screen (script mode):
# the decisions go to cy's own file, read with the others' (-a twice).
printf 'A\n' > "$TMP/cy.keys"
(cd "$D" && HOME="$TMP" LANG=C.UTF-8 LC_ALL=C.UTF-8 TZ=UTC TERM=dumb NO_COLOR=1 LINES=24 COLUMNS=80 \
	TCR_FAKE_NOW=2026-01-15T09:30:00Z TCR_SCRIPT="$TMP/cy.keys" \
	watchdog "$TCR_BIN" -c export.yaml -a cy.jsonl --reviewer cy screen-runs.jsonl </dev/null) \
	>"$TMP/cy.out" 2>"$TMP/cy.err"
RC=$?
cp "$TMP/cy.err" "$TMP/err"
assert_rc "screen: cy's decisions are made" 0
assert_eq "screen: one decision per verdict row of the run" "$(lines_of "$D/cy.jsonl")" 6
export_ cy -c export.yaml -a labels.jsonl -a cy.jsonl --reviewer cy screen-runs.jsonl
assert_eq "screen: cy's labels export, none stale" "$(lines_of "$TMP/cy.out")" 6
py "screen: accepts are labels at the machine's score, at the time they were made" '
import json, sys
for r in map(json.loads, open(sys.argv[1], encoding="utf-8")):
    assert r["run"] == "en-pass", r["run"]
    [l] = r["labels"]
    assert l["reviewer"] == "cy" and l["decision"] == "accept" and not l["stale"], l
    assert l["at"] == "2026-01-15T09:30:00Z", l
    assert l["score"] == r["machine"]["score"], (l, r["machine"])
print("ok")' "$TMP/cy.out"
export_ all3 -c export.yaml -a labels.jsonl -a cy.jsonl screen-runs.jsonl
py "screen: with several files, every reviewer's labels" '
import json, sys
rows = {(r["run"], r["criterion"]): r for r in map(json.loads, open(sys.argv[1], encoding="utf-8"))}
assert [l["reviewer"] for l in rows[("en-pass", "lookup")]["labels"]] == ["ann", "bob", "cy"]
assert rows[("en-pass", "lookup")]["consensus"] == {"status": "ok", "score": 1, "passed": True, "n": 3}
print("ok")' "$TMP/all3.out"

# ---- text that is not UTF-8 ----------------------------------------------------------------------

BAD=$(printf 'bad\377name.jsonl')
cp "$D/screen-runs.jsonl" "$D/$BAD"
export_ badname -c export.yaml -a labels.jsonl "$BAD"
assert_rc "UTF-8: an input whose name is not UTF-8 exits 0" 0
assert_grep "UTF-8: the name is repaired in source" "$TMP/badname.out" "\"source\":\"bad$(printf '\357\277\275')name.jsonl:1\""
assert_no_grep "UTF-8: the raw byte is never written" "$TMP/badname.out" "$(printf '\377')"
py "UTF-8: the export decodes strictly" '
import sys
open(sys.argv[1], encoding="utf-8", errors="strict").read()
print("ok")' "$TMP/badname.out"

# ---- bad inputs ------------------------------------------------------------------------------------

export_ noinput -c export.yaml -a labels.jsonl
assert_rc "bad: no input file exits 2" 2
assert_grep "bad: says so" "$TMP/noinput.err" "tcreview export: no input files"
export_ missing -c export.yaml -a labels.jsonl nothing-here.jsonl
assert_rc "bad: an input that cannot be read exits 3" 3
assert_grep "bad: and is named" "$TMP/missing.err" "nothing-here.jsonl"
export_ noannot -c export.yaml -a none.jsonl screen-runs.jsonl
assert_rc "bad: a missing annotations file exits 3" 3
assert_grep "bad: and is named" "$TMP/noannot.err" "none.jsonl: no annotations file to read"
assert_eq "bad: and is not created" "$(ls "$D" | grep -c '^none.jsonl$')" 0
export_ nodefault -c export.yaml reversed.jsonl
assert_rc "bad: no -a and no file beside the input exits 3" 3
assert_grep "bad: the default is named" "$TMP/nodefault.err" "reversed.jsonl.annotations.jsonl: no annotations file to read (the default beside the first input; give -a FILE)"
export_ fmt -c export.yaml -a labels.jsonl --format xml screen-runs.jsonl
assert_rc "bad: an unknown format exits 2" 2
assert_grep "bad: and is named" "$TMP/fmt.err" "unknown format 'xml' (jsonl, csv or openai-ft)"
export_ split -c export.yaml -a labels.jsonl --split train=abc screen-runs.jsonl
assert_rc "bad: a split weight that is not a number exits 2" 2
assert_grep "bad: and says which" "$TMP/split.err" "--split train=abc: weight of train is not a number"
export_ only -c export.yaml -a labels.jsonl --only-split nope screen-runs.jsonl
assert_rc "bad: --only-split of no share exits 2" 2
assert_grep "bad: and is named" "$TMP/only.err" "--only-split nope: the split has no share of that name"
export_ seed -c export.yaml -a labels.jsonl --seed -3 screen-runs.jsonl
assert_rc "bad: a negative seed exits 2" 2
assert_grep "bad: says what it takes" "$TMP/seed.err" "--seed takes a whole number, not '-3'"
export_ opt -c export.yaml --bogus screen-runs.jsonl
assert_rc "bad: an unknown option exits 2" 2
printf 'scorers: [\n' > "$D/broken.yaml"
export_ yaml -c broken.yaml -a labels.jsonl screen-runs.jsonl
assert_rc "bad: a broken configuration exits 2" 2
assert_grep "bad: FILE:LINE in the message" "$TMP/yaml.err" "broken.yaml:"
printf 'runs:\n  id: id\n' > "$D/empty.yaml"
export_ nocrit -c empty.yaml -a labels.jsonl screen-runs.jsonl
assert_rc "bad: a configuration without scorers or judges exits 2" 2
assert_grep "bad: says so" "$TMP/nocrit.err" "no scorers or judges configured"
cp "$A" "$D/torn.jsonl"
printf '{"v":2,"run":"en-pass","decision":' >> "$D/torn.jsonl"
export_ torn -c export.yaml -a torn.jsonl screen-runs.jsonl
assert_rc "bad: a torn last annotations line exits 0" 0
assert_eq "bad: and the lines before it export" "$(lines_of "$TMP/torn.out")" 9
assert_grep "bad: the torn line is named" "$TMP/torn.err" "torn.jsonl:22"
export_ help --help
assert_rc "--help exits 0" 0
assert_grep "--help lists the keys of a row" "$TMP/help.out" "calls [{name, arguments, result, error}]"

finish
