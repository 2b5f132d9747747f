#!/bin/sh
# quick_start.sh - the README's quick start followed in order, in a copy of a
# checkout beside a copy of the shared samples: `./tcreview init SAMPLE TRUTH`
# with the ground truth in another folder, the next command run exactly as
# init prints it (the screen opened and quit), `score` with no flag, a
# decision saved on another sample (and runs in a read-only folder: said
# before the screen starts); then the tests' inputs are as they were
# (opening left no file beside the samples, they are unchanged) and the
# suites that read the samples pass run from that checkout, as `make check`
# would run them after the quick start.
. "$TCR_SRCDIR/tests/cli/lib.sh"

unset OPENAI_API_KEY ANTHROPIC_API_KEY AZURE_OPENAI_API_KEY AZURE_OPENAI_ENDPOINT
TCR_OLLAMA_URL=http://127.0.0.1:1
export TCR_OLLAMA_URL

R="${TCR_SHARED_DIR:-}/fixtures/real"
if [ ! -d "$R" ]; then
	skip "the quick start on the shared samples" "not found (set TCR_SHARED_DIR to the shared reference folder)"
	finish
fi
C=$TMP/checkout
mkdir -p "$C" "$TMP/shared/fixtures"
cp -R "$R" "$TMP/shared/fixtures/real"
ln -s "$TCR_BIN" "$C/tcreview"
S=../shared/fixtures/real
RUNS=$S/taubench_v1_airline_sample.jsonl

# own_files DIR...: tcreview's own files (annotations, judge caches) there.
own_files() {
	find "$@" \( -name '*.annotations.jsonl' -o -name '*.judgements.jsonl' \) -print | sort
}

(cd "$C" && ./tcreview init "$RUNS" "$S/taubench_v1_airline_expected_sample.jsonl") \
	> "$TMP/init.out" 2> "$TMP/err"
RC=$?
assert_rc "./tcreview init SAMPLE TRUTH in the checkout: exit 0" 0
assert_grep "init names the ground truth relatively" "$C/tcreview.yaml" \
	'  file: "../shared/fixtures/real/taubench_v1_airline_expected_sample.jsonl"'
assert_grep "the next command starts as the program was run" "$TMP/init.out" "next: ./tcreview $RUNS"
next=$(sed -n 's/^next: //p' "$TMP/init.out")

# The next command as printed: the screen opens, draws and quits.
printf ':save-display %s\n' "$TMP/next.screen" > "$TMP/next.keys"
(cd "$C" && env HOME="$TMP" LANG=C.UTF-8 LC_ALL=C.UTF-8 TZ=UTC TERM=dumb NO_COLOR=1 LINES=40 \
	COLUMNS=200 TCR_NO_ANIMATION=1 TCR_SCRIPT="$TMP/next.keys" timeout 300 sh -c "$next" \
	< /dev/null > "$TMP/next.out" 2> "$TMP/next.err")
RC=$?
assert_rc "the next command runs as printed" 0
assert_eq "... with nothing on stderr" "$(cat "$TMP/next.err")" ""
assert_grep "... on the configuration init wrote" "$TMP/next.screen" "config tcreview.yaml"
assert_grep "... with the scorers it proposed" "$TMP/next.screen" "trajectory:info.task.actions"
assert_eq "opening and quitting left no file of tcreview's" "$(own_files "$TMP/shared" "$C")" ""
if diff -r "$R" "$TMP/shared/fixtures/real" > "$TMP/diff" 2>&1; then
	pass "the samples are as they were"
else
	fail "the samples are as they were" "$(head -c 2000 "$TMP/diff")"
fi

(cd "$C" && ./tcreview score -o jsonl "$RUNS") > "$TMP/score.out" 2> "$TMP/score.err"
RC=$?
case $RC in 0|1) pass "score RUNS with no flag loads the ground truth (exit $RC)" ;;
*) fail "score RUNS with no flag loads the ground truth" "exit $RC" "$(head -c 2000 "$TMP/score.err")" ;; esac
assert_eq "... a row per run (12) and scorer" "$(wc -l < "$TMP/score.out" | tr -d ' ')" \
	"$((12 * $(grep -c '^  - id:' "$C/tcreview.yaml")))"
