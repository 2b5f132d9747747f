#!/bin/sh
# settings.sh - settings where people keep them: which configuration files
# are read (--help config), a tcreview.yaml beside the runs, the user's
# config.yaml under the project's, the reviewer's name (the user's file,
# then git's user.name, then $USER), the status line naming the file in
# use, and J explaining in one line that no local model answers.
. "$TCR_SRCDIR/tests/cli/lib.sh"

D="$TCR_SRCDIR/tests/data"
unset http_proxy HTTP_PROXY https_proxy HTTPS_PROXY all_proxy ALL_PROXY
XDG_CONFIG_HOME=$TMP/xdg
# git answers from this test's files only, and finds no repository above $TMP.
GIT_CONFIG_GLOBAL=$TMP/gitconfig GIT_CONFIG_NOSYSTEM=1 GIT_CEILING_DIRECTORIES=$(dirname "$TMP")
export XDG_CONFIG_HOME GIT_CONFIG_GLOBAL GIT_CONFIG_NOSYSTEM GIT_CEILING_DIRECTORIES
: > "$GIT_CONFIG_GLOBAL"
USERCFG=$XDG_CONFIG_HOME/tcreview/config.yaml
mkdir -p "$TMP/work" "$TMP/data" "$XDG_CONFIG_HOME/tcreview"
cp "$D/screen-runs.jsonl" "$D/screen-tasks.jsonl" "$TMP/data/"

# ---- --help config ----------------------------------------------------------
(cd "$TMP/work" && "$TCR_BIN" --help config) > "$TMP/o" 2>"$TMP/err"; RC=$?
assert_rc "--help config exits 0" 0
assert_grep "names the user's file" "$TMP/o" "1. the user's:    $USERCFG (not there)"
assert_grep "says the built-in checks stand in" "$TMP/o" "2. the project's: none: the built-in checks tool-errors and unanswered-calls"
printf 'scorers:\n  - id: beside-check\n    type: tool-errors\n' > "$TMP/data/tcreview.yaml"
printf 'theme: mono\n' > "$USERCFG"
(cd "$TMP/work" && "$TCR_BIN" --help config ../data/screen-runs.jsonl) > "$TMP/o" 2>&1
assert_grep "the user's file read" "$TMP/o" "$USERCFG (read)"
assert_grep "the project's beside the first input" "$TMP/o" "2. the project's: ../data/tcreview.yaml (found beside the first input)"
(cd "$TMP/work" && "$TCR_BIN" --help config ../data) > "$TMP/o" 2>&1
assert_grep "... in it, for a folder" "$TMP/o" "2. the project's: ../data/tcreview.yaml (found beside the first input)"
printf 'scorers:\n  - id: here-check\n    type: unanswered-calls\n' > "$TMP/work/tcreview.yaml"
(cd "$TMP/work" && "$TCR_BIN" --help config ../data/screen-runs.jsonl) > "$TMP/o" 2>&1
assert_grep "the current folder's first" "$TMP/o" "2. the project's: tcreview.yaml (found in the current folder)"
(cd "$TMP/work" && "$TCR_BIN" --help config -c other.yaml x) > "$TMP/o" 2>&1
assert_grep "-c before both" "$TMP/o" "2. the project's: other.yaml (given with -c)"
assert_grep "tcreview --help mentions it" "$( "$TCR_BIN" --help > "$TMP/h"; echo "$TMP/h")" "tcreview --help config"

# ---- which file scores -----------------------------------------------------
(cd "$TMP/work" && "$TCR_BIN" score -o jsonl ../data/screen-runs.jsonl) > "$TMP/o" 2>"$TMP/err"
assert_grep "./tcreview.yaml scores" "$TMP/o" '"scorer":"here-check"'
rm "$TMP/work/tcreview.yaml"
(cd "$TMP/work" && "$TCR_BIN" score -o jsonl ../data/screen-runs.jsonl) > "$TMP/o" 2>"$TMP/err"
assert_grep "else the one beside the runs" "$TMP/o" '"scorer":"beside-check"'
(cd "$TMP/work" && "$TCR_BIN" score -o jsonl ../data) > "$TMP/o" 2>"$TMP/err"
assert_grep "... or in the folder given" "$TMP/o" '"scorer":"beside-check"'
rm "$TMP/data/tcreview.yaml"
(cd "$TMP/work" && "$TCR_BIN" score -o jsonl ../data/screen-runs.jsonl) > "$TMP/o" 2>"$TMP/err"; RC=$?
assert_grep "else the built-in checks" "$TMP/o" '"scorer":"unanswered-calls"'
assert_eq "... on every run" "$(grep -c '"scorer":"tool-errors"' "$TMP/o")" 6

