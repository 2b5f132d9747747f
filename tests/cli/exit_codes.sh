#!/bin/sh
# exit_codes.sh - 0 done, 1 --fail-under not met, 2 usage/config, 3 input.
. "$TCR_SRCDIR/tests/cli/lib.sh"
D="$TCR_SRCDIR/tests/data"

run_tcr "$TMP/o" "$TMP/err" score -c "$D/mini.yaml" --fail-under 0.3 "$D/mini-runs.jsonl"
assert_rc "fail-under met exits 0" 0
run_tcr "$TMP/o" "$TMP/err" score -c "$D/mini.yaml" --fail-under 0.9 "$D/mini-runs.jsonl"
assert_rc "fail-under missed exits 1" 1
assert_grep "fail-under names the scorer" "$TMP/err" "order: mean score 0.500 is under 0.9"
run_tcr "$TMP/o" "$TMP/err" score -c "$D/mini.yaml" --fail-under abc "$D/mini-runs.jsonl"
assert_rc "bad --fail-under exits 2" 2
run_tcr "$TMP/o" "$TMP/err" score --bogus
assert_rc "unknown option exits 2" 2
run_tcr "$TMP/o" "$TMP/err" score -c "$D/mini.yaml" -o xml "$D/mini-runs.jsonl"
assert_rc "unknown output exits 2" 2
assert_grep "unknown output is named" "$TMP/err" "unknown output 'xml'"
run_tcr "$TMP/o" "$TMP/err" score -c "$D/mini.yaml" --format nope "$D/mini-runs.jsonl"
assert_rc "unknown format exits 2" 2

printf 'scorers:\n  - id: a\n    type: tool-call-accuracy\n    expectedTool: [x]\n' > "$TMP/bad.yaml"
run_tcr "$TMP/o" "$TMP/err" score -c "$TMP/bad.yaml" "$D/mini-runs.jsonl"
assert_rc "wrong type in YAML exits 2" 2
assert_grep "YAML error has FILE:LINE:COLUMN" "$TMP/err" "$TMP/bad.yaml:4:19: "
assert_eq "no work is done on a YAML error" "$(wc -c < "$TMP/o" | tr -d ' ')" 0
printf 'scorers:\n  - id: a\n    type: nope\n' > "$TMP/bad2.yaml"
run_tcr "$TMP/o" "$TMP/err" score -c "$TMP/bad2.yaml" "$D/mini-runs.jsonl"
assert_rc "unknown scorer type exits 2" 2
assert_grep "unknown scorer type is named" "$TMP/err" "$TMP/bad2.yaml:3:11: unknown scorer type 'nope'"
printf 'scorers:\n  - id: a\n    type: tool-call-accuracy\n' > "$TMP/bad3.yaml"
run_tcr "$TMP/o" "$TMP/err" score -c "$TMP/bad3.yaml" "$D/mini-runs.jsonl"
assert_rc "a scorer Mastra could not create exits 2" 2
assert_grep "the factory message is shown" "$TMP/err" "Either expectedTool or expectedToolOrder must be provided"
run_tcr "$TMP/o" "$TMP/err" score -c "$TMP/missing.yaml" "$D/mini-runs.jsonl"
assert_rc "a missing config exits 2" 2

run_tcr "$TMP/o" "$TMP/err" score -c "$D/mini.yaml" "$TMP/nothing-here.jsonl"
assert_rc "an unreadable input exits 3" 3
assert_grep "the unreadable input is named" "$TMP/err" "$TMP/nothing-here.jsonl: No such file or directory"
run_tcr "$TMP/o" "$TMP/err" score -c "$D/mini.yaml" --expect "$TMP/none.jsonl" "$D/mini-runs.jsonl"
assert_rc "an unreadable expectations file exits 3" 3

# without -c, ./tcreview.yaml is used
mkdir -p "$TMP/cwd"
cp "$D/mini.yaml" "$D/mini-tasks.jsonl" "$TMP/cwd/"
mv "$TMP/cwd/mini.yaml" "$TMP/cwd/tcreview.yaml"
(cd "$TMP/cwd" && "$TCR_BIN" score -o jsonl "$D/mini-runs.jsonl" > "$TMP/o" 2>"$TMP/err"); RC=$?
assert_rc "tcreview.yaml in the current folder is read" 0
assert_eq "and scores" "$(wc -l < "$TMP/o" | tr -d ' ')" 9
(cd "$TMP" && "$TCR_BIN" score -o jsonl "$D/mini-runs.jsonl" > "$TMP/o" 2>"$TMP/err"); RC=$?
case $RC in 0|1) pass "no configuration at all: the built-in checks score (exit $RC)" ;;
*) fail "no configuration at all: the built-in checks score" "exit status $RC" "$(cat "$TMP/err")" ;; esac
assert_eq "every run scored by them" "$(grep -c '"tool-errors"' "$TMP/o")" 3
assert_eq "... both of them" "$(grep -c '"unanswered-calls"' "$TMP/o")" 3
# a configuration with no scorer still says so
printf 'judges: []\n' > "$TMP/noscorers.yaml"
run_tcr "$TMP/o" "$TMP/err" score -c "$TMP/noscorers.yaml" "$D/mini-runs.jsonl"
assert_rc "a configuration without scorers exits 2" 2
assert_grep "... and says so" "$TMP/err" "no scorers configured"

