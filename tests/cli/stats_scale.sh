#!/bin/sh
# stats_scale.sh - `tcreview stats` on custom scales, every output form: a
# custom judge on {min: 1, max: 5, pass: 4} and a record-field scorer on
# 1..5 are figured over their five levels, a custom 0..1 judge on fail and
# pass as before. The expected agreement, within-one agreement, Cohen's and
# quadratic-weighted kappa, confusion matrix, TPR and TNR are computed here
# by the textbook formulas (python3, no package), from the labels and the
# judges' answers the local fake server gives. A record-field scorer on
# 0..10 has eleven levels, in stats and in the screen's calibration (K) at
# 80 columns.
. "$TCR_SRCDIR/tests/cli/lib.sh"
. "$TCR_SRCDIR/tests/cli/screen_lib.sh"

fake_llm_need

unset http_proxy HTTP_PROXY https_proxy HTTPS_PROXY all_proxy ALL_PROXY OPENAI_BASE_URL
no_proxy='*' NO_PROXY='*'
export no_proxy NO_PROXY
OPENAI_API_KEY=sk-tcr-stats-scale-test-0001
export OPENAI_API_KEY

if command -v sha256sum >/dev/null 2>&1; then
	sha() { printf '%s' "$1" | sha256sum | cut -d' ' -f1; }
else
	sha() { printf '%s' "$1" | shasum -a 256 | cut -d' ' -f1; }
fi

# Per run: the judge's 1..5 answer, the reviewer's 1..5 label, the record's
# stars and her label of them, the 0..1 judge's answer and her label.
FIVE_M="1 2 3 4 5 5 4 3 2 1 5 3"
FIVE_H="1 3 3 5 5 4 2 3 1 2 5 1"
STARS_M="5 4 3 2 1 1 2 3 4 5 3 3"
STARS_H="5 5 3 1 1 2 4 3 4 3 2 3"
UNIT_M="0.9 0.2 0.6 0.4 0.7 0.1 0.8 0.3 0.55 0.45 1 0"
UNIT_H="0.8 0.3 0.4 0.4 0.9 0 0.6 0.6 0.2 0.1 1 0"
TEN_M="0 3 7 10 5 6 8 2 9 4 1 10"
TEN_H="1 3 6 10 5 8 8 0 9 4 1 9"
nth() { # N LIST
	echo "$2" | tr ' ' '\n' | sed -n "${1}p"
}

D=$TMP/set
mkdir -p "$D"
: > "$D/runs.jsonl"
: > "$D/labels.jsonl"
rules=""
label() { # RUN CRITERION SCORE HASH
	printf '{"v":2,"run":"r%s","source":"runs.jsonl:%s","run_hash":"%s","scorer":"%s","decision":"override","score":%s,"reviewer":"alice","blind":false,"at":"2026-01-01T00:00:00Z"}\n' \
		"$1" "$1" "$4" "$2" "$3" >> "$D/labels.jsonl"
}
for i in 1 2 3 4 5 6 7 8 9 10 11 12; do
	line=$(printf '{"id":"r%s","stars":%s,"points":%s,"messages":[{"role":"user","content":"Order %s?"},{"role":"assistant","content":"Done."}]}' \
		"$i" "$(nth $i "$STARS_M")" "$(nth $i "$TEN_M")" "$i")
	printf '%s\n' "$line" >> "$D/runs.jsonl"
	h=$(sha "$line")
	label "$i" five "$(nth $i "$FIVE_H")" "$h"
	label "$i" stars "$(nth $i "$STARS_H")" "$h"
	label "$i" unit "$(nth $i "$UNIT_H")" "$h"
	label "$i" ten "$(nth $i "$TEN_H")" "$h"
	rules="$rules{\"match\": {\"body_contains\": \"FIVE r$i;\"}, \"content\": {\"score\": $(nth $i "$FIVE_M"), \"reason\": \"r$i\"}},"
	rules="$rules{\"match\": {\"body_contains\": \"UNIT r$i;\"}, \"content\": {\"score\": $(nth $i "$UNIT_M"), \"reason\": \"r$i\"}},"
done
printf '{"rules": [%s {"match": {"body_contains": "no such text"}, "content": {}}], "default": {"status": 418, "raw": "no rule"}}\n' \
	"$rules" > "$TMP/answers.json"
fake_llm_start llm "$TMP/answers.json"

printf '=== system\nGrade the run.\n=== user\nFIVE {{run_id}};\n' > "$D/five.txt"
printf '=== system\nGrade the run.\n=== user\nUNIT {{run_id}};\n' > "$D/unit.txt"
cat > "$D/s.yaml" <<EOF
scorers:
  - id: stars
    type: record-field
    path: stars
    scale: 1..5
  - id: ten
    type: record-field
    path: points
    scale: {min: 0, max: 10, pass: 6}
