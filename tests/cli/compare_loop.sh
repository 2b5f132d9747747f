#!/bin/sh
# compare_loop.sh - comparing two runs of each task on the shared tau-bench
# sample, split into its trials (trial 0 the base, trial 1 the candidate),
# as the README's walkthrough tells it: in the side by side (script mode,
# the real keys) two reviewers say which run of each task is better, one
# changes a preference and takes another back; `judge --pairs` asks a
# pairwise judge (the local test server on 127.0.0.1) about the pairs they
# labelled; `stats` gives the preferences and the judge's agreement with
# them. Every figure is checked against python3 computing it from the
# annotations file and the server's answers, not through tcreview. Skipped
# where the shared sample is absent.
. "$TCR_SRCDIR/tests/cli/lib.sh"
. "$TCR_SRCDIR/tests/cli/screen_lib.sh"

R="${TCR_SHARED_DIR:-}/fixtures/real"
RUNS=taubench_v1_airline_sample.jsonl
EXPECTED=taubench_v1_airline_expected_sample.jsonl
if [ -z "${TCR_SHARED_DIR:-}" ] || [ ! -f "$R/$RUNS" ] || [ ! -f "$R/$EXPECTED" ]; then
	skip "comparing trials on tau-bench" "the shared real samples are absent (set TCR_SHARED_DIR)"
	finish
fi
if ! command -v python3 >/dev/null 2>&1; then
	skip "comparing trials on tau-bench" "python3 (the independent computation) is absent"
	finish
fi
fake_llm_need
lines_of() { if [ -f "$1" ]; then wc -l < "$1" | tr -d ' '; else echo 0; fi; }

unset http_proxy HTTP_PROXY https_proxy HTTPS_PROXY all_proxy ALL_PROXY OPENAI_BASE_URL
no_proxy='*' NO_PROXY='*'
export no_proxy NO_PROXY
unset OPENAI_API_KEY ANTHROPIC_API_KEY AZURE_OPENAI_API_KEY
TCR_NO_ANIMATION=1
export TCR_NO_ANIMATION

cp "$R/$RUNS" "$R/$EXPECTED" "$TMP/"
(cd "$TMP" && HOME="$TMP" XDG_CONFIG_HOME="$TMP/xdg" TCR_OLLAMA_URL=http://127.0.0.1:9 \
	"$TCR_BIN" init "$RUNS" "$EXPECTED" >"$TMP/init.out" 2>&1)
if [ ! -f "$TMP/tcreview.yaml" ] || grep -q '^judges:' "$TMP/tcreview.yaml"; then
	fail "init proposes a configuration for the tau-bench sample" "$(cat "$TMP/init.out")"
	finish
fi
python3 - "$TMP/$RUNS" "$TMP" <<'PY'
import json, sys
with open(sys.argv[2] + "/t0.jsonl", "wb") as t0, open(sys.argv[2] + "/t1.jsonl", "wb") as t1:
    for raw in open(sys.argv[1], "rb"):
        if raw.strip():
            (t0 if json.loads(raw)["trial"] == 0 else t1).write(raw)
PY

# The judge's answers, by pair: its prompt (the test's own) names both runs.
cat > "$TMP/pair.txt" <<'TXT'
=== user
PAIR {{run_a_id}} VS {{run_b_id}}
{{task}}
A: {{run_a}}
B: {{run_b}}
TXT
printf '%s\n' '0 both-bad' '1 B' '2 tie' '3 A' '4 both-bad' '5 A' > "$TMP/answers"
python3 - "$TMP/answers" > "$TMP/server.json" <<'PY'
import json, sys
rules = []
for line in open(sys.argv[1]):
    t, better = line.split()
    a = "tau1-airline-gpt-4o-task%03d-trial0" % int(t)
    b = "tau1-airline-gpt-4o-task%03d-trial1" % int(t)
    rules.append({"match": {"body_contains": "PAIR %s VS %s" % (a, b)},
                  "content": {"reason": "task " + t, "better": better}})
print(json.dumps({"rules": rules, "default": {"status": 418, "raw": "no rule"}}))
PY
fake_llm_start pairs "$TMP/server.json"
OPENAI_API_KEY=test-key-for-the-local-server
export OPENAI_API_KEY
cat >> "$TMP/tcreview.yaml" <<YAML

compare:
  task: task_id
judges:
  - id: better
    rubric: pairwise
    model: openai/judge-model
    base_url: http://127.0.0.1:$PORT/v1
    prompt_file: pair.txt
YAML

