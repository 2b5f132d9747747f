#!/bin/sh
# first_steps.sh - a new user's first ten minutes, as the README's quick start
# gives them: `tcreview init FILE && tcreview FILE` on every shared real sample
# that tcreview reads (with its ground truth beside it where the sample has
# one; on a sample no format reads, init exits 3 saying where to look), and, with no configuration at all, the screen's own offer: I writes
# the proposal and the screen reloads on it. Each screen is driven in script
# mode and read as a person would: the configuration named on the status
# line, a verdict row per proposed check, nothing on standard error.
. "$TCR_SRCDIR/tests/cli/lib.sh"

unset OPENAI_API_KEY ANTHROPIC_API_KEY AZURE_OPENAI_API_KEY AZURE_OPENAI_ENDPOINT
XDG_CONFIG_HOME=$TMP/xdg
# No local model answers these tests, whatever runs on this machine.
TCR_OLLAMA_URL=http://127.0.0.1:1
export XDG_CONFIG_HOME TCR_OLLAMA_URL

# screen NAME DIR KEYS ARGS...: the screen in script mode in DIR, 200x40; its
# last screen in $TMP/NAME.screen (SCOLS: another width).
screen() {
	name=$1 dir=$2 keys=$3; shift 3
	printf '%s\n:save-display %s\n' "$keys" "$TMP/$name.screen" > "$TMP/$name.keys"
	(cd "$dir" && HOME="$TMP" LANG=C.UTF-8 LC_ALL=C.UTF-8 TZ=UTC TERM=dumb NO_COLOR=1 \
		LINES=40 COLUMNS="${SCOLS:-200}" TCR_NO_ANIMATION=1 TCR_SCRIPT="$TMP/$name.keys" \
		timeout 300 "$TCR_BIN" "$@" </dev/null >"$TMP/$name.out" 2>"$TMP/$name.err")
	RC=$?
	if [ "$RC" -eq 0 ] && [ ! -s "$TMP/$name.err" ]; then
		pass "screen $name exits 0 and writes nothing to stderr"
	else
		fail "screen $name exits 0 and writes nothing to stderr" "exit $RC" "$(head -c 2000 "$TMP/$name.err")"
	fi
}
shows() { assert_grep "screen $1 shows '$2'" "$TMP/$1.screen" "$2"; }
hides() { assert_no_grep "screen $1 does not show '$2'" "$TMP/$1.screen" "$2"; }

# ---- I on the screen, with no configuration -------------------------------------
mkdir -p "$TMP/fresh"
cp "$TCR_SRCDIR/tests/data/screen-runs.jsonl" "$TMP/fresh/runs.jsonl"
SCOLS=260 screen fresh-before "$TMP/fresh" '' runs.jsonl
shows fresh-before "built-in checks (I writes tcreview.yaml)"
shows fresh-before "tool-errors"
# One record of the six is broken on purpose: five runs are read.
SCOLS=260 screen fresh-i "$TMP/fresh" 'I' runs.jsonl
shows fresh-i "config tcreview.yaml  wrote tcreview.yaml from 5 runs and loaded it: 2 scorers, 0 judges; \`tcreview init --force RUNS TRUTH\` also joins a ground-truth file"
if [ -f "$TMP/fresh/tcreview.yaml" ]; then pass "I wrote ./tcreview.yaml"; else fail "I wrote ./tcreview.yaml"; fi
run_tcr "$TMP/o" "$TMP/err" score -c "$TMP/fresh/tcreview.yaml" -o jsonl "$TMP/fresh/runs.jsonl"
case $RC in 0|1) pass "what I wrote loads and scores (exit $RC)" ;; *) fail "what I wrote loads and scores" "exit $RC" "$(cat "$TMP/err")" ;; esac
# Then the file is in use: I does not write over it, and says which file is.
cp "$TMP/fresh/tcreview.yaml" "$TMP/fresh/before.yaml"
screen fresh-again "$TMP/fresh" 'I' runs.jsonl
shows fresh-again "tcreview.yaml is in use; \`tcreview init -o FILE\` on the command line proposes another"
if cmp -s "$TMP/fresh/tcreview.yaml" "$TMP/fresh/before.yaml"; then pass "I leaves a file in use alone"; else fail "I leaves a file in use alone"; fi
# Decisions made before I are read back after it, and the reviewer goes on
# from the run they were on (A moved to the second).
rm -f "$TMP/fresh/tcreview.yaml" "$TMP/fresh/runs.jsonl.annotations.jsonl"
screen fresh-decide "$TMP/fresh" 'AI' runs.jsonl
shows fresh-decide "reviewed 1 of 6"
shows fresh-decide "run 2 of 6"
rm -f "$TMP/fresh/tcreview.yaml"
screen fresh-moved "$TMP/fresh" 'jjI' runs.jsonl
shows fresh-moved "run 4 of 6"
assert_eq "the decision was saved once" "$(grep -c '"decision"' "$TMP/fresh/runs.jsonl.annotations.jsonl")" 2