assert_eq "... the joined ground truth reached its scorer in every run" \
	"$(grep -c '"scorer":"tool-order:expected_tools","type":"tool-call-accuracy","status":"ok"' "$TMP/score.out")" 12

# A decision saved on another sample: its file is made then, beside it.
printf 'a\n:save-display %s\n' "$TMP/decide.screen" > "$TMP/decide.keys"
mkdir -p "$TMP/elsewhere"
(cd "$TMP/elsewhere" && env HOME="$TMP" LANG=C.UTF-8 TERM=dumb NO_COLOR=1 LINES=40 COLUMNS=200 \
	TCR_NO_ANIMATION=1 TCR_SCRIPT="$TMP/decide.keys" timeout 300 "$C/tcreview" \
	"$TMP/shared/fixtures/real/tau2_sample.jsonl" < /dev/null > "$TMP/decide.out" 2> "$TMP/decide.err")
RC=$?
assert_rc "a decision on another sample: exit 0" 0
A=$TMP/shared/fixtures/real/tau2_sample.jsonl.annotations.jsonl
if [ -f "$A" ]; then pass "the first decision made the annotations file"; else fail "the first decision made the annotations file"; fi
assert_eq "... holding that decision" "$(grep -c '"decision":"accept"' "$A" 2>/dev/null)" 1

# Runs in a folder the reviewer cannot write to: said before the screen
# starts, naming the file and the folder, exit 3, nothing made. (root
# writes anywhere, so as root the screen runs as nobody.)
mkdir -p "$TMP/ro"
cp "$TCR_SRCDIR/tests/data/screen-runs.jsonl" "$TMP/ro/"
chmod 755 "$TMP"
chmod 555 "$TMP/ro"
as_other=
[ "$(id -u)" -eq 0 ] && as_other="setpriv --reuid=65534 --regid=65534 --clear-groups"
if [ -n "$as_other" ] && ! command -v setpriv > /dev/null 2>&1; then
	skip "a read-only folder of runs" "running as root without setpriv to become another user"
else
	(cd "$TMP/elsewhere" && $as_other env HOME="$TMP/elsewhere" XDG_CONFIG_HOME="$TMP/elsewhere" TERM=dumb LINES=30 COLUMNS=100 \
		"$TCR_BIN" --max-iterations 10 "$TMP/ro/screen-runs.jsonl" < /dev/null > "$TMP/ro.out" \
		2> "$TMP/ro.err")
	RC=$?
	assert_rc "a read-only folder of runs: exit 3 before the screen" 3
	assert_eq "... said, naming the file and the folder" "$(cat "$TMP/ro.err")" \
		"tcreview: $TMP/ro/screen-runs.jsonl.annotations.jsonl: cannot be created: the folder $TMP/ro is not writable (Permission denied)"
	assert_eq "... nothing made there" "$(ls "$TMP/ro")" "screen-runs.jsonl"
fi
chmod 755 "$TMP/ro"

# What the quick start leaves (./tcreview.yaml in the checkout, a reviewer's
# annotations beside a sample) changes nothing for the suites that read the
# samples, run from the checkout as make check runs them.
for suite in smoke formats first_steps; do
	(cd "$C" && TCR_SHARED_DIR="$TMP/shared" sh "$TCR_SRCDIR/tests/cli/$suite.sh") \
		> "$TMP/$suite.log" 2>&1
	RC=$?
	if [ "$RC" -eq 0 ]; then
		pass "$suite.sh passes after the quick start ($(sed -n 's/^\[==========\] \([0-9]*\) test(s) run\./\1/p' "$TMP/$suite.log") cases)"
	else
		fail "$suite.sh passes after the quick start" "$(grep -A3 FAILED "$TMP/$suite.log" | head -c 3000)"
	fi
done
finish
