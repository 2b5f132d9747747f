# lib.sh - helpers for the CLI tests. Each test file sources this, calls
# `check NAME COMMAND...` or the assert_* helpers, and ends with `finish`,
# which prints a cmocka-style tally so CI can count cases.
set -u
: "${TCR_BIN:?TCR_BIN must name the built tcreview}"
: "${TCR_SRCDIR:?TCR_SRCDIR must name the source tree}"
TMP=$(mktemp -d "${TMPDIR:-/tmp}/tcr-cli.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
T_PASS=0
T_FAIL=0
T_SKIP=0

pass() { T_PASS=$((T_PASS + 1)); echo "[       OK ] $1"; }
fail() { T_FAIL=$((T_FAIL + 1)); echo "[  FAILED  ] $1"; shift; for l in "$@"; do echo "    $l"; done; }
skip() { T_SKIP=$((T_SKIP + 1)); echo "[  SKIPPED ] $1: $2"; }

# run_tcr OUT ERR ARGS...: runs the binary, sets $RC.
run_tcr() {
	out=$1; err=$2; shift 2
	"$TCR_BIN" "$@" >"$out" 2>"$err"
	RC=$?
}

assert_rc() { # NAME EXPECTED
	if [ "$RC" -eq "$2" ]; then pass "$1"; else fail "$1" "exit status $RC, expected $2" "$(head -c 2000 "$TMP/err" 2>/dev/null)"; fi
}

assert_grep() { # NAME FILE PATTERN (fixed string)
	if grep -qF -- "$3" "$2"; then pass "$1"; else fail "$1" "'$3' not found in $2:" "$(head -c 3000 "$2")"; fi
}

assert_no_grep() { # NAME FILE PATTERN
	if grep -qF -- "$3" "$2"; then fail "$1" "'$3' unexpectedly found in $2"; else pass "$1"; fi
}

assert_eq() { # NAME GOT WANT
	if [ "$2" = "$3" ]; then pass "$1"; else fail "$1" "got:  $2" "want: $3"; fi
}

finish() {
	total=$((T_PASS + T_FAIL))
	[ "$T_SKIP" -gt 0 ] && echo "[  SKIPPED ] $T_SKIP test(s)."
	echo "[==========] $total test(s) run."
	echo "[  PASSED  ] $T_PASS test(s)."
	if [ "$T_FAIL" -gt 0 ]; then
		echo "[  FAILED  ] $T_FAIL test(s)."
		exit 1
	fi
	exit 0
}
