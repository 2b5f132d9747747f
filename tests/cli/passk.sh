#!/bin/sh
# passk.sh - `tcreview score --task`: pass^k and pass@k of every scorer over
# the trials of each task. A fixture of uneven trials (tasks of 2, 3 and 5
# trials, a scorer that errs or skips on some runs, a run without the task
# key) checked value by value against python3's own computation from the
# fixture (math.comb, exact fractions), the jsonl lines' order and shape,
# the table, --task over compare: {task:}, and no task key changing
# nothing. Then the done-when on the shared tau-bench sample: every
# scorer's pass^1 and pass^2, pass@1 and pass@2 against python3 computing
# them from the records (reward) and from score's own verdict lines (the
# others); skipped where the sample is absent.
. "$TCR_SRCDIR/tests/cli/lib.sh"

if ! command -v python3 >/dev/null 2>&1; then
	skip "pass^k" "python3 (the independent computation) is absent"
	finish
fi

# Scorers a, b, c read the record's own 0/1 at a, b, c: a value is a pass
# or a fail, a text an error, a missing field a skip.
cat > "$TMP/p.yaml" <<'YAML'
scorers:
  - id: a
    type: record-field
    path: a
    scale: binary
  - id: b
    type: record-field
    path: b
    scale: binary
  - id: c
    type: record-field
    path: c
    scale: binary
YAML
{ cat "$TMP/p.yaml"; printf 'compare: {task: grp}\n'; } > "$TMP/grp.yaml"

# t2: 2 trials, 3 (a number): 3 trials, t5: 5 trials; one run has no task_id.
# b errs on a trial of 3 and skips one of t5 (k still reaches 2); c errs
# on a trial of t2 (k reaches 1 only).
M='"messages":[{"role":"user","content":"hi"},{"role":"assistant","content":"hello"}]'
cat > "$TMP/runs.jsonl" <<JSONL
{"id":"r01","task_id":"t2","grp":"g1","a":1,"b":1,"c":1,$M}
{"id":"r02","task_id":"t2","grp":"g2","a":0,"b":1,"c":"x",$M}
{"id":"r03","task_id":3,"grp":"g1","a":1,"b":1,"c":1,$M}
{"id":"r04","task_id":3,"grp":"g2","a":1,"b":"x","c":1,$M}
{"id":"r05","task_id":3,"grp":"g1","a":0,"b":0,"c":1,$M}
{"id":"r06","grp":"g2","a":1,"b":1,"c":1,$M}
{"id":"r07","task_id":"t5","grp":"g1","a":1,"c":0,$M}
{"id":"r08","task_id":"t5","grp":"g2","a":1,"b":1,"c":0,$M}
{"id":"r09","task_id":"t5","grp":"g1","a":1,"b":0,"c":0,$M}
{"id":"r10","task_id":"t5","grp":"g2","a":0,"b":1,"c":0,$M}
{"id":"r11","task_id":"t5","grp":"g1","a":0,"b":1,"c":0,$M}
JSONL

# The independent computation: reads the fixture itself (not score's
# output), groups by the key's value, and writes the lines score must
# write, each value as an exact fraction after a tab.
cat > "$TMP/expect.py" <<'PY'
import json, sys
from fractions import Fraction
from math import comb
runs, keys, scorers = sys.argv[1], sys.argv[2].split(" "), sys.argv[3].split(",")
recs = [json.loads(l) for l in open(runs)]
for s in scorers:
    tasks = {}
    for r in recs:
        if any(k not in r for k in keys):
            continue
        v = r.get(s)
        if not isinstance(v, int):          # missing: skip; text: error
            continue
        task = "#".join(str(r[k]) for k in keys)
        n, c = tasks.get(task, (0, 0))
        tasks[task] = (n + 1, c + (v == 1))
    if not tasks:
        continue
    kmax = min(n for n, c in tasks.values())
    for k in range(1, kmax + 1):
        hat = sum(Fraction(comb(c, k), comb(n, k)) for n, c in tasks.values()) / len(tasks)
        at = sum(1 - Fraction(comb(n - c, k), comb(n, k)) for n, c in tasks.values()) / len(tasks)
        for typ, x in (("pass^k", hat), ("pass@k", at)):
            print('{"type":"%s","scorer":"%s","k":%d,"value":X,"tasks":%d}\t%s'
                  % (typ, s, k, len(tasks), x))
