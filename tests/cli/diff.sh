#!/bin/sh
# diff.sh - `tcreview diff BASE CAND`: each task's change per scorer and
# judge (fixed, broke, same-pass, same-fail, only-base, only-cand, by pass
# rate with several trials), the summary per scorer (pass rates, pass^k,
# McNemar's exact p) checked against python3 computing them on its own,
# runs without a task key left out, judges read from the cache only,
# --scorer, --fail-on-broke, bad input; then the tau-bench sample split
# into its two trials, every line checked independently.
. "$TCR_SRCDIR/tests/cli/lib.sh"

if ! command -v python3 >/dev/null 2>&1; then
	skip "diff" "python3 is needed to compute the expected figures"
	finish
fi
fake_llm_need
unset http_proxy HTTP_PROXY https_proxy HTTPS_PROXY all_proxy ALL_PROXY OPENAI_BASE_URL
no_proxy='*' NO_PROXY='*'
export no_proxy NO_PROXY
OPENAI_API_KEY=sk-tcr-diff-test-0001
export OPENAI_API_KEY
D="$TMP/d"
mkdir -p "$D"

# ---- a fixture: the trials of each task, base and candidate -----------------
# ok passes with 1; alt is missing (a skip, not counted) where None; the
# judge j answers 1 (fail) for the runs marked in FAIL, else 5 (pass).
cat > "$TMP/fixture.py" <<'EOF'
import json, sys
d = sys.argv[1]
# task: ([base ok...], [cand ok...]); alt per run where given
TRIALS = {
    1: ([1], [0]),              # broke
    2: ([0], [1]),              # fixed
    "10": ([1, 1], [1, 1]),     # same-pass
    3: ([1, 0], [0, 1]),        # equal rate 1/2: same-fail (half is not passing)
    4: ([1, 1, 0], [1, 0, 1]),  # equal rate 2/3: same-pass
    5: ([1, 1], [1, 0]),        # 2/2 -> 1/2: broke
    6: ([0, 0], [0, 1, 1]),     # 0/2 -> 2/3: fixed
    7: ([1, 0], [0, 1, 1, 0]),  # 1/2 and 2/4: same-fail
    "alpha": ([1], []),         # only-base
    "beta": ([], [0]),          # only-cand
}
ALT = {("b", 1, 0): 1, ("b", 2, 0): 0, ("c", 2, 0): 1, ("c", 3, 0): 1, ("b", 3, 0): 1}
FAIL = {("b", 2, 0), ("c", 1, 0), ("c", 5, 1)}
def rec(side, task, i, ok):
    mark = "MARK-%s-%s-%d" % (side, task, i)
    r = {"id": mark, "ok": ok}
    if task is not None:
        r["task"] = task
    if (side, task, i) in ALT:
        r["alt"] = ALT[(side, task, i)]
    r["messages"] = [
        {"role": "user", "content": "Where is my order? " + mark},
        {"role": "assistant", "content": None, "tool_calls": [{"id": "c1", "type": "function",
            "function": {"name": "get_order", "arguments": "{\"id\":\"" + mark + "\"}"}}]},
        {"role": "tool", "tool_call_id": "c1", "content": "shipped"},
        {"role": "assistant", "content": "It is on its way."}]
    return json.dumps(r)
for side, k in (("b", 0), ("c", 1)):
    with open("%s/%s.jsonl" % (d, "base" if side == "b" else "cand"), "w") as f:
        for task, sides in TRIALS.items():
            for i, ok in enumerate(sides[k]):
                f.write(rec(side, task, i, ok) + "\n")
        f.write(rec(side, None, 0, 1) + "\n")          # no task: left out
        if side == "c":
            f.write(rec(side, None, 1, 1) + "\n")
json.dump({"trials": {str(t): v for t, v in TRIALS.items()},
           "alt": [[s, str(t), i, v] for (s, t, i), v in ALT.items()],
           "fail": [[s, str(t), i] for (s, t, i) in FAIL]}, open(d + "/truth.json", "w"))
EOF
python3 "$TMP/fixture.py" "$D"

# The expected lines, computed here from the fixture's truth.
cat > "$TMP/expect.py" <<'EOF'
import json, math, sys
truth = json.load(open(sys.argv[1]))
rows = sys.argv[2].split(",")          # scorers in configuration order
missing = set(tuple(x) for x in json.loads(sys.argv[3])) if len(sys.argv) > 3 else set()
def order(t):
    try:
        return (0, float(t), "", t)
    except ValueError:
        return (1, 0, t, t)
