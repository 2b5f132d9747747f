#!/bin/sh
# stats_tags.sh - failure modes in `tcreview stats`: the table and jsonl
# lines per tag and reviewer, a judge declaring `criterion: wrong-tool`
# (its verdicts cached by `tcreview judge` from the local test server on
# 127.0.0.1) and a code scorer declaring it with present_when: fail,
# measured against the reviewers' tags; `export` carrying the tags; and a
# criterion that names no defined tag refused at load.
#
# The set is tests/data/tags-runs.jsonl with tags-annotations.jsonl (see
# tests/test_failmodes.c for who tagged what). For wrong-tool the
# reviewers' consensus is r1 absent, r2 r3 r7 present, r8 absent (r6 is a
# tie: alice tagged it, bob reviewed it without the tag; r4 r5 are not
# reviewed). The figures below are worked out by hand from that.
. "$TCR_SRCDIR/tests/cli/lib.sh"

fake_llm_need

unset http_proxy HTTP_PROXY https_proxy HTTPS_PROXY all_proxy ALL_PROXY OPENAI_BASE_URL
no_proxy='*' NO_PROXY='*'
export no_proxy NO_PROXY
OPENAI_API_KEY=sk-tcr-stats-tags-0001
export OPENAI_API_KEY

D=$TMP/set
mkdir -p "$D"
cp "$TCR_SRCDIR/tests/data/tags-runs.jsonl" "$D/runs.jsonl"
cp "$TCR_SRCDIR/tests/data/tags-annotations.jsonl" "$D/runs.jsonl.annotations.jsonl"

# The judge answers "present" (1) on r2 r3 r6 r7 r8, "absent" (0) on r1 r4 r5.
rules=""
for i in 1 2 3 4 5 6 7 8; do
	s=1
	case $i in 1|4|5) s=0 ;; esac
	rules="$rules {\"match\": {\"body_contains\": \"Order $i?\"}, \"content\": {\"score\": $s, \"reason\": \"r$i\"}},"
done
printf '{"rules": [%s {"match": {"path_prefix": "/never"}}], "default": {"status": 418, "raw": "no rule"}}\n' "$rules" > "$TMP/judge.json"
fake_llm_start judge "$TMP/judge.json" || finish

cat > "$D/mode.txt" <<'EOF'
# does the run show the failure mode wrong-tool?
=== system
Answer {{max}} when the agent called a tool that does not fit the request, else {{min}}.
=== user
Request: {{input}}
Answer: {{output}}
EOF
cat > "$D/tags.yaml" <<EOF
tags:
  - id: wrong-tool
    description: Called a tool that does not fit the request
    absorbs: [bad tool]
  - id: no-confirm
scorers:
  - id: lookup
    type: tool-call-accuracy
    expectedTool: get_order
    criterion: {tag: wrong-tool, present_when: fail}
judges:
  - id: mode
    rubric: custom
    model: openai/judge-model
    base_url: http://127.0.0.1:$PORT/v1
    prompt_file: mode.txt
    scale: {min: 0, max: 1, pass: 1}
    max_retries: 0
    criterion: wrong-tool
EOF

(cd "$D" && "$TCR_BIN" judge -c tags.yaml runs.jsonl) > "$TMP/judge.out" 2> "$TMP/err"
RC=$?
assert_rc "tcreview judge fills the cache" 0
assert_eq "the cache holds eight verdicts" "$(wc -l < "$D/runs.jsonl.judgements.jsonl" | tr -d ' ')" 8

stats() { # NAME ARGS...
	name=$1
	shift
	(cd "$D" && "$TCR_BIN" stats "$@") > "$TMP/$name.out" 2> "$TMP/$name.err"
	RC=$?
	cp "$TMP/$name.err" "$TMP/err"
}
# machine LINE-FILE ROW B: the machine-human pair of a row against B.
machine() { grep -F '"criterion":"tag:wrong-tool","kind":"machine-human"' "$1" | grep -F "\"a\":\"$2\",\"b\":\"$3\"," | head -n 1; }
field() { printf '%s\n' "$1" | sed -nE "s/.*\"$2\":(\[[^]]*\]|\{[^}]*\}\}?|\"[^\"]*\"|[^,}]*).*/\1/p"; }
near() { # NAME GOT WANT: within 1e-9
	if awk -v g="$2" -v w="$3" 'BEGIN { d = g - w; if (d < 0) d = -d; exit !(g != "" && g != "null" && d < 1e-9) }'; then
		pass "$1"
	else
		fail "$1" "got:  $2" "want: $3"
	fi
}

stats jsonl -c tags.yaml -o jsonl --bootstrap 0 runs.jsonl
assert_rc "stats -o jsonl exits 0" 0

# The judge, present when it passes: items r1 (0,0) r2 (1,1) r3 (1,1)
# r7 (1,1) r8 (1,0). Agreement 4/5. Machine present 4/5, humans 3/5:
# chance agreement 0.8*0.6 + 0.2*0.4 = 0.56; kappa (0.8-0.56)/(1-0.56) = 6/11.
# TPR: 3 present by the humans, all 3 said so: 1. TNR: r1 r8, r1 said so: 0.5.
L=$(machine "$TMP/jsonl.out" judge:mode human)
assert_eq "the judge's pair is under tag:wrong-tool" "$(field "$L" n)" 5
near "judge: agreement 4/5" "$(field "$L" agreement)" 0.8
near "judge: kappa 6/11" "$(field "$L" kappa)" 0.5454545454545454
near "judge: TPR 3/3" "$(field "$L" tpr)" 1
near "judge: TNR 1/2" "$(field "$L" tnr)" 0.5
assert_eq "judge: one tie left out (r6)" "$(field "$L" ties)" 1
assert_eq "judge: the confusion's categories" "$(field "$L" confusion)" '{"labels":["absent","present"],"counts":[[1,0],[1,3]]}'

