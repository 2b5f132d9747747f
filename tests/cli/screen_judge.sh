#!/bin/sh
# screen_judge.sh - LLM judges in the review screen, against the local fake
# server (tests/fake_llm.c): J asks and the row shows "judging..." while the
# reviewer keeps moving; :wait shows the verdict beside the code verdicts;
# its details; accept and labels on a judge row once it answered (refused
# before); Esc cancels; the verdict is cached and shown again; with two
# judges a menu asks one or all. Goldens in tests/screens/judge-*.screen.
# Talks only to 127.0.0.1.
. "$TCR_SRCDIR/tests/cli/lib.sh"
. "$TCR_SRCDIR/tests/cli/screen_lib.sh"

fake_llm_need

unset http_proxy HTTP_PROXY https_proxy HTTPS_PROXY all_proxy ALL_PROXY OPENAI_BASE_URL
no_proxy='*' NO_PROXY='*'
KEY=sk-tcr-screen-DUMMY-93be11d0
OPENAI_API_KEY=$KEY
# a still "judging..." rather than a spinner with seconds
TCR_NO_ANIMATION=1
export no_proxy NO_PROXY OPENAI_API_KEY TCR_NO_ANIMATION

lines_of() { if [ -f "$1" ]; then wc -l < "$1" | tr -d ' '; else echo 0; fi; }

# annot_fields FILE: "run|scorer|decision|machine_score|score" per decision.
annot_fields() {
	awk '{
		n = split("run scorer decision machine_score score", k, " "); out = ""
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

CACHE=$TMP/screen-runs.jsonl.judgements.jsonl
TOOLS='[{name: get_order, description: looks an order up}, {name: track_parcel, description: tracks a parcel}, {name: refund_order, description: refunds an order}]'

# screen_conf FILE PORT [EXTRA-JUDGE-YAML]: the screen tests' scorers and
# one tool-appropriateness judge at the fake server.
screen_conf() {
	{
		cat "$TMP/screen.yaml"
		printf 'judges:\n  - id: appr\n    rubric: tool-appropriateness\n    model: openai/judge-model\n'
		printf '    base_url: http://127.0.0.1:%s/v1\n    tools: %s\n' "$2" "$TOOLS"
		[ -n "${3:-}" ] && printf '%s\n' "$3"
	} > "$TMP/$1"
}

# Two of the three calls judged appropriate: 0.67. The first analysis is
# held until the script has looked around while it is pending: the server
# answers it once the screen has saved the dump named in until_file (an
# order of events, so a slow machine cannot let the answer in early).
EVALS='{"evaluations": [
   {"toolCalled": "get_order", "wasAppropriate": true, "reasoning": "the order was asked about"},
   {"toolCalled": "track_parcel", "wasAppropriate": true, "reasoning": "where the parcel is"},
   {"toolCalled": "get_order", "wasAppropriate": false, "reasoning": "a second look was not needed"}],
   "missingTools": []}'
# slow_script FILE DUMP: that script, the first analysis held until the
# dump DUMP (a name in $TMP) exists.
slow_script() {
	cat > "$TMP/$1" <<EOF
{"rules": [
 {"match": {"body_contains": "Explain a score for a person"}, "content": "Two of the three calls served the request."},
 {"match": {"body_contains": "tool_appropriateness"}, "times": 1, "until_file": "$TMP/$2", "content": $EVALS},
 {"match": {"body_contains": "tool_appropriateness"}, "content": $EVALS}
], "default": {"status": 418, "raw": "no rule for this request"}}
EOF
}
slow_script slow.json judge-refused.screen

# ---- J: pending, moving on, :wait, accept ------------------------------------

fake_llm_start slow "$TMP/slow.json"
screen_conf judge1.yaml "$PORT"
SCREEN_CONFIG=judge1.yaml
rm -f "$CACHE"
run_screen judge-accepted 'J
:save-display %D/judge-pending.screen
j
:save-display %D/judge-moved.screen
k<Tab><Tab>jjj
a
:save-display %D/judge-refused.screen
:wait
:save-display %D/judge-answered.screen
a'
check_screen judge-pending
screen_has judge-pending "4 appr               judging..."
screen_has judge-pending "asking 1 judge (Esc cancels)"
check_screen judge-moved
screen_has judge-moved "run 2 of 6"
screen_has judge-moved "4 appr               J asks"
screen_has judge-refused "not saved: appr is still answering for this r… (M: messages)"
check_screen judge-answered
screen_has judge-answered ">4 appr         0.67  pass"
screen_has judge-answered "appr answered: 0.67 (pass)"
screen_has judge-accepted "accepted (saved)"
assert_eq "J: an accept on the judge row is written with the judge's id" "$(annot_fields "$ANNOT")" \
	"en-pass|appr|accept|0.67|0.67"
assert_grep "J: the decision names the rubric as the type, and the judge's model" "$ANNOT" '"scorer":"appr","scorer_type":"tool-appropriateness","model":"openai/judge-model","prompt_hash":"'
if grep -qE '"run_hash":"[0-9a-f]{64}",.*"prompt_hash":"[0-9a-f]{16}",.*"blind":false,' "$ANNOT"; then
	pass "J: ... the record's SHA-256, the prompt's hash, not blind"
else
	fail "J: ... the record's SHA-256, the prompt's hash, not blind" "$(head -c 3000 "$ANNOT")"
fi
assert_grep "J: ... with the machine's score" "$ANNOT" '"machine_score":0.67,"machine_passed":true,"decision":"accept"'
assert_eq "J: one analysis and one reason asked" "$(lines_of "$TMP/slow.log")" 2
assert_eq "J: the verdict is cached beside the runs" "$(lines_of "$CACHE")" 1
assert_grep "J: the cached verdict" "$CACHE" '"run":"en-pass","judge":"appr","model":"judge-model",'

