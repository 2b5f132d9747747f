#!/bin/sh
# hostile_files.sh - a path that is not a regular file, or is far too big,
# where the program reads a file whole (the configuration, the expectations,
# a judge's prompt_file, a theme) or opens a transcript or an annotations
# file (-a, for the screen, stats and export): a FIFO, /dev/zero, a folder,
# a sparse file past the cap (/dev/zero named by a configuration is outside its
# folder, so those cases allow it with --allow-path). Each gives a message naming the file, at once:
# every command is bounded by `timeout 120`, so a hang fails (status 124)
# instead of stalling the suite, and /dev/zero runs under a memory limit
# where the build allows one. A symlinked annotations file is followed with
# a warning on stderr.
. "$TCR_SRCDIR/tests/cli/lib.sh"
D="$TCR_SRCDIR/tests/data"
cp "$D"/screen* "$D"/mini* "$TMP"/
mkfifo "$TMP/fifo"
mkdir "$TMP/folder"
# Past each cap by one byte; sparse, so they take no room on the disk.
truncate -s $((16 * 1024 * 1024 + 1)) "$TMP/big.yaml"
truncate -s $((1024 * 1024 * 1024 + 1)) "$TMP/big-tasks.jsonl"

# The sanitizers reserve terabytes of address space, so a memory limit
# is set only where the binary runs under one.
LIMIT_KB=1000000
if (ulimit -v $LIMIT_KB && "$TCR_BIN" --version) >/dev/null 2>&1; then
	limited() { (ulimit -v $LIMIT_KB && exec timeout 120 "$@"); }
else
	limited() { timeout 120 "$@"; }
	skip "memory limit" "the binary does not run under ulimit -v (sanitizers)"
fi

# tcr NAME ARGS...: the binary in $TMP, bounded; stdout and stderr in
# $TMP/NAME.out and $TMP/NAME.err, the status in $RC.
tcr() {
	name=$1; shift
	(cd "$TMP" && limited "$TCR_BIN" "$@" </dev/null >"$TMP/$name.out" 2>"$TMP/$name.err")
	RC=$?
}

# refused NAME WANT_RC MESSAGE ARGS...: the command exits WANT_RC (not 124,
# a hang) and says MESSAGE on stderr.
refused() {
	name=$1 want=$2 msg=$3; shift 3
	tcr "$name" "$@"
	if [ "$RC" -eq "$want" ]; then
		pass "$name: exit $want"
	else
		fail "$name: exit $want" "exit status $RC$([ "$RC" -eq 124 ] && echo ' (timed out: it hung)')" \
			"$(head -c 2000 "$TMP/$name.err")"
	fi
	assert_grep "$name: says why, naming the file" "$TMP/$name.err" "$msg"
}

# ---- the configuration (-c) ----------------------------------------------

refused config-fifo 2 "$TMP/fifo: not a regular file (a FIFO)" score -c "$TMP/fifo" mini-runs.jsonl
refused config-folder 2 "$TMP/folder: not a regular file (a folder)" score -c "$TMP/folder" mini-runs.jsonl
refused config-zero 2 "/dev/zero: not a regular file (a device)" score -c /dev/zero mini-runs.jsonl
refused config-big 2 "$TMP/big.yaml: larger than 16 MB" score -c "$TMP/big.yaml" mini-runs.jsonl
ln -s mini.yaml "$TMP/link.yaml"
tcr config-link score -c link.yaml -o jsonl mini-runs.jsonl
assert_rc "config-link: a symlinked configuration is read" 0

# ---- the expectations file -------------------------------------------------