run_tcr "$TMP/o" "$TMP/err" --version
assert_rc "--version exits 0" 0
assert_grep "--version names jansson" "$TMP/o" "jansson 2."
assert_grep "--version names libyaml" "$TMP/o" "libyaml 0."
assert_grep "--version names libcurl" "$TMP/o" "libcurl "
assert_grep "--version names ncurses" "$TMP/o" "ncurses "
assert_eq "--version names ncurses once" "$(grep -c 'ncurses ncurses' "$TMP/o")" 0
for lib in simdjson utf8proc libzip nettle; do
	assert_grep "--version names $lib" "$TMP/o" "$lib "
done
run_tcr "$TMP/o" "$TMP/err" score --help
assert_rc "score --help exits 0" 0
assert_grep "score --help shows usage" "$TMP/o" "usage: tcreview score"
run_tcr "$TMP/o" "$TMP/err" score --help formats
assert_grep "--help formats lists the loaders" "$TMP/o" "tau2"
run_tcr "$TMP/o" "$TMP/err" --help
assert_rc "--help exits 0" 0
assert_grep "--help names the help topics" "$TMP/o" "tcreview --help formats"
run_tcr "$TMP/o" "$TMP/err" --help bogus
assert_rc "--help on an unknown topic exits 2" 2
assert_grep "... and says so" "$TMP/err" "no help on 'bogus'"
assert_grep "... listing the topics" "$TMP/err" "keys, config, formats"
assert_eq "... with nothing on stdout" "$(wc -c < "$TMP/o" | tr -d ' ')" 0
run_tcr "$TMP/o" "$TMP/err" --help formats
assert_rc "--help formats exits 0" 0
assert_grep "--help formats lists the loaders (the malformed message points there)" "$TMP/o" "tau2"
run_tcr "$TMP/o" "$TMP/err" --help stats
assert_rc "--help COMMAND exits 0" 0
assert_grep "--help COMMAND is the command's help" "$TMP/o" "usage: tcreview stats"
run_tcr "$TMP/o" "$TMP/err" help keys
assert_rc "help keys exits 0" 0
assert_grep "help keys lists the keys" "$TMP/o" "accept"
run_tcr "$TMP/o" "$TMP/err" -c "$D/mini.yaml" "$D/mini-runs.jsonl"
assert_rc "tcreview -c FILE RUNS off a terminal exits 2" 2
assert_grep "and suggests tcreview score" "$TMP/err" "tcreview score"
run_tcr "$TMP/o" "$TMP/err" frobnicate
assert_rc "an unknown command exits 2" 2

# an input none of whose records could be read is not "done"
printf '{"foo": 1}\n{"bar": 2}\n' > "$TMP/other.jsonl"
run_tcr "$TMP/o" "$TMP/err" score -c "$D/mini.yaml" -o jsonl "$D/mini-runs.jsonl" "$TMP/other.jsonl"
assert_rc "an input of which nothing could be read exits 3" 3
assert_grep "and says which, with its count" "$TMP/err" \
  "tcreview score: $TMP/other.jsonl: none of its 2 records could be read (see tcreview score --help formats)"
assert_eq "the other input is still scored" "$(grep -c '"run":"pass-1"' "$TMP/o")" 3
printf '{"foo": 1}\n' > "$TMP/half.jsonl"
cat "$D/mini-runs.jsonl" >> "$TMP/half.jsonl"
run_tcr "$TMP/o" "$TMP/err" score -c "$D/mini.yaml" -o jsonl "$TMP/half.jsonl"
assert_rc "an input with some records read exits 0" 0
: > "$TMP/empty.jsonl"
run_tcr "$TMP/o" "$TMP/err" score -c "$D/mini.yaml" -o jsonl "$TMP/empty.jsonl"
assert_rc "an empty input (nothing to read) exits 0" 0
finish
