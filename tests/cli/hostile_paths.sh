#!/bin/sh
# hostile_paths.sh - a shared configuration names only files inside its own
# folder: a judge's prompt_file or the expectations' file that resolves
# outside it (by "..", by an absolute path, by a link inside that points
# out) is refused at the key's FILE:LINE:COLUMN by every command that reads
# a configuration, before anything is read or sent; --allow-path PATH lets
# the user allow a file or a folder outside. A theme is named, never a
# path. Files named on the command line (--expect) are the user's own.
. "$TCR_SRCDIR/tests/cli/lib.sh"
D="$TCR_SRCDIR/tests/data"
mkdir "$TMP/shared" "$TMP/shared/sub" "$TMP/other"
cp "$D"/mini-runs.jsonl "$TMP/shared/runs.jsonl"
cp "$D"/mini-tasks.jsonl "$TMP/tasks.jsonl"
cp "$D"/mini-tasks.jsonl "$TMP/shared/tasks.jsonl"
printf '=== user\nRate {{input}}. SECRET-TEXT-OUTSIDE\n' > "$TMP/secret.txt"
printf '=== user\nRate {{input}}.\n' > "$TMP/shared/inside.txt"
ln -s ../secret.txt "$TMP/shared/link.txt"
ln -s shared/inside.txt "$TMP/in-link.txt"
ln -s ../tasks.jsonl "$TMP/other/tasks-link.jsonl"
: > "$TMP/shared/runs.jsonl.annotations.jsonl"
export OPENAI_API_KEY=sk-test-never-written

# tcr NAME ARGS...: the binary run from $TMP, bounded; stdout and stderr in
# $TMP/NAME.out and $TMP/NAME.err, the status in $RC.
tcr() {
	name=$1; shift
	(cd "$TMP" && timeout 120 "$TCR_BIN" "$@" </dev/null >"$TMP/$name.out" 2>"$TMP/$name.err")
	RC=$?
}

# refused NAME MESSAGE ARGS...: exit 2 with MESSAGE on stderr.
refused() {
	name=$1 msg=$2; shift 2
	tcr "$name" "$@"
	if [ "$RC" -eq 2 ]; then pass "$name: exit 2"; else
		fail "$name: exit 2" "exit status $RC" "$(head -c 2000 "$TMP/$name.err")"; fi
	assert_grep "$name: says where and why" "$TMP/$name.err" "$msg"
}

# taken NAME ARGS...: exit 0.
taken() {
	name=$1; shift
	tcr "$name" "$@"
	if [ "$RC" -eq 0 ]; then pass "$name: exit 0"; else
		fail "$name: exit 0" "exit status $RC" "$(head -c 2000 "$TMP/$name.err")"; fi
}

# prompt_yaml NAME FILE: shared/NAME.yaml, one judge prompted by FILE (its
# endpoint is never reached: --batch-out writes the requests instead).
prompt_yaml() {
	printf 'judges:\n  - id: j\n    rubric: custom\n    model: openai/m\n    base_url: http://127.0.0.1:9/v1\n    prompt_file: %s\n    scale: {min: 0, max: 10, pass: 6}\nscorers:\n  - id: words\n    type: word-inclusion\n' \
		"$2" > "$TMP/shared/$1.yaml"
}
HINT="resolves outside the configuration's folder (use --allow-path PATH to allow it)"

# ---- a judge's prompt_file -------------------------------------------------

prompt_yaml up ../secret.txt
refused prompt-up "shared/up.yaml:6:18: prompt_file '../secret.txt' $HINT" \
	judge -c shared/up.yaml --batch-out batch-up.jsonl shared/runs.jsonl
if [ -e "$TMP/batch-up.jsonl" ]; then fail "prompt-up: no request is written" "$(head -c 500 "$TMP/batch-up.jsonl")"
else pass "prompt-up: no request is written"; fi
# Every command that reads a configuration refuses it, the screen too.
refused prompt-up-score "shared/up.yaml:6:18: prompt_file '../secret.txt' $HINT" \
	score -c shared/up.yaml shared/runs.jsonl
refused prompt-up-stats "shared/up.yaml:6:18: prompt_file '../secret.txt' $HINT" \
	stats -c shared/up.yaml shared/runs.jsonl
refused prompt-up-export "shared/up.yaml:6:18: prompt_file '../secret.txt' $HINT" \
	export -c shared/up.yaml shared/runs.jsonl
refused prompt-up-formats "shared/up.yaml:6:18: prompt_file '../secret.txt' $HINT" \
	formats -c shared/up.yaml shared/runs.jsonl
printf 'q\n' > "$TMP/keys"
(cd "$TMP" && TCR_SCRIPT="$TMP/keys" timeout 120 "$TCR_BIN" -c shared/up.yaml -a a.jsonl \
	shared/runs.jsonl </dev/null >"$TMP/prompt-up-screen.out" 2>"$TMP/prompt-up-screen.err")