tasks = sorted(truth["trials"], key=order)
alt = {(s, t, i): v for s, t, i, v in truth["alt"]}
fail = set(tuple(x) for x in truth["fail"])
def counts(row, side, task):
    runs = passed = 0
    for i, ok in enumerate(truth["trials"][task][0 if side == "b" else 1]):
        if row == "ok":
            v = ok
        elif row == "alt":
            v = alt.get((side, task, i))
        else:                                      # the judge
            v = None if (side, task, i) in missing else (0 if (side, task, i) in fail else 1)
        if v is None:
            continue
        runs += 1
        passed += v
    return runs, passed
def change(b, c):
    (nb, kb), (nc, kc) = b, c
    if not nb and not nc: return None
    if not nc: return "only-base"
    if not nb: return "only-cand"
    if kc * nb > kb * nc: return "fixed"
    if kc * nb < kb * nc: return "broke"
    return "same-pass" if 2 * kb > nb else "same-fail"
def mcnemar(b, c):
    n = b + c
    if n == 0: return 1.0
    return min(1.0, 2 * sum(math.comb(n, i) for i in range(min(b, c) + 1)) / 2 ** n)
def num(x):
    return str(int(x)) if x == int(x) else repr(x)
summ = {}
for t in tasks:
    for row in rows:
        b, c = counts(row, "b", t), counts(row, "c", t)
        ch = change(b, c)
        if ch is None: continue
        print(json.dumps({"task": t, "scorer": row, "base": {"runs": b[0], "passed": b[1]},
                          "cand": {"runs": c[0], "passed": c[1]}, "change": ch},
                         separators=(",", ":")))
        summ.setdefault(row, []).append((b, c, ch))
for row in rows:
    got = summ.get(row, [])
    n = {k: sum(1 for x in got if x[2] == k) for k in
         ("fixed", "broke", "same-pass", "same-fail", "only-base", "only-cand")}
    both = [x for x in got if not x[2].startswith("only")]
    def rate(side):
        return sum(x[side][1] / x[side][0] for x in both) / len(both) if both else None
    def passk(side):
        if not both: return []
        kmax = min(x[side][0] for x in both)
        return [sum(math.comb(x[side][1], k) / math.comb(x[side][0], k) for x in both) / len(both)
                for k in range(1, kmax + 1)]
    print("SUMMARY", json.dumps({"scorer": row, "tasks": len(both), "fixed": n["fixed"],
          "broke": n["broke"], "same_pass": n["same-pass"], "same_fail": n["same-fail"],
          "only_base": n["only-base"], "only_cand": n["only-cand"], "base_pass_rate": rate(0),
          "cand_pass_rate": rate(1), "mcnemar_p": mcnemar(n["broke"], n["fixed"]),
          "base_pass_k": passk(0), "cand_pass_k": passk(1)}))
EOF

# Summary lines: integers and null equal, numbers within 1e-12.
cat > "$TMP/same_summary.py" <<'EOF'
import json, sys
got = [json.loads(l) for l in open(sys.argv[1]) if '"type":"summary"' in l]
want = [json.loads(l.split(" ", 1)[1]) for l in open(sys.argv[2]) if l.startswith("SUMMARY ")]
def close(a, b):
    if isinstance(a, list) or isinstance(b, list):
        return isinstance(a, list) and isinstance(b, list) and len(a) == len(b) and \
            all(close(x, y) for x, y in zip(a, b))
    if a is None or b is None or isinstance(a, str):
        return a == b
    return abs(a - b) <= 1e-12
bad = []
if len(got) != len(want):
    bad.append("%d summary lines, expected %d" % (len(got), len(want)))
for g, w in zip(got, want):
    if list(g.keys()) != ["type"] + list(w.keys()):
        bad.append("keys %s" % list(g.keys()))
    for k, v in w.items():
        if not close(g.get(k), v):
            bad.append("%s %s: got %r, want %r" % (w["scorer"], k, g.get(k), v))
print("\n".join(bad) if bad else "same")
EOF

# ---- the judge's cache, made with the local test server ---------------------
rules=""
for m in "MARK-b-2-0" "MARK-c-1-0" "MARK-c-5-1"; do
	rules="$rules {\"match\": {\"body_contains\": \"$m\"}, \"content\": {\"score\": 1, \"reason\": \"no\", \"status\": \"completed\", \"properties\": null}},"
