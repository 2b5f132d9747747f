#!/bin/sh
# stats.sh - `tcreview stats`: the figures of a small labelled set in
# every output (jsonl parsed back, its keys in their fixed order; csv
# column by column; the table's heat-maps), the gates' exit statuses,
# --criterion, --reviewer, --judge (two judges compared), --sweep,
# --include-stale, --seed, the YAML's compare:, judge verdicts read from
# the cache that `tcreview judge` wrote against the local test server
# (stats itself asks nothing), and bad inputs. Talks only to 127.0.0.1.
#
# The set is test_calib.c's: eight runs, a binary code scorer (lookup), a
# 1..5 judge (j5, passing at 4) and a second one (j5b) for the comparison;
# alice, bob and carol label in two files, one of bob's labels made before
# its run's record changed (stale). Its figures are worked out there.
. "$TCR_SRCDIR/tests/cli/lib.sh"

fake_llm_need

unset http_proxy HTTP_PROXY https_proxy HTTPS_PROXY all_proxy ALL_PROXY OPENAI_BASE_URL
no_proxy='*' NO_PROXY='*'
export no_proxy NO_PROXY
OPENAI_API_KEY=sk-tcr-stats-test-0001
export OPENAI_API_KEY

if command -v sha256sum >/dev/null 2>&1; then
	sha() { printf '%s' "$1" | sha256sum | cut -d' ' -f1; }
else
	sha() { printf '%s' "$1" | shasum -a 256 | cut -d' ' -f1; }
fi

run_line() { # N TOOL [EXTRA]
	printf '{"id":"r%s",%s"messages":[{"role":"user","content":"Order %s?"},{"role":"assistant","content":null,"tool_calls":[{"id":"call_r%s","type":"function","function":{"name":"%s","arguments":"{}"}}]},{"role":"tool","tool_call_id":"call_r%s","content":"ok"},{"role":"assistant","content":"Done."}]}' \
		"$1" "${3:-}" "$1" "$1" "$2" "$1"
}

D=$TMP/set
mkdir -p "$D"
: > "$D/runs.jsonl"
for i in 1 2 3 4 5 6 7 8; do
	tool=cancel_order
	[ "$i" -le 5 ] && tool=get_order
	line=$(run_line "$i" "$tool")
	eval "HASH_$i=\$(sha \"\$line\")"
	# r8's record changes after bob labels it
	[ "$i" = 8 ] && line=$(run_line "$i" "$tool" '"edited":true,')
	printf '%s\n' "$line" >> "$D/runs.jsonl"
done

# An accept records the machine's score as its own, as the screen writes it.
label() { # FILE RUN CRITERION REVIEWER DECISION SCORE
	eval "h=\$HASH_$2"
	m=""
	[ "$5" = accept ] && m="\"machine_score\":$6,"
	printf '{"v":2,"run":"r%s","source":"runs.jsonl:%s","run_hash":"%s","scorer":"%s",%s"decision":"%s","score":%s,"reviewer":"%s","blind":false,"at":"2026-01-0%sT00:00:00Z"}\n' \
		"$2" "$2" "$h" "$3" "$m" "$5" "$6" "$4" "$2" >> "$1"
}
A=$D/runs.jsonl.annotations.jsonl
B=$D/others.jsonl
: > "$A"
: > "$B"
label "$A" 1 lookup alice accept 1
label "$A" 2 lookup alice override 0
label "$A" 3 lookup alice accept 1
label "$A" 4 lookup alice accept 1
label "$A" 6 lookup alice accept 0
label "$A" 7 lookup alice override 1
label "$B" 1 lookup bob accept 1
label "$B" 2 lookup bob accept 1
label "$B" 3 lookup bob override 0
label "$B" 6 lookup bob accept 0
label "$B" 8 lookup bob accept 0
label "$B" 3 lookup carol override 0
label "$B" 7 lookup carol override 1
label "$A" 1 j5 alice accept 5
label "$A" 2 j5 alice override 3
label "$A" 3 j5 alice accept 2
label "$A" 4 j5 alice override 4
label "$A" 6 j5 alice override 2
label "$B" 1 j5 bob override 5
label "$B" 3 j5 bob override 1
label "$B" 7 j5 bob accept 4
label "$B" 3 j5 carol override 3