# In the side by side, which opens on task 0 and steps with ]: qa says
# both bad, candidate, tie, base, both bad, candidate; bob says candidate
# on task 1 (after base: a change of mind), both bad on task 2, base on
# task 3, and takes back a tie on task 5.
SCREEN_CONFIG=tcreview.yaml SCREEN_COLS=120 SCREEN_LINES=40
SCREEN_ANNOT=prefs.jsonl
rm -f "$TMP/prefs.jsonl"
SCREEN_REVIEWER=qa
run_screen compare-qa '!
]>
]~
]<
]!
]>' --compare t0.jsonl t1.jsonl
screen_has compare-qa "[side by side] task 5 (6 of 6)"
screen_has compare-qa "preference: candidate better (qa)"
SCREEN_REVIEWER=bob
run_screen compare-bob ']<
>
]!
]<
]]~
x' --compare t0.jsonl t1.jsonl
screen_has compare-bob "[side by side] task 5 (6 of 6)"
screen_has compare-bob "candidate better (qa)"

# The file holds every line as written: 6 of qa's, 6 of bob's (one taken back).
python3 - "$TMP/prefs.jsonl" > "$TMP/lines.txt" <<'PY'
import json, re, sys
for line in open(sys.argv[1]):
    d = json.loads(line)
    ok = all(re.fullmatch("[0-9a-f]{64}", d.get(k) or "") for k in ("run_hash", "other_hash"))
    print(d["reviewer"], d["decision"], d["run"][-14:], d["other"][-14:], d.get("prefer"),
          d.get("task"), d.get("retracts"), "hashes" if ok else "NO HASHES")
PY
assert_eq "the annotations file: each preference as pressed, base first, with the task and both hashes" \
	"$(cat "$TMP/lines.txt")" \
"qa prefer task000-trial0 task000-trial1 both-bad 0 None hashes
qa prefer task001-trial0 task001-trial1 cand 1 None hashes
qa prefer task002-trial0 task002-trial1 tie 2 None hashes
qa prefer task003-trial0 task003-trial1 base 3 None hashes
qa prefer task004-trial0 task004-trial1 both-bad 4 None hashes
qa prefer task005-trial0 task005-trial1 cand 5 None hashes
bob prefer task001-trial0 task001-trial1 base 1 None hashes
bob prefer task001-trial0 task001-trial1 cand 1 None hashes
bob prefer task002-trial0 task002-trial1 both-bad 2 None hashes
bob prefer task003-trial0 task003-trial1 base 3 None hashes
bob prefer task005-trial0 task005-trial1 tie 5 None hashes
bob retract task005-trial0 task005-trial1 None None prefer NO HASHES"

# A task key that is no path stops the screen and the judge before they start.
for cmd in "--compare" "judge --pairs --compare"; do
	run_tcr "$TMP/bad.out" "$TMP/bad.err" $cmd --task 'task_id[' -c "$TMP/tcreview.yaml" \
		"$TMP/t0.jsonl" "$TMP/t1.jsonl"
	assert_rc "tcreview $cmd --task 'task_id[': a usage error" 2
	assert_grep "tcreview $cmd --task 'task_id[': says why" "$TMP/bad.err" "--task 'task_id[': path 1: unterminated '['"
done

# The judge on the pairs the reviewers labelled (six), then again from its cache.
run_tcr "$TMP/judge.out" "$TMP/judge.err" judge --pairs -c "$TMP/tcreview.yaml" -a "$TMP/prefs.jsonl" \
	"$TMP/t0.jsonl" "$TMP/t1.jsonl"
assert_rc "judge --pairs on the labelled pairs: exit 0" 0
assert_eq "judge --pairs: one request per labelled pair" "$(lines_of "$TMP/pairs.log")" 6
run_tcr "$TMP/judge2.out" "$TMP/judge2.err" judge --pairs -c "$TMP/tcreview.yaml" -a "$TMP/prefs.jsonl" \
	"$TMP/t0.jsonl" "$TMP/t1.jsonl"
assert_eq "judge --pairs again: answered from the cache" "$(lines_of "$TMP/pairs.log")" 6
fake_llm_stop

run_tcr "$TMP/stats.out" "$TMP/stats.err" stats -o jsonl -c "$TMP/tcreview.yaml" -a "$TMP/prefs.jsonl" \
	"$TMP/t0.jsonl" "$TMP/t1.jsonl"
