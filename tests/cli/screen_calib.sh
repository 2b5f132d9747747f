#!/bin/sh
# screen_calib.sh - calibrating in the review screen, as a person sees it:
# digits label judge rows as well as code rows and move forward, the
# judge's reason under its row, the calibration overlay (K) with two
# reviewers' labels, Enter on a confusion cell filtering the runs, `]`,
# blind mode hiding verdicts until a label reveals them, and --assign's
# share in the status line (and its usage errors). A 1..5 judge at the
# local fake server (tests/fake_llm.c) answers each run once; its cache
# beside the runs answers every later screen. Goldens in
# tests/screens/calib-*.screen. Talks only to 127.0.0.1.
. "$TCR_SRCDIR/tests/cli/lib.sh"
. "$TCR_SRCDIR/tests/cli/screen_lib.sh"

fake_llm_need

unset http_proxy HTTP_PROXY https_proxy HTTPS_PROXY all_proxy ALL_PROXY OPENAI_BASE_URL
no_proxy='*' NO_PROXY='*'
OPENAI_API_KEY=sk-tcr-screen-calib-DUMMY-5e1f07
TCR_NO_ANIMATION=1
export no_proxy NO_PROXY OPENAI_API_KEY TCR_NO_ANIMATION

# annot_fields FILE: "run|scorer|decision|score|reviewer|blind" per decision.
annot_fields() {
	awk '{
		n = split("run scorer decision score reviewer blind", k, " "); out = ""
		for (i = 1; i <= n; i++) {
			v = "?"
			if (match($0, "\"" k[i] "\":(\"[^\"]*\"|[^,}]*)")) {
				v = substr($0, RSTART + length(k[i]) + 3, RLENGTH - length(k[i]) - 3)
				if (v ~ /^".*"$/) v = substr(v, 2, length(v) - 2)
			}
			out = out (i > 1 ? "|" : "") v
		}
		print out
	}' "$1" 2>/dev/null
}

# A 1..5 judge ("helpful", the tool-call-accuracy-1to5 rubric, passes at
# 3) with a score and a reason per run; no-task has no tool call to judge.
cat > "$TMP/grades.json" <<'EOF'
{"rules": [
 {"match": {"body_contains": "call_en-pass_0"}, "content": {"score": 5, "status": "completed", "reason": "Found the parcel and said when it comes.\nThe tracking number was given."}},
 {"match": {"body_contains": "call_ja-fail_0"}, "content": {"score": 4, "status": "completed", "reason": "Apologised and promised to check."}},
 {"match": {"body_contains": "call_zh-refund_0"}, "content": {"score": 4, "status": "completed", "reason": "Refunded the damaged order."}},
 {"match": {"body_contains": "call_esc-codes_0"}, "content": {"score": 2, "status": "completed", "reason": "Answered with codes pasted in."}}
], "default": {"status": 418, "raw": "no rule for this request"}}
EOF
fake_llm_start grades "$TMP/grades.json"
TOOLS='[{name: get_order, description: looks an order up}, {name: track_parcel, description: tracks a parcel}, {name: refund_order, description: refunds an order}]'
{
	cat "$TMP/screen.yaml"
	printf 'judges:\n  - id: helpful\n    rubric: tool-call-accuracy-1to5\n    model: openai/judge-model\n'
	printf '    base_url: http://127.0.0.1:%s/v1\n    tools: %s\n' "$PORT" "$TOOLS"
} > "$TMP/calib.yaml"
SCREEN_CONFIG=calib.yaml
CACHE=$TMP/screen-runs.jsonl.judgements.jsonl
rm -f "$CACHE"

# ---- the judge answers each run once; its reason shows under its row -----------

run_screen calib-judged 'J
:wait
jJ
:wait
jJ
:wait
jJ
:wait
jJ
:wait
gg'
# no-task has no tool call: the rubric skips it without a request
assert_eq "every run with calls was judged once" "$(wc -l < "$TMP/grades.log" | tr -d ' ')" 4
screen_has calib-judged "no-task     gpt-4o     0 - ✗ ✗ -"
check_screen calib-judged
screen_has calib-judged "4 helpful         5  pass"
# its first line, cut by display width to the pane
screen_has calib-judged "↳ Found the parcel and said when it come…"
if grep -qF "The tracking number was given." "$TMP/calib-judged.screen"; then
	fail "the reason line is the first line of the reason only"