PY
# Compares score's pass lines (file 1) with the expected (file 2): each
# line's text with its value replaced by X, then the value, which must be
# the double nearest the exact fraction (or one step of rounding from it).
cat > "$TMP/same.py" <<'PY'
import re, sys
from fractions import Fraction
got = [l.rstrip("\n") for l in open(sys.argv[1])]
want = [l.rstrip("\n").split("\t") for l in open(sys.argv[2])]
bad = []
if len(got) != len(want):
    bad.append("%d lines, expected %d" % (len(got), len(want)))
for g, (w, x) in zip(got, want):
    m = re.fullmatch(r'(.*"value":)(-?[0-9][0-9.e+-]*)(,"tasks":[0-9]+\})', g)
    if not m or m.group(1) + "X" + m.group(3) != w:
        bad.append("line %r, expected %r" % (g, w))
        continue
    exact = Fraction(x)
    if abs(Fraction(float(m.group(2))) - exact) > Fraction(1, 10**15):
        bad.append("%s: %s, exactly %s (%r)" % (w, m.group(2), x, float(exact)))
print("\n".join(bad))
sys.exit(1 if bad else 0)
PY

passk_lines() { grep '^{"type":"pass[\^@]k"' "$1"; }

run_tcr "$TMP/out" "$TMP/err" score -c "$TMP/p.yaml" --task task_id -o jsonl "$TMP/runs.jsonl"
assert_rc "score --task exits 0" 0
python3 "$TMP/expect.py" "$TMP/runs.jsonl" task_id a,b,c > "$TMP/want"
passk_lines "$TMP/out" > "$TMP/got"
if python3 "$TMP/same.py" "$TMP/got" "$TMP/want" > "$TMP/why"; then
	pass "every pass^k and pass@k as python computes them, in order"
else
	fail "every pass^k and pass@k as python computes them, in order" "$(cat "$TMP/why")" "$(cat "$TMP/got")"
fi
assert_eq "k reaches the fewest counted trials: a and b 2, c 1" \
	"$(grep -c '"type":"pass^k"' "$TMP/got") $(grep -c '"scorer":"c"' "$TMP/got")" "5 2"
assert_eq "pass lines follow all the run lines" \
	"$(grep -n '' "$TMP/out" | grep -m1 '"type":"pass' | cut -d: -f1)" "$((11 * 3 + 1))"
assert_eq "exact lines of a at k=1 (tasks t2, 3, t5: 1/2, 2/3, 3/5)" "$(sed -n '1,2p' "$TMP/got")" \
'{"type":"pass^k","scorer":"a","k":1,"value":0.5888888888888889,"tasks":3}
{"type":"pass@k","scorer":"a","k":1,"value":0.5888888888888889,"tasks":3}'
assert_grep "runs without the task key are counted on stderr" "$TMP/err" \
	"tcreview score: 1 run has no task_id: left out of pass^k"
assert_grep "a scorer's skips and errors are counted on stderr" "$TMP/err" \
	"tcreview score: b: 2 verdicts skipped or in error: left out of pass^k"
assert_grep "one error of c" "$TMP/err" "tcreview score: c: 1 verdict skipped or in error: left out of pass^k"

# The run lines are those of score without a task key, byte for byte.
run_tcr "$TMP/plain" "$TMP/plain.err" score -c "$TMP/p.yaml" -o jsonl "$TMP/runs.jsonl"
grep -v '^{"type":"pass[\^@]k"' "$TMP/out" > "$TMP/runlines"
assert_eq "no task key: no pass lines, nothing on stderr" \
	"$(grep -c '"type":"pass' "$TMP/plain") $(wc -c < "$TMP/plain.err" | tr -d ' ')" "0 0"
assert_eq "--task leaves the run lines as they were" "$(cmp -s "$TMP/plain" "$TMP/runlines" && echo same)" same

# On one thread the same, in the same order.
run_tcr "$TMP/j0" "$TMP/err" score -c "$TMP/p.yaml" --task task_id -o jsonl -j 0 "$TMP/runs.jsonl"
assert_eq "-j 0 writes the same bytes" "$(cmp -s "$TMP/out" "$TMP/j0" && echo same)" same

