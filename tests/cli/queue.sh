#!/bin/sh
# queue.sh - the review queue (--queue) as a person sees it: the order of
# the list under uncertain, a sampled queue in the status line, the
# weight and queue a label records, and stats' weighted figures and labels
# to go; goldens of the calibration pane with a weighted criterion at 80x24
# and 120x40 (tests/screens/queue-*.screen). A 1..5 judge at the local fake
# server (tests/fake_llm.c) answers each run once. Talks only to 127.0.0.1.
. "$TCR_SRCDIR/tests/cli/lib.sh"
. "$TCR_SRCDIR/tests/cli/screen_lib.sh"

fake_llm_need

unset http_proxy HTTP_PROXY https_proxy HTTPS_PROXY all_proxy ALL_PROXY OPENAI_BASE_URL
no_proxy='*' NO_PROXY='*'
OPENAI_API_KEY=sk-tcr-queue-DUMMY-26d1
TCR_NO_ANIMATION=1
export no_proxy NO_PROXY OPENAI_API_KEY TCR_NO_ANIMATION

# The judge passes at 3; its distance from the threshold on 0..1 is
# |score - 3| / 4: ja-fail 0, zh-refund .25, en-pass .5, esc-codes .5.
cat > "$TMP/grades.json" <<'EOF'
{"rules": [
 {"match": {"body_contains": "call_en-pass_0"}, "content": {"score": 5, "status": "completed", "reason": "Found the parcel."}},
 {"match": {"body_contains": "call_ja-fail_0"}, "content": {"score": 3, "status": "completed", "reason": "Promised to check."}},
 {"match": {"body_contains": "call_zh-refund_0"}, "content": {"score": 4, "status": "completed", "reason": "Refunded."}},
 {"match": {"body_contains": "call_esc-codes_0"}, "content": {"score": 1, "status": "completed", "reason": "Codes pasted in."}}
], "default": {"status": 418, "raw": "no rule for this request"}}
EOF
fake_llm_start grades "$TMP/grades.json"
TOOLS='[{name: get_order, description: looks an order up}, {name: track_parcel, description: tracks a parcel}, {name: refund_order, description: refunds an order}]'
{
	cat "$TMP/screen.yaml"
	printf 'judges:\n  - id: helpful\n    rubric: tool-call-accuracy-1to5\n    model: openai/judge-model\n'
	printf '    base_url: http://127.0.0.1:%s/v1\n    tools: %s\n' "$PORT" "$TOOLS"
} > "$TMP/queue.yaml"
SCREEN_CONFIG=queue.yaml
rm -f "$TMP/screen-runs.jsonl.judgements.jsonl"

# ---- the judge answers each run once (cached for every later screen) ----------

run_screen queue-judged 'J
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
assert_eq "every run with calls was judged once" "$(wc -l < "$TMP/grades.log" | tr -d ' ')" 4

# ---- uncertain: nearest the threshold first, runs without a verdict after ------

run_screen queue-uncertain '<C-l>' --queue uncertain screen-runs.jsonl
screen_has queue-uncertain "queue uncertain 1/6"
# the list's rows top down, as a person reads them
order=$(grep -oE '(en-pass|ja-fail|zh-refund|esc-codes|no-task|jsonl:6)' "$TMP/queue-uncertain.screen" | awk '!seen[$0]++' | tr '\n' ' ')
assert_eq "uncertain: the list's order" "$order" "ja-fail zh-refund en-pass esc-codes no-task jsonl:6 "

# ---- a sample of 2 with unequal chances; a label records queue and weight ------

# ja-fail (size 1) is certain; the others share 1 by their sizes
run_screen queue-sampled '<C-l>' --queue uncertain --sample 2 --seed 3 screen-runs.jsonl
screen_has queue-sampled "queue uncertain 1/2 (sampled, weighted)"
screen_has queue-sampled ">  ja-fail"
run_screen queue-sampled-label '<C-l>
1' --queue uncertain --sample 2 --seed 3 screen-runs.jsonl
assert_grep "the label records its queue" "$ANNOT" '"queue":"uncertain"'
assert_grep "the label on the certain run weighs 1" "$ANNOT" '"weight":1,'

# ---- random: equal chances, the default seed said ----------------------------------

run_screen queue-random '<C-l>' --queue random --sample 3 screen-runs.jsonl
screen_has queue-random "queue random 1/3 (sampled)"
run_screen queue-random-again '<C-l>' --queue random --sample 3 screen-runs.jsonl
assert_eq "random: the same seed draws the same runs" \
	"$(grep -oE '(en-pass|ja-fail|zh-refund|esc-codes|no-task)' "$TMP/queue-random-again.screen" | awk '!seen[$0]++' | tr '\n' ' ')" \
	"$(grep -oE '(en-pass|ja-fail|zh-refund|esc-codes|no-task)' "$TMP/queue-random.screen" | awk '!seen[$0]++' | tr '\n' ' ')"

# ---- stats with weighted labels: the figures say so, and the labels to go -------