done
printf '{"rules": [%s {"match": {"path_prefix": "/never"}}], "default": {"content": {"score": 5, "reason": "yes", "status": "completed", "properties": null}}}\n' "$rules" > "$TMP/judge.json"
fake_llm_start judge "$TMP/judge.json" || finish
cat > "$D/tcreview.yaml" <<EOF
scorers:
  - id: ok
    type: record-field
    path: ok
    scale: binary
  - id: alt
    type: record-field
    path: alt
    scale: binary
judges:
  - id: j
    rubric: tool-call-accuracy-1to5
    model: openai/judge-model
    base_url: http://127.0.0.1:$PORT/v1
    tools: [{name: get_order, description: looks an order up}]
    threshold: 4
    max_retries: 0
EOF
for side in base cand; do
	(cd "$D" && "$TCR_BIN" judge $side.jsonl) > "$TMP/judge.$side.out" 2> "$TMP/err"
	RC=$?
	assert_rc "tcreview judge $side.jsonl fills its cache" 0
	assert_eq "every run of $side.jsonl judged" "$(grep -c '"status":"ok"' "$TMP/judge.$side.out")" \
		"$(wc -l < "$D/$side.jsonl" | tr -d ' ')"
done
REQUESTS=$(wc -l < "$TMP/judge.log" | tr -d ' ')
fake_llm_stop
# One more candidate run after judging: the cache has no verdict for it.
python3 - "$D" <<'EOF'
import json, sys
d = sys.argv[1]
lines = open(d + "/cand.jsonl").read().splitlines()
r = json.loads(lines[1])                  # task 2's one candidate run
r["id"] = "MARK-c-2-1"; r["ok"] = 1; r.pop("alt", None)
r["messages"][0]["content"] = "Where is my order? MARK-c-2-1"
lines.insert(2, json.dumps(r))
open(d + "/cand.jsonl", "w").write("\n".join(lines) + "\n")
t = json.load(open(d + "/truth.json"))
t["trials"]["2"][1].append(1)
json.dump(t, open(d + "/truth.json", "w"))
EOF
assert_eq "judge: one request a run" "$REQUESTS" 38

# ---- no task key --------------------------------------------------------------
(cd "$D" && "$TCR_BIN" diff -o jsonl base.jsonl cand.jsonl) > "$TMP/o" 2> "$TMP/err"
RC=$?
assert_rc "no task key: a usage error" 2
assert_grep "no task key: says how to give one" "$TMP/err" "give --task PATH (such as --task task_id) or write compare: {task: PATH} in the configuration"
assert_eq "no task key: nothing written" "$(wc -c < "$TMP/o" | tr -d ' ')" 0

# A task key that is no path: a usage error naming it, nothing compared.
(cd "$D" && "$TCR_BIN" diff --task 'task[' -o jsonl base.jsonl cand.jsonl) > "$TMP/o" 2> "$TMP/err"
RC=$?
assert_rc "--task that is no path: a usage error" 2
assert_grep "--task that is no path: named with why" "$TMP/err" "tcreview diff: --task 'task[': path 1: unterminated '['"
assert_eq "--task that is no path: nothing written" "$(wc -c < "$TMP/o" | tr -d ' ')" 0

# ---- every line, against the independent computation --------------------------
(cd "$D" && "$TCR_BIN" diff --task task -o jsonl base.jsonl cand.jsonl) > "$TMP/all.out" 2> "$TMP/all.err"
RC=$?
assert_rc "diff --task task: exit 0 (a task broke, no --fail-on-broke)" 0
python3 "$TMP/expect.py" "$D/truth.json" ok,alt,j '[["c","2",1]]' > "$TMP/all.want"
grep -v '^SUMMARY' "$TMP/all.want" > "$TMP/all.want.lines"
grep -v '"type":"summary"' "$TMP/all.out" > "$TMP/all.out.lines"
if cmp -s "$TMP/all.out.lines" "$TMP/all.want.lines"; then
	pass "every task line is the one computed independently ($(wc -l < "$TMP/all.want.lines" | tr -d ' ') lines)"
else
	fail "every task line is the one computed independently" "$(diff "$TMP/all.want.lines" "$TMP/all.out.lines" | head -20)"