# j5 answers 5 4 2 3 1 1 4 2 for r1..r8, j5b (its requests under /b/)
# 5 2 2 4 1 1 5 1.
rules=""
set -- 5 4 2 3 1 1 4 2
for i in 1 2 3 4 5 6 7 8; do
	eval "b=\$(echo 5 2 2 4 1 1 5 1 | cut -d' ' -f$i)"
	rules="$rules {\"match\": {\"path_prefix\": \"/b/\", \"body_contains\": \"call_r$i\\\\\\\"\"}, \"content\": {\"score\": $b, \"reason\": \"b$i\", \"status\": \"completed\", \"properties\": null}},"
	rules="$rules {\"match\": {\"body_contains\": \"call_r$i\\\\\\\"\"}, \"content\": {\"score\": $1, \"reason\": \"a$i\", \"status\": \"completed\", \"properties\": null}},"
	shift
done
printf '{"rules": [%s {"match": {"path_prefix": "/never"}}], "default": {"status": 418, "raw": "no rule"}}\n' "$rules" > "$TMP/judge.json"
fake_llm_start judge "$TMP/judge.json" || finish

TOOLS='[{name: get_order, description: looks an order up}, {name: cancel_order, description: cancels an order}]'
cat > "$D/stats.yaml" <<EOF
scorers:
  - id: lookup
    type: tool-call-accuracy
    expectedTool: get_order
judges:
  - id: j5
    rubric: tool-call-accuracy-1to5
    model: openai/judge-model
    base_url: http://127.0.0.1:$PORT/v1
    tools: $TOOLS
    threshold: 4
    max_retries: 0
  - id: j5b
    rubric: tool-call-accuracy-1to5
    model: openai/judge-model
    base_url: http://127.0.0.1:$PORT/b/v1
    tools: $TOOLS
    threshold: 4
    max_retries: 0
EOF
{ cat "$D/stats.yaml"; echo 'compare: [[lookup, j5]]'; } > "$D/compare.yaml"

(cd "$D" && "$TCR_BIN" judge -c stats.yaml runs.jsonl) > "$TMP/judge.out" 2> "$TMP/err"
RC=$?
assert_rc "tcreview judge fills the cache" 0
assert_eq "the cache holds sixteen verdicts" "$(wc -l < "$D/runs.jsonl.judgements.jsonl" | tr -d ' ')" 16
REQUESTS=$(wc -l < "$TMP/judge.log" | tr -d ' ')

# stats NAME ARGS...: `tcreview stats ARGS` in $D (the YAML by name), stdout in
# $TMP/NAME.out, stderr in $TMP/NAME.err (and $TMP/err); sets $RC.
stats() {
	name=$1
	shift
	(cd "$D" && "$TCR_BIN" stats "$@") > "$TMP/$name.out" 2> "$TMP/$name.err"
	RC=$?
	cp "$TMP/$name.err" "$TMP/err"
}

# pair FILE CRITERION A B: that pair's line (B quoted, or null).
pair() { grep -F "{\"criterion\":\"$2\"," "$1" | grep -F "\"a\":\"$3\",\"b\":$4," | head -n 1; }
# field LINE KEY: a key's value in a line (an interval as [lo,hi]).
field() { printf '%s\n' "$1" | sed -nE "s/.*\"$2\":(\[[^]]*\]|\{[^}]*\}\}?|\"[^\"]*\"|[^,}]*).*/\1/p"; }
# near NAME GOT WANT: numbers within 1e-9.
near() {
	if awk -v g="$2" -v w="$3" 'BEGIN { d = g - w; if (d < 0) d = -d; exit !(g != "" && g != "null" && d < 1e-9) }'; then
		pass "$1"
	else
		fail "$1" "got:  $2" "want: $3"
	fi
}

# ---- jsonl --------------------------------------------------------------------

stats jsonl -c stats.yaml -o jsonl --bootstrap 200 runs.jsonl -a others.jsonl -a runs.jsonl.annotations.jsonl
assert_rc "jsonl: exit 0" 0
assert_no_grep "jsonl: nothing to warn about" "$TMP/jsonl.err" "warning"
assert_eq "stats asks no judge" "$(wc -l < "$TMP/judge.log" | tr -d ' ')" "$REQUESTS"