# ---- the user's file --------------------------------------------------------
printf 'theme: light\nscorers:\n  - id: x\n    type: tool-errors\n' > "$USERCFG"
(cd "$TMP/work" && "$TCR_BIN" score ../data/screen-runs.jsonl) > "$TMP/o" 2>"$TMP/err"; RC=$?
assert_rc "a project's section in the user's file: exit 2" 2
assert_grep "... named at its line" "$TMP/err" "$USERCFG:2:1: 'scorers' belongs in a project's tcreview.yaml"
printf 'keys:\n  quit: NoSuchKey\n' > "$USERCFG"
(cd "$TMP/work" && "$TCR_BIN" score ../data/screen-runs.jsonl) > "$TMP/o" 2>"$TMP/err"; RC=$?
assert_rc "a bad key in the user's file: exit 2" 2
assert_grep "... named with its file" "$TMP/err" "$USERCFG:2:9: unknown key name 'NoSuchKey'"
rm -f "$USERCFG"
printf 'reviewer: someone\n' > "$TMP/data/tcreview.yaml"
(cd "$TMP/work" && "$TCR_BIN" score ../data/screen-runs.jsonl) > "$TMP/o" 2>"$TMP/err"; RC=$?
assert_rc "reviewer in a project's file: exit 2" 2
assert_grep "... a person's setting" "$TMP/err" "../data/tcreview.yaml:1:1: 'reviewer' is a person's setting"
rm "$TMP/data/tcreview.yaml"

# ---- the screen ---------------------------------------------------------------
# screen NAME DIR KEYS ARGS...: the screen in script mode in DIR, headless at
# $SCOLS x 30 (120), its last screen in $TMP/NAME.screen; sets RC.
screen() {
	name=$1 dir=$2 keys=$3; shift 3
	printf '%s\n:save-display %s\n' "$keys" "$TMP/$name.screen" > "$TMP/$name.keys"
	(cd "$dir" && HOME="$TMP" LANG=C.UTF-8 LC_ALL=C.UTF-8 TZ=UTC TERM=dumb NO_COLOR=1 \
		LINES=30 COLUMNS="${SCOLS:-120}" TCR_FAKE_NOW=2026-01-15T09:30:00Z TCR_NO_ANIMATION=1 \
		TCR_SCRIPT="$TMP/$name.keys" timeout 300 "$TCR_BIN" "$@" </dev/null \
		>"$TMP/$name.out" 2>"$TMP/$name.err")
	RC=$?
	if [ "$RC" -ne 0 ] || [ -s "$TMP/$name.err" ]; then
		fail "screen $name exits 0 and writes nothing to stderr" "exit $RC" "$(head -c 2000 "$TMP/$name.err")"
	fi
}
shows() { assert_grep "screen $1 shows '$2'" "$TMP/$1.screen" "$2"; }
reviewer_of() { sed -n 's/.*"reviewer": *"\([^"]*\)".*/\1/p' "$1" | tail -1; }
lastline() { tail -1 "$TMP/$1.screen"; }

rm -f "$USERCFG"
SCOLS=240 screen builtin "$TMP/work" '' ../data/screen-runs.jsonl
shows builtin "built-in checks (I writes tcreview.yaml)  no tcreview.yaml here or beside the runs: the built-in checks score them; I writes one proposed for these runs"
shows builtin "tool-errors"
shows builtin "unanswered-calls"

cp "$D/screen.yaml" "$TMP/data/tcreview.yaml"
printf 'theme: mono\n' > "$USERCFG"
screen beside "$TMP/work" '' ../data/screen-runs.jsonl
shows beside "config tcreview.yaml + user"
shows beside "tool-order"