RC=$?
assert_rc "prompt-up-screen: exit 2" 2
assert_grep "prompt-up-screen: says where and why" "$TMP/prompt-up-screen.err" \
	"shared/up.yaml:6:18: prompt_file '../secret.txt' $HINT"

prompt_yaml abs "$TMP/secret.txt"
refused prompt-absolute "shared/abs.yaml:6:18: prompt_file '$TMP/secret.txt' $HINT" \
	score -c shared/abs.yaml shared/runs.jsonl
prompt_yaml link link.txt
refused prompt-link-out "shared/link.yaml:6:18: prompt_file 'link.txt' $HINT" \
	score -c shared/link.yaml shared/runs.jsonl
prompt_yaml deep sub/../../secret.txt
refused prompt-dotdot-deep "prompt_file 'sub/../../secret.txt' $HINT" \
	score -c shared/deep.yaml shared/runs.jsonl
# A file the configuration names by its absolute path inside its folder is inside.
prompt_yaml absin "$TMP/shared/inside.txt"
taken prompt-absolute-inside score -c shared/absin.yaml shared/runs.jsonl
prompt_yaml in inside.txt
taken prompt-inside score -c shared/in.yaml shared/runs.jsonl
# Out and back in through a link outside that points in: inside.
prompt_yaml back ../in-link.txt
taken prompt-link-in score -c shared/back.yaml shared/runs.jsonl
# A missing file is not found, whether or not it would be outside.
prompt_yaml missing ../nope.txt
refused prompt-missing "nope.txt: No such file or directory" score -c shared/missing.yaml shared/runs.jsonl
assert_no_grep "prompt-missing: not called outside" "$TMP/prompt-missing.err" "outside"

# --allow-path: the file, or a folder above it; another folder allows nothing.
taken prompt-allow-file judge -c shared/up.yaml --allow-path secret.txt \
	--batch-out batch-allowed.jsonl shared/runs.jsonl
assert_grep "prompt-allow-file: the allowed prompt is used" "$TMP/batch-allowed.jsonl" "SECRET-TEXT-OUTSIDE"
taken prompt-allow-folder score -c shared/up.yaml --allow-path . shared/runs.jsonl
taken prompt-allow-link score -c shared/link.yaml --allow-path "$TMP/secret.txt" shared/runs.jsonl
taken prompt-allow-abs stats -c shared/abs.yaml --allow-path other --allow-path "$TMP" shared/runs.jsonl
taken prompt-allow-export export -c shared/up.yaml --allow-path secret.txt shared/runs.jsonl
taken prompt-allow-formats formats -c shared/up.yaml --allow-path secret.txt shared/runs.jsonl
refused prompt-allow-other "shared/up.yaml:6:18: prompt_file '../secret.txt' $HINT" \
	score -c shared/up.yaml --allow-path other shared/runs.jsonl
refused allow-missing "--allow-path nothere: No such file or directory" \
	score -c shared/up.yaml --allow-path nothere shared/runs.jsonl

# ---- the expectations' file ------------------------------------------------

exp_yaml() {
	printf 'expectations:\n  file: %s\n  match: {run: task_id, expected: task_id}\nscorers:\n  - id: words\n    type: word-inclusion\n' \
		"$2" > "$TMP/shared/$1.yaml"
}
exp_yaml eup ../tasks.jsonl
refused exp-up "shared/eup.yaml:2:9: file '../tasks.jsonl' $HINT" score -c shared/eup.yaml shared/runs.jsonl
exp_yaml eabs "$TMP/tasks.jsonl"
refused exp-absolute "shared/eabs.yaml:2:9: file '$TMP/tasks.jsonl' $HINT" \
	score -c shared/eabs.yaml shared/runs.jsonl
taken exp-allow score -c shared/eup.yaml --allow-path tasks.jsonl shared/runs.jsonl
exp_yaml ein tasks.jsonl
taken exp-inside score -c shared/ein.yaml shared/runs.jsonl
# --expect names the user's own file, wherever it is.
taken exp-flag-outside score -c shared/ein.yaml --expect "$TMP/tasks.jsonl" shared/runs.jsonl
taken exp-flag-link score -c shared/ein.yaml --expect other/tasks-link.jsonl shared/runs.jsonl

# ---- a theme ---------------------------------------------------------------

# theme: is a name looked up in the program's own themes folder, never a
# path, so a configuration cannot reach a file with it.
printf 'theme: ../secret\n' > "$TMP/shared/theme.yaml"
refused theme-path "shared/theme.yaml:1:8: invalid theme name '../secret'" \
	score -c shared/theme.yaml shared/runs.jsonl
refused theme-path-allowed "shared/theme.yaml:1:8: invalid theme name '../secret'" \
	score -c shared/theme.yaml --allow-path . shared/runs.jsonl
printf 'theme: %s\n' "$TMP/secret.txt" > "$TMP/shared/theme-abs.yaml"
refused theme-absolute "shared/theme-abs.yaml:1:8: invalid theme name" \
	score -c shared/theme-abs.yaml shared/runs.jsonl

finish
