#!/bin/sh
# convert.sh - `tcreview convert`: the run format's round trip. For every
# file of tests/data and every real sample of the shared folder (its
# real/, real/wild/ and mastra/): convert it (A), convert A (B); B is A byte for
# byte, and `score` with every code scorer type gives the same verdicts
# (run, scorer, status, score, passed, details, error) on the file and on
# A. A file no format reads yet is skipped by name: once a loader reads it,
# it is checked here with the rest. Then what convert says of runs it
# cannot read, the values it keeps by path, and its atomic output.
. "$TCR_SRCDIR/tests/cli/lib.sh"

cat > "$TMP/all.yaml" <<'YAML'
scorers:
  - id: tca-tool
    type: tool-call-accuracy
    expectedTool: {from: metadata.expected_tool, default: search}
  - id: tca-order
    type: tool-call-accuracy
    expectedToolOrder: [search, get_order]
    strictMode: true
  - id: traj-strict
    type: trajectory-match
    mode: strict
    reference: [{name: search, arguments: {q: x}}]
  - id: traj-superset
    type: trajectory-match
    mode: superset
    args: ignore
    reference: [{name: get_reservation_details, arguments: {}}]
  - id: errors
    type: tool-errors
  - id: pairs
    type: unanswered-calls
  - id: words
    type: word-inclusion
  - id: reward
    type: record-field
    path: reward
  - id: tau2-reward
    type: record-field
    path: reward_info.reward
YAML

# The two score outputs in input order, a run's lines together: the runs
# convert could not read (named on its stderr) are left out of the
# source's, and what names the input (source, format) is not compared.
cat > "$TMP/same.py" <<'PY'
import json, sys
orig, conv, errs = sys.argv[1:4]
failed = [l[len('tcreview convert: '):] for l in open(errs) if l.startswith('tcreview convert: ')]
def runs(path, drop):
    out = []
    for line in open(path):
        v = json.loads(line)
        src = v.pop('source')
        v.pop('format')
        if drop and any(f.startswith(src + ': ') for f in failed):
            continue
        if not out or out[-1][0] != src:
            out.append((src, []))
        out[-1][1].append(v)
    return out
a, b = runs(orig, True), runs(conv, False)
if len(a) != len(b):
    print('%d runs scored, %d in the conversion' % (len(a), len(b)))
    sys.exit(1)
bad = 0
for (src, la), (_, lb) in zip(a, b):
    if la != lb:
        bad += 1
        for x, y in zip(la, lb):
            if x != y and bad < 3:
                print('%s %s\n  source     %.700s\n  converted  %.700s' % (src, x.get('scorer'), json.dumps(x), json.dumps(y)))
sys.exit(1 if bad else 0)
PY

HAVE_PY=yes
command -v python3 >/dev/null 2>&1 || HAVE_PY=

# round_trip NAME FILE: the checks above on one input.
N=0
round_trip() {
	N=$((N + 1))
	a="$TMP/rt$N.A.jsonl"
	"$TCR_BIN" convert -c "$TMP/all.yaml" -o "$a" "$2" >/dev/null 2>"$TMP/rt$N.err"
	rc=$?
	if [ "$rc" -eq 3 ]; then
		skip "$1" "no format reads it yet"
		return
	fi
	if [ "$rc" -ne 0 ] && [ "$rc" -ne 1 ]; then
		fail "$1: converts" "exit status $rc" "$(head -c 1000 "$TMP/rt$N.err")"
		return
	fi
	"$TCR_BIN" convert -c "$TMP/all.yaml" -o "$TMP/rt$N.B.jsonl" "$a" >/dev/null 2>"$TMP/rt$N.err2"
	rc=$?
	if [ "$rc" -eq 0 ] && cmp -s "$a" "$TMP/rt$N.B.jsonl"; then
		pass "$1: a second conversion gives the same bytes"
	else
		fail "$1: a second conversion gives the same bytes" "exit status $rc" \
			"$(head -c 1000 "$TMP/rt$N.err2")" "$(cmp "$a" "$TMP/rt$N.B.jsonl" 2>&1)"
	fi
	[ -n "$HAVE_PY" ] || return
	"$TCR_BIN" score -c "$TMP/all.yaml" -o jsonl "$2" >"$TMP/rt$N.s1" 2>/dev/null
	"$TCR_BIN" score -c "$TMP/all.yaml" -o jsonl "$a" >"$TMP/rt$N.s2" 2>/dev/null
	if python3 "$TMP/same.py" "$TMP/rt$N.s1" "$TMP/rt$N.s2" "$TMP/rt$N.err" >"$TMP/rt$N.diff" 2>&1; then
		pass "$1: the same verdicts on the conversion"
	else
		fail "$1: the same verdicts on the conversion" "$(head -c 3000 "$TMP/rt$N.diff")"
	fi
}