# exp_yaml NAME FILE: a configuration whose expectations are FILE.
exp_yaml() {
	printf 'expectations:\n  file: %s\n  match: {run: task_id, expected: task_id}\nscorers:\n  - id: words\n    type: word-inclusion\n' \
		"$2" > "$TMP/$1.yaml"
}
exp_yaml exp-fifo fifo
exp_yaml exp-zero /dev/zero
exp_yaml exp-folder folder
exp_yaml exp-big big-tasks.jsonl
refused exp-fifo 3 " fifo: not a regular file (a FIFO)" score -c exp-fifo.yaml mini-runs.jsonl
refused exp-zero 3 "/dev/zero: not a regular file (a device)" score -c exp-zero.yaml --allow-path /dev/zero mini-runs.jsonl
refused exp-folder 3 " folder: not a regular file (a folder)" score -c exp-folder.yaml mini-runs.jsonl
refused exp-big 3 " big-tasks.jsonl: larger than 1 GB" score -c exp-big.yaml mini-runs.jsonl
refused exp-flag-zero 3 "/dev/zero: not a regular file (a device)" score -c mini.yaml --expect /dev/zero mini-runs.jsonl

# ---- a judge's prompt_file -------------------------------------------------

# prompt_yaml NAME FILE: a configuration with one judge prompted by FILE
# (its endpoint is never reached: the prompt is read at load).
prompt_yaml() {
	printf 'judges:\n  - id: j\n    rubric: custom\n    model: openai/m\n    base_url: http://127.0.0.1:9/v1\n    prompt_file: %s\n    scale: {min: 0, max: 10, pass: 6}\n' \
		"$2" > "$TMP/$1.yaml"
}
truncate -s $((16 * 1024 * 1024 + 1)) "$TMP/big-prompt.txt"
prompt_yaml prompt-fifo fifo
prompt_yaml prompt-zero /dev/zero
prompt_yaml prompt-folder folder
prompt_yaml prompt-big big-prompt.txt
refused prompt-fifo 2 " fifo: not a regular file (a FIFO)" judge -c prompt-fifo.yaml mini-runs.jsonl
refused prompt-fifo-score 2 " fifo: not a regular file (a FIFO)" score -c prompt-fifo.yaml mini-runs.jsonl
refused prompt-zero 2 "/dev/zero: not a regular file (a device)" judge -c prompt-zero.yaml --allow-path /dev/zero mini-runs.jsonl
refused prompt-folder 2 " folder: not a regular file (a folder)" judge -c prompt-folder.yaml mini-runs.jsonl
refused prompt-big 2 " big-prompt.txt: larger than 16 MB" judge -c prompt-big.yaml mini-runs.jsonl

# --batch-in (a finished batch's answers, read line by line but held whole)
printf 'hi {{input}}\n' > "$TMP/ok-prompt.txt"
prompt_yaml prompt-ok ok-prompt.txt
truncate -s $((1024 * 1024 * 1024 + 1)) "$TMP/big-batch.jsonl"
refused batch-fifo 3 " fifo: not a regular file (a FIFO)" judge -c prompt-ok.yaml --batch-in fifo mini-runs.jsonl
refused batch-zero 3 "/dev/zero: not a regular file (a device)" judge -c prompt-ok.yaml --batch-in /dev/zero mini-runs.jsonl
refused batch-big 3 " big-batch.jsonl: larger than 1 GB" judge -c prompt-ok.yaml --batch-in big-batch.jsonl mini-runs.jsonl

# ---- a theme ---------------------------------------------------------------

mkdir -p "$TMP/data/themes"
mkfifo "$TMP/data/themes/fifo.theme"
ln -s /dev/zero "$TMP/data/themes/zero.theme"
printf 'a\n' > "$TMP/keys"
for th in fifo zero; do
	(cd "$TMP" && TCREVIEW_DATADIR="$TMP/data" TCR_SCRIPT="$TMP/keys" limited "$TCR_BIN" \
		-c screen.yaml -a "theme-$th.jsonl" --theme $th screen-runs.jsonl \
		</dev/null >"$TMP/theme-$th.out" 2>"$TMP/theme-$th.err")
	RC=$?
	if [ "$RC" -ne 0 ] && [ "$RC" -ne 124 ]; then pass "theme-$th: refused, no hang"; else
		fail "theme-$th: refused, no hang" "exit status $RC" "$(head -c 2000 "$TMP/theme-$th.err")"; fi