KEYS='"criterion":"kind":"scale":"a":"b":"n":"ties":"stale":"agreement":"agreement_ci":"kappa":"kappa_ci":"kappa_quadratic":"alpha":"spearman":"mae":"within_one":"tpr":"tnr":"precision":"pass_rate":"pass_rate_corrected":"pass_rate_corrected_ci":"confusion":"labels":"counts":"note":"weighted":"n_eff":"agreement_wilson_ci":"labels_to_go":"target_width":'
KEYS_NOCONF='"criterion":"kind":"scale":"a":"b":"n":"ties":"stale":"agreement":"agreement_ci":"kappa":"kappa_ci":"kappa_quadratic":"alpha":"spearman":"mae":"within_one":"tpr":"tnr":"precision":"pass_rate":"pass_rate_corrected":"pass_rate_corrected_ci":"confusion":"note":"weighted":"n_eff":"agreement_wilson_ci":"labels_to_go":"target_width":'
bad=0
while IFS= read -r l; do
	keys=$(printf '%s\n' "$l" | grep -o '"[a-z_]*":' | tr -d '\n')
	case $l in
	*'"kind":"reviewers"'*) [ "$keys" = "$KEYS_NOCONF" ] || bad=$((bad + 1)) ;;
	*'"kind":"machine-human"'* | *'"kind":"human-human"'* | *'"kind":"code-judge"'*) [ "$keys" = "$KEYS" ] || bad=$((bad + 1)) ;;
	*) bad=$((bad + 1)) ;;
	esac
done < "$TMP/jsonl.out"
assert_eq "jsonl: every pair line has the fixed keys in their order" "$bad" 0
if command -v jq >/dev/null 2>&1; then
	if jq -e . "$TMP/jsonl.out" > /dev/null 2>"$TMP/jqerr"; then pass "jsonl: every line parses (jq)"; else fail "jsonl: every line parses (jq)" "$(cat "$TMP/jqerr")"; fi
	assert_eq "jsonl: reviewers' alpha has a \"reviewers\", b null" \
		"$(jq -r 'select(.kind == "reviewers") | "\(.criterion) \(.a) \(.b)"' "$TMP/jsonl.out" | tr '\n' ' ')" \
		"lookup reviewers null j5 reviewers null "
elif command -v python3 >/dev/null 2>&1; then
	if python3 -c 'import json,sys; [json.loads(l) for l in open(sys.argv[1])]' "$TMP/jsonl.out" 2>"$TMP/jqerr"; then pass "jsonl: every line parses (python3)"; else fail "jsonl: every line parses (python3)" "$(cat "$TMP/jqerr")"; fi
	assert_eq "jsonl: reviewers' alpha has a \"reviewers\", b null" "$(grep -c '"a":"reviewers","b":null,' "$TMP/jsonl.out")" 2
else
	# no parser at hand: every line one object whose braces and brackets balance
	assert_eq "jsonl: every line one balanced object" "$(awk '{ o = gsub(/[{[]/, "&"); c = gsub(/[]}]/, "&"); if (o != c || substr($0, 1, 1) != "{") n++ } END { print n + 0 }' "$TMP/jsonl.out")" 0
	assert_eq "jsonl: reviewers' alpha has a \"reviewers\", b null" "$(grep -c '"a":"reviewers","b":null,' "$TMP/jsonl.out")" 2
fi
assert_no_grep "jsonl: no NaN" "$TMP/jsonl.out" "NaN"
assert_no_grep "jsonl: no nan" "$TMP/jsonl.out" "nan"
assert_no_grep "jsonl: no inf" "$TMP/jsonl.out" "inf"

L=$(pair "$TMP/jsonl.out" lookup scorer:lookup '"human"')
assert_eq "lookup ~ human: kind, scale" "$(field "$L" kind) $(field "$L" scale)" '"machine-human" "binary"'
assert_eq "lookup ~ human: n 5, one tie, one stale label" "$(field "$L" n) $(field "$L" ties) $(field "$L" stale)" "5 1 1"
near "lookup ~ human: agreement 3/5" "$(field "$L" agreement)" 0.6
near "lookup ~ human: kappa 1/6" "$(field "$L" kappa)" 0.16666666666666666
near "lookup ~ human: alpha .25" "$(field "$L" alpha)" 0.25
near "lookup ~ human: tpr 2/3" "$(field "$L" tpr)" 0.6666666666666666
near "lookup ~ human: tnr 1/2" "$(field "$L" tnr)" 0.5
near "lookup ~ human: precision 2/3" "$(field "$L" precision)" 0.6666666666666666
near "lookup ~ human: pass rate 5/8 over every run" "$(field "$L" pass_rate)" 0.625
near "lookup ~ human: Rogan-Gladen .75" "$(field "$L" pass_rate_corrected)" 0.75
assert_eq "lookup ~ human: no ranks on pass/fail" "$(field "$L" kappa_quadratic) $(field "$L" spearman) $(field "$L" mae)" "null null null"
assert_eq "lookup ~ human: the confusion matrix" "$(field "$L" confusion)" '{"labels":["fail","pass"],"counts":[[1,1],[1,2]]}'
CI=$(field "$L" kappa_ci)
case $CI in
\[*,*\]) pass "lookup ~ human: a kappa interval" ;;
*) fail "lookup ~ human: a kappa interval" "got $CI" ;;
esac
assert_eq "lookup ~ human: no note" "$(field "$L" note)" null

