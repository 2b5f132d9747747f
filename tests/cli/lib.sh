# lib.sh - helpers for the CLI tests. Each test file sources this, calls
# `check NAME COMMAND...` or the assert_* helpers, and ends with `finish`,
# which prints a cmocka-style tally so CI can count cases. The suites that
# talk to the local test server (tests/fake_llm) start and stop it with
# fake_llm_start and fake_llm_stop below.
set -u
: "${TCR_BIN:?TCR_BIN must name the built tcreview}"
: "${TCR_SRCDIR:?TCR_SRCDIR must name the source tree}"
TMP=$(mktemp -d "${TMPDIR:-/tmp}/tcr-cli.XXXXXX")
trap 'fake_llm_stop; [ -n "${KEEP_TMP:-}" ] || rm -rf "$TMP"' EXIT
# The exec scorer keeps answers in a cache: each suite gets its own, and
# none reaches the user's.
TCR_CACHE_DIR="$TMP/cache"; export TCR_CACHE_DIR
# A suite never depends on what a user may leave where it is run (a
# tcreview.yaml the quick start's init wrote in the checkout, which every
# command would read unasked) nor on the user's own configuration: it runs
# in an empty folder of its own, with a configuration home of its own (a
# suite may set another).
mkdir -p "$TMP/cwd.lib" "$TMP/xdg.lib"
cd "$TMP/cwd.lib" || exit 99
XDG_CONFIG_HOME="$TMP/xdg.lib"; export XDG_CONFIG_HOME
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

# ---- the local test server (tests/fake_llm.c) --------------------------------

FAKE=${TCR_FAKE_LLM:-$(dirname "$TCR_BIN")/tests/fake_llm}
FAKE_PIDS=""

# fake_llm_need: a suite that needs the server ends here when it is not built.
fake_llm_need() {
	if [ ! -x "$FAKE" ]; then
		fail "fake_llm is built" "$FAKE is missing (make check builds it)"
		finish
	fi
}

# fake_llm_start NAME SCRIPT [ARGS...]: runs the server in the background
# with its request log in $TMP/NAME.log and its stderr in $TMP/NAME.srv.err.
# Its pid goes to $TMP/NAME.pid and, once it ends, its exit status to
# $TMP/NAME.rc. Waits at most 60 s for the port and sets $PORT; when the
# server did not come up, records the failure "server NAME starts", sets
# PORT=1 (so what follows fails at once rather than waiting) and returns 1.
# The server ends by itself after 900 s unless ARGS give --max-seconds: the
# last resort if the suite is killed outright, far past what a suite needs
# on a loaded machine.
fake_llm_start() {
	name=$1 script=$2
	shift 2
	if [ -z "$FAKE_PIDS" ]; then
		trap 'exit 130' INT TERM        # so the EXIT trap stops the servers
	fi
	rm -f "$TMP/$name.pid" "$TMP/$name.port" "$TMP/$name.rc" "$TMP/$name.log"
	(
		sh -c 'echo $$ > "$0"; exec "$@"' "$TMP/$name.pid" "$FAKE" --script "$script" \
			--log "$TMP/$name.log" --port-file "$TMP/$name.port" --max-seconds 900 "$@" \
			2>"$TMP/$name.srv.err"
		echo $? > "$TMP/$name.rc"
	) &
	n=0
	until [ -s "$TMP/$name.port" ] || [ -f "$TMP/$name.rc" ] || [ "$n" -ge 600 ]; do
		n=$((n + 1))
		sleep 0.1
	done
	[ -s "$TMP/$name.pid" ] && FAKE_PIDS="$FAKE_PIDS $(cat "$TMP/$name.pid")"
	PORT=$(cat "$TMP/$name.port" 2>/dev/null)
	touch "$TMP/$name.log"
	case $PORT in
	'' | *[!0-9]*)
		fail "server $name starts" "port file: '$PORT'" "$(cat "$TMP/$name.srv.err" 2>/dev/null)"
		PORT=1
		return 1 ;;
	esac
	return 0
}

# fake_llm_stop: stops every server started and waits for each one's
# wrapper to write its status (run on the way out by the EXIT trap).
fake_llm_stop() {
	[ -n "$FAKE_PIDS" ] || return 0
	for p in $FAKE_PIDS; do kill "$p" 2>/dev/null; done
	FAKE_PIDS=""
	wait
}