else
	pass "the reason line is the first line of the reason only"
fi

# ---- digits label every row, judge rows too, and move forward -------------------

SCREEN_ANNOT=two.annot.jsonl
rm -f "$TMP/two.annot.jsonl"
# en-pass: tool-order 1 (accept), lookup 1 (accept), words 1 (override of
# 0.5), helpful 2 (override of 5); then ja-fail, whose first row is selected
run_screen calib-digits '1
1
1
:save-display %D/calib-digits-judge.screen
2'
check_screen calib-digits-judge
screen_has calib-digits-judge ">4 helpful         5  pass"
check_screen calib-digits
screen_has calib-digits ">  ja-fail"
screen_has calib-digits " ✎ en-pass"
screen_has calib-digits ">1 tool-order      0  fail"
screen_has calib-digits "helpful labelled 2 (saved)"
# ja-fail (tool-order 0, lookup 0, words 0: accepts; helpful 2: override),
# zh-refund (1, 1, 1, helpful 5), esc-codes (0, 1, 0, helpful 1), no-task
# (0, 0, 0; its judge skipped it, so it has no judge row to decide)
SCREEN_COLS=100
run_screen calib-labels-qa '0
0
0
2
1
1
1
5
0
1
0
1
0
0
0'
assert_eq "qa's labels, one line per row, accepts where they agree" "$(annot_fields "$ANNOT" | tr '\n' ' ')" \
"en-pass|tool-order|accept|1|qa|false en-pass|lookup|accept|1|qa|false en-pass|words|override|1|qa|false \
en-pass|helpful|override|2|qa|false ja-fail|tool-order|accept|0|qa|false ja-fail|lookup|accept|0|qa|false \
ja-fail|words|accept|0|qa|false ja-fail|helpful|override|2|qa|false zh-refund|tool-order|accept|1|qa|false \
zh-refund|lookup|accept|1|qa|false zh-refund|words|accept|1|qa|false zh-refund|helpful|override|5|qa|false \
esc-codes|tool-order|accept|0|qa|false esc-codes|lookup|accept|1|qa|false esc-codes|words|override|0|qa|false \
esc-codes|helpful|override|1|qa|false no-task|tool-order|override|0|qa|false no-task|lookup|accept|0|qa|false \
no-task|words|override|0|qa|false "
screen_has calib-labels-qa "reviewed 5 of 6"
screen_has calib-labels-qa "words labelled 0 (saved); every run in view is reviewed"
SCREEN_COLS=80

# A second reviewer labels the judge rows of three runs (the judge row is
# the fourth: 4 selects it from the top of the verdicts pane).
SCREEN_REVIEWER=rb
run_screen calib-labels-rb '<Tab><Tab>jjj4
<BTab><BTab>j<Tab><Tab>jjj2
<BTab><BTab>j<Tab><Tab>jjj4'
SCREEN_REVIEWER=qa
assert_eq "rb's labels" "$(annot_fields "$ANNOT" | grep '|rb|' | tr '\n' ' ')" \
"en-pass|helpful|override|4|rb|false ja-fail|helpful|override|2|rb|false zh-refund|helpful|accept|4|rb|false "

# ---- the calibration overlay --------------------------------------------------------