# A folder with a link back to itself: the walk says so once, before the screen
# starts; I's new look at the inputs does not write over the screen.
mkdir -p "$TMP/looped/runs"
cp "$TCR_SRCDIR/tests/data/screen-runs.jsonl" "$TMP/looped/runs/"
ln -s . "$TMP/looped/runs/loop"
printf 'I\n:save-display %s\n' "$TMP/looped.screen" > "$TMP/looped.keys"
(cd "$TMP/looped" && HOME="$TMP" LANG=C.UTF-8 LC_ALL=C.UTF-8 TERM=dumb NO_COLOR=1 LINES=30 \
	COLUMNS=240 TCR_SCRIPT="$TMP/looped.keys" timeout 300 "$TCR_BIN" runs </dev/null \
	>"$TMP/looped.out" 2>"$TMP/looped.err"); RC=$?
assert_rc "a looped folder: the screen exits 0" 0
assert_eq "... the loop is reported once, before the screen" "$(grep -c 'a link back to a folder already read' "$TMP/looped.err")" 1
assert_eq "... and nothing else is on stderr" "$(wc -l < "$TMP/looped.err" | tr -d ' ')" 1
shows looped "wrote tcreview.yaml from 5 runs and loaded it"

# ---- init, then the screen, on every shared sample tcreview reads -----------------
R="${TCR_SHARED_DIR:-}/fixtures/real"
if [ ! -d "$R" ]; then
	skip "init and the screen on the real samples" "not found (set TCR_SHARED_DIR to the shared reference folder)"
	finish
fi
n=0
# first_steps NAME FILE [TRUTH]: the quick start's two commands in a folder of
# their own holding a copy of FILE (and of its ground truth).
first_steps() {
	name=$1 file=$2 truth=${3:-}
	n=$((n + 1))
	dir=$TMP/s$n
	mkdir -p "$dir"
	base=$(basename "$file")
	cp "$file" "$dir/$base"
	set -- "$base"
	if [ -n "$truth" ]; then cp "$truth" "$dir/"; set -- "$base" "$(basename "$truth")"; fi
	(cd "$dir" && "$TCR_BIN" init "$@") > "$TMP/$name.init" 2>&1; RC=$?
	assert_rc "init $name exits 0" 0
	assert_grep "init $name names the next command, as it was run" "$TMP/$name.init" "next: $TCR_BIN $base"
	screen "$name" "$dir" '' "$base"
	shows "$name" "config tcreview.yaml"
	shows "$name" "tool-errors"
	hides "$name" "no scorers configured"
}
unread=0
for f in "$R"/*.jsonl "$R"/wild/*/*; do
	b=$(basename "$f")
	# tcreview's own files a user's review may have left beside a sample are
	# no sample.
	case $b in
	README.md|*.py|*_expected_sample.jsonl|bfcl_sample.jsonl) continue ;;
	*.annotations.jsonl|*.judgements.jsonl) continue ;;
	esac
	# A sample no format reads yet: init says so and where to look.
	"$TCR_BIN" formats "$f" > /dev/null 2>&1
	if [ $? -eq 3 ]; then
		unread=$((unread + 1))
		(cd "$TMP" && "$TCR_BIN" init -o "$TMP/unread.yaml" "$f") > "$TMP/unread.out" 2>&1; RC=$?
		assert_rc "init $b: no format reads it: exit 3" 3
		assert_grep "init $b: says where to look" "$TMP/unread.out" "tcreview formats $f says why"
		continue
	fi
	truth=
	case $b in
	taubench_v1_airline_sample.jsonl) truth=$R/taubench_v1_airline_expected_sample.jsonl ;;
	tau2_sample.jsonl) truth=$R/tau2_expected_sample.jsonl ;;
	esac
	first_steps "$(echo "$b" | tr -c 'A-Za-z0-9_.\n-' '_')" "$f" "$truth"
done
# The ground truth joined: the reference scorers are on the screen too.
shows taubench_v1_airline_sample.jsonl "trajectory-match"
shows tau2_sample.jsonl "trajectory-match"
echo "samples no format reads: $unread"
finish
