#!/bin/sh
# failure_loop.sh - the whole failure analysis on the shared tau-bench
# sample, as the README's walkthrough tells it: in the screen (script mode,
# the real keys) runs and a call are tagged with free codes, one code is
# absorbed by a defined tag, the others merged and promoted in the tags
# pane; calls are labelled and corrected (the editor is a script); then
# `export --references` makes the ground truth, `score` with
# trajectory-match reads it as written, `judge` asks a judge declaring
# `criterion: wrong-payment` (the local test server on 127.0.0.1), and
# `stats` gives the failure modes and that judge's figures. Every figure is
# checked against a computation of its own, in python3 from the sample and
# the annotations file, not through tcreview. Skipped where the shared
# sample is absent.
. "$TCR_SRCDIR/tests/cli/lib.sh"
. "$TCR_SRCDIR/tests/cli/screen_lib.sh"

R="${TCR_SHARED_DIR:-}/fixtures/real"
RUNS=taubench_v1_airline_sample.jsonl
EXPECTED=taubench_v1_airline_expected_sample.jsonl
if [ -z "${TCR_SHARED_DIR:-}" ] || [ ! -f "$R/$RUNS" ] || [ ! -f "$R/$EXPECTED" ]; then
	skip "the failure analysis on tau-bench" "the shared real samples are absent (set TCR_SHARED_DIR)"
	finish
fi
if ! command -v python3 >/dev/null 2>&1; then
	skip "the failure analysis on tau-bench" "python3 (the independent computation) is absent"
	finish
fi
fake_llm_need

unset http_proxy HTTP_PROXY https_proxy HTTPS_PROXY all_proxy ALL_PROXY OPENAI_BASE_URL VISUAL
no_proxy='*' NO_PROXY='*'
export no_proxy NO_PROXY
# No key while init proposes: it would propose a remote judge.
unset OPENAI_API_KEY ANTHROPIC_API_KEY AZURE_OPENAI_API_KEY

cp "$R/$RUNS" "$R/$EXPECTED" "$TMP/"
(cd "$TMP" && HOME="$TMP" XDG_CONFIG_HOME="$TMP/xdg" "$TCR_BIN" init "$RUNS" "$EXPECTED" \
	>"$TMP/init.out" 2>&1)
if [ ! -f "$TMP/tcreview.yaml" ] || grep -q '^judges:' "$TMP/tcreview.yaml"; then
	fail "init proposes a configuration for the tau-bench sample" "$(cat "$TMP/init.out")"
	finish
fi
cat >> "$TMP/tcreview.yaml" <<'YAML'
tags:
  - id: wrong-payment
    description: Charged or refunded the wrong amount or method
    absorbs: [paid wrong amount]
  - id: gave-up
    description: Handed over or stopped before the task was done
YAML

# The reviewer's editor: the booking of call 5 without the paid bag.
cat > "$TMP/editor.sh" <<'ED'
#!/bin/sh
sed 's/"nonfree_baggages": 1/"nonfree_baggages": 0/' "$1" > "$1.new" && mv "$1.new" "$1"
ED
chmod +x "$TMP/editor.sh"
EDITOR="$TMP/editor.sh"
export EDITOR

# Run 1 (task 0, trial 0): a free code absorbed by wrong-payment; its first
# booking (call 5) tagged with another free code, labelled wrong (3) and
# corrected in the editor; its second booking (call 8) should not have
# been made (D y). Run 2 (task 1): a free code. Run 3: a note only (reviewed,
# no tag). Run 4: the code again, by completion (Tab). Run 8 (task 1,
# trial 1): its five calls labelled correct (1), found by search. Then the
# tags pane: "baggage count" merged into wrong-payment (Space, m), and
# "stopped early" promoted into gave-up (p).
SCREEN_CONFIG=tcreview.yaml SCREEN_COLS=120 SCREEN_LINES=40
KEYS='tpaid wrong amount<Enter>
<Tab>/book_reservation<Enter>
tbaggage count<Enter>
3e
nDy
<Tab><Tab>j
tstopped early<Enter>
jcchecked, nothing wrong<Enter>
jtpaid w<Tab><Enter>
jjjj<Tab>
/get_user<Enter>1
/get_reservation<Enter>1n1n1
/cancel_reservation<Enter>1
<Tab><Tab>
:save-display %D/loop-review.screen
T
:save-display %D/loop-pane.screen
jjjmwrong-payment<Enter>
Gpgave-up<Enter>
:save-display %D/loop-merged.screen
<Esc>'
run_screen loop "$KEYS" "$RUNS"
assert_rc "the review by script exits 0" 0
A=$TMP/$RUNS.annotations.jsonl
cp "$ANNOT" "$A"

