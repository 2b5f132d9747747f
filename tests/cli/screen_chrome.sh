#!/bin/sh
# screen_chrome.sh - what frames the transcript, on the shared tau-bench
# sample with its expected file as `tcreview init` proposes them: the help
# in sections, the filter menu and the list's "N of 12 runs", the status
# line with a long message and the message log (M), and the calibration
# pane's criterion names shown whole at 120 columns; at 80x24 and 120x40.
# Skipped when the shared samples are absent.
. "$TCR_SRCDIR/tests/cli/lib.sh"
. "$TCR_SRCDIR/tests/cli/screen_lib.sh"

R="${TCR_SHARED_DIR:-}/fixtures/real"
RUNS=taubench_v1_airline_sample.jsonl
EXPECTED=taubench_v1_airline_expected_sample.jsonl
if [ ! -f "$R/$RUNS" ] || [ ! -f "$R/$EXPECTED" ]; then
	skip "the screen's frame on tau-bench" "the shared sample is absent (set TCR_SHARED_DIR to the shared reference folder)"
	finish
fi
mkdir -p "$TMP/tau"
cp "$R/$RUNS" "$R/$EXPECTED" "$TMP/tau/"
(cd "$TMP/tau" && HOME="$TMP" TCR_OLLAMA_URL=http://127.0.0.1:9 "$TCR_BIN" init "$RUNS" "$EXPECTED" \
	> "$TMP/init.out" 2> "$TMP/init.err")
RC=$?
assert_rc "init proposes a configuration for tau-bench with its expected file" 0
SCREEN_CONFIG=tau/tcreview.yaml

# both NAME KEYS: the screen at 80x24 and at 120x40 (NAME-80, NAME-120).
both() {
	SCREEN_COLS=80 SCREEN_LINES=24
	run_screen "$1-80" "$2" "tau/$RUNS"
	check_screen "$1-80"
	SCREEN_COLS=120 SCREEN_LINES=40
	run_screen "$1-120" "$2" "tau/$RUNS"
	check_screen "$1-120"
	SCREEN_COLS=80 SCREEN_LINES=24
}

both tau-main ''
for s in 80 120; do
	screen_has "tau-main-$s" "run 1 of 12"
	screen_has "tau-main-$s" "? help"
done

# ---- the help ----------------------------------------------------------------
both tau-help '?'
screen_has tau-help-80 "[help] Moving  lines 1-22 of"
screen_has tau-help-80 "↓ more"
screen_has tau-help-80 "Shift-Tab"
both tau-help-files '?<Tab><Tab><Tab><Tab><Tab><Tab>'
screen_has tau-help-files-120 "[help] Files  lines"
screen_has tau-help-files-120 " Mouse"
screen_has tau-help-files-120 "wheel"
for f in tau-help-80 tau-help-120 tau-help-files-80 tau-help-files-120; do
	if grep -qF BTab "$TMP/$f.screen"; then fail "screen $f never says BTab" "$(cat "$TMP/$f.screen")"
	else pass "screen $f never says BTab"; fi
done

# ---- the filter menu and the list's title --------------------------------------
both tau-filter-menu 'f'
screen_has tau-filter-menu-80 "│ a  all  ← in use"
screen_has tau-filter-menu-80 "│ f  failing"
both tau-filter-failing 'ff'
screen_has tau-filter-failing-120 "of 12 runs"

# ---- a long message and the log ------------------------------------------------
both tau-message-cut 'I'
screen_has tau-message-cut-80 "run 1 of 12"
screen_has tau-message-cut-80 "… (M: messages)  ? help"
both tau-messages 'IM'
screen_has tau-messages-80 "[messages] 1 kept, newest last"
screen_has tau-messages-120 "tau/tcreview.yaml is in use; \`tcreview init -o FILE\` on the command line proposes another"

# ---- the calibration pane ------------------------------------------------------
both tau-calib 'K'
screen_has tau-calib-120 "  scorer:trajectory:info.task.actions  "
screen_has tau-calib-120 "  scorer:tool-order:expected_tools  "
screen_has tau-calib-120 "– undefined on these labels (why: below the matrix)   n/a does not apply to this scale"
finish
