#!/bin/sh
# summary.sh - one closing line for a finished `make check` in folder $1:
# the test cases that passed and failed, summed over the unit tests
# (cmocka) and the CLI tests (which print lines in the same form), then
# the tests that failed as a whole (from automake's .trs files), which
# include any that died before printing a tally. Exits 1 if any failed.
dir=${1:-.}
passed=$(cat "$dir"/tests/*.log "$dir"/tests/cli/*.log 2>/dev/null |
	sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' | awk '{s+=$1} END {print s+0}')
failed=$(cat "$dir"/tests/*.log "$dir"/tests/cli/*.log 2>/dev/null |
	sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' | awk '{s+=$1} END {print s+0}')
bad=""
for trs in "$dir"/tests/*.trs "$dir"/tests/cli/*.trs; do
	[ -f "$trs" ] || continue
	grep -Eq '^:test-result: (FAIL|ERROR|XPASS)' "$trs" && bad="$bad ${trs#"$dir"/}"
done
echo "test summary for $dir"
echo "tests: $passed passed, $failed failed"
if [ -n "$bad" ]; then
	echo "failing tests:$(printf '%s' "$bad" | sed 's/\.trs\( \|$\)/\1/g')"
	exit 1
fi
[ "$failed" -eq 0 ]
