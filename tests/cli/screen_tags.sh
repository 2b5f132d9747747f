#!/bin/sh
# screen_tags.sh - the calibration overlay (K) with a failure mode as a
# criterion, as a person sees it: a code scorer declaring
# `criterion: {tag: wrong-tool, present_when: fail}` is named
# "tag:wrong-tool (lookup)" and measured against the reviewers'
# tags (tests/data/tags-*.jsonl, see tests/test_failmodes.c), its
# confusion in absent/present. Goldens tests/screens/tags-calib-*.screen
# at 80x24 and 120x40. No server.
. "$TCR_SRCDIR/tests/cli/lib.sh"
. "$TCR_SRCDIR/tests/cli/screen_lib.sh"

TCR_NO_ANIMATION=1
export TCR_NO_ANIMATION
cp "$TCR_SRCDIR/tests/data/tags-runs.jsonl" "$TMP/tags-runs.jsonl"
cat > "$TMP/tags.yaml" <<'EOF'
tags:
  - id: wrong-tool
    description: Called a tool that does not fit the request
    absorbs: [bad tool]
scorers:
  - id: lookup
    type: tool-call-accuracy
    expectedTool: get_order
    criterion: {tag: wrong-tool, present_when: fail}
  - id: errs
    type: tool-errors
EOF
SCREEN_CONFIG=tags.yaml
SCREEN_ANNOT=tags.annot.jsonl

for size in 80x24 120x40; do
	SCREEN_COLS=${size%x*} SCREEN_LINES=${size#*x}
	cp "$TCR_SRCDIR/tests/data/tags-annotations.jsonl" "$TMP/$SCREEN_ANNOT"
	name=tags-calib-$SCREEN_COLS
	run_screen "$name" 'K' tags-runs.jsonl
	check_screen "$name"
	screen_has "$name" "> tag:wrong-tool (look"
	screen_has "$name" "scorer:lookup (rows) against human (columns), 5 labelled runs"
	screen_has "$name" "absent"
	screen_has "$name" "present"
	# The failure mode's row holds the figures of tests/cli/stats_tags.sh:
	# five runs against the consensus, agreement 2/5, kappa -2/13, TPR 1/3, TNR 1/2.
	screen_has "$name" "5   0.40  -0.15    n/a   0.33   0.50"
done

# ---- the same on the shared tau-bench sample --------------------------------------
# The configuration tcreview init proposes for it, with a failure mode and
# its reward scorer declaring it (a run that fails its reward shows it).
# qa and lee tag a few runs (one code absorbed, one on a call, one free
# code, notes for runs reviewed without it): against the consensus the
# items are task001-0 (present, present), task001-1 (absent, absent),
# task002-0 (present, absent), task003-0 (present, present), task005-1
# (absent, absent); task000-0 is a tie (qa tagged it, lee did not).
R="${TCR_SHARED_DIR:-}/fixtures/real"
RUNS=taubench_v1_airline_sample.jsonl
EXPECTED=taubench_v1_airline_expected_sample.jsonl
if [ ! -f "$R/$RUNS" ] || [ ! -f "$R/$EXPECTED" ]; then
	skip "the failure mode's calibration on tau-bench" "the shared sample is absent (set TCR_SHARED_DIR to the shared reference folder)"
	finish
fi
mkdir -p "$TMP/tau"
cp "$R/$RUNS" "$R/$EXPECTED" "$TMP/tau/"
(cd "$TMP/tau" && HOME="$TMP" TCR_OLLAMA_URL=http://127.0.0.1:9 "$TCR_BIN" init "$RUNS" "$EXPECTED" \
	> "$TMP/init.out" 2> "$TMP/init.err")
RC=$?
assert_rc "init proposes a configuration for tau-bench with its expected file" 0
sed 's/^    path: reward$/    path: reward\n    criterion: {tag: policy-breach, present_when: fail}/' \
	"$TMP/tau/tcreview.yaml" > "$TMP/tau/tags.yaml"
printf '%s\n' 'tags:' '  - id: policy-breach' "    description: Acted against the airline's policy" \
	'    absorbs: [no confirmation]' >> "$TMP/tau/tags.yaml"
assert_eq "the reward scorer declares the failure mode" \
	"$(grep -c 'criterion: {tag: policy-breach, present_when: fail}' "$TMP/tau/tags.yaml")" 1
tag_line() { # RUN REVIEWER DECISION EXTRA
	printf '{"v":2,"run":"tau1-airline-gpt-4o-%s","decision":"%s",%s"reviewer":"%s","blind":false,"at":"2026-01-02T00:00:00Z"}\n' \
		"$1" "$3" "$4" "$2"
}
{
	tag_line task000-trial0 qa tag '"tag":"policy-breach",'
	tag_line task001-trial0 qa tag '"tag":"No  Confirmation","call":2,'
	tag_line task001-trial1 qa note '"reason":"fine",'
	tag_line task002-trial0 qa note '"reason":"fine",'
	tag_line task005-trial1 qa tag '"tag":"wrong date",'
	tag_line task000-trial0 lee note '"reason":"fine",'
	tag_line task003-trial0 lee tag '"tag":"policy-breach",'
} > "$TMP/tau.annot.jsonl"
SCREEN_CONFIG=tau/tags.yaml
for size in 80x24 120x40; do
	SCREEN_COLS=${size%x*} SCREEN_LINES=${size#*x}
	cp "$TMP/tau.annot.jsonl" "$TMP/$SCREEN_ANNOT"
	name=tau-tags-calib-$SCREEN_COLS
	run_screen "$name" 'Kjj' "tau/$RUNS"
	check_screen "$name"
	screen_has "$name" "scorer:reward (rows) against human (columns), 5 labelled runs"
	screen_has "$name" "> tag:policy-breach (r"
	# agreement 4/5; present by the machine 3/5, by the humans 2/5: chance
	# 0.6*0.4 + 0.4*0.6 = 0.48, kappa 0.32/0.52 = 0.62; TPR 2/2, TNR 2/3.
	screen_has "$name" "5   0.80   0.62    n/a   1.00   0.67"
	screen_has "$name" "1 tie (no consensus)"
done
SCREEN_COLS=80 SCREEN_LINES=24

finish