# ---- what the file holds, read by python ----------------------------------
cat > "$TMP/lines.py" <<'PY'
import json, sys
for line in open(sys.argv[1]):
    d = json.loads(line)
    run = d["run"] and "-".join(d["run"].split("-")[-2:])
    print(run, d["decision"], d.get("tag"), d.get("tag_to"), d.get("call"), d.get("label"),
          d.get("correction"))
PY
python3 "$TMP/lines.py" "$A" > "$TMP/lines.txt"
cat > "$TMP/want-lines.txt" <<'EOF'
task000-trial0 tag paid wrong amount None None None None
task000-trial0 tag baggage count None 5 None None
task000-trial0 call-label None None 5 wrong None
task000-trial0 correct None None 5 None replace
task000-trial0 correct None None 8 None remove
task001-trial0 tag stopped early None None None None
task002-trial0 note None None None None None
task003-trial0 tag paid wrong amount None None None None
task001-trial1 call-label None None 1 correct None
task001-trial1 call-label None None 2 correct None
task001-trial1 call-label None None 3 correct None
task001-trial1 call-label None None 4 correct None
task001-trial1 call-label None None 5 correct None
None tag-alias baggage count wrong-payment None None None
None tag-alias stopped early gave-up None None None
EOF
assert_eq "the decisions, a line each, in the order made" "$(cat "$TMP/lines.txt")" "$(cat "$TMP/want-lines.txt")"
assert_grep "the correction is what the editor saved" "$A" '"correction":"replace","expected":{"name":"book_reservation","arguments":{"user_id":"mia_li_3668"'
assert_grep "the corrected booking pays for no bag" "$A" '"nonfree_baggages":0'
screen_has loop-merged "wrong-payment         2     1"
screen_has loop-merged "gave-up               1     0"

# Another reviewer reads qa's label and correction, with qa's name.
SCREEN_ANNOT=$RUNS.annotations.jsonl SCREEN_REVIEWER=bob
run_screen loop-bob '<Tab>/book_reservation<Enter>z' "$RUNS"
screen_has loop-bob "#5 book_reservation  ⚑ wrong-payment  labelled wrong (qa)"
screen_has loop-bob "→ should be (qa): book_reservation(nonfree_baggages: 0)"
assert_eq "reading writes nothing" "$(wc -l < "$A" | tr -d ' ')" 15
SCREEN_ANNOT= SCREEN_REVIEWER=qa

# ---- the corrections as ground truth -----------------------------------------
(cd "$TMP" && "$TCR_BIN" export --references -c tcreview.yaml -o refs.jsonl "$RUNS") \
	> "$TMP/refs.out" 2> "$TMP/err"
RC=$?
assert_rc "export --references exits 0" 0
assert_eq "one reference per task reviewed call by call (tasks 0 and 1)" \
	"$(wc -l < "$TMP/refs.jsonl" | tr -d ' ')" 2
cat > "$TMP/refs.yaml" <<'YAML'
runs:
  id: _corpus.run_id
expectations:
  file: refs.jsonl
  match: {run: task_id, expected: task}
scorers:
  - id: reviewed
    type: trajectory-match
    mode: strict
    args: exact
    reference: {from: expected.reference}
YAML
(cd "$TMP" && "$TCR_BIN" score -c refs.yaml -o jsonl "$RUNS") > "$TMP/score.jsonl" 2> "$TMP/err"
RC=$?
assert_rc "score against the references exits 0" 0

# The same verdicts computed here: each run's calls from the record, the
# references rebuilt from the sample and the annotations file (replace,
# remove), compared call by call, name and arguments exactly.
cat > "$TMP/truth.py" <<'PY'
import json, sys
runs_path, annot_path, score_path = sys.argv[1:4]
def calls_of(rec):
    out = []
    for m in rec["traj"]:
        for tc in m.get("tool_calls") or []:
            out.append({"name": tc["function"]["name"],
                        "arguments": json.loads(tc["function"]["arguments"])})
    return out