# Labels as a sampled queue writes them (weights 1/pi), on lookup: en-pass
# pass (weight 3), ja-fail pass (1), zh-refund fail (1), esc-codes fail (4);
# Kish's effective n (3+1+1+4)^2 / (9+1+1+16) = 3.
W=$TMP/weighted.annot.jsonl
: > "$W"
i=0
for l in 'en-pass 1 3' 'ja-fail 1 1' 'zh-refund 0 1' 'esc-codes 0 4'; do
	set -- $l
	i=$((i + 1))
	printf '{"v":2,"run":"%s","source":"screen-runs.jsonl:%d","scorer":"lookup","decision":"override","score":%s,"reviewer":"qa","weight":%s,"queue":"uncertain","at":"2026-01-0%dT00:00:00Z"}\n' \
		"$1" "$i" "$2" "$3" "$i" >> "$W"
done
(cd "$TMP" && run_tcr "$TMP/wstats.out" "$TMP/wstats.err" stats -c queue.yaml --criterion lookup \
	-o jsonl --bootstrap 0 -a "$W" screen-runs.jsonl)
assert_rc "stats on weighted labels: exit 0" 0
assert_grep "jsonl: weighted" "$TMP/wstats.out" '"weighted":true'
assert_grep "jsonl: labels to go" "$TMP/wstats.out" '"labels_to_go":'
assert_grep "jsonl: the target width" "$TMP/wstats.out" '"target_width":0.1'
(cd "$TMP" && run_tcr "$TMP/wtable.out" "$TMP/wtable.err" stats -c queue.yaml --criterion lookup \
	-o table --bootstrap 0 --target-width 0.2 -a "$W" screen-runs.jsonl)
assert_rc "stats table: exit 0" 0
assert_grep "table: the corrected rate says weighted" "$TMP/wtable.out" "(Rogan-Gladen, weighted)"
assert_grep "table: the weighting and its effective n" "$TMP/wtable.out" "effective n 3.0 of 4"
assert_grep "table: labels to go for ±0.1" "$TMP/wtable.out" "labels to go: ≈ "
assert_grep "table: labels to go for ±0.1" "$TMP/wtable.out" "more for ±0.1 "
run_tcr "$TMP/tw.out" "$TMP/tw.err" stats --target-width 2 "$TMP/screen-runs.jsonl"
assert_rc "--target-width 2 is a usage error" 2
assert_grep "--target-width says why" "$TMP/tw.err" "is not a width in (0, 1]"

# ---- the calibration pane: a weighted criterion and its labels to go ----------------

SCREEN_ANNOT=weighted.annot.jsonl
run_screen queue-calib '<C-l>
K
j' --queue uncertain screen-runs.jsonl
check_screen queue-calib
screen_has queue-calib "4 w"
screen_has queue-calib "labels to go: ≈ "
screen_has queue-calib "weighted by the queue's chances (1/pi): effective n 3.0 of 4 labels"
SCREEN_COLS=120 SCREEN_LINES=40
run_screen queue-calib-120 '<C-l>
K
j' --queue uncertain screen-runs.jsonl
check_screen queue-calib-120
SCREEN_COLS=80 SCREEN_LINES=24
SCREEN_ANNOT=

# ---- usage ------------------------------------------------------------------------

run_tcr "$TMP/q.out" "$TMP/q.err" review --queue sometimes "$TMP/screen-runs.jsonl"
assert_rc "--queue sometimes is a usage error" 2
assert_grep "--queue names the queues" "$TMP/q.err" "is not a queue (uncertain, disagree, errors, random)"
run_tcr "$TMP/q.out" "$TMP/q.err" review --sample 3 "$TMP/screen-runs.jsonl"
assert_rc "--sample without --queue is a usage error" 2
run_tcr "$TMP/q.out" "$TMP/q.err" review --queue random --sample 0 "$TMP/screen-runs.jsonl"
assert_rc "--sample 0 is a usage error" 2
# A queue that could order nothing says why before the screen opens.
printf 'scorers:\n  - {id: reward, type: record-field, path: reward, scale: binary}\n' > "$TMP/nojudge.yaml"
echo q > "$TMP/quit.keys"
unfit() { # NAME QUEUE: the screen asked for that queue on nojudge.yaml
	(cd "$TMP" && TERM=dumb TCR_SCRIPT=quit.keys "$TCR_BIN" -c nojudge.yaml --queue "$2" \
		screen-runs.jsonl) > "$TMP/$1.out" 2> "$TMP/$1.err"
	RC=$?
	cp "$TMP/$1.err" "$TMP/err"
}
unfit no-tool-errors errors
assert_rc "--queue errors without a tool-errors scorer: exit 3" 3
assert_grep "and it says why" "$TMP/no-tool-errors.err" \
	"tcreview: --queue errors: it puts first the runs a tool-errors scorer fails, and the configuration has none"
unfit no-judge uncertain
assert_rc "--queue uncertain without a judge: exit 3" 3
assert_grep "and it says why" "$TMP/no-judge.err" \
	"tcreview: --queue uncertain: it puts first the runs whose judge scores are nearest the threshold, and the configuration has no judge"
run_tcr "$TMP/rhelp.out" "$TMP/rhelp.err" review --help
assert_grep "review --help names --queue" "$TMP/rhelp.out" "--queue KIND"

finish