# compare: {task: grp} is the task key without --task; --task overrides it.
run_tcr "$TMP/grp" "$TMP/err" score -c "$TMP/grp.yaml" -o jsonl "$TMP/runs.jsonl"
python3 "$TMP/expect.py" "$TMP/runs.jsonl" grp a,b,c > "$TMP/want.grp"
passk_lines "$TMP/grp" > "$TMP/got.grp"
if python3 "$TMP/same.py" "$TMP/got.grp" "$TMP/want.grp" > "$TMP/why"; then
	pass "compare: {task:} is the task key without --task"
else
	fail "compare: {task:} is the task key without --task" "$(cat "$TMP/why")"
fi
assert_no_grep "every run has a grp" "$TMP/err" "have no"
run_tcr "$TMP/over" "$TMP/err" score -c "$TMP/grp.yaml" --task task_id -o jsonl "$TMP/runs.jsonl"
assert_eq "--task overrides compare: {task:}" "$(cmp -s "$TMP/out" "$TMP/over" && echo same)" same

# Several paths: the task is their values together.
run_tcr "$TMP/two" "$TMP/err" score -c "$TMP/p.yaml" --task "task_id grp" -o jsonl "$TMP/runs.jsonl"
python3 "$TMP/expect.py" "$TMP/runs.jsonl" "task_id grp" a,b,c > "$TMP/want.two"
passk_lines "$TMP/two" > "$TMP/got.two"
if python3 "$TMP/same.py" "$TMP/got.two" "$TMP/want.two" > "$TMP/why"; then
	pass "two paths: the task is both values (six tasks, k = 1)"
else
	fail "two paths: the task is both values (six tasks, k = 1)" "$(cat "$TMP/why")"
fi
assert_eq "two paths: a over six tasks, k = 1" "$(grep -c '"scorer":"a","k":1,.*"tasks":6' "$TMP/got.two") $(grep -c '"scorer":"a"' "$TMP/got.two")" "2 2"
assert_grep "two paths: the run without task_id has no task" "$TMP/err" "1 run has no task_id grp"

# The table, after score's own (80 columns off a terminal).
cat > "$TMP/table.want" <<'TXT'

pass^k over the trials of each task (task: task_id)
scorer  tasks  trials   k  pass^k  pass@k
a           3      10   1   0.589   0.589  █████████████████████▎░░░░░░░░░░░░░░
                        2   0.211   0.967  ███████▋░░░░░░░░░░░░░░░░░░░░░░░░░░░░

b           3       8   1   0.750   0.750  ███████████████████████████░░░░░░░░░
                        2   0.500   1.000  ██████████████████░░░░░░░░░░░░░░░░░░

c           3       9   1   0.667   0.667  ████████████████████████░░░░░░░░░░░░

pass^k: chance that all k trials of a task pass; pass@k: that at least one does
(the mean over tasks of C(c,k)/C(n,k) for n trials with c passed, k up to the
fewest trials any task has; a skip or an error is no trial)
10 runs with a task, 1 without (left out)
b: 2 verdicts skipped or in error, left out
c: 1 verdict skipped or in error, left out
TXT
LC_ALL=C.UTF-8 run_tcr "$TMP/table" "$TMP/err" score -c "$TMP/p.yaml" --task task_id -o table "$TMP/runs.jsonl"
assert_rc "the table exits 0" 0
run_tcr "$TMP/table0" "$TMP/err0" score -c "$TMP/p.yaml" -o table "$TMP/runs.jsonl"
n0=$(wc -l < "$TMP/table0" | tr -d ' ')
tail -n +"$((n0 + 1))" "$TMP/table" > "$TMP/table.tail"
if cmp -s "$TMP/table.tail" "$TMP/table.want"; then
	pass "the table of pass^k with a bar per k (UTF-8)"
else
	fail "the table of pass^k with a bar per k (UTF-8)" "$(diff "$TMP/table.want" "$TMP/table.tail")"
fi
assert_eq "score's own table comes first, unchanged" \
	"$(head -n "$n0" "$TMP/table" | cmp -s - "$TMP/table0" && echo same)" same
LC_ALL=C run_tcr "$TMP/ascii" "$TMP/err" score -c "$TMP/p.yaml" --task task_id -o table "$TMP/runs.jsonl"
assert_grep "outside UTF-8 the bar is of '#'" "$TMP/ascii" \
	"a           3      10   1   0.589   0.589  #####################..............."
