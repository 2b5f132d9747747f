#!/bin/sh
# tmux_values.sh - the colours of code, drawn in a real terminal: tmux runs
# the screen in colour on tests/data/values-code.jsonl (a Codex-style
# apply_patch, a JSON result holding lines, a Claude Code Edit) and the test
# reads the pane back with its escapes (capture-pane -e): added lines in
# the theme's diff-add colour, removed in diff-del, hunk and file headers in
# theirs, keys and values in different colours, and the + and - on every
# changed line. Every wait polls for what the pane shows, bounded by a
# minute: a guard against a hang, never a measure of time.
. "$TCR_SRCDIR/tests/cli/lib.sh"

. "$TCR_SRCDIR/tests/cli/tmux_lib.sh"
tmux_setup "the colours of code in tmux" values
unset NO_COLOR
cp "$TCR_SRCDIR/tests/data/values-code.jsonl" "$TMP/"
printf 'scorers:\n  - id: tool-errors\n    type: tool-errors\n' > "$TMP/values.yaml"

# start NAME [ENV]: the screen in colour in a detached 100x40 session NAME.
start() {
	cat > "$TMP/$1.sh" <<EOF
cd "$TMP" || exit 1
env TERM=$PANE_TERM TZ=UTC HOME="$TMP" ${2:-} "$TCR_BIN" -c values.yaml -a $1.annot.jsonl \
	--reviewer qa values-code.jsonl
echo "EXITED \$?"
EOF
	tmux_spawn "$1" 100 40
}




start code
if ! $T has-session -t code 2>/dev/null; then
	skip "the colours of code in tmux" "tmux could not start a server here"
	finish
fi
expect code "the patch shows line by line" "*** Begin Patch"
# Unfold both calls: Tab to the timeline (on the user's message), down to
# the first call, Enter; down past the next message's head, Enter.
$T send-keys -t code Tab j j Enter
expect code "Enter unfolds the patch" "*** End Patch"
$T send-keys -t code j j Enter
expect code "and the Edit" "+    sum += a[i];"
# The dark theme: diff-add bright green (92), diff-del colour 210, hunk
# headers bright cyan (96) and bold, file headers yellow (33) and bold,
# keys colour 117, numbers 180, strings the default colour.
sgr_has code "an added line in the diff-add colour" "+long y = 2;" 92
sgr_has code "a removed line in the diff-del colour" "-int y = 2;" "38;5;210"
sgr_has code "a hunk header in the diff-hunk colour" "@@ int main(void)" 96
sgr_has code "a file header in the diff-file colour" "*** Update File: src/app.c" 33
sgr_has code "a key in the json-key colour" '"metadata":' "38;5;117"
sgr_has code "a number in the json-number colour" "4711" "38;5;180"
expect code "a result that is JSON text shows its lines" "M src/app.c"
expect code "an Edit's old line after its -" "-for (i = 0; i <= n; i++)"
expect code "and its new line after its +" "+for (i = 0; i < n; i++)"
sgr_has code "the Edit's old lines removed" "-for (i = 0; i <= n; i++)" "38;5;210"
sgr_has code "its new lines added" "+for (i = 0; i < n; i++)" 92
$T send-keys -t code q
expect code "q quits" "EXITED 0"

# NO_COLOR: no colour at all, and the + and - still tell the lines apart.
start mono NO_COLOR=1
expect mono "the patch shows without colour" "*** Begin Patch"
$T send-keys -t mono Tab j j Enter
expect mono "without colour the removed line keeps its -" "-int y = 2;"
expect mono "and the added line its +" "+long y = 2;"
if $T capture-pane -e -p -t mono | grep -qF "38;5;"; then
	fail "NO_COLOR draws no 256-colour escape" "$($T capture-pane -e -p -t mono | cat -v)"
else
	pass "NO_COLOR draws no 256-colour escape"
fi
$T send-keys -t mono q
expect mono "q quits without colour" "EXITED 0"

finish