recs = [json.loads(l) for l in open(runs_path)]
rid = lambda r: "tau1-airline-gpt-4o-task%03d-trial%d" % (r["task_id"], r["trial"])
by_id = {rid(r): r for r in recs}
fixes = {}
for l in open(annot_path):
    d = json.loads(l)
    if d["decision"] in ("correct", "call-label"):
        fixes.setdefault(d["run"], []).append(d)
refs = {}
for run, ds in fixes.items():
    calls = calls_of(by_id[run])
    removed = {d["call"] for d in ds if d.get("correction") == "remove"}
    for d in ds:
        if d.get("correction") == "replace":
            calls[d["call"] - 1] = d["expected"]
    calls = [c for i, c in enumerate(calls, 1) if i not in removed]
    refs[by_id[run]["task_id"]] = calls
got = {}
for l in open(score_path):
    v = json.loads(l)
    if v.get("scorer") == "reviewed":
        got[v["run"]] = v["status"] if v["status"] != "ok" else ("pass" if v["passed"] else "fail")
for r in recs:
    ref = refs.get(r["task_id"])
    want = "skipped" if ref is None else ("pass" if calls_of(r) == ref else "fail")
    print(rid(r), want, got.get(rid(r)))
PY
python3 "$TMP/truth.py" "$TMP/$RUNS" "$A" "$TMP/score.jsonl" > "$TMP/truth.txt"
assert_eq "every run's verdict against the references is the one computed here" \
	"$(awk '$2 != $3' "$TMP/truth.txt")" ""
assert_eq "tasks 0 and 1 are scored, the other ten runs skipped" \
	"$(awk '{ n[$2]++ } END { printf "%d pass %d fail %d skipped", n["pass"], n["fail"], n["skipped"] }' "$TMP/truth.txt")" \
	"1 pass 3 fail 8 skipped"
assert_grep "task 1's second trial, labelled correct call by call, passes its own reference" \
	"$TMP/truth.txt" "task001-trial1 pass pass"

# ---- a judge for one failure mode --------------------------------------------
# It says wrong-payment is present on task 0's first trial only.
cat > "$TMP/judge.json" <<'EOF'
{"rules": [
 {"match": {"body_contains": "Seattle on May 20th"}, "content": {"score": 1, "reason": "paid wrong"}},
 {"match": {"path_prefix": "/"}, "content": {"score": 0, "reason": "fine"}}
], "default": {"status": 418, "raw": "no rule"}}
EOF
fake_llm_start judge "$TMP/judge.json" || finish
OPENAI_API_KEY=sk-tcr-failure-loop-0001
export OPENAI_API_KEY
cat > "$TMP/payment.txt" <<'EOF'
# does the run show the failure mode wrong-payment?
=== system
Answer {{max}} when the agent charged or refunded the wrong amount or method, else {{min}}.
=== user
Request: {{input}}
Answer: {{output}}
EOF
cat >> "$TMP/tcreview.yaml" <<YAML
judges:
  - id: payment
    rubric: custom
    model: openai/judge-model
    base_url: http://127.0.0.1:$PORT/v1
    prompt_file: payment.txt
    scale: {min: 0, max: 1, pass: 1}
    max_retries: 0
    criterion: wrong-payment
YAML
(cd "$TMP" && "$TCR_BIN" judge -c tcreview.yaml "$RUNS") > "$TMP/judge.out" 2> "$TMP/err"
RC=$?
assert_rc "the judge is asked about every run" 0
(cd "$TMP" && "$TCR_BIN" stats -c tcreview.yaml -o jsonl --bootstrap 0 "$RUNS") \
	> "$TMP/stats.jsonl" 2> "$TMP/err"
RC=$?
assert_rc "stats exits 0" 0
assert_eq "no code scorer is compared with the failure mode's judge: none declares it" \
	"$(grep -c '"criterion":"tag:wrong-payment","kind":"code-judge"' "$TMP/stats.jsonl")" 0