assert_eq "outside UTF-8 nothing but ASCII" "$(LC_ALL=C grep -c '[^ -~]' "$TMP/ascii")" 0

# Tasks of many trials: every k in jsonl, a row for k = 1..10, the powers
# of 2 and the last in the table.
python3 - "$TMP/many.jsonl" <<'PY'
import json, sys
with open(sys.argv[1], "w") as f:
    for i in range(80):
        f.write(json.dumps({"id": "m%d" % i, "task_id": "t%d" % (i % 2), "a": int(i % 3 > 0),
                            "b": 1, "c": 0, "messages": [{"role": "user", "content": "hi"},
                            {"role": "assistant", "content": "hello"}]}) + "\n")
PY
run_tcr "$TMP/many" "$TMP/err" score -c "$TMP/p.yaml" --task task_id -o jsonl "$TMP/many.jsonl"
assert_eq "40 trials a task: k = 1..40 in jsonl" "$(grep -c '"type":"pass^k","scorer":"a"' "$TMP/many")" 40
run_tcr "$TMP/many.t" "$TMP/err" score -c "$TMP/p.yaml" --task task_id -o table "$TMP/many.jsonl"
assert_eq "the table's rows of a: k = 1..10, 16, 32, 40" \
	"$(sed -n '/^pass^k over/,$p' "$TMP/many.t" | sed -n '/^a  /,/^$/p' | awk 'NF { print (NR == 1 ? $4 : $1) }' | tr '\n' ' ')" \
	"1 2 3 4 5 6 7 8 9 10 16 32 40 "
assert_grep "the table says which k it shows" "$TMP/many.t" \
	"past k = 10, the powers of 2 and the last k (-o jsonl has every k)"

# junit has no place for them: unchanged, and stderr says so.
run_tcr "$TMP/ju" "$TMP/err" score -c "$TMP/p.yaml" --task task_id -o junit "$TMP/runs.jsonl"
run_tcr "$TMP/ju0" "$TMP/err0" score -c "$TMP/p.yaml" -o junit "$TMP/runs.jsonl"
assert_eq "junit is unchanged by --task" "$(cmp -s "$TMP/ju" "$TMP/ju0" && echo same)" same
assert_grep "junit says where pass^k is written" "$TMP/err" "pass^k is not written in junit output"

# A --task that is no path is a usage error, before any scoring.
run_tcr "$TMP/bad" "$TMP/err" score -c "$TMP/p.yaml" --task "task_id grp[" -o jsonl "$TMP/runs.jsonl"
assert_rc "a --task that is no path exits 2" 2
assert_grep "and says which path and why" "$TMP/err" "tcreview score: --task 'task_id grp[': path 2: unterminated '['"
assert_eq "nothing is written" "$(wc -c < "$TMP/bad" | tr -d ' ')" 0

# A task key no run has: every run counted, nothing computed, no crash.
run_tcr "$TMP/none" "$TMP/err" score -c "$TMP/p.yaml" --task nowhere -o jsonl "$TMP/runs.jsonl"
assert_rc "a task key no run has exits 0" 0
assert_grep "all runs have no task" "$TMP/err" "11 runs have no nowhere: left out of pass^k"
assert_eq "no pass lines without a task" "$(grep -c '"type":"pass' "$TMP/none")" 0

# ---- the done-when on the shared tau-bench sample --------------------------
R="${TCR_SHARED_DIR:-}/fixtures/real"
RUNS=taubench_v1_airline_sample.jsonl
EXPECTED=taubench_v1_airline_expected_sample.jsonl
if [ -z "${TCR_SHARED_DIR:-}" ] || [ ! -f "$R/$RUNS" ] || [ ! -f "$R/$EXPECTED" ]; then
	skip "pass^k on tau-bench" "the shared real samples are absent (set TCR_SHARED_DIR)"
	finish
fi
unset OPENAI_API_KEY ANTHROPIC_API_KEY AZURE_OPENAI_API_KEY
mkdir -p "$TMP/tau"
cp "$R/$RUNS" "$R/$EXPECTED" "$TMP/tau/"
(cd "$TMP/tau" && HOME="$TMP" XDG_CONFIG_HOME="$TMP/xdg" "$TCR_BIN" init "$RUNS" "$EXPECTED" \
	>"$TMP/init.out" 2>&1)
