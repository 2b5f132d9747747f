#!/bin/sh
# screen_values.sh - code reads as code, on the shared real samples: a
# SWE-agent file insert, a Claude Code Edit, a Claude Code Write and a Codex
# apply_patch unfolded in the timeline, at 80x24 and 120x40 (and the
# project's own tests/data/values-code.jsonl, which is always there). Their
# arguments and outputs show line by line, with no \n or \" escapes, and
# the patch and the edit keep their + and - (the colours themselves are
# checked in tests/cli/tmux_values.sh). Goldens in
# tests/screens/values-*.screen; skipped when the shared samples are absent.
. "$TCR_SRCDIR/tests/cli/lib.sh"
. "$TCR_SRCDIR/tests/cli/screen_lib.sh"

cp "$TCR_SRCDIR/tests/data/values-code.jsonl" "$TMP/"

# The project's own sample, always there: a Codex-style apply_patch, a
# result that is JSON text holding lines, a Claude Code Edit; both calls
# unfolded.
cat > "$TMP/values.yaml" <<'YAML'
scorers:
  - id: tool-errors
    type: tool-errors
  - id: unanswered-calls
    type: unanswered-calls
YAML
SCREEN_CONFIG=values.yaml
for size in 80x24 120x40; do
	SCREEN_COLS=${size%x*} SCREEN_LINES=${size#*x}
	run_screen "values-code-$size" '<Tab>
jj<Enter>
jj<Enter>' values-code.jsonl
	check_screen "values-code-$size"
done
SCREEN_COLS=80 SCREEN_LINES=24
screen_has values-code-120x40 '"old_string":'
screen_has values-code-120x40 '-for (i = 0; i <= n; i++)'
screen_has values-code-120x40 '+for (i = 0; i < n; i++)'

R="${TCR_SHARED_DIR:-}/fixtures/real/wild"
if [ ! -d "$R" ]; then
	skip "values on the real samples" "not found (set TCR_SHARED_DIR to the shared reference folder)"
	finish
fi

# js N: N presses of j, on one line of the key script.
js() { awk -v n="$1" 'BEGIN { s = ""; for (i = 0; i < n; i++) s = s "j"; print s }'; }

# sample NAME FILE MOVES: the timeline focused, MOVES entries down to a
# call, which lands on the pane's last row; a page down brings it to the
# top, and Enter unfolds it; a golden at 80x24 and one at 120x40. The sample
# is copied into the test's folder, so the screen names it alike everywhere.
sample() {
	# (not name: run_screen's own variables are global)
	v_name=$1 v_file=$2 v_moves=$3
	if [ ! -f "$R/$v_file" ]; then
		skip "values $v_name" "$v_file not found"
		return 0
	fi
	v_base=${v_file##*/}
	# The samples' own scratch paths are renamed, so that no golden holds
	# what reads like a path of the machine that made it.
	sed 's|/tmp/|/scratch/|g' "$R/$v_file" > "$TMP/$v_base"
	v_keys="<Tab>
$(js "$v_moves")
<PgDn>
<Enter>"
	for v_size in 80x24 120x40; do
		SCREEN_COLS=${v_size%x*} SCREEN_LINES=${v_size#*x}
		run_screen "values-$v_name-$v_size" "$v_keys" "$v_base"
		check_screen "values-$v_name-$v_size"
	done
	SCREEN_COLS=80 SCREEN_LINES=24
}

no_escapes() {
	if grep -qF '\n' "$TMP/$1.screen" || grep -qF '\"' "$TMP/$1.screen"; then
		fail "screen $1 shows no escaped newlines or quotes" "$(cat "$TMP/$1.screen")"
	else
		pass "screen $1 shows no escaped newlines or quotes"
	fi
}

sample swe-insert swe-agent-traj/marshmallow-1867__function_calling_replace.traj 4
if [ -f "$TMP/values-swe-insert-120x40.screen" ]; then
	no_escapes values-swe-insert-120x40
	screen_has values-swe-insert-120x40 'from marshmallow.fields import TimeDelta'
	screen_has values-swe-insert-120x40 '2:from marshmallow.fields import TimeDelta'
fi

sample cc-edit claude-code/claude-code-log-representative_messages.jsonl 4
if [ -f "$TMP/values-cc-edit-120x40.screen" ]; then
	no_escapes values-cc-edit-120x40
	screen_has values-cc-edit-120x40 '"new_string":'
	screen_has values-cc-edit-120x40 '+def repeat(times):'
	screen_has values-cc-edit-120x40 '+    def decorator(func):'
fi

sample cc-write claude-code/spotter-subagent.jsonl 27
[ -f "$TMP/values-cc-write-120x40.screen" ] && screen_has values-cc-write-120x40 '"content":'

sample codex-patch codex-rollout/rollout-2026-05-11T11-26-55-019e1625-789d-76c0-80ab-3724b5ddb799.jsonl 188
if [ -f "$TMP/values-codex-patch-120x40.screen" ]; then
	no_escapes values-codex-patch-120x40
	screen_has values-codex-patch-120x40 '*** Begin Patch'
	screen_has values-codex-patch-120x40 "+  describe('Compaction Config', () => {"
fi

finish
