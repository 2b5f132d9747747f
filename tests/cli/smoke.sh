#!/bin/sh
# smoke.sh - the screen opens real transcripts, draws and exits, in every
# theme, with and without colour (under the sanitizers in CI), as htop's
# CI does with -n.
. "$TCR_SRCDIR/tests/cli/lib.sh"
export LANG=C.UTF-8 LINES=30 COLUMNS=100 TCREVIEW_DATADIR="$TCR_SRCDIR"
for theme in dark light mono; do
	for term in dumb xterm-256color xterm; do
		TERM=$term "$TCR_BIN" --max-iterations 30 --theme "$theme" -a "$TMP/a.jsonl" < /dev/null > "$TMP/out" 2> "$TMP/err"
		RC=$?
		assert_rc "demo, theme $theme, TERM=$term" 0
	done
done
NO_COLOR=1 TERM=xterm-256color "$TCR_BIN" --max-iterations 30 -a "$TMP/a.jsonl" < /dev/null > "$TMP/out" 2> "$TMP/err"
RC=$?
assert_rc "NO_COLOR" 0
TERM=xterm-256color "$TCR_BIN" --max-iterations 30 --theme nope -a "$TMP/a.jsonl" < /dev/null > "$TMP/out" 2> "$TMP/err"
RC=$?
assert_rc "an unknown theme exits 2" 2
assert_grep "and names it" "$TMP/err" "theme 'nope'"
if [ -d "${TCR_SHARED_DIR:-}/fixtures/real" ]; then
	TERM=dumb "$TCR_BIN" --max-iterations 200 -a "$TMP/b.jsonl" "$TCR_SHARED_DIR/fixtures/real" < /dev/null > "$TMP/out" 2> "$TMP/err"
	RC=$?
	assert_rc "the real public transcripts open" 0
else
	skip "the real public transcripts open" "shared fixtures not found"
fi
finish