# The failure modes and the judge's figures, computed here from the
# annotations file (aliases and absorbs followed by hand) and the cache.
cat > "$TMP/figures.py" <<'PY'
import json, math, sys
annot, cache, stats = sys.argv[1:4]
absorbs = {"paid wrong amount": "wrong-payment"}
aliases, tags, reviewed = {}, {}, set()
for l in open(annot):
    d = json.loads(l)
    if d["decision"] == "tag-alias":
        aliases[d["tag"]] = d["tag_to"]
        continue
    reviewed.add(d["run"])
    if d["decision"] == "tag":
        tags.setdefault(d["tag"], set()).add(d["run"])
def name(code):
    while code in aliases:
        code = aliases[code]
    return absorbs.get(code, code)
runs = {}
for code, rs in tags.items():
    runs.setdefault(name(code), set()).update(rs)
z = 1.959963984540054
def wilson(k, n):
    p = k / n
    c = (p + z * z / (2 * n)) / (1 + z * z / n)
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return c - h, c + h
got = {}
for l in open(stats):
    v = json.loads(l)
    if v.get("type") == "failure-mode" and v.get("reviewer") is None:
        got[v["tag"]] = v
for t in ("wrong-payment", "gave-up"):
    k, n = len(runs.get(t, ())), len(reviewed)
    lo, hi = wilson(k, n)
    g = got[t]
    ok = g["runs"] == k and g["reviewed"] == n and abs(g["share"] - k / n) < 1e-9 \
        and abs(g["low"] - lo) < 1e-6 and abs(g["high"] - hi) < 1e-6
    print(t, k, n, "%.4f" % (k / n), "%.4f" % lo, "%.4f" % hi, "ok" if ok else "DIFFERS %r" % g)
machine = {}
for l in open(cache):
    v = json.loads(l)
    machine[v["run"]] = 1 if v["verdict"]["passed"] else 0
pairs = [(machine[r], 1 if r in runs["wrong-payment"] else 0) for r in sorted(reviewed)]
n = len(pairs)
agree = sum(a == b for a, b in pairs) / n
pm, ph = sum(a for a, _ in pairs) / n, sum(b for _, b in pairs) / n
pe = pm * ph + (1 - pm) * (1 - ph)
kappa = (agree - pe) / (1 - pe)
pos = [a for a, b in pairs if b == 1]
neg = [a for a, b in pairs if b == 0]
tpr, tnr = sum(pos) / len(pos), sum(1 - a for a in neg) / len(neg)
row = None
for l in open(stats):
    v = json.loads(l)
    if v.get("criterion") == "tag:wrong-payment" and v.get("kind") == "machine-human" \
            and v.get("a") == "judge:payment" and v.get("b") == "human":
        row = v
ok = row and row["n"] == n and all(abs(row[k] - x) < 1e-9 for k, x in
                                   (("agreement", agree), ("kappa", kappa), ("tpr", tpr), ("tnr", tnr)))
print("judge", n, "%.4f %.4f %.4f %.4f" % (agree, kappa, tpr, tnr), "ok" if ok else "DIFFERS %r" % row)
PY
python3 "$TMP/figures.py" "$A" "$TMP/$RUNS.judgements.jsonl" "$TMP/stats.jsonl" > "$TMP/figures.txt"
assert_eq "the failure modes and the judge's figures are the ones computed here" \
	"$(cat "$TMP/figures.txt")" \
	"wrong-payment 2 5 0.4000 0.1176 0.7693 ok
gave-up 1 5 0.2000 0.0362 0.6245 ok
judge 5 0.8000 0.5455 0.5000 1.0000 ok"

# At 80 columns, with the judge's column too, the run list's ids fill their
# column: a tagged run's flag stands in the gap before its id, never over it.
SCREEN_COLS=80 SCREEN_LINES=24
SCREEN_ANNOT=$RUNS.annotations.jsonl
run_screen loop-80 '' "$RUNS"
screen_has loop-80 "> ⚑…task000-trial0"
screen_has loop-80 "  ⚑…task001-trial0"
screen_has loop-80 "   …task002-trial0"
# The failure mode's judge says present or absent, not pass or fail.
SCREEN_COLS=120 SCREEN_LINES=40
run_screen loop-verdicts '' "$RUNS"
screen_has loop-verdicts "payment                           1  present"
run_screen loop-verdicts-2 'j' "$RUNS"
screen_has loop-verdicts-2 "payment                           0  absent"
SCREEN_ANNOT=

finish