fi
assert_eq "summaries: counts, pass rates, pass^k and McNemar's p as computed" \
	"$(python3 "$TMP/same_summary.py" "$TMP/all.out" "$TMP/all.want")" same
for ch in fixed broke same-pass same-fail only-base only-cand; do
	assert_grep "the change $ch appears" "$TMP/all.out" "\"change\":\"$ch\"}"
done
assert_grep "tasks in numeric order: 7 before 10" "$TMP/all.out.lines" '{"task":"7","scorer":"j",'
assert_eq "tasks in numeric order, numbers first" \
	"$(grep '^{"task":"[^"]*","scorer":"ok"' "$TMP/all.out" | sed 's/^{"task":"\([^"]*\)".*/\1/' | tr '\n' ' ')" \
	"1 2 3 4 5 6 7 10 alpha beta "
assert_grep "several trials: 2/2 -> 1/2 broke" "$TMP/all.out" '{"task":"5","scorer":"ok","base":{"runs":2,"passed":2},"cand":{"runs":2,"passed":1},"change":"broke"}'
assert_grep "equal rates of one half: same-fail" "$TMP/all.out" '{"task":"3","scorer":"ok","base":{"runs":2,"passed":1},"cand":{"runs":2,"passed":1},"change":"same-fail"}'
assert_grep "equal rates 1/2 and 2/4: same-fail" "$TMP/all.out" '{"task":"7","scorer":"ok","base":{"runs":2,"passed":1},"cand":{"runs":4,"passed":2},"change":"same-fail"}'
assert_grep "equal rates of 2/3: same-pass" "$TMP/all.out" '{"task":"4","scorer":"ok","base":{"runs":3,"passed":2},"cand":{"runs":3,"passed":2},"change":"same-pass"}'
assert_grep "a side a task is absent from is zero" "$TMP/all.out" '{"task":"beta","scorer":"ok","base":{"runs":0,"passed":0},"cand":{"runs":1,"passed":0},"change":"only-cand"}'
assert_grep "skips are not counted (alt: only-base)" "$TMP/all.out" '{"task":"1","scorer":"alt","base":{"runs":1,"passed":1},"cand":{"runs":0,"passed":0},"change":"only-base"}'
assert_grep "runs without the task key: base" "$TMP/all.err" "1 run of base.jsonl (base) has no task: left out"
assert_grep "runs without the task key: cand" "$TMP/all.err" "2 runs of cand.jsonl (cand) have no task: left out"
assert_grep "the judge's run missing from the cache is said" "$TMP/all.err" "judge j: 1 run of cand.jsonl (cand) has no verdict in the judge cache: left out"
assert_grep "skips are said" "$TMP/all.err" "scorer alt: 13 verdicts on base.jsonl (base) were an error or a skip: not counted"
assert_grep "judge from the cache: broke on task 1" "$TMP/all.out" '{"task":"1","scorer":"j","base":{"runs":1,"passed":1},"cand":{"runs":1,"passed":0},"change":"broke"}'
assert_grep "judge: the run missing from the cache does not count" "$TMP/all.out" '{"task":"2","scorer":"j","base":{"runs":1,"passed":0},"cand":{"runs":1,"passed":1},"change":"fixed"}'
assert_eq "no request was made (the server is stopped; nothing failed)" "$(grep -c 'error' "$TMP/all.out")" 0
# One cache beside BASE for both sides, as `tcreview judge base.jsonl
# cand.jsonl` or the side by side keep it: the candidate's verdicts are
# found there too, and the lines are the same.
mkdir -p "$TMP/onecache"
cp "$D/base.jsonl" "$D/cand.jsonl" "$D/tcreview.yaml" "$TMP/onecache/"
cat "$D/base.jsonl.judgements.jsonl" "$D/cand.jsonl.judgements.jsonl" \
	> "$TMP/onecache/base.jsonl.judgements.jsonl"
(cd "$TMP/onecache" && "$TCR_BIN" diff --task task -o jsonl base.jsonl cand.jsonl) \
	> "$TMP/onecache.out" 2> "$TMP/onecache.err"
RC=$?
assert_rc "one cache beside BASE: exit 0" 0
if cmp -s "$TMP/onecache.out" "$TMP/all.out"; then
	pass "one cache beside BASE: the candidate's judge verdicts read from it, every line the same"