if [ ! -f "$TMP/tau/tcreview.yaml" ]; then
	fail "init proposes a configuration for the tau-bench sample" "$(cat "$TMP/init.out")"
	finish
fi
(cd "$TMP/tau" && "$TCR_BIN" score --task task_id -o jsonl "$RUNS" >"$TMP/tau.out" 2>"$TMP/tau.err")
RC=$?
assert_rc "score --task task_id on tau-bench exits 0" 0
cat > "$TMP/tau.py" <<'PY'
import json, sys
from fractions import Fraction
from math import comb
recs = [json.loads(l) for l in open(sys.argv[1])]
lines = [json.loads(l) for l in open(sys.argv[2])]
task_of = {r["_corpus"]["run_id"]: str(r["task_id"]) for r in recs}
# Each scorer's (task -> [passed...]): reward from the records' own field,
# the others from the verdicts score printed, by the record's task_id.
trials = {"reward": {}}
for r in recs:
    trials["reward"].setdefault(str(r["task_id"]), []).append(r["reward"] == 1)
for l in lines:
    if "run" in l and l["scorer"] != "reward" and l["status"] == "ok":
        trials.setdefault(l["scorer"], {}).setdefault(task_of[l["run"]], []).append(l["passed"])
got = {(l["type"], l["scorer"], l["k"]): l for l in lines if l.get("type") in ("pass^k", "pass@k")}
scorers = [l["scorer"] for l in lines if "run" in l]
scorers = list(dict.fromkeys(scorers))
bad, want_keys = [], []
for s in scorers:
    tasks = {t: (len(v), sum(v)) for t, v in trials.get(s, {}).items()}
    kmax = min(n for n, c in tasks.values())
    for k in range(1, kmax + 1):
        hat = sum(Fraction(comb(c, k), comb(n, k)) for n, c in tasks.values()) / len(tasks)
        at = sum(1 - Fraction(comb(n - c, k), comb(n, k)) for n, c in tasks.values()) / len(tasks)
        for typ, x in (("pass^k", hat), ("pass@k", at)):
            want_keys.append((typ, s, k))
            g = got.get((typ, s, k))
            if not g or g["tasks"] != len(tasks) or abs(Fraction(g["value"]) - x) > Fraction(1, 10**15):
                bad.append("%s %s k=%d: got %r, expected %s over %d tasks" % (typ, s, k, g, x, len(tasks)))
        print("tau-bench %-30s k=%d pass^k %.4f  pass@k %.4f  (%d tasks)" % (s, k, hat, at, len(tasks)))
order = [(l["type"], l["scorer"], l["k"]) for l in lines if l.get("type") in ("pass^k", "pass@k")]
if order != want_keys:
    bad.append("lines in the order %r, expected %r" % (order, want_keys))
if len(scorers) != 5 or max(k for _, _, k in want_keys) != 2:
    bad.append("expected 5 scorers and k up to 2: %r" % scorers)
print("\n".join(bad))
sys.exit(1 if bad else 0)
PY
if python3 "$TMP/tau.py" "$TMP/tau/$RUNS" "$TMP/tau.out" > "$TMP/tau.why"; then
	pass "tau-bench: pass^1, pass^2, pass@1, pass@2 of every scorer as python computes them"
else
	fail "tau-bench: pass^1, pass^2, pass@1, pass@2 of every scorer as python computes them" "$(cat "$TMP/tau.why")"
fi
# The figures, for the log (the closing note quotes them).
grep '^tau-bench' "$TMP/tau.why"
# The README shows the table as score prints it on the sample.
(cd "$TMP/tau" && LC_ALL=C.UTF-8 "$TCR_BIN" score --task task_id -o table "$RUNS" 2>/dev/null) |
	sed -n '/^pass^k over the trials/,$p' > "$TMP/tau.table"
sed -n '/^pass^k over the trials/,/^12 runs with a task$/p' "$TCR_SRCDIR/README.md" > "$TMP/readme.table"
if [ -s "$TMP/tau.table" ] && cmp -s "$TMP/tau.table" "$TMP/readme.table"; then
	pass "the README's table is score's on the tau-bench sample"
else
	fail "the README's table is score's on the tau-bench sample" "$(diff "$TMP/readme.table" "$TMP/tau.table")"
fi
finish
