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

finish