else
	fail "one cache beside BASE: the candidate's judge verdicts read from it, every line the same" \
		"$(diff "$TMP/all.out" "$TMP/onecache.out" | head -20)"
fi
assert_eq "one cache beside BASE: no file written beside CAND" \
	"$(ls "$TMP/onecache" | grep -c 'cand.jsonl.judgements')" 0
# The McNemar p of ok on its own: 3 broke, 2 fixed.
assert_grep "ok's summary line" "$TMP/all.out" '{"type":"summary","scorer":"ok","tasks":8,"fixed":2,"broke":2,'

# Several paths: their values joined by #.
(cd "$D" && "$TCR_BIN" diff --task "task ok" --scorer ok -o jsonl base.jsonl cand.jsonl) > "$TMP/two.out" 2> "$TMP/err"
RC=$?
assert_rc "--task with two paths: exit 0" 0
assert_grep "--task with two paths: tasks by both values" "$TMP/two.out" '{"task":"5#1","scorer":"ok","base":{"runs":2,"passed":2},"cand":{"runs":1,"passed":1},"change":"same-pass"}'

# ---- compare: {task:} in the configuration, and --scorer ------------------------
{ cat "$D/tcreview.yaml"; echo 'compare: {task: task}'; } > "$D/cmp.yaml"
(cd "$D" && "$TCR_BIN" diff -c cmp.yaml -o jsonl base.jsonl cand.jsonl) > "$TMP/cmp.out" 2> "$TMP/err"
RC=$?
assert_rc "compare: {task:} gives the task key" 0
assert_eq "... the same lines as --task" "$(cmp -s "$TMP/cmp.out" "$TMP/all.out" && echo same)" same
(cd "$D" && "$TCR_BIN" diff --task task --scorer ok -o jsonl base.jsonl cand.jsonl) > "$TMP/ok.out" 2> "$TMP/err"
assert_eq "--scorer ok: only its lines" "$(grep -v '"scorer":"ok"' "$TMP/ok.out" | wc -l | tr -d ' ')" 0
assert_eq "--scorer ok: all of them" "$(grep -c '"scorer":"ok"' "$TMP/ok.out")" "$(grep -c '"scorer":"ok"' "$TMP/all.out")"
(cd "$D" && "$TCR_BIN" diff --task task --scorer nope base.jsonl cand.jsonl) > "$TMP/o" 2> "$TMP/err"
RC=$?
assert_rc "--scorer naming nothing: exit 2" 2
assert_grep "--scorer naming nothing: the ids are listed" "$TMP/err" "unknown scorer or judge 'nope' (per-run scorers and judges: ok, alt, j)"

# ---- --fail-on-broke ------------------------------------------------------------------
(cd "$D" && "$TCR_BIN" diff --task task --fail-on-broke -o jsonl base.jsonl cand.jsonl) > "$TMP/o" 2> "$TMP/err"
RC=$?
assert_rc "--fail-on-broke with a task broken: exit 1" 1
(cd "$D" && "$TCR_BIN" diff --task task --fail-on-broke --scorer alt -o jsonl base.jsonl cand.jsonl) > "$TMP/o" 2> "$TMP/err"
RC=$?
assert_rc "--fail-on-broke --scorer alt (nothing broke): exit 0" 0
(cd "$D" && "$TCR_BIN" diff --task task --fail-on-broke base.jsonl base.jsonl) > "$TMP/o" 2> "$TMP/err"
RC=$?
assert_rc "--fail-on-broke, a side against itself: exit 0" 0

# ---- the table --------------------------------------------------------------------------
(cd "$D" && "$TCR_BIN" diff --task task -o text base.jsonl cand.jsonl) > "$TMP/text.out" 2> "$TMP/err"
RC=$?
assert_rc "-o text: exit 0" 0
assert_grep "the table: ok's row" "$TMP/text.out" "ok          8     2     2    4    2   58.3% →  60.4%   +2.1 1.000"
assert_grep "broke listed with the counts" "$TMP/text.out" "  broke  task 5  2/2 → 1/2"
assert_grep "significance in words" "$TMP/text.out" "p = 1.000, not significant at 0.05"
assert_grep "only-base listed" "$TMP/text.out" "  only in base (1): alpha"
assert_eq "no colour in a pipe" "$(grep -c "$(printf '\033')" "$TMP/text.out")" 0
(cd "$D" && "$TCR_BIN" diff --task task -o text --color=always base.jsonl cand.jsonl) > "$TMP/color.out" 2> "$TMP/err"
assert_grep "--color=always: broke in red" "$TMP/color.out" "$(printf '\033[31mbroke\033[0m')"
assert_grep "--color=always: fixed in green" "$TMP/color.out" "$(printf '\033[32mfixed\033[0m')"
awk '{ if (length($0) > 82) bad++ } END { exit bad }' "$TMP/text.out"
assert_eq "the table fits 80 columns in a pipe" $? 0