# The reviewer's name: the user's file, then git, then $USER; --reviewer first.
printf 'reviewer: Grace Hopper\n' > "$USERCFG"
printf '[user]\n\tname = Ada Example\n' > "$GIT_CONFIG_GLOBAL"
screen named-user "$TMP/work" 'a' -a "$TMP/a1.jsonl" ../data/screen-runs.jsonl
assert_eq "the user's file names the reviewer" "$(reviewer_of "$TMP/a1.jsonl")" "Grace Hopper"
rm -f "$USERCFG"
screen named-git "$TMP/work" 'a' -a "$TMP/a2.jsonl" ../data/screen-runs.jsonl
assert_eq "else git's user.name" "$(reviewer_of "$TMP/a2.jsonl")" "Ada Example"
: > "$GIT_CONFIG_GLOBAL"
USER=from-env screen named-env "$TMP/work" 'a' -a "$TMP/a3.jsonl" ../data/screen-runs.jsonl
assert_eq "else \$USER" "$(reviewer_of "$TMP/a3.jsonl")" "from-env"
printf 'reviewer: Grace Hopper\n' > "$USERCFG"
screen named-flag "$TMP/work" 'a' -a "$TMP/a4.jsonl" --reviewer qa ../data/screen-runs.jsonl
assert_eq "--reviewer before all" "$(reviewer_of "$TMP/a4.jsonl")" "qa"

# The user's judges join the project's scorers on the screen.
printf 'judges:\n  - id: mine\n    rubric: tool-appropriateness\n    model: ollama/llama3.2\n' > "$USERCFG"
screen user-judge "$TMP/work" '' ../data/screen-runs.jsonl
shows user-judge "mine"
shows user-judge "J asks"

# ---- J and a local model that is not running -------------------------------------
# A port nothing listens on: ask the kernel for a free one, then let it go.
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])' 2>/dev/null || echo 1)
printf 'judges:\n  - id: local\n    rubric: tool-appropriateness\n    model: ollama/llama3.2\n    base_url: http://127.0.0.1:%s/v1\n' "$PORT" > "$USERCFG"
# At 80 columns: the status line says it in full, the row says "unreached", and
# the row's details (Enter) say how to start it, in full.
SCOLS=80 screen ollama-down "$TMP/work" 'J' ../data/screen-runs.jsonl
assert_grep "J without Ollama: the status line says which judge, in full at 80 columns" \
	"$TMP/ollama-down.screen" "local could not be reached (its row says why)"
shows ollama-down "unreached"
SCOLS=80 screen ollama-down-row "$TMP/work" 'J
<Tab><Tab>G<Enter>' ../data/screen-runs.jsonl
# verdicts_text NAME: the verdicts pane's text from its title down, its lines
# joined with single spaces (the details wrap at the pane's width).
verdicts_text() {
	python3 -c 'import sys
lines = open(sys.argv[1], encoding="utf-8").read().split("\n")
top = next(i for i, l in enumerate(lines) if "[verdicts]" in l)
col = lines[top].index("[verdicts]")
print(" ".join(" ".join(l[col:].split()) for l in lines[top:-1]))' "$TMP/$1.screen"
}
verdicts_text ollama-down-row > "$TMP/ollama-down-row.text"
assert_grep "... and the row's details say why and how to start it, in full" "$TMP/ollama-down-row.text" \
	"could not be reached: no Ollama answers at 127.0.0.1:$PORT. Start it (\`ollama serve\`, then \`ollama pull llama3.2\`), or set OPENAI_API_KEY or ANTHROPIC_API_KEY and add a judge for it (\`tcreview init\` writes one)"

# The demo's own judge is on localhost:11434: when nothing listens there, J says so
# and the demo goes on.
rm -f "$USERCFG"
listening() { python3 -c 'import socket,sys; socket.create_connection(("127.0.0.1", int(sys.argv[1])), 1)' "$1" 2>/dev/null; }
if ! command -v python3 >/dev/null 2>&1; then
	skip "demo: J without Ollama" "python3 is needed to see whether localhost:11434 is free"
elif listening 11434; then
	skip "demo: J without Ollama" "something listens on localhost:11434 here"
else
	screen demo-j "$TMP/work" 'J'
	shows demo-j "second-opinion could not be reached (its row says why)"
	shows demo-j "unreached"
	shows demo-j "tool-order"
	screen demo-j-row "$TMP/work" 'J
<Tab><Tab>G<Enter>'
	verdicts_text demo-j-row > "$TMP/demo-j-row.text"
	assert_grep "the demo's J: the judge's row says how to start Ollama" "$TMP/demo-j-row.text" \
		"could not be reached: no Ollama answers at localhost:11434. Start it (\`ollama serve\`, then \`ollama pull llama3.2\`)"
fi

finish