L=$(pair "$TMP/jsonl.out" lookup scorer:lookup '"human:bob"')
assert_eq "lookup ~ bob: n 4, bob's stale label" "$(field "$L" n) $(field "$L" stale)" "4 1"
near "lookup ~ bob: kappa .5" "$(field "$L" kappa)" 0.5
L=$(pair "$TMP/jsonl.out" lookup human:bob '"human:carol"')
assert_eq "bob ~ carol: one run, kappa null" "$(field "$L" n) $(field "$L" kappa)" "1 null"
assert_grep "bob ~ carol: a note says why" "$TMP/jsonl.out" '"a":"human:bob","b":"human:carol"'
case $(field "$L" note) in
*kappa*) pass "bob ~ carol: the note names kappa" ;;
*) fail "bob ~ carol: the note names kappa" "$L" ;;
esac
L=$(pair "$TMP/jsonl.out" lookup reviewers null)
near "all reviewers on lookup: alpha 1/3" "$(field "$L" alpha)" 0.3333333333333333
assert_eq "all reviewers: confusion null" "$(field "$L" confusion)" null

L=$(pair "$TMP/jsonl.out" j5 judge:j5 '"human"')
assert_eq "j5 ~ human: scale 1..5, n 6" "$(field "$L" scale) $(field "$L" n)" '"1..5" 6'
near "j5 ~ human: kappa 5/14 (judge verdicts from the cache)" "$(field "$L" kappa)" 0.35714285714285715
near "j5 ~ human: quadratic kappa 46/55" "$(field "$L" kappa_quadratic)" 0.8363636363636363
near "j5 ~ human: mae .5" "$(field "$L" mae)" 0.5
near "j5 ~ human: pass rate 3/8" "$(field "$L" pass_rate)" 0.375
near "j5 ~ human: Rogan-Gladen .125" "$(field "$L" pass_rate_corrected)" 0.125
case $(field "$L" confusion) in
'{"labels":["1","2","3","4","5"],"counts":[[0,1,0,0,0],[0,1,0,0,0],[0,0,0,1,0],[0,0,1,1,0],[0,0,0,0,1]]}') pass "j5 ~ human: a 5x5 confusion matrix" ;;
*) fail "j5 ~ human: a 5x5 confusion matrix" "$(field "$L" confusion)" ;;
esac
L=$(pair "$TMP/jsonl.out" j5 scorer:lookup '"judge:j5"')
assert_eq "lookup ~ j5: code against judge on eight runs" "$(field "$L" kind) $(field "$L" n)" '"code-judge" 8'
near "lookup ~ j5: kappa 1/17" "$(field "$L" kappa)" 0.058823529411764705
assert_grep "without compare: every code-judge pair" "$TMP/jsonl.out" '"a":"scorer:lookup","b":"judge:j5b",'

stats jsonl2 -c stats.yaml -o jsonl --bootstrap 200 runs.jsonl -a others.jsonl -a runs.jsonl.annotations.jsonl
assert_eq "the default seed repeats the intervals" "$(cmp -s "$TMP/jsonl.out" "$TMP/jsonl2.out" && echo same)" same
stats seed -c stats.yaml -o jsonl --bootstrap 200 --seed 99 runs.jsonl -a others.jsonl -a runs.jsonl.annotations.jsonl
assert_eq "--seed 99 repeats too" "$(cmp -s "$TMP/seed.out" "$TMP/jsonl.out" && echo same || echo differs)" differs
stats seed2 -c stats.yaml -o jsonl --bootstrap 200 --seed 99 runs.jsonl -a others.jsonl -a runs.jsonl.annotations.jsonl
assert_eq "--seed 99 gives the same intervals again" "$(cmp -s "$TMP/seed.out" "$TMP/seed2.out" && echo same)" same
stats noboot -c stats.yaml -o jsonl --bootstrap 0 runs.jsonl -a others.jsonl
L=$(pair "$TMP/noboot.out" lookup scorer:lookup '"human"')
assert_eq "--bootstrap 0: no intervals" "$(field "$L" agreement_ci) $(field "$L" kappa_ci)" "null null"

# ---- the default annotations file, --include-stale, --reviewer, --criterion ----

stats default -c stats.yaml -o jsonl runs.jsonl
L=$(pair "$TMP/default.out" lookup scorer:lookup '"human:alice"')
assert_eq "without -a: FIRST_INPUT.annotations.jsonl is read" "$(field "$L" n)" 6
assert_no_grep "without -a: the other file is not" "$TMP/default.out" '"human:bob"'