# ---- bad input -------------------------------------------------------------------------------
sed '3s/.*/{"id": broken/' "$D/cand.jsonl" > "$D/cand_bad.jsonl"
(cd "$D" && "$TCR_BIN" diff --task task --scorer ok -o jsonl base.jsonl cand_bad.jsonl) > "$TMP/bad.out" 2> "$TMP/bad.err"
RC=$?
assert_rc "a broken line: still compared, exit 0" 0
assert_grep "a broken line: file and line named" "$TMP/bad.err" "tcreview diff: cand_bad.jsonl:3: invalid token near 'broken'"
assert_no_grep "... once" "$TMP/bad.err" "cand_bad.jsonl:3: cand_bad.jsonl:3:"
assert_grep "a broken line: counted" "$TMP/bad.err" "1 record of cand_bad.jsonl (cand) could not be read: left out"
assert_eq "a broken line: the other tasks compared" "$(grep -c '"task"' "$TMP/bad.out")" "$(grep -c '"task"' "$TMP/ok.out")"
printf 'not json at all\n' > "$D/junk.jsonl"
(cd "$D" && "$TCR_BIN" diff --task task base.jsonl junk.jsonl) > "$TMP/o" 2> "$TMP/err"
RC=$?
assert_rc "a side of which nothing reads: exit 3" 3
(cd "$D" && "$TCR_BIN" diff --task task base.jsonl) > "$TMP/o" 2> "$TMP/err"
RC=$?
assert_rc "one input only: exit 2" 2
(cd "$D" && "$TCR_BIN" diff --task task -o xml base.jsonl cand.jsonl) > "$TMP/o" 2> "$TMP/err"
RC=$?
assert_rc "an unknown output: exit 2" 2

# ---- the tau-bench sample, split into its two trials -----------------------------------------
SAMPLE="${TCR_SHARED_DIR:-}/fixtures/real/taubench_v1_airline_sample.jsonl"
EXPECTED="${TCR_SHARED_DIR:-}/fixtures/real/taubench_v1_airline_expected_sample.jsonl"
if [ ! -f "$SAMPLE" ] || [ ! -f "$EXPECTED" ]; then
	skip "tau-bench sample" "$SAMPLE is absent"
	finish
fi
unset OPENAI_API_KEY ANTHROPIC_API_KEY AZURE_OPENAI_API_KEY
TB="$TMP/tb"
mkdir -p "$TB"
cp "$SAMPLE" "$EXPECTED" "$TB/"
(cd "$TB" && HOME="$TMP" XDG_CONFIG_HOME="$TMP/xdg" "$TCR_BIN" init taubench_v1_airline_sample.jsonl \
	taubench_v1_airline_expected_sample.jsonl > "$TMP/init.out" 2>&1)
if [ ! -f "$TB/tcreview.yaml" ]; then
	fail "init proposes a configuration for the tau-bench sample" "$(cat "$TMP/init.out")"
	finish
fi
python3 - "$TB" <<'EOF'
import json, sys
d = sys.argv[1]
out = {0: open(d + "/t0.jsonl", "w"), 1: open(d + "/t1.jsonl", "w")}
for line in open(d + "/taubench_v1_airline_sample.jsonl"):
    out[json.loads(line)["trial"]].write(line)
EOF
(cd "$TB" && "$TCR_BIN" diff --task task_id -o jsonl t0.jsonl t1.jsonl) > "$TMP/tb.out" 2> "$TMP/tb.err"
RC=$?
assert_rc "tau-bench trial 0 against trial 1: exit 0" 0
for t in 0 1; do
	(cd "$TB" && "$TCR_BIN" score -o jsonl t$t.jsonl) > "$TMP/score$t.out" 2> "$TMP/err"