# The scorer, present when it fails (r6 r7 r8): r1 (0,0) r2 (0,1) r3 (0,1)
# r7 (1,1) r8 (1,0). Agreement 2/5; machine present 2/5, humans 3/5:
# chance 0.4*0.6 + 0.6*0.4 = 0.48; kappa (0.4-0.48)/0.52 = -2/13.
# TPR 1/3 (r7 of r2 r3 r7), TNR 1/2 (r1 of r1 r8).
L=$(machine "$TMP/jsonl.out" scorer:lookup human)
near "scorer: agreement 2/5" "$(field "$L" agreement)" 0.4
near "scorer: kappa -2/13" "$(field "$L" kappa)" -0.15384615384615385
near "scorer: TPR 1/3" "$(field "$L" tpr)" 0.3333333333333333
near "scorer: TNR 1/2" "$(field "$L" tnr)" 0.5
# Its pass rate is the share of runs it says present: 3 of 8.
near "scorer: its rate of present 3/8" "$(field "$L" pass_rate)" 0.375

# bob alone, against the judge: r2 (1,1) r6 (1,0) r7 (1,1) r8 (1,0): 2/4.
L=$(machine "$TMP/jsonl.out" judge:mode human:bob)
near "judge ~ bob: agreement 2/4" "$(field "$L" agreement)" 0.5

# The failure modes: reviewed r1 r2 r3 r6 r7 r8 (6); wrong-tool on r2 r3
# r6 r7 (4), on calls r3#1 r6#1 r7#1 (3). Wilson at 95% for 4 of 6 (z =
# 1.959964): centre (4/6 + z²/12)/(1 + z²/6) = 0.601612, half-width
# z·sqrt((4/6)(2/6)/6 + z²/144)/(1 + z²/6) = 0.301617.
FM=$(grep -F '{"type":"failure-mode","tag":"wrong-tool","defined":true,"reviewer":null,' "$TMP/jsonl.out")
assert_eq "wrong-tool: runs tagged" "$(field "$FM" runs)" 4
assert_eq "wrong-tool: runs reviewed" "$(field "$FM" reviewed)" 6
assert_eq "wrong-tool: calls tagged" "$(field "$FM" calls)" 3
near "wrong-tool: share 4/6" "$(field "$FM" share)" 0.6666666666666666
awk -v l="$(field "$FM" low)" -v h="$(field "$FM" high)" \
	'BEGIN { exit !(l > 0.29999 && l < 0.30000 && h > 0.90322 && h < 0.90324) }' \
	&& pass "wrong-tool: Wilson interval [0.299995, 0.903229]" \
	|| fail "wrong-tool: Wilson interval" "got: $(field "$FM" low) $(field "$FM" high)"
FM=$(grep -F '{"type":"failure-mode","tag":"wrong-tool","defined":true,"reviewer":"bob",' "$TMP/jsonl.out")
assert_eq "wrong-tool by bob: r2 r7 of his four runs" "$(field "$FM" runs)/$(field "$FM" reviewed)" 2/4
FM=$(grep -F '{"type":"failure-mode","tag":"slow","defined":false,"reviewer":null,' "$TMP/jsonl.out")
assert_eq "a free code is its own line" "$(field "$FM" runs)" 1
assert_eq "the renamed code counts under its new name only" \
	"$(grep -c '"tag":"oops"' "$TMP/jsonl.out")" 0
assert_eq "every failure mode line has the fixed keys in order" \
	"$(grep '"type":"failure-mode"' "$TMP/jsonl.out" | sed -E 's/"(type|tag|defined|reviewer|runs|reviewed|share|low|high|calls)":[^,}]*//g' | sort -u)" \
	'{,,,,,,,,,}'

stats table -c tags.yaml -o table --bootstrap 0 runs.jsonl
assert_rc "stats -o table exits 0" 0
assert_grep "the table has the failure modes" "$TMP/table.out" "failure modes (tags): 6 runs reviewed"
assert_grep "the table's wrong-tool row" "$TMP/table.out" "wrong-tool        all       4  0.667 [0.300, 0.903]         6      3"
assert_grep "the judge's block says what present means" "$TMP/table.out" \
	"tag:wrong-tool  (failure mode present or absent; the verdict says present when it passes)"
assert_grep "the scorer's block says it too" "$TMP/table.out" \
	"the verdict says present when it fails"

# export: a row carries the run's tags and call labels.
(cd "$D" && "$TCR_BIN" export -c tags.yaml runs.jsonl) > "$TMP/export.out" 2> "$TMP/err"
RC=$?
assert_rc "export exits 0" 0
assert_grep "export: r2's row carries alice's tag, resolved" "$TMP/export.out" \
	'"tags":[{"tag":"wrong-tool","code":"bad tool","defined":true,"call":null,"tool":null,"reviewer":"alice"},{"tag":"wrong-tool","code":"Bad  TOOL","defined":true,"call":null,"tool":null,"reviewer":"bob"}],"call_labels":[]'

# A criterion that is no defined failure mode is refused at load.
sed 's/criterion: wrong-tool/criterion: wrong tool/' "$D/tags.yaml" > "$D/bad.yaml"
stats bad -c bad.yaml runs.jsonl
assert_rc "an unknown criterion: exit 2" 2
assert_grep "its place and the defined ones" "$TMP/bad.err" \
	"bad.yaml:19:16: judge 'mode': criterion 'wrong tool' is not a failure mode defined in tags: (defined: wrong-tool, no-confirm)"

finish
