#!/bin/sh
# screen_layout.sh - the transcript gets the screen (issue 25): a file of
# one run (a Claude Code session, a Codex rollout, a SWE-agent trajectory)
# gives the timeline the terminal's width, z gives the focused pane the
# whole screen, and the timeline's title is never cut inside a number. In
# script mode, as screen.sh; the real samples are read from the shared
# folder (copied into the test's own folder, so the paths the screen shows
# are the same everywhere) and skipped when it is absent.
. "$TCR_SRCDIR/tests/cli/lib.sh"
. "$TCR_SRCDIR/tests/cli/screen_lib.sh"

# tl_share NAME COLS: the timeline's width in percent of COLS, read from
# where its title starts in the dump (the list's title before it is ASCII).
tl_share() {
	awk -v c="$2" 'i = index($0, "[timeline]") { print int((c - (i - 1)) * 100 / c); found = 1; exit }
		END { if (!found) print 0 }' "$TMP/$1.screen"
}

# at_least NAME COLS PERCENT WHAT
at_least() {
	got=$(tl_share "$1" "$2")
	if [ "$got" -ge "$3" ]; then pass "$4: the timeline has $got% of the width (at least $3%)"
	else fail "$4: the timeline has $got% of the width, not at least $3%" "$(cat "$TMP/$1.screen")"; fi
}

# title_whole NAME: the timeline's title in the dump is whole: its count
# of entries, its position and, zoomed, the way back, each in a whole form
# or not at all.
title_whole() {
	t=$(sed -n 's/.*\(\[timeline\].*\)$/\1/p' "$TMP/$1.screen" | sed 's/[[:blank:]]*$//')
	if printf '%s\n' "$t" | grep -Eq '^\[timeline\]( [0-9]+ entr(y|ies))?(,? ?(lines [0-9]+-[0-9]+ of [0-9]+|[0-9]+-[0-9]+/[0-9]+))?(,? ?zoomed(: z to return)?)?$'; then
		pass "screen $1: the timeline's title is whole ($t)"
	else
		fail "screen $1: the timeline's title is whole" "it reads '$t'"
	fi
}

# ---- zoom on the fixture's runs -----------------------------------------

run_screen zoom-list 'z'
at_least zoom-list 80 0 "z on the list"
screen_has zoom-list "[runs] 6 runs"
if grep -qF "[timeline]" "$TMP/zoom-list.screen"; then
	fail "z on the list hides the other panes" "$(cat "$TMP/zoom-list.screen")"
else
	pass "z on the list hides the other panes"
fi
run_screen zoom-timeline '<Tab>
z'
at_least zoom-timeline 80 90 "z on the timeline at 80x24"
run_screen zoom-tab '<Tab>
z
<Tab>'
screen_has zoom-tab "[verdicts]"
if grep -qF "[timeline]" "$TMP/zoom-tab.screen"; then
	fail "zoomed, Tab moves the zoom to the verdicts" "$(cat "$TMP/zoom-tab.screen")"
else
	pass "zoomed, Tab moves the zoom to the verdicts"
fi
run_screen zoom-back '<Tab>
z
z'
if cmp -s "$TMP/zoom-back.screen" "$TMP/zoom-timeline.screen"; then
	fail "z again gives the panes back" "$(cat "$TMP/zoom-back.screen")"
else
	screen_has zoom-back "[runs] 6 runs"
fi

# ---- one run in a file: the real samples --------------------------------

R="${TCR_SHARED_DIR:-}/fixtures/real/wild"
cat > "$TMP/layout.yaml" <<'YAML'
scorers:
  - id: errors
    type: tool-errors
  - id: pairs
    type: unanswered-calls
YAML
SCREEN_CONFIG=layout.yaml

# one_run TAG FILE: the sample at 80x24 and 120x40, the timeline at 70% or
# more of the width; with GOLDEN=1 both screens are golden ones.
one_run() {
	tag=$1 file=$2
	if [ ! -f "$R/$file" ]; then
		skip "one run: $file" "not found (set TCR_SHARED_DIR to the shared reference folder)"
		return
	fi
	base=$(basename "$file")
	cp "$R/$file" "$TMP/$base"
	for size in 80x24 120x40; do
		SCREEN_COLS=${size%x*} SCREEN_LINES=${size#*x}
		run_screen "one-run-$tag-$size" '' "$base"
		at_least "one-run-$tag-$size" "$SCREEN_COLS" 70 "one run ($tag) at $size"
		title_whole "one-run-$tag-$size"
		[ "${GOLDEN:-}" = 1 ] && check_screen "one-run-$tag-$size"
	done
	SCREEN_COLS=80 SCREEN_LINES=24
}

GOLDEN=1 one_run claude-code claude-code/spotter-short.jsonl
one_run codex codex-rollout/rollout-2026-01-02T18-39-45-019b7f94-51b4-7593-922e-ba12b5b73b52.jsonl
one_run swe-agent swe-agent-traj/function_calling_simple.traj

# Zoomed on a long rollout: the title says where it is, whole.
CODEX=codex-rollout/rollout-2026-05-11T11-26-55-019e1625-789d-76c0-80ab-3724b5ddb799.jsonl
if [ -f "$R/$CODEX" ]; then
	cp "$R/$CODEX" "$TMP/rollout.jsonl"
	for size in 80x24 120x40; do
		SCREEN_COLS=${size%x*} SCREEN_LINES=${size#*x}
		run_screen "zoom-codex-$size" '<Tab>
z
<PgDn>
<PgDn>' rollout.jsonl
		at_least "zoom-codex-$size" "$SCREEN_COLS" 90 "z on a Codex rollout at $size"
		title_whole "zoom-codex-$size"
		screen_has "zoom-codex-$size" "zoomed: z to return"
		check_screen "zoom-codex-$size"
	done
	SCREEN_COLS=80 SCREEN_LINES=24
	# Two runs: the timeline is 44 columns wide, its title says briefly
	# where it is rather than cut a number.
	CODEX2=codex-rollout/rollout-2026-01-02T18-39-45-019b7f94-51b4-7593-922e-ba12b5b73b52.jsonl
	cp "$R/$CODEX2" "$TMP/rollout2.jsonl"
	run_screen title-narrow '<Tab>
<End>' rollout.jsonl rollout2.jsonl
	title_whole title-narrow
	if grep -Eq '\[timeline\] [0-9]+ entries, [0-9]+-[0-9]+/[0-9]+$' "$TMP/title-narrow.screen"; then
		pass "at the end of a long run the position is said briefly (FROM-TO/LINES)"
	else
		fail "at the end of a long run the position is said briefly (FROM-TO/LINES)" "$(cat "$TMP/title-narrow.screen")"
	fi
else
	skip "zoom on a Codex rollout" "not found (set TCR_SHARED_DIR to the shared reference folder)"
fi
finish