stats stale -c stats.yaml -o jsonl --include-stale runs.jsonl -a others.jsonl -a runs.jsonl.annotations.jsonl
L=$(pair "$TMP/stale.out" lookup scorer:lookup '"human"')
assert_eq "--include-stale: r8 counts (n 6, stale still 1)" "$(field "$L" n) $(field "$L" stale)" "6 1"

stats who -c stats.yaml -o jsonl --reviewer alice --reviewer bob runs.jsonl -a others.jsonl -a runs.jsonl.annotations.jsonl
L=$(pair "$TMP/who.out" lookup scorer:lookup '"human"')
assert_eq "--reviewer alice --reviewer bob: r3 ties too" "$(field "$L" n) $(field "$L" ties)" "4 2"
assert_no_grep "--reviewer: carol is left out" "$TMP/who.out" "carol"
stats who2 -c stats.yaml -o jsonl --reviewer dave runs.jsonl
assert_rc "--reviewer without labels: exit 0" 0
assert_grep "--reviewer without labels: a warning" "$TMP/who2.err" "no labels by 'dave'"

stats crit -c stats.yaml -o jsonl --criterion lookup runs.jsonl -a others.jsonl
assert_eq "--criterion lookup: only lookup's lines" "$(grep -vc '^{"criterion":"lookup",' "$TMP/crit.out")" 0
stats crit2 -c stats.yaml -o jsonl --criterion nope runs.jsonl
assert_rc "--criterion nope: exit 2" 2
assert_grep "--criterion nope: the known criteria" "$TMP/crit2.err" "unknown criterion 'nope' (criteria: lookup, j5, j5b)"

# ---- --only-split: the runs of one split, placed as export places them ----------

stats splitall -c stats.yaml -o jsonl --bootstrap 0 runs.jsonl -a others.jsonl -a runs.jsonl.annotations.jsonl
ALL=$(field "$(pair "$TMP/splitall.out" lookup scorer:lookup '"human:alice"')" n)
stats splita -c stats.yaml -o jsonl --bootstrap 0 --split a=1,b=1 --split-seed 3 --only-split a runs.jsonl -a others.jsonl -a runs.jsonl.annotations.jsonl
assert_rc "--only-split a: exit 0" 0
NA=$(field "$(pair "$TMP/splita.out" lookup scorer:lookup '"human:alice"')" n)
stats splitb -c stats.yaml -o jsonl --bootstrap 0 --split a=1,b=1 --split-seed 3 --only-split b runs.jsonl -a others.jsonl -a runs.jsonl.annotations.jsonl
NB=$(field "$(pair "$TMP/splitb.out" lookup scorer:lookup '"human:alice"')" n)
assert_eq "--only-split a and b share out alice's $ALL labelled runs" "$((${NA:-0} + ${NB:-0}))" "$ALL"
stats splitab -c stats.yaml -o jsonl --bootstrap 0 --split a=1,b=1 --split-seed 3 --only-split a --only-split b runs.jsonl -a others.jsonl -a runs.jsonl.annotations.jsonl
assert_eq "--only-split a --only-split b: every run again" "$(cmp -s "$TMP/splitab.out" "$TMP/splitall.out" && echo same)" same
stats splitbad -c stats.yaml --only-split test --split a=1 runs.jsonl
assert_rc "--only-split of a split the spec lacks: exit 2" 2
assert_grep "--only-split: the message names it" "$TMP/splitbad.err" "no split 'test' in 'a=1'"
stats splitbad2 -c stats.yaml --split a=x runs.jsonl
assert_rc "--split that does not parse: exit 2" 2

# ---- compare:, --judge, --sweep -------------------------------------------------

stats cmp -c compare.yaml -o jsonl runs.jsonl
assert_grep "compare: keeps [lookup, j5]" "$TMP/cmp.out" '"a":"scorer:lookup","b":"judge:j5",'
assert_no_grep "compare: drops lookup ~ j5b" "$TMP/cmp.out" '"a":"scorer:lookup","b":"judge:j5b",'