done
assert_grep "theme-fifo: says why, naming the file" "$TMP/theme-fifo.err" "$TMP/data/themes/fifo.theme: not a regular file (a FIFO)"
assert_grep "theme-zero: says why, naming the file" "$TMP/theme-zero.err" "$TMP/data/themes/zero.theme: not a regular file (a device)"

# ---- transcripts -----------------------------------------------------------

refused runs-fifo 3 " fifo: not a regular file (a FIFO)" score -c mini.yaml fifo
refused runs-zero 3 "/dev/zero: not a regular file (a device)" score -c mini.yaml /dev/zero
(cd "$TMP" && timeout 120 "$TCR_BIN" score -c mini.yaml -o jsonl - <mini-runs.jsonl >runs-stdin.out 2>runs-stdin.err)
RC=$?
assert_rc "runs-stdin: a pipe is read as -" 0
assert_grep "runs-stdin: its runs are scored" "$TMP/runs-stdin.out" '"scorer":"words"'

# ---- the annotations file (-a) --------------------------------------------

# The screen, in script mode: refused before it starts (nothing drawn).
for kind in fifo zero folder; do
	case $kind in
	fifo) a=fifo; msg=" fifo: not a regular file (a FIFO)" ;;
	zero) a=/dev/zero; msg="/dev/zero: not a regular file (a device)" ;;
	folder) a=folder; msg=" folder: not a regular file (a folder)" ;;
	esac
	(cd "$TMP" && TCR_SCRIPT="$TMP/keys" limited "$TCR_BIN" -c screen.yaml -a "$a" screen-runs.jsonl \
		</dev/null >"$TMP/annot-$kind.out" 2>"$TMP/annot-$kind.err")
	RC=$?
	assert_rc "annot-$kind: the screen refuses it (input error)" 3
	assert_grep "annot-$kind: says why, naming the file" "$TMP/annot-$kind.err" "$msg"
	refused "stats-annot-$kind" 3 "$msg" stats -c screen.yaml -a "$a" screen-runs.jsonl
	refused "export-annot-$kind" 3 "$msg" export -c screen.yaml -a "$a" screen-runs.jsonl
	# a second, read-only -a too
	: > "$TMP/mine-$kind.jsonl"
	refused "stats-annot2-$kind" 3 "$msg" stats -c screen.yaml -a "mine-$kind.jsonl" -a "$a" screen-runs.jsonl
done

# A symlinked annotations file: followed, with a warning naming both.
: > "$TMP/real.jsonl"
ln -s real.jsonl "$TMP/link.jsonl"
printf 'A\n' > "$TMP/accept.keys"
(cd "$TMP" && TCR_SCRIPT="$TMP/accept.keys" timeout 120 "$TCR_BIN" -c screen.yaml -a link.jsonl \
	--reviewer qa screen-runs.jsonl </dev/null >"$TMP/annot-link.out" 2>"$TMP/annot-link.err")
RC=$?
assert_rc "annot-link: the screen follows a symlinked file" 0
assert_grep "annot-link: warns that it is a link and where decisions go" "$TMP/annot-link.err" \
	"warning: link.jsonl is a symbolic link; decisions are written to $(cd "$TMP" && pwd -P)/real.jsonl"
assert_grep "annot-link: the decision is in the file it points to" "$TMP/real.jsonl" '"decision":"accept"'
if [ -L "$TMP/link.jsonl" ]; then pass "annot-link: the link stays a link"; else fail "annot-link: the link stays a link"; fi
tcr stats-link stats -c screen.yaml -a link.jsonl screen-runs.jsonl
assert_rc "stats-link: stats reads through the link" 0
assert_grep "stats-link: with the warning" "$TMP/stats-link.err" \
	"warning: link.jsonl is a symbolic link; decisions are read from $(cd "$TMP" && pwd -P)/real.jsonl"
tcr annot-plain stats -c screen.yaml -a real.jsonl screen-runs.jsonl
assert_no_grep "a plain annotations file: no warning" "$TMP/annot-plain.err" "symbolic link"

finish
