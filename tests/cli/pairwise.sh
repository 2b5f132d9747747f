#!/bin/sh
# pairwise.sh - pairwise judges against the local test server
# (tests/fake_llm): `tcreview judge --pairs` on a small two-sided fixture
# (the requests: the task and both runs in order, swap asking twice; the
# cache reused; the lines), preferences written as the annotations file
# holds them for two reviewers (one pair the other way round, one taken
# back), and `stats` (table and jsonl) giving the counts, the reviewers'
# agreement and each judge's agreement, kappa and confusion, checked
# against a computation of its own in python3. A garbage answer is a
# clear error with nothing cached; a server that is not running is the
# usual judge error. Then the same on the shared tau-bench sample split
# into its trials (skipped where it is absent). Talks only to 127.0.0.1;
# every wait is bounded.
. "$TCR_SRCDIR/tests/cli/lib.sh"

if ! command -v python3 >/dev/null 2>&1; then
	skip "pairwise judges" "python3 (the fixtures and the independent computation) is absent"
	finish
fi
fake_llm_need

unset http_proxy HTTP_PROXY https_proxy HTTPS_PROXY all_proxy ALL_PROXY \
	OPENAI_BASE_URL AZURE_OPENAI_ENDPOINT AZURE_OPENAI_API_KEY ANTHROPIC_API_KEY ANTHROPIC_BASE_URL
no_proxy='*' NO_PROXY='*'
export no_proxy NO_PROXY
OPENAI_API_KEY=sk-tcr-test-DUMMY-pairwise
export OPENAI_API_KEY

if command -v timeout >/dev/null 2>&1; then
	watchdog() { timeout 300 "$@"; }
else
	watchdog() { "$@"; }
fi
# tcr NAME ARGS...: tcreview in $D; stdout in $TMP/NAME.out, stderr in
# $TMP/NAME.err (and $TMP/err for assert_rc); sets $RC.
tcr() {
	name=$1
	shift
	(cd "$D" && watchdog "$TCR_BIN" "$@") >"$TMP/$name.out" 2>"$TMP/$name.err"
	RC=$?
	cp "$TMP/$name.err" "$TMP/err"
}
lines_of() { if [ -f "$1" ]; then wc -l < "$1" | tr -d ' '; else echo 0; fi; }

# ---- the helpers in python3 ----------------------------------------------------

# pref.py ANNOTATIONS RUNS... < SPECS: appends preference lines as the
# annotations file holds them, one per line of SPECS: "REVIEWER RUN OTHER
# PREFER" or "REVIEWER RUN OTHER retract"; each run's hash is the SHA-256
# of its record's line, found by its id ($ID_PATH, dotted) in RUNS.
cat > "$TMP/pref.py" <<'EOF'
import hashlib, json, os, sys
annot, runs = sys.argv[1], sys.argv[2:]
idp = os.environ.get("ID_PATH", "id")
hashes, tasks = {}, {}
for path in runs:
    for raw in open(path, "rb").read().split(b"\n"):
        if raw.strip():
            d = json.loads(raw)
            v = d
            for k in idp.split("."):
                v = v[k]
            hashes[v] = hashlib.sha256(raw).hexdigest()
            tasks[v] = str(d.get("task_id"))