stats judges -c stats.yaml -o jsonl --judge j5 --judge j5b --bootstrap 100 runs.jsonl -a others.jsonl -a runs.jsonl.annotations.jsonl
L=$(grep -F '"kind":"judge-compare"' "$TMP/judges.out")
assert_eq "--judge twice: one comparison line" "$(grep -c '"kind":"judge-compare"' "$TMP/judges.out")" 1
assert_eq "--judge: the judges and their runs" "$(field "$L" a) $(field "$L" b) $(field "$L" n)" '"judge:j5" "judge:j5b" 6'
near "--judge: kappa of j5 1/3" "$(field "$L" kappa_a)" 0.3333333333333333
near "--judge: kappa of j5b 1" "$(field "$L" kappa_b)" 1
near "--judge: the difference" "$(field "$L" kappa_diff)" -0.6666666666666667
assert_eq "--judge: McNemar's discordant counts" "$(field "$L" only_a) $(field "$L" only_b) $(field "$L" none_agrees)" "0 2 0"
near "--judge: McNemar's exact p for (0, 2)" "$(field "$L" mcnemar_p)" 0.5
assert_grep "--judge: the runs where only one agrees" "$TMP/judges.out" '"one_agrees":[{"run":"r2","source":"runs.jsonl:2","agrees":"judge:j5b"},{"run":"r4","source":"runs.jsonl:4","agrees":"judge:j5b"}]'
assert_no_grep "--judge: only the judges' own pairs" "$TMP/judges.out" '{"criterion":"lookup",'
stats judge1 -c stats.yaml -o jsonl --judge lookup runs.jsonl
assert_rc "--judge naming a code scorer: exit 2" 2
assert_grep "--judge naming a code scorer: says so" "$TMP/judge1.err" "--judge names a code scorer, 'lookup' (judges: j5, j5b)"

stats sweep -c stats.yaml -o jsonl --sweep --criterion j5 runs.jsonl -a others.jsonl -a runs.jsonl.annotations.jsonl
assert_eq "--sweep: thresholds 2..5 for a 1..5 judge" \
	"$(grep -F '"kind":"sweep"' "$TMP/sweep.out" | sed -nE 's/.*"threshold":([^,]*),.*/\1/p' | tr '\n' ' ')" "2 3 4 5 "
assert_eq "--sweep: the best kappa is at 3" \
	"$(grep -F '"best":true' "$TMP/sweep.out" | sed -nE 's/.*"threshold":([^,]*),.*/\1/p')" 3
assert_eq "--sweep: the configured threshold is marked" \
	"$(grep -F '"configured":true' "$TMP/sweep.out" | sed -nE 's/.*"threshold":([^,]*),.*/\1/p')" 4
near "--sweep: kappa at 3 is 2/3" "$(field "$(grep -F '"threshold":3,' "$TMP/sweep.out")" kappa)" 0.6666666666666666

# ---- table and csv --------------------------------------------------------------

stats table -c stats.yaml -o table runs.jsonl -a others.jsonl -a runs.jsonl.annotations.jsonl
assert_rc "table: exit 0" 0
assert_grep "table: the totals" "$TMP/table.out" "8 runs, 6 labelled by 3 reviewers; 1 stale label left out"
assert_grep "table: a criterion's heading" "$TMP/table.out" "j5  (1..5, passes at >= 4)"
assert_grep "table: the pair rows" "$TMP/table.out" "judge:j5 ~ human"
assert_grep "table: a column header" "$TMP/table.out" "kappa_q"
assert_grep "table: ties and stale labels" "$TMP/table.out" "ties of the consensus left out: 1; stale labels: 1"
assert_grep "table: the corrected pass rate" "$TMP/table.out" "corrected by the humans' verdicts (Rogan-Gladen): 0.750"
assert_grep "table: a heat-map's heading" "$TMP/table.out" "confusion: scorer:lookup (rows) ~ human (columns)"
assert_grep "table: shaded cells with their counts" "$TMP/table.out" "$(printf '\342\226\210\342\226\210 2')"
assert_grep "table: an undefined figure is named in a note" "$TMP/table.out" "note: human:bob ~ human:carol: kappa"
assert_no_grep "table: no NaN" "$TMP/table.out" "nan"
width_ok() { # FILE: every line fits 100 columns (a name longer than that aside)
	python3 -c '
import sys, unicodedata
w = lambda s: sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in s)
bad = [l for l in open(sys.argv[1], encoding="utf-8").read().splitlines() if w(l) > 100]
print("\n".join(bad) if bad else "ok")' "$1"
}
assert_eq "table: every line fits 100 columns" "$(width_ok "$TMP/table.out")" ok
assert_grep "table: the consensus row, with several reviewers" "$TMP/table.out" "  judge:j5 ~ human  "
assert_grep "table: the pass/fail figures, a table of their own" "$TMP/table.out" "pass/fail at the threshold"
assert_grep "table: the intervals, a table of their own" "$TMP/table.out" "95% bootstrap intervals"
# One reviewer: the consensus is hers, so only the row that names her.
stats table1 -c stats.yaml -o table --reviewer alice runs.jsonl -a others.jsonl -a runs.jsonl.annotations.jsonl
assert_rc "table, one reviewer: exit 0" 0
assert_grep "table, one reviewer: her row" "$TMP/table1.out" "  judge:j5 ~ human:alice  "
assert_eq "table, one reviewer: no consensus row or heat-map where she labelled" \
	"$(grep -cE '(scorer:lookup|judge:j5) ~ human( |$)' "$TMP/table1.out")" 0
