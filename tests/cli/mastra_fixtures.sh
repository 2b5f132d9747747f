#!/bin/sh
# mastra_fixtures.sh - the documentation's examples through the command
# line, with the options of each line taken from its `config`.
. "$TCR_SRCDIR/tests/cli/lib.sh"
F="${TCR_SHARED_DIR:-}/fixtures/mastra"
if [ ! -f "$F/mastra_1x_seed_examples.jsonl" ]; then
	skip "mastra fixtures" "not found (set TCR_SHARED_DIR to the shared reference folder)"
	finish
fi
for v in 1x 0x; do
	run_tcr "$TMP/out" "$TMP/err" score -c "$TCR_SRCDIR/tests/data/mastra-options.yaml" -o jsonl "$F/mastra_${v}_seed_examples.jsonl"
	assert_rc "$v: exits 0" 0
	assert_eq "$v: scores in order" "$(sed -n 's/.*"score":\([0-9a-z]*\),.*/\1/p' "$TMP/out" | tr '\n' ' ')" "1 1 0 1 1 0 "
	# The expected file writes JSON with spaces; compare with them removed.
	exp=$(sed -n 's/.*"preprocessStepResult": \(.*\)}$/\1/p' "$F/mastra_${v}_seed_examples.expected.jsonl" | sed 's/": /":/g; s/, "/,"/g; s/, {/,{/g' )
	got=$(sed -n 's/.*"details":\(.*\),"error":null}$/\1/p' "$TMP/out")
	assert_eq "$v: details are preprocessStepResult, keys in order" "$got" "$exp"
done
# --format forces one version's rules: 0.x lines read as 1.x find no calls
run_tcr "$TMP/out" "$TMP/err" score -c "$TCR_SRCDIR/tests/data/mastra-options.yaml" --format mastra-1x -o jsonl "$F/mastra_0x_seed_examples.jsonl"
assert_rc "--format mastra-1x exits 0" 0
assert_eq "--format mastra-1x on 0.x lines finds no calls" "$(grep -c '"actualTools":\[\]' "$TMP/out")" 6
run_tcr "$TMP/out" "$TMP/err" score -c "$TCR_SRCDIR/tests/data/mastra-options.yaml" --format mastra-0x -o jsonl "$F/mastra_0x_seed_examples.jsonl"
assert_eq "--format mastra-0x on 0.x lines scores as detected" "$(sed -n 's/.*"score":\([0-9a-z]*\),.*/\1/p' "$TMP/out" | tr '\n' ' ')" "1 1 0 1 1 0 "
# runs: {format: NAME} in the YAML does the same
{ cat "$TCR_SRCDIR/tests/data/mastra-options.yaml"; printf 'runs:\n  format: mastra-1x\n'; } > "$TMP/forced.yaml"
run_tcr "$TMP/out" "$TMP/err" score -c "$TMP/forced.yaml" -o jsonl "$F/mastra_0x_seed_examples.jsonl"
assert_eq "runs.format forces the loader" "$(grep -c '"actualTools":\[\]' "$TMP/out")" 6
finish
