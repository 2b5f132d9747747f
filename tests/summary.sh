#!/bin/sh
# summary.sh - one closing line for a finished `make check` in folder $1:
# the test cases that passed and failed, summed over the unit tests
# (cmocka) and the CLI tests (which print lines in the same form).
dir=${1:-.}
passed=$(cat "$dir"/tests/*.log "$dir"/tests/cli/*.log 2>/dev/null |
	sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' | awk '{s+=$1} END {print s+0}')
failed=$(cat "$dir"/tests/*.log "$dir"/tests/cli/*.log 2>/dev/null |
	sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' | awk '{s+=$1} END {print s+0}')
echo "test summary for $dir"
echo "tests: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