assert_grep "table, one reviewer: a criterion she did not label keeps its consensus row" \
	"$TMP/table1.out" "  judge:j5b ~ human  "
assert_eq "table, one reviewer: every line fits 100 columns" "$(width_ok "$TMP/table1.out")" ok
# A long name puts each pair on a line of its own, its figures under it.
LONG=a-reviewer-whose-name-is-long-enough-to-push-the-figures-past-one-hundred-columns
: > "$D/long.jsonl"
label "$D/long.jsonl" 1 lookup "$LONG" accept 1
label "$D/long.jsonl" 6 lookup "$LONG" override 1
label "$D/long.jsonl" 7 lookup "$LONG" accept 0
stats tablelong -c stats.yaml -o table --criterion lookup runs.jsonl -a long.jsonl
assert_rc "table, a long name: exit 0" 0
assert_eq "table, a long name: the pair alone on its line, its figures under it" \
	"$(grep -A1 -x "  scorer:lookup ~ human:$LONG" "$TMP/tablelong.out" | sed -n '2s/  */ /gp' | head -n 1)" \
	" 3 0.667 0.400 0.444"
stats table2 -c stats.yaml -o table --judge j5 --judge j5b --sweep runs.jsonl -a others.jsonl -a runs.jsonl.annotations.jsonl
assert_rc "table with --judge and --sweep: exit 0" 0
assert_grep "table: the comparison" "$TMP/table2.out" "judges compared: j5 ~ j5b on 6 labelled runs both answered"
assert_grep "table: McNemar's test" "$TMP/table2.out" "McNemar's exact test: p = 0.5 (j5 alone agrees on 0, j5b alone on 2, neither on 0)"
assert_grep "table: the runs where one agrees" "$TMP/table2.out" "r2 (runs.jsonl:2): only j5b agrees"
assert_grep "table: the sweep marks its best threshold" "$TMP/table2.out" "* 3"
assert_grep "table: the sweep marks the configured one" "$TMP/table2.out" "4 (configured)"

stats csv -c stats.yaml -o csv runs.jsonl -a others.jsonl -a runs.jsonl.annotations.jsonl
assert_rc "csv: exit 0" 0
assert_eq "csv: the header" "$(head -n 1 "$TMP/csv.out" | tr -d '\r')" \
	"criterion,kind,scale,a,b,n,ties,stale,agreement,agreement_ci_lo,agreement_ci_hi,kappa,kappa_ci_lo,kappa_ci_hi,kappa_quadratic,alpha,spearman,mae,within_one,tpr,tnr,precision,pass_rate,pass_rate_corrected,pass_rate_corrected_ci_lo,pass_rate_corrected_ci_hi,confusion_labels,confusion_counts,note"
assert_eq "csv: one row per pair" "$(($(wc -l < "$TMP/csv.out") - 1))" "$(wc -l < "$TMP/jsonl.out" | tr -d ' ')"
# fields counted with quotes respected (a note may hold commas)
cols=$(awk '{ n = 1; q = 0; for (i = 1; i <= length($0); i++) { ch = substr($0, i, 1); if (ch == "\"") q = !q; else if (ch == "," && !q) n++ } print n }' "$TMP/csv.out" | sort -u | tr '\n' ' ')
assert_eq "csv: every row has the header's 29 fields" "$cols" "29 "
assert_grep "csv: lookup ~ human with its flattened confusion" "$TMP/csv.out" \
	"lookup,machine-human,binary,scorer:lookup,human,5,1,1,0.6,"
assert_grep "csv: the confusion flattened" "$TMP/csv.out" ",fail;pass,1;1;1;2,"
assert_grep "csv: the reviewers' row has b empty" "$TMP/csv.out" "lookup,reviewers,binary,reviewers,,5,"

# ---- the gates ------------------------------------------------------------------

