#!/bin/sh
# trajectory_diff.sh - a differential check run by hand, never by make check:
# N fresh random trajectory cases from a seed, scored by the real agentevals
# 0.0.7 (through trajectory_cases.mjs) and by the built tcreview (through
# tests/cli/trajectory_cases.sh); prints every case where they differ.
#
#   tests/tools/trajectory_diff.sh [-n N] [-s SEED] [-b TCREVIEW] [-k FILE]
#
#   -n N         how many cases (default 500)
#   -s SEED      seed of the generator (default: the time; printed, so a
#                failing run can be repeated)
#   -b TCREVIEW  the binary (default ./tcreview of the source tree)
#   -k FILE      keep the cases there (default: a temporary file, kept and
#                named only when some case differs)
#
# Needs node and agentevals: run it from a folder where
# `npm install agentevals@0.0.7` was done, or set AGENTEVALS_DIR to one.
# Exits 0 when every case agrees, 1 when some differ, 2 on a usage problem.
set -u
SRC=$(cd "$(dirname "$0")/../.." && pwd)
N=500
SEED=$(date +%s)
BIN=$SRC/tcreview
KEEP=
while getopts n:s:b:k: o; do
	case $o in
	n) N=$OPTARG ;;
	s) SEED=$OPTARG ;;
	b) BIN=$OPTARG ;;
	k) KEEP=$OPTARG ;;
	*) sed -n '6,12p' "$0" >&2; exit 2 ;;
	esac
done
command -v node >/dev/null 2>&1 || { echo "trajectory_diff.sh: node is not installed" >&2; exit 2; }
[ -x "$BIN" ] || { echo "trajectory_diff.sh: no built tcreview at $BIN (make, or -b)" >&2; exit 2; }
case $BIN in /*) ;; *) BIN=$(pwd)/$BIN ;; esac

CASES=${KEEP:-$(mktemp "${TMPDIR:-/tmp}/trajectory_diff.XXXXXX")}
echo "seed $SEED, $N cases"
node "$SRC/tests/tools/trajectory_cases.mjs" --only-random --seed "$SEED" --count "$N" --prefix "s$SEED-" \
	> "$CASES" || exit 2

TCR_BIN=$BIN TCR_SRCDIR=$SRC TCR_TRAJECTORY_CASES=$CASES sh "$SRC/tests/cli/trajectory_cases.sh"
rc=$?
if [ "$rc" -eq 0 ]; then
	[ -n "$KEEP" ] || rm -f "$CASES"
	echo "tcreview agrees with agentevals on all $N cases (seed $SEED)"
	exit 0
fi
echo "tcreview and agentevals differ (seed $SEED); the cases are in $CASES"
echo "(repeat with: $0 -n $N -s $SEED -b $BIN)"
exit 1