out = open(annot, "a")
for n, spec in enumerate(sys.stdin.read().split("\n")):
    if not spec.strip():
        continue
    rev, run, other, what = spec.split()
    line = {"v": 2, "run": run, "source": None, "run_hash": hashes.get(run), "scorer": None,
            "scorer_type": None, "model": None, "prompt_hash": None, "machine_score": None,
            "machine_passed": None, "decision": "retract" if what == "retract" else "prefer",
            "score": None, "reason": None, "reviewer": rev, "blind": False,
            "at": "2026-12-07T10:%02d:%02dZ" % (n // 60, n % 60), "config": None}
    if what == "retract":
        line.update({"retracts": "prefer", "other": other})
    else:
        line.update({"other": other, "other_hash": hashes.get(other), "prefer": what,
                     "task": tasks.get(run)})
    out.write(json.dumps(line, separators=(",", ":"), ensure_ascii=False) + "\n")
EOF

# requests.py LOG: per request, the order the markers ANS-<id> appear in
# its user message, as "first second".
cat > "$TMP/requests.py" <<'EOF'
import json, re, sys
for line in open(sys.argv[1]):
    d = json.loads(line)
    msgs = d["body"]["messages"]
    text = msgs[-1]["content"]
    print(" ".join(re.findall(r"ANS-([a-z0-9-]+)", text)))
EOF

# lines.py OUT: the judge --pairs lines as "run other judge status better cached".
cat > "$TMP/lines.py" <<'EOF'
import json, sys
for line in open(sys.argv[1]):
    d = json.loads(line)
    print(d["run"], d["other"], d["task"], d["judge"], d["status"], d["better"],
          "cached" if d["cached"] else "asked")
EOF

# prefs_check.py ANNOTATIONS ORDER JUDGED JUDGE STATS: stats' preference lines against
# a computation of their own (prints ok, or each difference).
cat > "$TMP/prefs_check.py" <<'EOF'
import json, sys
annot, order_file, judged_file, judge, stats_file = sys.argv[1:6]
order = [l.strip() for l in open(order_file) if l.strip()]
pos = {r: i for i, r in enumerate(order)}
CATS = ["base", "cand", "tie", "both-bad"]
FLIP = {"base": "cand", "cand": "base", "tie": "tie", "both-bad": "both-bad"}
stand = {}
for line in open(annot):
    d = json.loads(line)
    key = (d["run"], d.get("other"), d["reviewer"])
    if d["decision"] == "prefer":
        stand[key] = d["prefer"]
    elif d["decision"] == "retract" and d.get("retracts") == "prefer":
        stand.pop(key, None)
prefs = [(r, o, rev, p) for (r, o, rev), p in stand.items() if r in pos and o in pos]
def orient(r, o, p):
    return ((r, o), p) if pos[r] < pos[o] else ((o, r), FLIP[p])
answers = {}
for line in open(judged_file):
    d = json.loads(line)
    if d["judge"] == judge and d["status"] == "ok":
        answers[(d["run"], d["other"])] = d["better"]
def judge_on(pair):
    a, b = pair
    if (a, b) in answers:
        return answers[(a, b)]
    if (b, a) in answers:
        return FLIP[answers[(b, a)]]
    return None
def figures(h, m):
    n = len(h)
    same = sum(1 for x, y in zip(h, m) if x == y)
    conf = [[0] * 4 for _ in range(4)]
    for x, y in zip(h, m):
        conf[CATS.index(x)][CATS.index(y)] += 1
    po = same / n if n else None
    pe = sum(sum(conf[i]) * sum(conf[k][i] for k in range(4)) for i in range(4)) / (n * n) if n else None
    kappa = (po - pe) / (1 - pe) if n and pe < 1 else None
    return {"n": n, "same": same, "agreement": po, "kappa": kappa, "confusion": conf}
want = []
reviewers = []
for r, o, rev, p in sorted(prefs, key=lambda x: x[2]):
    if rev not in reviewers:
        reviewers.append(rev)
for rev in reviewers:
    mine = [p for r, o, rv, p in prefs if rv == rev]
    want.append({"type": "preferences", "reviewer": rev, "pairs": len(mine),
                 **{c.replace("-", "_"): mine.count(c) for c in CATS}})
pairs = {}
for r, o, rev, p in prefs:
    pair, q = orient(r, o, p)
    pairs.setdefault(pair, {})[rev] = q
want.append({"type": "preferences", "reviewer": None, "pairs": len(pairs), "labels": len(prefs)})
for i, a in enumerate(reviewers):
    for b in reviewers[i + 1:]:
        both = [(v[a], v[b]) for v in pairs.values() if a in v and b in v]
        if both:
            f = figures([x for x, _ in both], [y for _, y in both])
            del f["confusion"]
            want.append({"type": "preference-agreement", "a": a, "b": b, **f})
for rev in reviewers + [None]:
    h, m = [], []
    for pair, v in pairs.items():
        lab = v.get(rev) if rev else (list(v.values())[0] if len(set(v.values())) == 1 else None)
        ans = judge_on(pair)
        if lab and ans:
            h.append(lab)
            m.append(ans)
    want.append({"type": "pairwise", "judge": judge, "reviewer": rev, **figures(h, m)})
got = [json.loads(l) for l in open(stats_file)]
got = [g for g in got if g.get("type") in ("preferences", "preference-agreement", "pairwise")
       and g.get("judge", judge) == judge]
bad = []
def same_value(x, y):
    if isinstance(x, float) or isinstance(y, float):
        return x is not None and y is not None and abs(x - y) < 1e-9
    return x == y
for w in want:
    match = [g for g in got if g["type"] == w["type"] and g.get("reviewer") == w.get("reviewer")
             and g.get("a") == w.get("a") and g.get("b") == w.get("b")]
    if len(match) != 1:
        bad.append("no single line for %s" % json.dumps(w))
        continue
    for k, v in w.items():
        if not same_value(match[0].get(k), v):
            bad.append("%s %s: %s, computed %s" % (w["type"], w.get("reviewer"), match[0].get(k), v))
if len(got) != len(want):
    bad.append("%d lines, computed %d" % (len(got), len(want)))
print("\n".join(bad) if bad else "ok")
for w in want:
    if w["type"] == "pairwise" and w["reviewer"] is None:
        print("consensus n=%d agreement=%s kappa=%s" % (w["n"], w["agreement"], w["kappa"]), file=sys.stderr)
EOF

# ---- a small two-sided fixture ---------------------------------------------------

D=$TMP/small
mkdir -p "$D"
python3 - "$D" <<'EOF'
import json, sys
def run(rid, task, trial, user, calls, answer):
    msgs = [{"role": "user", "content": user}]
    for i, (name, args, result) in enumerate(calls):
        cid = "c-%s-%d" % (rid, i)
        msgs.append({"role": "assistant", "content": None, "tool_calls": [
            {"id": cid, "type": "function", "function": {"name": name, "arguments": json.dumps(args)}}]})
        msgs.append({"role": "tool", "tool_call_id": cid, "content": result})
    msgs.append({"role": "assistant", "content": "%s (ANS-%s)" % (answer, rid)})
    return {"id": rid, "task_id": task, "trial": trial, "messages": msgs}
where = "Where is my order 7?"
refund = "Please refund order 9."
base = [run("t1-b0", "t1", 0, where, [("get_order", {"id": "7"}, "shipped")], "It has shipped."),
        run("t2-b0", "t2", 0, refund, [("get_order", {"id": "9"}, "paid")], "I cannot refund it."),
        run("t3-b0", "t3", 0, where, [], "I do not know."),
        run("t3-b1", "t3", 1, where, [("get_order", {"id": "7"}, "shipped")], "Shipped."),
        run("t4-b0", "t4", 0, refund, [], "Done.")]
cand = [run("t1-c0", "t1", 0, where, [("get_order", {"id": "7"}, "shipped"),
                                      ("track_parcel", {"id": "7"}, "Thursday")], "It arrives Thursday."),
        run("t2-c0", "t2", 0, refund, [("refund_order", {"id": "9"}, "refunded")], "Refunded."),
        run("t3-c0", "t3", 0, where, [], "Sorry."),
        run("t3-c1", "t3", 1, where, [("track_parcel", {"id": "7"}, "lost")], "It is lost."),
        run("t3-c2", "t3", 2, where, [("get_order", {"id": "7"}, "shipped")], "Shipped, arriving soon.")]
for name, runs in (("base.jsonl", base), ("cand.jsonl", cand)):
    with open(sys.argv[1] + "/" + name, "w") as f:
        for r in runs:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")
with open(sys.argv[1] + "/order", "w") as f:
    f.write("\n".join(r["id"] for r in base + cand) + "\n")
EOF

# The answers by pair: each rule names a run only one pair holds.
cat > "$TMP/pj.json" <<'EOF'
{"rules": [
 {"match": {"body_contains": "ANS-t3-c2"}, "content": {"reason": "B answered", "better": "B"}},
 {"match": {"body_contains": "ANS-t1-b0"}, "content": {"reason": "B tracked the parcel", "better": "B"}},
 {"match": {"body_contains": "ANS-t2-b0"}, "content": {"reason": "A was careful", "better": "A"}},
 {"match": {"body_contains": "ANS-t3-b0"}, "content": {"reason": "neither knew", "better": "tie"}},
 {"match": {"body_contains": "ANS-t3-b1"}, "content": {"reason": "both wrong", "better": "both-bad"}}
], "default": {"status": 418, "raw": "no rule for this request"}}
EOF
# Position bias: always the first shown.
cat > "$TMP/pjs.json" <<'EOF'
{"default": {"content": {"reason": "the first is better", "better": "A"}}}
EOF
cat > "$TMP/pjg.json" <<'EOF'
{"default": {"content": "I prefer B, it is clearly better."}}
EOF
fake_llm_start pj "$TMP/pj.json"
PJ_PORT=$PORT
fake_llm_start pjs "$TMP/pjs.json"
PJS_PORT=$PORT
fake_llm_start pjg "$TMP/pjg.json"
PJG_PORT=$PORT
# A port nothing listens on: one the kernel gave and took back.
DOWN_PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')
cat > "$D/tcreview.yaml" <<EOF
compare: {task: task_id}
judges:
  - id: pj
    rubric: pairwise
    model: openai/judge-model
    base_url: http://127.0.0.1:$PJ_PORT/v1
  - id: pjs
    rubric: pairwise
    model: openai/judge-model
    base_url: http://127.0.0.1:$PJS_PORT/v1
    swap: true
  - id: pjg
    rubric: pairwise
    model: openai/judge-model
    base_url: http://127.0.0.1:$PJG_PORT/v1
  - id: pjdown
    rubric: pairwise
    model: openai/judge-model
    base_url: http://127.0.0.1:$DOWN_PORT/v1
    max_retries: 1
EOF
CACHE=$D/base.jsonl.judgements.jsonl

tcr cmp1 judge --pairs --judge pj --compare base.jsonl cand.jsonl
assert_rc "judge --pairs --compare: exit 0" 0
assert_eq "judge --pairs --compare: per task, trial i with trial i, in input order; t4 has no candidate" \
	"$(python3 "$TMP/lines.py" "$TMP/cmp1.out")" \
"t1-b0 t1-c0 t1 pj ok cand asked
t2-b0 t2-c0 t2 pj ok base asked
t3-b0 t3-c0 t3 pj ok tie asked
t3-b1 t3-c1 t3 pj ok both-bad asked"
assert_grep "judge --pairs: the judge's reason on its line" "$TMP/cmp1.out" '"reason":"B tracked the parcel"'
assert_eq "judge --pairs: one request per pair" "$(lines_of "$TMP/pj.log")" 4
assert_eq "the requests: the task's runs, base (A) then candidate (B)" \
	"$(python3 "$TMP/requests.py" "$TMP/pj.log" | sort)" \
"t1-b0 t1-c0
t2-b0 t2-c0
t3-b0 t3-c0
t3-b1 t3-c1"
assert_grep "the request: the task is shown" "$TMP/pj.log" 'Where is my order 7?'
assert_grep "the request: structured output asked for" "$TMP/pj.log" '"name":"pairwise_preference"'
assert_grep "the request: each run's calls with their results" "$TMP/pj.log" 'track_parcel'
assert_eq "the cache holds each pair's answer" "$(grep -c '"judge":"pj"' "$CACHE")" 4

tcr cmp2 judge --pairs --judge pj --compare base.jsonl cand.jsonl
assert_rc "judge --pairs again: exit 0" 0
assert_eq "judge --pairs again: every answer from the cache" \
	"$(python3 "$TMP/lines.py" "$TMP/cmp2.out")" \
"t1-b0 t1-c0 t1 pj ok cand cached
t2-b0 t2-c0 t2 pj ok base cached
t3-b0 t3-c0 t3 pj ok tie cached
t3-b1 t3-c1 t3 pj ok both-bad cached"
assert_eq "judge --pairs again: no request" "$(lines_of "$TMP/pj.log")" 4

# ---- swap: asked twice, the orders disagree ------------------------------------

tcr swap judge --pairs --judge pjs --compare base.jsonl cand.jsonl
assert_rc "swap: exit 0" 0
assert_eq "swap: two requests per pair" "$(lines_of "$TMP/pjs.log")" 8
assert_eq "swap: each pair shown both ways round" \
	"$(python3 "$TMP/requests.py" "$TMP/pjs.log" | sort)" \
"t1-b0 t1-c0
t1-c0 t1-b0
t2-b0 t2-c0
t2-c0 t2-b0
t3-b0 t3-c0
t3-b1 t3-c1
t3-c0 t3-b0
t3-c1 t3-b1"
assert_eq "swap: \"A\" both times is a tie, the orders disagreeing" \
	"$(grep -c '"better":"tie","reason":"the two orders disagreed: shown base first, the judge said base; shown the candidate first, cand","orders_disagree":true' "$TMP/swap.out")" 4

# ---- garbage, and a server that is not running -----------------------------------

tcr garbage judge --pairs --judge pjg --compare base.jsonl cand.jsonl
assert_rc "a garbage answer: exit 0, the pairs' lines say it" 0
assert_eq "a garbage answer: an error on every pair" "$(grep -c '"status":"error","better":null' "$TMP/garbage.out")" 4
assert_grep "a garbage answer: the error says why" "$TMP/garbage.out" \
	'"error":"judge: unusable answer after a retry: no JSON object in the answer"'
assert_grep "a garbage answer: stderr shows the reply" "$TMP/garbage.err" 'the reply was: I prefer B, it is clearly better.'
assert_eq "a garbage answer: asked once, then once again" "$(lines_of "$TMP/pjg.log")" 8
assert_eq "a garbage answer: nothing cached" "$(grep -c '"judge":"pjg"' "$CACHE")" 0

tcr down judge --pairs --judge pjdown --compare base.jsonl cand.jsonl
assert_rc "a server not running: exit 0, the pairs' lines say it" 0
assert_eq "a server not running: an error on every pair" "$(grep -c '"status":"error"' "$TMP/down.out")" 4
assert_grep "a server not running: the usual judge error" "$TMP/down.out" "\"error\":\"judge: http://127.0.0.1:$DOWN_PORT: Failed to connect"
assert_eq "a server not running: nothing cached" "$(grep -c '"judge":"pjdown"' "$CACHE")" 0

# ---- never a per-run judge --------------------------------------------------------

tcr perrun judge base.jsonl
assert_rc "judge without --pairs: no per-run judge, exit 2" 2
assert_grep "judge without --pairs: says where the pairwise judges go" "$TMP/perrun.err" \
	'no judges configured (judges: in the YAML); the pairwise ones judge pairs: --pairs'
cat > "$D/far.yaml" <<'EOF'
judges:
  - id: far
    rubric: pairwise
    model: openai/judge-model
    base_url: https://judge.example.com/v1
EOF
tcr far judge --pairs -c far.yaml --compare --task task_id base.jsonl cand.jsonl
assert_rc "a pairwise judge on a host not allowed: refused before any work" 2
assert_grep "a pairwise judge on a host not allowed: the usual trust check" "$TMP/far.err" \
	"far.yaml:5:15: judge 'far' would send its requests and its key"
tcr usage judge --compare base.jsonl cand.jsonl
assert_rc "--compare without --pairs: usage" 2
tcr nopj judge --pairs --judge nope base.jsonl
assert_rc "--pairs --judge an unknown id: usage" 2
assert_grep "--pairs --judge an unknown id: named" "$TMP/nopj.err" "no pairwise judge 'nope' in the configuration"

# ---- preferences, then stats ----------------------------------------------------------

# Two reviewers; ann's t2 is written the other way round (t2-c0 as its
# base: "base" there means the candidate of the inputs), bob takes one back,
# and one names a run that is not an input.
python3 "$TMP/pref.py" "$D/base.jsonl.annotations.jsonl" "$D/base.jsonl" "$D/cand.jsonl" <<'EOF'
ann t1-b0 t1-c0 cand
ann t2-c0 t2-b0 base
ann t3-b0 t3-c0 tie
ann t3-b0 t3-c2 cand
bob t1-b0 t1-c0 cand
bob t2-b0 t2-c0 both-bad
bob t3-b0 t3-c0 base
bob t3-b1 t3-c1 base
bob t3-b1 t3-c1 retract
bob t4-b0 t9-x0 tie
EOF
tcr prefs judge --pairs --judge pj base.jsonl cand.jsonl
assert_rc "judge --pairs on the preferences: exit 0" 0
assert_eq "judge --pairs: every standing preference among the inputs, as written; the retracted one not" \
	"$(python3 "$TMP/lines.py" "$TMP/prefs.out" | sort)" \
"t1-b0 t1-c0 t1 pj ok cand cached
t2-b0 t2-c0 t2 pj ok base cached
t2-c0 t2-b0 t2 pj ok base asked
t3-b0 t3-c0 t3 pj ok tie cached
t3-b0 t3-c2 t3 pj ok cand asked"
assert_eq "judge --pairs: only the new pairs asked" "$(lines_of "$TMP/pj.log")" 6
cat "$TMP/cmp1.out" "$TMP/prefs.out" "$TMP/swap.out" > "$TMP/judged.jsonl"

tcr stats_jsonl stats -o jsonl base.jsonl cand.jsonl
assert_rc "stats -o jsonl: exit 0" 0
assert_eq "stats -o jsonl: preferences, reviewers and pj as computed here" \
	"$(python3 "$TMP/prefs_check.py" "$D/base.jsonl.annotations.jsonl" "$D/order" "$TMP/judged.jsonl" pj "$TMP/stats_jsonl.out" 2>/dev/null)" ok
assert_grep "stats -o jsonl: the counts by reviewer" "$TMP/stats_jsonl.out" \
	'{"type":"preferences","reviewer":"ann","pairs":4,"base":1,"cand":2,"tie":1,"both_bad":0}'
assert_grep "stats -o jsonl: all reviewers" "$TMP/stats_jsonl.out" \
	'{"type":"preferences","reviewer":null,"pairs":4,"labels":7,"stale":0,"base":2,"cand":3,"tie":1,"both_bad":1}'
assert_grep "stats -o jsonl: ann against pj (t2 turned to the inputs' order)" "$TMP/stats_jsonl.out" \
	'{"type":"pairwise","judge":"pj","reviewer":"ann","n":4,"same":3,"agreement":0.75,'
assert_no_grep "stats: a pairwise judge is no per-run criterion" "$TMP/stats_jsonl.out" '"criterion":"pj'
python3 "$TMP/prefs_check.py" "$D/base.jsonl.annotations.jsonl" "$D/order" "$TMP/judged.jsonl" pjs \
	"$TMP/stats_jsonl.out" >"$TMP/pjs.check" 2>&1
assert_eq "stats -o jsonl: pjs (swap) as computed here" "$(head -n 1 "$TMP/pjs.check")" ok

tcr stats_table stats -o table base.jsonl cand.jsonl
assert_rc "stats -o table: exit 0" 0
assert_grep "stats table: the pairs counted" "$TMP/stats_table.out" "preferences: 4 pairs labelled, 7 labels"
assert_grep "stats table: ann's counts" "$TMP/stats_table.out" "  ann              4     1     2     1         0"
assert_grep "stats table: the reviewers on the same pairs" "$TMP/stats_table.out" \
	"ann and bob on the same 3 pairs: agreement 0.333  kappa 0.143"
assert_grep "stats table: pj against ann" "$TMP/stats_table.out" \
	"  pj      ann          n   4  agreement 0.750 [0.301, 0.954]  kappa 0.556  [0 0 0 0; 1 2 0 0; 0 0 1 0; 0 0 0 0]"
assert_grep "stats table: pj against the consensus" "$TMP/stats_table.out" "  pj      (consensus)  n   2  agreement 1.000"
assert_grep "stats table: a judge without answers says so" "$TMP/stats_table.out" \
	"  pjg: no cached answer on a labelled pair (tcreview judge --pairs asks)"

# ---- the shared tau-bench sample, split into its trials -------------------------------

R="${TCR_SHARED_DIR:-}/fixtures/real"
RUNS=taubench_v1_airline_sample.jsonl
if [ -z "${TCR_SHARED_DIR:-}" ] || [ ! -f "$R/$RUNS" ]; then
	skip "pairwise judges on tau-bench" "the shared real sample is absent (set TCR_SHARED_DIR)"
	finish
fi
D=$TMP/tau
mkdir -p "$D"
# t0.jsonl: trial 0 of tasks 0..5 (the base); t1.jsonl: trial 1 (the candidate).
python3 - "$R/$RUNS" "$D" <<'EOF'
import json, sys
lines = [l for l in open(sys.argv[1], "rb").read().split(b"\n") if l.strip()]
order = {0: [], 1: []}
with open(sys.argv[2] + "/t0.jsonl", "wb") as t0, open(sys.argv[2] + "/t1.jsonl", "wb") as t1:
    for raw in lines:
        d = json.loads(raw)
        (t0 if d["trial"] == 0 else t1).write(raw + b"\n")
        order[d["trial"]].append(d["_corpus"]["run_id"])
with open(sys.argv[2] + "/order", "w") as f:
    f.write("\n".join(order[0] + order[1]) + "\n")
EOF
# The answers by pair: a prompt of the test's own names both runs, and each
# task's pair has its answer (the candidate where only it got the reward).
cat > "$D/pair.txt" <<'EOF'
=== user
PAIR {{run_a_id}} VS {{run_b_id}}
{{task}}
A: {{run_a}}
B: {{run_b}}
EOF
python3 - > "$TMP/tau.json" <<'EOF'
import json
answers = {0: "both-bad", 1: "B", 2: "tie", 3: "A", 4: "both-bad", 5: "B"}
rules = []
for t, better in answers.items():
    a = "tau1-airline-gpt-4o-task%03d-trial0" % t
    b = "tau1-airline-gpt-4o-task%03d-trial1" % t
    rules.append({"match": {"body_contains": "PAIR %s VS %s" % (a, b)},
                  "content": {"reason": "task %d" % t, "better": better}})
print(json.dumps({"rules": rules, "default": {"status": 418, "raw": "no rule"}}))
EOF
fake_llm_start tau "$TMP/tau.json"
cat > "$D/tcreview.yaml" <<EOF
runs:
  id: _corpus.run_id
judges:
  - id: tau-pair
    rubric: pairwise
    model: openai/judge-model
    base_url: http://127.0.0.1:$PORT/v1
    prompt_file: pair.txt
EOF
tcr tau1 judge --pairs --compare --task task_id t0.jsonl t1.jsonl
assert_rc "tau-bench: judge --pairs --compare --task task_id: exit 0" 0
assert_eq "tau-bench: the six tasks' trials paired, each answered by its pair" \
	"$(python3 "$TMP/lines.py" "$TMP/tau1.out" | sed 's/tau1-airline-gpt-4o-//g')" \
"task000-trial0 task000-trial1 0 tau-pair ok both-bad asked
task001-trial0 task001-trial1 1 tau-pair ok cand asked
task002-trial0 task002-trial1 2 tau-pair ok tie asked
task003-trial0 task003-trial1 3 tau-pair ok base asked
task004-trial0 task004-trial1 4 tau-pair ok both-bad asked
task005-trial0 task005-trial1 5 tau-pair ok cand asked"
assert_eq "tau-bench: one request per task" "$(lines_of "$TMP/tau.log")" 6
ID_PATH=_corpus.run_id python3 "$TMP/pref.py" "$D/t0.jsonl.annotations.jsonl" "$D/t0.jsonl" "$D/t1.jsonl" <<'EOF'
ann tau1-airline-gpt-4o-task000-trial0 tau1-airline-gpt-4o-task000-trial1 both-bad
ann tau1-airline-gpt-4o-task001-trial0 tau1-airline-gpt-4o-task001-trial1 cand
ann tau1-airline-gpt-4o-task002-trial0 tau1-airline-gpt-4o-task002-trial1 both-bad
ann tau1-airline-gpt-4o-task004-trial1 tau1-airline-gpt-4o-task004-trial0 tie
ann tau1-airline-gpt-4o-task005-trial0 tau1-airline-gpt-4o-task005-trial1 cand
bob tau1-airline-gpt-4o-task001-trial0 tau1-airline-gpt-4o-task001-trial1 cand
bob tau1-airline-gpt-4o-task002-trial0 tau1-airline-gpt-4o-task002-trial1 tie
bob tau1-airline-gpt-4o-task003-trial0 tau1-airline-gpt-4o-task003-trial1 base
bob tau1-airline-gpt-4o-task005-trial1 tau1-airline-gpt-4o-task005-trial0 base
EOF
tcr tau_stats stats -o jsonl t0.jsonl t1.jsonl
assert_rc "tau-bench: stats t0.jsonl t1.jsonl: exit 0" 0
assert_eq "tau-bench: stats' preferences and tau-pair's agreement as computed here" \
	"$(python3 "$TMP/prefs_check.py" "$D/t0.jsonl.annotations.jsonl" "$D/order" "$TMP/tau1.out" tau-pair "$TMP/tau_stats.out" 2>"$TMP/tau.figure")" ok
# The consensus: the five pairs whose reviewers agree (task 2's do not);
# the judge agrees on four (not task 4: a tie, it said both bad).
assert_grep "tau-bench: the consensus agreement figure" "$TMP/tau_stats.out" \
	'{"type":"pairwise","judge":"tau-pair","reviewer":null,"n":5,"same":4,"agreement":0.8,'
tcr tau_table stats -o table t0.jsonl t1.jsonl
assert_grep "tau-bench: the table's figure" "$TMP/tau_table.out" "tau-pair  (consensus)  n   5  agreement 0.800 [0.376, 0.964]  kappa 0.722"
assert_eq "tau-bench: no request from stats" "$(lines_of "$TMP/tau.log")" 6

finish