SCREEN_COLS=100 SCREEN_LINES=30
run_screen calib-cell 'K
:save-display %D/calib-pane-code.screen
jjj
:save-display %D/calib-pane.screen
<PgDn><PgDn><PgDn><Right>
:save-display %D/calib-pane-cell.screen
<Enter>'
check_screen calib-pane-code
screen_has calib-pane-code "> scorer:tool-order"
screen_has calib-pane-code "scorer:tool-order (rows) against human (columns), 4 labelled runs"
check_screen calib-pane
screen_has calib-pane "> judge:helpful"
screen_has calib-pane "judge:helpful (rows) against human (columns), 2 labelled runs"
# en-pass (qa 2, rb 4) and zh-refund (qa 5, rb 4) are ties on 1..5: left out
screen_has calib-pane "left out: 2 ties (no consensus), 0 stale labels"
screen_has calib-pane "– TPR: no true passes"
screen_has calib-pane "                       1         2         3         4         5"
# the judge's 4 against the humans' 2 (ja-fail: qa and rb both gave 2)
check_screen calib-pane-cell
screen_has calib-pane-cell "  4                   0  [██    1]        0         0         0"
check_screen calib-cell
screen_has calib-cell "1 run where judge:helpful said 4 and human 2 (f a shows all runs)"
screen_has calib-cell ">✎ ja-fail"
screen_has calib-cell "[runs] 1 of 6 runs"
run_screen calib-pane-esc 'K<Esc>'
screen_has calib-pane-esc "[runs] 6 runs"
run_screen calib-cell-off 'K<Down><Down><Down><PgDn><PgDn><PgDn><Right><Enter>fa'
screen_has calib-cell-off "[runs] 6 runs"
screen_has calib-cell-off "filter: all"
SCREEN_COLS=80 SCREEN_LINES=24

# ] and [ go to the next and previous run where a machine and the humans,
# or the reviewers, disagree (ja-fail: helpful 4 against 2 and 2;
# esc-codes: lookup passes where helpful fails; no-task: none)
run_screen calib-next 'g]'
screen_has calib-next ">✎ ja-fail"
run_screen calib-prev 'g['
screen_has calib-prev ">✎ esc-codes"
screen_has calib-prev "disagreement (from the bottom)"

SCREEN_ANNOT=

# ---- blind ---------------------------------------------------------------------------

SCREEN_COLS=100 SCREEN_LINES=30
run_screen calib-blind 'a
:save-display %D/calib-blind-refused.screen
K
:save-display %D/calib-blind-nopane.screen
<Tab><Tab><Enter>
:save-display %D/calib-blind-details.screen
<Enter>0' --blind screen-runs.jsonl
check_screen calib-blind-refused
screen_has calib-blind-refused "not saved: blind: type a label (a digit, or o); accepting … (M: messages)"
screen_has calib-blind-refused "2 lookup     tool-call-a…         ·       hidden (blind)"
screen_has calib-blind-refused "4 helpful    tool-call-a…         ·       hidden (blind)"
screen_has calib-blind-nopane "no calibration in blind mode: it shows the machine's verdicts"
screen_has calib-blind-details "human: no decision yet; the verdict is hidden (blind)"
screen_has calib-blind-details "until you label it (digits, or o for a score)"
screen_has calib-blind-details "tool-order: tool-call-accuracy, scale binary, passes at"
check_screen calib-blind
screen_has calib-blind "1 tool-order tool-call-a…      1  pass    overridden to 0"
screen_has calib-blind ">2 lookup     tool-call-a…         ·       hidden (blind)"
assert_eq "a blind label records blind: true" "$(annot_fields "$ANNOT")" "en-pass|tool-order|override|0|qa|true"
SCREEN_COLS=80 SCREEN_LINES=24

# ---- --assign, and the help that names both flags ----------------------------------

run_tcr "$TMP/rhelp.out" "$TMP/rhelp.err" review --help
assert_rc "review --help exits 0" 0
assert_grep "review --help names --blind" "$TMP/rhelp.out" "--blind             hide each verdict"
assert_grep "review --help names --assign" "$TMP/rhelp.out" "--assign K/N[:OVERLAP%]  review only share K of N"

# C-l lays the panes out again once the judge's cached verdict is in, so
# the screen does not depend on whether it came before the first layout.
run_screen calib-assign '<C-l>' --assign 2/3:20% screen-runs.jsonl
check_screen calib-assign
screen_has calib-assign "share 2/3: 0 of"
for bad in 0/3 4/3 1/0 1/3:120% x; do
	run_tcr "$TMP/assign.out" "$TMP/assign.err" review --assign "$bad" "$TMP/screen-runs.jsonl"
	assert_rc "--assign $bad is a usage error" 2
	assert_grep "--assign $bad says why" "$TMP/assign.err" "tcreview: --assign: "
done
assert_grep "--assign 1/3:120% names the overlap" "$TMP/assign.err" "'x' is not K/N or K/N:OVERLAP%"

finish