# ---- the cached verdict shows again; its details; a label ----------------------

SCREEN_COLS=100 SCREEN_LINES=40
run_screen judge-labelled '<Tab><Tab>jjj<Enter>
:save-display %D/judge-details.screen
0'
check_screen judge-details
screen_has judge-details "reason: Two of the three calls served the request."
screen_has judge-details "✗ get_order: a second look was not needed"
screen_has judge-details "requests go to 127.0.0.1 (plain http)"
assert_eq "cache: reopening asks nobody" "$(lines_of "$TMP/slow.log")" 2
assert_eq "a label on the judge row overrides it" "$(annot_fields "$ANNOT")" "en-pass|appr|override|0.67|0"
SCREEN_COLS=80 SCREEN_LINES=24

# ---- Esc cancels ------------------------------------------------------------------

# If the first request reached the server before Esc, it is held until
# Esc has been seen; if not, the second J meets the held rule, its file
# already there.
slow_script slow2.json judge-cancelled.screen
fake_llm_start slow2 "$TMP/slow2.json"
screen_conf judge2.yaml "$PORT"
SCREEN_CONFIG=judge2.yaml
rm -f "$CACHE"
run_screen judge-asked-again 'J
<Esc>
:save-display %D/judge-cancelled.screen
:wait
:save-display %D/judge-cancel-wait.screen
J
:wait'
check_screen judge-cancelled
screen_has judge-cancelled "4 appr               error   cancelled"
screen_has judge-cancelled "cancelled 1 judge request"
if cmp -s "$TMP/judge-cancelled.screen" "$TMP/judge-cancel-wait.screen"; then
	pass "Esc: nothing arrives for a cancelled request (:wait has nothing to wait for)"
else
	fail "Esc: nothing arrives for a cancelled request (:wait has nothing to wait for)" \
		"$(diff "$TMP/judge-cancelled.screen" "$TMP/judge-cancel-wait.screen" | head -20)"
fi
screen_has judge-asked-again "4 appr         0.67  pass"
assert_eq "Esc: a cancelled verdict is not cached; J again is" "$(lines_of "$CACHE")" 1
assert_eq "Esc: no decision written" "$(lines_of "$ANNOT")" 0

# Quitting while a judge is pending: the screen ends at once and cleanly
# (under the sanitizers a job left behind would be a leak on stderr).
cat > "$TMP/stuck.json" <<'EOF'
{"default": {"delay_ms": 3600000, "content": "late"}}
EOF
fake_llm_start stuck "$TMP/stuck.json"
screen_conf judge4.yaml "$PORT"
SCREEN_CONFIG=judge4.yaml
rm -f "$CACHE"
run_screen judge-quit-pending 'J'
assert_rc "quitting while a judge is pending exits 0" 0
screen_has judge-quit-pending "4 appr               judging..."
assert_eq "quitting while pending caches nothing" "$(lines_of "$CACHE")" 0

# ---- two judges: the menu --------------------------------------------------------

cat > "$TMP/helpful.txt" <<'EOF'
=== system
You grade the answers of a support agent.
=== user
RUN={{run_id}};
Request: {{input}}
Answer: {{output}}
Give a score from {{min}} to {{max}}.
EOF
cat > "$TMP/fast.json" <<EOF
{"rules": [
 {"match": {"body_contains": "Explain a score for a person"}, "content": "Two of the three calls served the request."},
 {"match": {"body_contains": "RUN=en-pass;"}, "content": {"score": 4, "reason": "Clear."}},
 {"match": {"body_contains": "tool_appropriateness"}, "content": $EVALS}
], "default": {"status": 418, "raw": "no rule for this request"}}
EOF
fake_llm_start fast "$TMP/fast.json"
screen_conf judge3.yaml "$PORT" "  - id: helpful
    rubric: custom
    model: openai/judge-model
    base_url: http://127.0.0.1:$PORT/v1
    prompt_file: helpful.txt
    scale: {min: 1, max: 5, pass: 3}"
SCREEN_CONFIG=judge3.yaml
rm -f "$CACHE"
run_screen judge-one 'J
:save-display %D/judge-menu.screen
2
:wait'
check_screen judge-menu
screen_has judge-menu "judge: Enter all, 1 appr, 2 helpful:"
check_screen judge-one
screen_has judge-one "4 appr               J asks"
screen_has judge-one "5 helpful         4  pass"
assert_eq "menu: a digit asks that judge only" "$(lines_of "$TMP/fast.log")" 1
assert_grep "menu: ... the custom judge" "$TMP/fast.log" 'RUN=en-pass;'
assert_no_grep "menu: ... not the other" "$TMP/fast.log" 'tool_appropriateness'

rm -f "$CACHE"
run_screen judge-all 'J<Enter>
:wait'
screen_has judge-all "4 appr         0.67  pass"
screen_has judge-all "5 helpful         4  pass"
assert_eq "menu: Enter asks every judge" "$(lines_of "$TMP/fast.log")" 4
run_screen judge-menu-esc 'J<Esc>'
screen_has judge-menu-esc "cancelled"
assert_eq "menu: Esc asks nobody" "$(lines_of "$TMP/fast.log")" 4

# The key reached the server and nothing else.
found=$(grep -rlF -- "$KEY" "$TMP" 2>/dev/null | grep -v '\.log$' | sed "s|^$TMP/||")
assert_eq "the API key is in no file the screen wrote" "$found" ""
assert_grep "(the key went to the server)" "$TMP/fast.log" "Bearer $KEY"

finish
