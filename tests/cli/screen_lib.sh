# screen_lib.sh - the review screen driven by a key script, its dumps
# compared with golden files. Source it after tests/cli/lib.sh.
#
#   run_screen NAME KEYSCRIPT [ARGS...]
#       Runs `tcreview -c $SCREEN_CONFIG -a ANNOT --reviewer qa ARGS...` in
#       script mode (TCR_SCRIPT, see src/tui/script.c) with no terminal, so
#       it draws headless at $SCREEN_COLS x $SCREEN_LINES. KEYSCRIPT is the
#       script's text (lines of keys and :commands); "%D" in it stands for
#       the folder the dumps go to, so `:save-display %D/step.screen` saves
#       an intermediate screen that `check_screen step` compares. The
#       screen at the end of the script is saved as %D/NAME.screen. With no
#       ARGS the runs are screen-runs.jsonl. It runs in $TMP, which holds
#       copies of tests/data/screen*, so relative paths name them. The
#       annotations file is $SCREEN_ANNOT (a name in $TMP) when set, else a
#       fresh NAME.annot.jsonl; $ANNOT is its full path.
#       Sets RC; stdout and stderr go to $TMP/NAME.out and $TMP/NAME.err.
#       An exit status other than $SCREEN_RC (default 0), or anything on
#       stderr (a sanitizer report), is a failure.
#       A run longer than $SCREEN_TIMEOUT s (300) is killed (RC 124): a
#       guard against a hang, far past what a loaded machine needs.
#   check_screen NAME
#       Compares $TMP/NAME.screen with tests/screens/NAME.screen, trailing
#       blanks trimmed on both sides; on a mismatch prints a unified diff.
#       TCR_UPDATE_SCREENS=1 (re)writes the golden file instead: read every
#       line of it before committing it.
#
# Everything the screen depends on is pinned: locale, time zone, TERM,
# colours, HOME, the reviewer and the clock of decisions (TCR_FAKE_NOW).

SCREEN_LINES=24
SCREEN_COLS=80
SCREEN_DATA="$TCR_SRCDIR/tests/data"
SCREEN_GOLDEN="$TCR_SRCDIR/tests/screens"
SCREEN_CONFIG=screen.yaml
SCREEN_ANNOT=
SCREEN_NOW=2026-01-15T09:30:00Z
SCREEN_TIMEOUT=300
SCREEN_REVIEWER=qa
# The annotations file of the last run_screen.
ANNOT=
SCREEN_LAST=

if command -v timeout >/dev/null 2>&1; then
	screen_watchdog() { timeout "$SCREEN_TIMEOUT" "$@"; }
else
	screen_watchdog() { "$@"; }
fi

run_screen() {
	name=$1; keys=$2; shift 2
	SCREEN_LAST=$name
	if [ -n "$SCREEN_ANNOT" ]; then
		annot_arg=$SCREEN_ANNOT
	else
		annot_arg="$name.annot.jsonl"
		rm -f "$TMP/$annot_arg"
	fi
	ANNOT="$TMP/$annot_arg"
	[ "$#" -gt 0 ] || set -- screen-runs.jsonl
	rm -f "$TMP/$name.screen"
	# The script's text with %D replaced by the dump folder (awk, so no
	# character of the path is special), then the final dump.
	printf '%s\n' "$keys" | D="$TMP" awk '{ s = $0; o = "";
		while ((i = index(s, "%D")) > 0) { o = o substr(s, 1, i - 1) ENVIRON["D"]; s = substr(s, i + 2) }
		print o s }' > "$TMP/$name.keys"
	printf ':save-display %s\n' "$TMP/$name.screen" >> "$TMP/$name.keys"
	(
		cd "$TMP" || exit 1
		HOME="$TMP" LANG=C.UTF-8 LC_ALL=C.UTF-8 TZ=UTC TERM=dumb NO_COLOR=1 \
		LINES="$SCREEN_LINES" COLUMNS="$SCREEN_COLS" TCR_FAKE_NOW="$SCREEN_NOW" \
		TCR_SCRIPT="$TMP/$name.keys" \
			screen_watchdog "$TCR_BIN" -c "$SCREEN_CONFIG" -a "$annot_arg" \
				--reviewer "$SCREEN_REVIEWER" "$@" </dev/null >"$TMP/$name.out" 2>"$TMP/$name.err"
	)
	RC=$?
	if [ "$RC" -eq 124 ]; then
		fail "screen $name: the script ends" "killed by the ${SCREEN_TIMEOUT}s watchdog" "$(head -c 2000 "$TMP/$name.err")"
	elif [ "$RC" -ne "${SCREEN_RC:-0}" ] || [ -s "$TMP/$name.err" ]; then
		# a sanitizer's report, or a crash, shows here
		fail "screen $name: the screen exits ${SCREEN_RC:-0} and writes nothing to stderr" \
			"exit status $RC" "$(head -c 3000 "$TMP/$name.err")"
	fi
	return 0
}

screen_trim() { sed 's/[[:blank:]]*$//' "$1"; }

check_screen() {
	name=$1
	got="$TMP/$name.screen"
	want="$SCREEN_GOLDEN/$name.screen"
	if [ ! -f "$got" ]; then
		fail "screen $name" "no dump was written (exit status $RC)" "$(head -c 2000 "$TMP/$SCREEN_LAST.err" 2>/dev/null)"
		return
	fi
	screen_trim "$got" > "$got.trimmed"
	if [ "${TCR_UPDATE_SCREENS:-}" = 1 ]; then
		mkdir -p "$SCREEN_GOLDEN" && cp "$got.trimmed" "$want"
		pass "screen $name (golden written)"
		return
	fi
	if [ ! -f "$want" ]; then
		fail "screen $name" "no golden file tests/screens/$name.screen (TCR_UPDATE_SCREENS=1 writes it):" "$(cat "$got.trimmed")"
		return
	fi
	screen_trim "$want" > "$got.want"
	if cmp -s "$got.want" "$got.trimmed"; then
		pass "screen $name"
	else
		fail "screen $name" "the screen differs from tests/screens/$name.screen (- expected, + shown):" \
			"$(diff -u "$got.want" "$got.trimmed" | sed '1,2d')"
	fi
}

# screen_has NAME TEXT: the dump NAME shows TEXT (a fixed string).
screen_has() {
	if grep -qF -- "$2" "$TMP/$1.screen" 2>/dev/null; then pass "screen $1 shows '$2'"
	else fail "screen $1 shows '$2'" "$(cat "$TMP/$1.screen" 2>/dev/null)"; fi
}

# The screen runs in $TMP on copies of the test data, so the paths it shows
# (FILE:LINE of a record) are the same on every machine.
cp "$SCREEN_DATA"/screen* "$TMP/"