judges:
  - id: five
    rubric: custom
    model: openai/judge-model
    base_url: http://127.0.0.1:$PORT/v1
    prompt_file: five.txt
    scale: {min: 1, max: 5, pass: 4}
    max_retries: 0
  - id: unit
    rubric: custom
    model: openai/judge-model
    base_url: http://127.0.0.1:$PORT/v1
    prompt_file: unit.txt
    scale: {min: 0, max: 1, pass: 0.5}
    max_retries: 0
EOF

(cd "$D" && "$TCR_BIN" judge -c s.yaml runs.jsonl) > "$TMP/judge.out" 2> "$TMP/err"
RC=$?
assert_rc "tcreview judge fills the cache" 0
assert_eq "the cache holds 24 verdicts" "$(wc -l < "$D/runs.jsonl.judgements.jsonl" | tr -d ' ')" 24

stats() { # NAME ARGS...
	name=$1
	shift
	(cd "$D" && "$TCR_BIN" stats "$@") > "$TMP/$name.out" 2> "$TMP/$name.err"
	RC=$?
	cp "$TMP/$name.err" "$TMP/err"
}

stats jsonl -c s.yaml -o jsonl -a labels.jsonl runs.jsonl
assert_rc "jsonl: exit 0" 0
stats csv -c s.yaml -o csv -a labels.jsonl runs.jsonl
assert_rc "csv: exit 0" 0
stats table -c s.yaml -o table -a labels.jsonl runs.jsonl
assert_rc "table: exit 0" 0

# The textbook figures, and tcreview's in jsonl and csv.
if out=$(python3 - "$TMP/jsonl.out" "$TMP/csv.out" "$FIVE_M" "$FIVE_H" "$STARS_M" "$STARS_H" \
	"$UNIT_M" "$UNIT_H" "$TEN_M" "$TEN_H" <<'PY' 2>&1
import csv, json, sys

def textbook(m, h, lo, k, passmark):
    n = len(m)
    conf = [[0] * k for _ in range(k)]
    for a, b in zip(m, h):
        conf[int(a - lo)][int(b - lo)] += 1
    rows = [sum(r) for r in conf]
    cols = [sum(conf[i][j] for i in range(k)) for j in range(k)]
    po = sum(conf[i][i] for i in range(k)) / n
    pe = sum(rows[i] * cols[i] for i in range(k)) / (n * n)
    w = lambda i, j: (i - j) ** 2 / (k - 1) ** 2
    wo = sum(w(i, j) * conf[i][j] for i in range(k) for j in range(k))
    we = sum(w(i, j) * rows[i] * cols[j] / n for i in range(k) for j in range(k))
    tp = sum(1 for a, b in zip(m, h) if a >= passmark and b >= passmark)
    fn = sum(1 for a, b in zip(m, h) if a < passmark and b >= passmark)
    tn = sum(1 for a, b in zip(m, h) if a < passmark and b < passmark)
    fp = sum(1 for a, b in zip(m, h) if a >= passmark and b < passmark)
    return {"agreement": po, "kappa": (po - pe) / (1 - pe), "kappa_quadratic": 1 - wo / we,
            "within_one": sum(1 for a, b in zip(m, h) if abs(a - b) <= 1) / n,
            "tpr": tp / (tp + fn), "tnr": tn / (tn + fp), "confusion": conf}

nums = lambda s: [float(x) for x in s.split()]
five_m, five_h, stars_m, stars_h, unit_m, unit_h, ten_m, ten_h = map(nums, sys.argv[3:11])
rows = [json.loads(l) for l in open(sys.argv[1], encoding="utf-8")]
table = list(csv.DictReader(open(sys.argv[2], encoding="utf-8", newline="")))

def pair(crit, b):
    j = [r for r in rows if r.get("criterion") == crit and r.get("b") == b]
    c = [r for r in table if r["criterion"] == crit and r["b"] == b]
    assert len(j) == 1 and len(c) == 1, (crit, b, len(j), len(c))
    return j[0], c[0]

def close(what, got, want):
    assert got is not None and abs(float(got) - want) < 1e-9, (what, got, want)

checked = 0
for crit, a, m, h, lo, k, passmark, scale in (
        ("five", "judge:five", five_m, five_h, 1, 5, 4, "1..5"),
        ("stars", "scorer:stars", stars_m, stars_h, 1, 5, 3, "1..5"),
        ("ten", "scorer:ten", ten_m, ten_h, 0, 11, 6, "0..10")):
    want = textbook(m, h, lo, k, passmark)
    assert abs(want["kappa"] - want["kappa_quadratic"]) > 0.1, want
    for b in ("human", "human:alice"):
        j, c = pair(crit, b)
        assert j["a"] == a and j["scale"] == scale and j["n"] == len(m), j
        for f in ("agreement", "kappa", "kappa_quadratic", "within_one", "tpr", "tnr"):
            close((crit, b, f, "jsonl"), j[f], want[f])
            close((crit, b, f, "csv"), c[f], want[f])
            checked += 1
        levels = [str(lo + i) for i in range(k)]
        assert j["confusion"]["labels"] == levels, j["confusion"]
        assert j["confusion"]["counts"] == want["confusion"], (j["confusion"], want["confusion"])
        assert c["confusion_labels"] == ";".join(levels), c["confusion_labels"]
        flat = ";".join(str(x) for r in want["confusion"] for x in r)
        assert c["confusion_counts"] == flat, (c["confusion_counts"], flat)

# 0..1 stays continuous: fail and pass at 0.5 for agreement, kappa and the
# confusion; no within-one; MAE on the numbers.
mc = [1.0 if x >= 0.5 else 0.0 for x in unit_m]
hc = [1.0 if x >= 0.5 else 0.0 for x in unit_h]
want = textbook(mc, hc, 0, 2, 1)
j, c = pair("unit", "human:alice")
assert j["scale"] == "0..1", j["scale"]
for f in ("agreement", "kappa", "tpr", "tnr"):
    close(("unit", f), j[f], want[f])
    close(("unit", f, "csv"), c[f], want[f])
close(("unit", "kappa_quadratic"), j["kappa_quadratic"], want["kappa"])
close(("unit", "mae"), j["mae"], sum(abs(a - b) for a, b in zip(unit_m, unit_h)) / len(unit_m))
assert j["within_one"] is None and c["within_one"] == "", (j["within_one"], c["within_one"])
assert j["confusion"] == {"labels": ["fail", "pass"], "counts": want["confusion"]}, j["confusion"]
print("ok %d" % checked)
PY
); then
	pass "jsonl and csv: the textbook figures on 1..5, 0..10 and 0..1 ($out)"