assert_rc "stats: exit 0" 0
# The figures, from the file and the server's answers alone: per reviewer
# and for the consensus (pairs whose reviewers agree), n, agreement with
# its Wilson interval, and Cohen's kappa over base, cand, tie, both-bad.
python3 - "$TMP/prefs.jsonl" "$TMP/answers" "$TMP/stats.out" > "$TMP/check.out" 2>&1 <<'PY'
import json, math, sys
stand = {}
for line in open(sys.argv[1]):
    d = json.loads(line)
    key = (d["run"], d["other"], d["reviewer"])
    stack = stand.setdefault(key, [])
    if d["decision"] == "retract":
        stack.pop()
    else:
        stack.append(d["prefer"])
prefs = {k: v[-1] for k, v in stand.items() if v}
judge = {}
for line in open(sys.argv[2]):
    t, better = line.split()
    judge["tau1-airline-gpt-4o-task%03d-trial0" % int(t)] = {"A": "base", "B": "cand"}.get(better, better)
cats = ["base", "cand", "tie", "both-bad"]
def figures(pairs):
    n = len(pairs)
    same = sum(1 for h, m in pairs if h == m)
    p = same / n
    z = 1.959963984540054
    c = (p + z * z / (2 * n)) / (1 + z * z / n)
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    pe = sum((sum(1 for a, _ in pairs if a == k) / n) * (sum(1 for _, b in pairs if b == k) / n) for k in cats)
    return {"n": n, "same": same, "agreement": p, "low": c - h, "high": c + h, "kappa": (p - pe) / (1 - pe)}
want = {}
for rev in ("qa", "bob"):
    want[rev] = figures([(v, judge[k[0]]) for k, v in prefs.items() if k[2] == rev])
by_pair = {}
for (run, other, rev), v in prefs.items():
    by_pair.setdefault(run, set()).add(v)
want[None] = figures([(next(iter(v)), judge[r]) for r, v in by_pair.items() if len(v) == 1])
got = {d["reviewer"]: d for d in map(json.loads, open(sys.argv[3]))
       if d.get("type") == "pairwise" and d.get("judge") == "better"}
bad = []
for rev, w in want.items():
    g = got.get(rev)
    if not g:
        bad.append("no pairwise line for %s" % rev)
        continue
    for k, v in w.items():
        if g.get(k) is None or abs(g[k] - v) > 1e-9:
            bad.append("%s %s: stats %s, computed %s" % (rev, k, g.get(k), v))
    print("%s: n %d, agreement %.3f [%.3f, %.3f], kappa %.4f" % (rev or "consensus", w["n"],
          w["agreement"], w["low"], w["high"], w["kappa"]), file=sys.stderr)
print("\n".join(bad) if bad else "ok")
PY
assert_eq "stats: the judge's agreement with each reviewer and the consensus, as computed here" \
	"$(tail -n 1 "$TMP/check.out")" ok
cat "$TMP/check.out"
assert_grep "stats: qa's counts" "$TMP/stats.out" \
	'{"type":"preferences","reviewer":"qa","pairs":6,"base":1,"cand":2,"tie":1,"both_bad":2}'
assert_grep "stats: bob's counts (a change of mind once, a preference taken back)" "$TMP/stats.out" \
	'{"type":"preferences","reviewer":"bob","pairs":3,"base":1,"cand":1,"tie":0,"both_bad":1}'
run_tcr "$TMP/table.out" "$TMP/table.err" stats -o table -c "$TMP/tcreview.yaml" -a "$TMP/prefs.jsonl" \
	"$TMP/t0.jsonl" "$TMP/t1.jsonl"
assert_grep "stats' table: the consensus agreement figure" "$TMP/table.out" \
	"better  (consensus)  n   5  agreement 0.800"

# The same figures in the screen's calibration overlay (K), read from the cache.
SCREEN_REVIEWER=qa
run_screen calib-qa 'K' t0.jsonl t1.jsonl
screen_has calib-qa "pairwise judges against the reviewers' preferences"
screen_has calib-qa "better  qa  n 6  agreement 0.833 [0.436, 0.970]  kappa 0.778"
screen_has calib-qa "better  (consensus)  n 5  agreement 0.800 [0.376, 0.964]  kappa 0.706"

# In the side by side, the judge's cached answer on the pair under the
# verdicts, beside the preference (not in blind review).
run_screen compare-judged ']]]]]' --compare t0.jsonl t1.jsonl
screen_has compare-judged "judge better: base better — task 5"
screen_has compare-judged "preference: candidate better (qa)"
run_screen compare-blind ']]]]]' --blind --compare t0.jsonl t1.jsonl
if grep -q 'judge better' "$TMP/compare-blind.screen"; then
	fail "blind review: no judge's answer in the side by side" "$(cat "$TMP/compare-blind.screen")"
else
	pass "blind review: no judge's answer in the side by side"
fi

finish