stats gate1 -c stats.yaml -o jsonl --criterion lookup --min-kappa 0.1 --min-tnr 0.5 runs.jsonl -a others.jsonl -a runs.jsonl.annotations.jsonl
assert_rc "gate met: exit 0" 0
stats gate2 -c stats.yaml -o jsonl --criterion lookup --min-kappa 0.2 runs.jsonl -a others.jsonl -a runs.jsonl.annotations.jsonl
assert_rc "--min-kappa above the kappa: exit 1" 1
assert_grep "--min-kappa: says which and by how much" "$TMP/gate2.err" "lookup: kappa 0.167 is below --min-kappa 0.2"
assert_eq "--min-kappa: the report is still written" "$(grep -c . "$TMP/gate2.out")" "$(grep -c '"criterion":"lookup"' "$TMP/jsonl.out")"
stats gate3 -c stats.yaml -o jsonl --criterion j5 --min-tpr 0.7 runs.jsonl -a others.jsonl -a runs.jsonl.annotations.jsonl
assert_rc "--min-tpr above the tpr: exit 1" 1
assert_grep "--min-tpr: says so" "$TMP/gate3.err" "j5: tpr 0.667 is below --min-tpr 0.7"
stats gate4 -c stats.yaml -o jsonl --criterion j5b --min-kappa 0 runs.jsonl -a others.jsonl
assert_rc "an undefined figure fails the gate: exit 1" 1
assert_grep "an undefined figure fails the gate: says why" "$TMP/gate4.err" \
	"j5b: kappa is undefined (no run has both a machine verdict and a human label), so --min-kappa 0 fails"
stats gate5 -c stats.yaml --min-tnr 2 runs.jsonl
assert_rc "--min-tnr 2: exit 2" 2
assert_grep "--min-tnr 2: the range" "$TMP/gate5.err" "--min-tnr needs a number from 0 to 1, not '2'"

# ---- no labels, bad inputs ---------------------------------------------------------

mkdir -p "$TMP/bare"
cp "$D/runs.jsonl" "$TMP/bare/runs.jsonl"
(cd "$TMP/bare" && "$TCR_BIN" stats -c "$D/stats.yaml" -o table runs.jsonl) > "$TMP/bare.out" 2> "$TMP/err"
RC=$?
assert_rc "no annotations file: exit 0" 0
assert_grep "no annotations file: the table says so" "$TMP/bare.out" "no annotations file (runs.jsonl.annotations.jsonl): no labels yet"
assert_eq "no annotations file: none is made, nor a judge cache" "$(ls "$TMP/bare")" "runs.jsonl"

stats badout -c stats.yaml -o xml runs.jsonl
assert_rc "-o xml: exit 2" 2
assert_grep "-o xml: the known outputs" "$TMP/badout.err" "unknown output 'xml' (expected one of: table, jsonl, csv)"
stats badboot -c stats.yaml --bootstrap many runs.jsonl
assert_rc "--bootstrap many: exit 2" 2
stats noinput -c stats.yaml
assert_rc "no FILE: exit 2" 2
stats missing -c stats.yaml nothere.jsonl
assert_rc "a missing input: exit 3" 3
stats missinga -c stats.yaml -a nothere.jsonl runs.jsonl
assert_rc "a missing -a file: exit 3" 3
assert_grep "a missing -a file: named" "$TMP/missinga.err" "nothere.jsonl: No such file or directory"
assert_eq "a missing -a file is not created" "$(ls "$D" | grep -c nothere)" 0

cp "$B" "$D/broken.jsonl"
printf '{"v":2,"run":"r5","decision":\n' >> "$D/broken.jsonl"
label "$D/broken.jsonl" 5 lookup dave accept 1
stats broken -c stats.yaml -o jsonl runs.jsonl -a broken.jsonl
assert_rc "a broken annotations line: exit 0" 0
assert_grep "a broken annotations line: a warning naming FILE:LINE" "$TMP/broken.err" "broken.jsonl:12:"
assert_grep "a broken annotations line: the lines after it count" "$TMP/broken.out" '"b":"human:dave",'

printf 'compare: [[lookup, nope]]\n' >> "$D/badcmp.yaml"
cat "$D/stats.yaml" >> "$D/badcmp.yaml"
stats badcmp -c badcmp.yaml runs.jsonl
assert_rc "compare: naming no judge: exit 2" 2
assert_grep "compare: naming no judge: FILE:LINE:COLUMN" "$TMP/badcmp.err" "badcmp.yaml:1:20: compare: unknown judge 'nope'"

"$TCR_BIN" stats --help > "$TMP/help.out" 2>&1
RC=$?
assert_rc "--help: exit 0" 0
assert_grep "--help: the usage" "$TMP/help.out" "usage: tcreview stats [-c FILE] [-a FILE]..."
"$TCR_BIN" --help > "$TMP/help2.out" 2>&1
assert_grep "tcreview --help lists stats" "$TMP/help2.out" "  stats     agreement of scorers and judges"

finish