else
	fail "jsonl and csv: the textbook figures on 1..5, 0..10 and 0..1" "$out"
fi

assert_grep "table: the custom judge's heading" "$TMP/table.out" "five  (1..5, passes at >= 4)"
assert_grep "table: the scorer's heading, its own scale" "$TMP/table.out" "stars  (1..5, passes at >= 3)"
assert_grep "table: the 0..1 judge's heading" "$TMP/table.out" "unit  (0..1, passes at >= 0.5)"
assert_grep "table: within-one for an integer scale" "$TMP/table.out" "within1"
assert_grep "table: its five levels" "$TMP/table.out" "             1     2     3     4     5"
assert_grep "table: eleven levels" "$TMP/table.out" "             0     1     2     3     4     5     6     7     8     9    10"

# A label made when the scorer's scale was another one (a record-field 1..5
# scored on 0..1 before): 0.75 does not lie on 1..5 and is no label on it,
# so stars counts 11 labelled runs, not 12 with a made-up fail.
cp "$D/labels.jsonl" "$D/labels-old.jsonl"
printf '{"v":2,"run":"r1","source":"runs.jsonl:1","scorer":"stars","decision":"override","score":0.75,"reviewer":"alice","blind":false,"at":"2026-01-02T00:00:00Z"}\n' >> "$D/labels-old.jsonl"
stats old -c s.yaml -o jsonl -a labels-old.jsonl runs.jsonl
assert_rc "an off-scale label: exit 0" 0
assert_eq "an off-scale label is left out of the scale's figures" \
	"$(python3 -c 'import json,sys
for l in open(sys.argv[1]):
    j = json.loads(l)
    if j.get("criterion") == "stars" and j.get("b") == "human":
        print(j["n"])' "$TMP/old.out")" 11

# The screen's calibration (K) at 80 columns: the 0..10 matrix in narrower
# cells, every level shown.
SCREEN_CONFIG=set/s.yaml SCREEN_ANNOT=set/labels.jsonl
run_screen calib-ten 'K
j
:save-display %D/calib-ten-pane.screen' set/runs.jsonl
screen_has calib-ten-pane "scorer:ten (rows) against human (columns), 12 labelled runs"
screen_has calib-ten-pane "              0     1     2     3     4     5     6     7     8     9    10"
if python3 -c '
import sys
sys.exit(any(len(l) > 80 for l in open(sys.argv[1], encoding="utf-8").read().splitlines()))' \
	"$TMP/calib-ten-pane.screen"; then
	pass "calib pane: 80 columns hold the eleven levels"
else
	fail "calib pane: 80 columns hold the eleven levels" "$(cat "$TMP/calib-ten-pane.screen")"
fi

finish