[ -n "$HAVE_PY" ] || skip "verdicts compared" "python3 is not installed"
for f in "$TCR_SRCDIR"/tests/data/*.json "$TCR_SRCDIR"/tests/data/*.jsonl; do
	[ -f "$f" ] && round_trip "tests/data/${f##*/}" "$f"
done
R="${TCR_SHARED_DIR:-}/fixtures"
if [ -d "$R" ]; then
	find "$R" -type f \( -name '*.json' -o -name '*.jsonl' -o -name '*.eval' \) | LC_ALL=C sort \
		> "$TMP/shared.list"
	while IFS= read -r f; do
		round_trip "shared ${f#"$R"/}" "$f"
	done < "$TMP/shared.list"
else
	skip "the shared real samples" "not found (set TCR_SHARED_DIR to the shared reference folder)"
fi

# ---- what convert says ---------------------------------------------------------

cat > "$TMP/mixed.jsonl" <<'JSONL'
{"id":"ok","messages":[{"role":"user","content":"hi"},{"role":"assistant","content":"hello"}]}
{"tcreview_run":2,"messages":[]}
{"tcreview_run":1,"messages":[{"role":"assistant","parts":[{"type":"tool_call","name":7}]}]}
{"broken":
JSONL
run_tcr "$TMP/out" "$TMP/err" convert "$TMP/mixed.jsonl"
assert_rc "some runs unreadable: exit 1" 1
assert_grep "the readable run is written" "$TMP/out" '"tcreview_run":1,"id":"ok"'
assert_grep "an unknown version names the field" "$TMP/err" "mixed.jsonl:2: tcreview_run: version 2 is not one this tcreview reads (it reads 1)"
assert_grep "a bad member names its path" "$TMP/err" "mixed.jsonl:3: messages[0].parts[0].name: not a string"
assert_grep "broken JSON names its line" "$TMP/err" "mixed.jsonl:4:"
assert_eq "one line a run" "$(wc -l < "$TMP/out" | tr -d ' ')" "1"

printf '{"tcreview_run":"one","messages":[]}\n' > "$TMP/none.jsonl"
echo "before" > "$TMP/kept.jsonl"
run_tcr "$TMP/out" "$TMP/err" convert -o "$TMP/kept.jsonl" "$TMP/none.jsonl"
assert_rc "nothing readable: exit 3" 3
assert_grep "a version that is no number" "$TMP/err" "tcreview_run: not a version number"
run_tcr "$TMP/out" "$TMP/err" convert -o "$TMP/kept.jsonl" "$TMP/mixed.jsonl"
assert_grep "-o replaces OUT once complete" "$TMP/kept.jsonl" '"id":"ok"'
run_tcr "$TMP/out" "$TMP/err" convert --format no-such "$TMP/mixed.jsonl"
assert_rc "an unknown --format is a usage error" 2

# ---- values read by path ---------------------------------------------------------

cat > "$TMP/ids.yaml" <<'YAML'
runs: {id: [info.task, trial]}
scorers:
  - id: passed
    type: record-field
    path: info.passed
  - id: tool
    type: tool-call-accuracy
    expectedTool: {from: info.want}
YAML
cat > "$TMP/ids.jsonl" <<'JSONL'
{"info":{"task":7,"passed":true,"want":"f","note":"x"},"trial":0,"result":{"reward":0.5},"messages":[{"role":"user","content":"go"},{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"f","arguments":"{}"}}]},{"role":"tool","tool_call_id":"c1","content":"ok"}]}
JSONL
run_tcr "$TMP/ids.A" "$TMP/err" convert -c "$TMP/ids.yaml" "$TMP/ids.jsonl"
assert_rc "converts with -c" 0
assert_grep "the id as the configuration names it" "$TMP/ids.A" '"id":"7#0"'
assert_grep "the values the configuration reads, and the recorded verdicts, in fields" "$TMP/ids.A" \
	'"fields":{"info.passed":true,"info.task":7,"info.want":"f","result.reward":0.5,"trial":0}'
assert_grep "what no path reads is left out" "$TMP/ids.A" '"source":{"file":'
"$TCR_BIN" score -c "$TMP/ids.yaml" -o jsonl "$TMP/ids.jsonl" 2>/dev/null | sed 's/"source":"[^"]*","format":"[^"]*",//' > "$TMP/ids.s1"
cp "$TMP/ids.A" "$TMP/ids.A.jsonl"
"$TCR_BIN" score -c "$TMP/ids.yaml" -o jsonl "$TMP/ids.A.jsonl" 2>/dev/null | sed 's/"source":"[^"]*","format":"[^"]*",//' > "$TMP/ids.s2"
assert_eq "run ids, record-field and {from:} answer the same on the conversion" \
	"$(cat "$TMP/ids.s2")" "$(cat "$TMP/ids.s1")"
assert_grep "the run is named by the fields" "$TMP/ids.s2" '"run":"7#0"'

finish