done
# Each side's verdicts from score's lines (reward from the records), the
# changes and the summaries computed here, then every line compared.
cat > "$TMP/tb_check.py" <<'EOF'
import json, math, sys
tb, out, s0, s1 = sys.argv[1:5]
def side(records, score):
    task, rewards = {}, {}
    for l in open(records):
        r = json.loads(l)
        task[r["_corpus"]["run_id"]] = str(r["task_id"])
        rewards.setdefault(str(r["task_id"]), []).append(1 if r["reward"] >= 1 else 0)
    v = {}
    for l in open(score):
        x = json.loads(l)
        if x["scorer"] == "reward":
            continue
        if x["status"] == "ok":
            v.setdefault((x["scorer"], task[x["run"]]), []).append(1 if x["passed"] else 0)
    for t, x in rewards.items():
        v[("reward", t)] = x
    return v
b = side(tb + "/t0.jsonl", s0)
c = side(tb + "/t1.jsonl", s1)
scorers = []
for l in open(s0):
    s = json.loads(l)["scorer"]
    if s not in scorers:
        scorers.append(s)
tasks = sorted(set(t for _, t in list(b) + list(c)), key=lambda t: (float(t), t))
lines, summary = [], {}
for t in tasks:
    for s in scorers:
        vb, vc = b.get((s, t), []), c.get((s, t), [])
        nb, kb, nc, kc = len(vb), sum(vb), len(vc), sum(vc)
        if not nb and not nc:
            continue
        ch = ("only-base" if not nc else "only-cand" if not nb else
              "fixed" if kc * nb > kb * nc else "broke" if kc * nb < kb * nc else
              "same-pass" if 2 * kb > nb else "same-fail")
        lines.append(json.dumps({"task": t, "scorer": s, "base": {"runs": nb, "passed": kb},
                                 "cand": {"runs": nc, "passed": kc}, "change": ch},
                                separators=(",", ":")))
        summary.setdefault(s, {}).setdefault(ch, []).append(t)
got = [l.rstrip("\n") for l in open(out)]
task_lines = [l for l in got if '"type":"summary"' not in l]
if task_lines != lines:
    print("task lines differ:\n" + "\n".join(x for x in task_lines if x not in lines))
for l in got:
    if '"type":"summary"' not in l:
        continue
    x = json.loads(l)
    ch = summary.get(x["scorer"], {})
    nb, nf = len(ch.get("broke", [])), len(ch.get("fixed", []))
    n = nb + nf
    p = 1.0 if n == 0 else min(1.0, 2 * sum(math.comb(n, i) for i in range(min(nb, nf) + 1)) / 2 ** n)
    if abs(x["mcnemar_p"] - p) > 1e-12 or x["broke"] != nb or x["fixed"] != nf:
        print("%s: p %r broke %d fixed %d, computed p %r broke %d fixed %d" %
              (x["scorer"], x["mcnemar_p"], x["broke"], x["fixed"], p, nb, nf))
    print("NOTE %s: fixed %s; broke %s; McNemar p %s" % (x["scorer"],
          ", ".join(ch.get("fixed", [])) or "none", ", ".join(ch.get("broke", [])) or "none",
          x["mcnemar_p"]), file=sys.stderr)
print("same %d" % len(lines))
EOF
python3 "$TMP/tb_check.py" "$TB" "$TMP/tb.out" "$TMP/score0.out" "$TMP/score1.out" > "$TMP/tb.check" 2> "$TMP/tb.notes"
assert_eq "tau-bench: every line as computed from score's verdicts and the records' reward" \
	"$(cat "$TMP/tb.check")" "same 30"
echo "tau-bench sample, trial 0 (base) against trial 1 (cand), tasks by task_id:"
sed 's/^NOTE /  /' "$TMP/tb.notes"

# The table as a pipe gets it (80 columns), against its golden.
GOLDEN="$TCR_SRCDIR/tests/data/diff-taubench.txt"
(cd "$TB" && COLUMNS=80 "$TCR_BIN" diff --task task_id -o text t0.jsonl t1.jsonl) > "$TMP/tb.txt" 2> "$TMP/err"
if [ -n "${TCR_UPDATE_SCREENS:-}" ]; then
	cp "$TMP/tb.txt" "$GOLDEN"
fi
if cmp -s "$TMP/tb.txt" "$GOLDEN"; then
	pass "tau-bench: the table is its golden"
else
	fail "tau-bench: the table is its golden" "$(diff "$GOLDEN" "$TMP/tb.txt" | head -30)"
fi
finish
