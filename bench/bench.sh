#!/bin/sh
# bench.sh - `make bench`: how fast tcreview reads and scores big JSONL files.
#
#   sh bench/bench.sh BUILDDIR SRCDIR
#
# Compiles the helpers of bench/ into BUILDDIR/bench/out/, generates there
# once (kept while the size and gen.c stay the same) a BENCH_MB (default
# 200) MB file of synthetic OpenAI Chat runs and a BENCH_MASTRA_MB (default
# 200) MB file of small Mastra runs (gen -m mastra), warms the page cache,
# then takes the best of BENCH_REPEAT (default 5) runs of:
#   indexing    dataset_index_all and the streaming cursor (index_bench)
#   parse (old) json_loadb + json_decref of every line (parse_only): the
#               jansson baseline the program started from
#   parse-fast  jdoc_parse + jdoc_free of every line (parse_fast): the
#               baseline of the program's own parser
#   score       tcreview score -c SRCDIR/examples/scorers.yaml -o jsonl FILE > /dev/null
#               (four scorers), on both files
#   diff        tcreview diff --task task_id of the chat file against itself,
#               beside two score runs of it (its two sides are read and
#               scored at once, each on a thread)
#   by shape    the same score on the chat file with --format shape: the
#               reader by shape's read rate beside the built-in loader's
#   load        every run of the chat file, the Mastra file and the chat
#               file converted to the run format (tcreview convert) loaded
#               and freed on one thread (load_bench): the run format's read
#               rate beside the built-in loaders', as a ratio against the
#               fastest of them on processor time (target
#               BENCH_TARGET_RUNFMT_RATIO, 1: at least as fast)
#   large       the same score on a file of one record of BENCH_HUGE_MB
#               (default 100) MB, a huge answer (gen -m huge) and a long
#               session of calls (gen -m session): MB/s beside the chat
#               file's of the same run (target BENCH_TARGET_LARGE_RATIO,
#               0.5; for the session, which holds about 16 times the chat
#               file's calls a MB, on calls/s), and whether both load under ulimit -v
#               BENCH_LIMIT_KB (1000000)
# and, once, the review session on the chat file (review_bench: first
# screenful, random moves, search, filter and sort, the calibration figures
# on two reviewers' labels), and the review screen through its script mode:
# time to first screen on a 1 GB file, key latency, and the peak memory of
# opening one run whose single message is BENCH_HUGE_MB (default 100) MB,
# the LLM judges in batch (judge_bench.sh) and the exec scorer in both
# protocols (exec_bench.sh), and prints a table checked against the targets. A missed target prints
# MISSED and still exits 0; a real error (a helper that does not build or
# fails, a run that tcreview cannot load) exits 1.
#
# 1 MB = 10^6 bytes and 1 GB = 10^9 bytes for sizes and rates; peak RSS is
# ru_maxrss (the worst of the repeats) in MiB. Targets can be changed with
# BENCH_TARGET_GBPS (indexing, 1), BENCH_TARGET_MBPS (score on the chat
# file, 400), BENCH_TARGET_MASTRA_MBPS (250), BENCH_TARGET_RATIO (score /
# parse-fast, 2), BENCH_TARGET_RSS_MB (64), BENCH_TARGET_HUGE_X (the huge
# message's peak RSS over its record, 3), BENCH_TARGET_FIRST_MS (200),
# BENCH_TARGET_KEY_MS (16) and BENCH_TARGET_CALIB_MS (250).
# POSIX sh and awk only.
set -eu

die() {
	printf 'bench: error: %s\n' "$*" >&2
	exit 1
}

[ $# -eq 2 ] || { echo "usage: bench.sh BUILDDIR SRCDIR" >&2; exit 2; }
BUILD=$1
SRC=$2
OUT=$BUILD/bench/out
MB=${BENCH_MB:-200}
MASTRA_MB=${BENCH_MASTRA_MB:-200}
HUGE_MB=${BENCH_HUGE_MB:-100}
REPEAT=${BENCH_REPEAT:-5}
T_GBPS=${BENCH_TARGET_GBPS:-1}
T_MBPS=${BENCH_TARGET_MBPS:-400}
T_MMBPS=${BENCH_TARGET_MASTRA_MBPS:-250}
T_RATIO=${BENCH_TARGET_RATIO:-2}
T_RSS=${BENCH_TARGET_RSS_MB:-64}
T_HUGE=${BENCH_TARGET_HUGE_X:-3}
T_LARGE=${BENCH_TARGET_LARGE_RATIO:-0.5}
T_RUNFMT=${BENCH_TARGET_RUNFMT_RATIO:-1}
CC=${CC:-cc}
# The bundled prompts and themes, as make check finds them: the demo's
# configuration names a judge whose prompt is read at load.
TCREVIEW_DATADIR=${TCREVIEW_DATADIR:-$SRC}
export TCREVIEW_DATADIR
TCR=$BUILD/tcreview
CONF=$SRC/examples/scorers.yaml

[ -x "$TCR" ] || die "$TCR is not built (run make first)"
[ -f "$BUILD/libtcr.a" ] || die "$BUILD/libtcr.a is not built (run make first)"
[ -f "$CONF" ] || die "$CONF: no such file"
mkdir -p "$OUT" || die "cannot create $OUT"

# ---- build the helpers ------------------------------------------------------
PKGS="jansson yaml-0.1 libcurl ncursesw nettle libutf8proc libzip"
J_CFLAGS=$(pkg-config --cflags jansson) || die "pkg-config does not know jansson"
J_LIBS=$(pkg-config --libs jansson) || die "pkg-config does not know jansson"
ALL_CFLAGS=$(pkg-config --cflags $PKGS) || die "pkg-config does not know one of: $PKGS"
ALL_LIBS=$(pkg-config --libs $PKGS) || die "pkg-config does not know one of: $PKGS"
# libjq has no .pc on Debian: make hands down what configure found.
ALL_LIBS="$ALL_LIBS ${JQ_LIBS:--ljq -lonig}"
SAN=
if command -v nm >/dev/null 2>&1 && nm "$BUILD/libtcr.a" 2>/dev/null | grep -q '__asan_'; then
	SAN="-fsanitize=address,undefined"
	echo "bench: warning: libtcr.a is built with sanitizers; the numbers below mean little" >&2
fi
# libtcr.a holds the parser's C++ object (simdjson); a library from before
# it (to measure an older commit) has no jdoc_parse and no parse-fast line.
FAST=yes
if command -v nm >/dev/null 2>&1 && ! nm "$BUILD/libtcr.a" 2>/dev/null | grep -q ' T jdoc_parse$'; then
	FAST=
	echo "bench: warning: libtcr.a has no jdoc_parse (an older build): no parse-fast baseline" >&2
fi
if [ -n "$FAST" ]; then
	SIMD_LIBS=$(pkg-config --libs simdjson) || die "pkg-config does not know simdjson"
	ALL_LIBS="$ALL_LIBS $SIMD_LIBS -lstdc++"
fi

echo "bench: compiling helpers into $OUT"
$CC -O2 -o "$OUT/gen" "$SRC/bench/gen.c" || die "bench/gen.c does not build"
$CC -O2 $J_CFLAGS -o "$OUT/parse_only" "$SRC/bench/parse_only.c" $J_LIBS ||
	die "bench/parse_only.c does not build"
if [ -n "$FAST" ]; then
	$CC -O2 -std=c11 $SAN -I"$SRC/include" $ALL_CFLAGS -o "$OUT/parse_fast" \
		"$SRC/bench/parse_fast.c" "$BUILD/libtcr.a" $ALL_LIBS -lm ||
		die "bench/parse_fast.c does not build"
fi
$CC -O2 -o "$OUT/runstat" "$SRC/bench/runstat.c" || die "bench/runstat.c does not build"
$CC -O2 -std=c11 $SAN -I"$SRC/include" $ALL_CFLAGS -o "$OUT/index_bench" \
	"$SRC/bench/index_bench.c" "$BUILD/libtcr.a" $ALL_LIBS -lm ||
	die "bench/index_bench.c does not build"
$CC -O2 -std=c11 $SAN -I"$SRC/include" $ALL_CFLAGS -o "$OUT/load_bench" \
	"$SRC/bench/load_bench.c" "$BUILD/libtcr.a" $ALL_LIBS -lm ||
	die "bench/load_bench.c does not build"
$CC -O2 -std=c11 $SAN -I"$SRC/include" $ALL_CFLAGS -o "$OUT/review_bench" \
	"$SRC/bench/review_bench.c" "$BUILD/libtcr.a" $ALL_LIBS -lm ||
	die "bench/review_bench.c does not build"

# ---- the input files ----------------------------------------------------------
GEN_SUM=$(cksum < "$SRC/bench/gen.c" | awk '{ print $1 }')
# input FILE MODE MB: generates FILE unless its stamp says it is already
# what gen writes for that mode and size.
input() {
	want="mode=$2 mb=$3 gen=$GEN_SUM"
	if [ -f "$1" ] && [ -f "$1.stamp" ] &&
	   [ "$(sed -n 1p "$1.stamp")" = "$want bytes=$(wc -c < "$1" | tr -d ' ')" ]; then
		echo "bench: reusing $1"
		return 0
	fi
	echo "bench: generating $1 ($3 MB, $2)"
	rm -f "$1.stamp"
	"$OUT/gen" -m "$2" "$3" "$1.tmp" || die "gen failed for $1"
	mv "$1.tmp" "$1"
	echo "$want bytes=$(wc -c < "$1" | tr -d ' ')" > "$1.stamp"
}
FILE=$OUT/runs.jsonl
MFILE=$OUT/mastra.jsonl
input "$FILE" chat "$MB"
input "$MFILE" mastra "$MASTRA_MB"
# One record of BENCH_HUGE_MB each: a single huge answer (also the
# screen's case below) and a long session of calls.
HUGE="$OUT/huge.jsonl"
SESSION="$OUT/session.jsonl"
input "$HUGE" huge "$HUGE_MB"
input "$SESSION" session "$HUGE_MB"
# The chat file in the run format, made by this build (untimed).
TFILE=$OUT/runs.tcreview.jsonl
echo "bench: converting $FILE to the run format"
"$TCR" convert -o "$TFILE" "$FILE" 2> "$OUT/convert.err" ||
	die "tcreview convert failed on $FILE (see $OUT/convert.err)"
BYTES=$(wc -c < "$FILE" | tr -d ' ')
TBYTES=$(wc -c < "$TFILE" | tr -d ' ')
MBYTES=$(wc -c < "$MFILE" | tr -d ' ')
HBYTES=$(wc -c < "$HUGE" | tr -d ' ')
SBYTES=$(wc -c < "$SESSION" | tr -d ' ')
cat "$FILE" "$MFILE" "$HUGE" "$SESSION" "$TFILE" > /dev/null

# min (or max) of KEY=VALUE fields over the lines of a log
stat_min() {
	awk -v k="$2" '{ for (i = 1; i <= NF; i++) { n = index($i, "=");
		if (substr($i, 1, n - 1) == k) { v = substr($i, n + 1) + 0; if (!c++ || v < m) m = v } } }
		END { if (!c) exit 1; print m }' "$1"
}
stat_max() {
	awk -v k="$2" '{ for (i = 1; i <= NF; i++) { n = index($i, "=");
		if (substr($i, 1, n - 1) == k) { v = substr($i, n + 1) + 0; if (!c++ || v > m) m = v } } }
		END { if (!c) exit 1; print m }' "$1"
}

# ---- check that tcreview reads every run (untimed) ---------------------------
# check FILE NAME: scores FILE once and prints rows=, errors=, cut= and skipped=.
check() {
	"$TCR" score -c "$CONF" -o jsonl "$1" > "$OUT/score.jsonl" 2> "$OUT/score-$2.err" ||
		die "tcreview score exited with status $? on $1 (see $OUT/score-$2.err)"
	# gen cuts a call's arguments short now and then, as a model does:
	# trajectory-match cannot read them and says so in an error verdict,
	# as agentevals does (cut=). Any other error verdict is a failure.
	c=$(awk '{ n++ } /"status":"error"/ { if (/"error":"trajectory-match: arguments /) a++; else e++ }
		/"status":"skipped"/ { s++ }
		END { printf "rows=%d errors=%d cut=%d skipped=%d\n", n, e, a, s }' "$OUT/score.jsonl")
	e=$(echo "$c" | stat_min - errors)
	if [ "$e" -ne 0 ]; then
		grep '"status":"error"' "$OUT/score.jsonl" | grep -v '"error":"trajectory-match: arguments ' |
			sed -n 1,3p >&2
		die "tcreview score gave $e error verdicts on $1 (see $OUT/score-$2.err)"
	fi
	rm -f "$OUT/score.jsonl"
	if [ -s "$OUT/score-$2.err" ]; then
		echo "bench: warning: tcreview score wrote to stderr on $1:" >&2
		sed -n 1,5p "$OUT/score-$2.err" >&2
	fi
	echo "$c"
}
echo "bench: checking tcreview score on the files"
CHECK=$(check "$FILE" chat)
MCHECK=$(check "$MFILE" mastra)
HCHECK=$(check "$HUGE" huge)
SCHECK=$(check "$SESSION" session)
# A record of 100 MB must load in 1 GB of address space (not under the
# sanitizers, which reserve terabytes).
LIMIT_KB=${BENCH_LIMIT_KB:-1000000}
if [ -n "$SAN" ]; then
	LIMITED="n/a (sanitizers)"
elif (ulimit -v "$LIMIT_KB" && exec "$TCR" score -c "$CONF" -o jsonl "$HUGE") > /dev/null 2> "$OUT/limit.err" &&
     (ulimit -v "$LIMIT_KB" && exec "$TCR" score -c "$CONF" -o jsonl "$SESSION") > /dev/null 2>> "$OUT/limit.err"; then
	LIMITED=yes
else
	LIMITED="no: $(sed -n 1p "$OUT/limit.err")"
fi

# ---- measure ------------------------------------------------------------------
# timed LOG OUTPUT COMMAND...: runs COMMAND under runstat, its standard
# output to OUTPUT, and appends runstat's figures to LOG, after the first
# line of OUTPUT (a helper's KEY=VALUE line) unless that is /dev/null.
timed() {
	log=$1
	output=$2
	shift 2
	"$OUT/runstat" -o "$OUT/stat.txt" "$@" > "$output" 2>> "$OUT/timed.err" ||
		die "$* failed (status $?; see $OUT/timed.err)"
	if [ "$output" = /dev/null ]; then
		cat "$OUT/stat.txt" >> "$log"
	else
		echo "$(sed -n 1p "$output") $(cat "$OUT/stat.txt")" >> "$log"
	fi
}
for log in index parse parse-m fast fast-m score score-m score-h score-s load load-m load-t score-shape diff; do
	: > "$OUT/$log.log"
done
: > "$OUT/timed.err"
i=0
while [ "$i" -lt "$REPEAT" ]; do
	i=$((i + 1))
	echo "bench: pass $i of $REPEAT"
	cat "$FILE" "$MFILE" "$HUGE" "$SESSION" "$TFILE" > /dev/null
	"$OUT/index_bench" "$FILE" >> "$OUT/index.log" || die "index_bench failed (status $?)"
	timed "$OUT/load.log" "$OUT/timed.out" "$OUT/load_bench" "$FILE"
	timed "$OUT/load-m.log" "$OUT/timed.out" "$OUT/load_bench" "$MFILE"
	timed "$OUT/load-t.log" "$OUT/timed.out" "$OUT/load_bench" "$TFILE"
	timed "$OUT/parse.log" "$OUT/timed.out" "$OUT/parse_only" "$FILE"
	timed "$OUT/parse-m.log" "$OUT/timed.out" "$OUT/parse_only" "$MFILE"
	if [ -n "$FAST" ]; then
		timed "$OUT/fast.log" "$OUT/timed.out" "$OUT/parse_fast" "$FILE"
		timed "$OUT/fast-m.log" "$OUT/timed.out" "$OUT/parse_fast" "$MFILE"
	fi
	timed "$OUT/score.log" /dev/null "$TCR" score -c "$CONF" -o jsonl "$FILE"
	# The reader by shape forced on the same file: its read rate beside
	# the built-in loader's.
	timed "$OUT/score-shape.log" /dev/null "$TCR" score -c "$CONF" -o jsonl --format shape "$FILE"
	timed "$OUT/diff.log" /dev/null "$TCR" diff -c "$CONF" --task task_id -o jsonl "$FILE" "$FILE"
	timed "$OUT/score-m.log" /dev/null "$TCR" score -c "$CONF" -o jsonl "$MFILE"
	timed "$OUT/score-h.log" /dev/null "$TCR" score -c "$CONF" -o jsonl "$HUGE"
	timed "$OUT/score-s.log" /dev/null "$TCR" score -c "$CONF" -o jsonl "$SESSION"
done

RUNS=$(stat_min "$OUT/index.log" records) || die "no index_bench output"
PRUNS=$(stat_min "$OUT/parse.log" runs) || die "no parse_only output"
[ "$RUNS" -eq "$PRUNS" ] || die "index_bench counts $RUNS runs, parse_only $PRUNS"
MRUNS=$(stat_min "$OUT/parse-m.log" runs) || die "no parse_only output"
IDX_S=$(stat_min "$OUT/index.log" index_seconds)
STR_S=$(stat_min "$OUT/index.log" stream_seconds)
# figures LOG: "WALL LOOP RSS_KB" of the best (wall) and worst (RSS) run; a
# dash for the loop alone when the command prints no seconds= field.
figures() {
	if [ ! -s "$1" ]; then
		echo "0 0 0"
		return 0
	fi
	echo "$(stat_min "$1" wall) $(stat_min "$1" seconds || echo -) $(stat_max "$1" maxrss_kb)"
}
if [ -n "$FAST" ]; then
	FRUNS=$(stat_min "$OUT/fast.log" runs) || die "no parse_fast output"
	[ "$RUNS" -eq "$FRUNS" ] || die "index_bench counts $RUNS runs, parse_fast $FRUNS"
	FMRUNS=$(stat_min "$OUT/fast-m.log" runs) || die "no parse_fast output"
	[ "$MRUNS" -eq "$FMRUNS" ] || die "parse_only counts $MRUNS Mastra runs, parse_fast $FMRUNS"
fi

# ---- report -------------------------------------------------------------------
# Each part of the report goes to the terminal and to report.txt, whose
# MISSED lines are counted at the end.
: > "$OUT/report.txt"
report() {
	cat "$OUT/part.txt"
	cat "$OUT/part.txt" >> "$OUT/report.txt"
}
awk -v bytes="$BYTES" -v runs="$RUNS" -v mbytes="$MBYTES" -v mruns="$MRUNS" \
    -v idx="$IDX_S" -v str="$STR_S" -v rep="$REPEAT" -v fast="$FAST" \
    -v par="$(figures "$OUT/parse.log")" -v parm="$(figures "$OUT/parse-m.log")" \
    -v fst="$(figures "$OUT/fast.log")" -v fstm="$(figures "$OUT/fast-m.log")" \
    -v sco="$(figures "$OUT/score.log")" -v scom="$(figures "$OUT/score-m.log")" \
    -v shp="$(figures "$OUT/score-shape.log")" \
    -v dif="$(figures "$OUT/diff.log")" \
    -v su="$(stat_min "$OUT/score.log" user)" -v ss="$(stat_min "$OUT/score.log" sys)" \
    -v tg="$T_GBPS" -v tmb="$T_MBPS" -v tmm="$T_MMBPS" -v tr="$T_RATIO" -v tm="$T_RSS" \
    -v verdicts="$CHECK" -v mverdicts="$MCHECK" '
function rate(s, d) { return s > 0 ? d / s : 0 }
function verdict(ok) { if (!ok) missed++; return ok ? "ok" : "MISSED" }
# a line of the table: what was measured, then the target and its verdict, if any
function out(left, target, v) {
	if (target != "")
		printf "%-80s  %-20s %s\n", left, target, v
	else
		printf "%s\n", left
}
# a parse or score line from figures "WALL LOOP RSS", the bytes and runs read
function line(name, f, b, n, target, v,   x) {
	split(f, x, " ")
	out(sprintf("%-24s %7.3f s  %5.0f MB/s  %7.0f runs/s  peak RSS %4.0f MB", name, x[1],
	            rate(x[1], b / 1e6), rate(x[1], n), x[3] / 1024), target, v)
}
function wall(f,   x) { split(f, x, " "); return x[1] + 0 }
function rss(f,   x) { split(f, x, " "); return x[3] / 1024 }
function loop(f,   x) { split(f, x, " "); return x[2] }
function ratio(name, a, b, target, v) {
	out(sprintf("%-24s %6.2fx", name, b > 0 ? a / b : 0), target, v)
}
BEGIN {
	printf "\n"
	printf "chat file:   %6.1f MB, %7d runs (%5.1f KB per run)\n", bytes / 1e6, runs, rate(runs, bytes) / 1e3
	printf "Mastra file: %6.1f MB, %7d runs (%5.1f KB per run); best of %d\n", mbytes / 1e6, mruns,
	       rate(mruns, mbytes) / 1e3, rep
	gbps = rate(idx, bytes) / 1e9
	out(sprintf("%-24s %7.3f s  %5.2f GB/s", "indexing", idx, gbps), sprintf("target >= %g GB/s", tg),
	    verdict(gbps >= tg))
	out(sprintf("%-24s %7.3f s  %5.2f GB/s", "streaming cursor", str, rate(str, bytes) / 1e9))

	printf "\nthe chat file (four scorers):\n"
	line("parse (jansson, old)", par, bytes, runs)
	if (fast)
		line("parse-fast (jdoc)", fst, bytes, runs)
	mbps = rate(wall(sco), bytes / 1e6)
	line("score", sco, bytes, runs, sprintf("target >= %g MB/s", tmb), verdict(mbps >= tmb))
	out(sprintf("%-24s %6.0f MB", "peak RSS (score)", rss(sco)), sprintf("target < %g MB", tm),
	    verdict(rss(sco) < tm))
	if (fast)
		ratio("score / parse-fast", wall(sco), wall(fst), sprintf("target <= %gx", tr),
		      verdict(wall(sco) <= tr * wall(fst)))
	else
		out(sprintf("%-24s %7s", "score / parse-fast", "n/a"), sprintf("target <= %gx", tr), verdict(0))
	ratio("score / parse (old)", wall(sco), wall(par))
	line("score --format shape", shp, bytes, runs)
	ratio("by shape / built-in", wall(shp), wall(sco))
	line("diff, the file twice", dif, 2 * bytes, 2 * runs)
	ratio("diff / two scores", wall(dif), 2 * wall(sco))

	printf "\nthe Mastra file (four scorers):\n"
	line("parse (jansson, old)", parm, mbytes, mruns)
	if (fast)
		line("parse-fast (jdoc)", fstm, mbytes, mruns)
	mmbps = rate(wall(scom), mbytes / 1e6)
	line("score", scom, mbytes, mruns, sprintf("target >= %g MB/s", tmm), verdict(mmbps >= tmm))
	if (fast)
		ratio("score / parse-fast", wall(scom), wall(fstm))
	ratio("score / parse (old)", wall(scom), wall(parm))

	printf "\n(parse loops alone: old %s s, fast %s s; score user %.3f s, sys %.3f s;\n",
	       loop(par), fast ? loop(fst) : "n/a", su, ss
	printf " score check: %s; Mastra: %s)\n", verdicts, mverdicts
}' > "$OUT/part.txt" || die "the report failed"
report

# ---- the loaders' read rate -----------------------------------------------------
# load_bench's loop on one thread (parse, detection, the loader, free) on
# processor time, steadier than the wall clock on a shared machine: the
# built-in loaders on their files, the run format on the chat file's runs.
TRUNS=$(stat_min "$OUT/load-t.log" runs) || die "no load_bench output"
[ "$TRUNS" -eq "$RUNS" ] || die "the run format file has $TRUNS runs, the chat file $RUNS"
awk -v bytes="$BYTES" -v mbytes="$MBYTES" -v tbytes="$TBYTES" -v runs="$RUNS" -v mruns="$MRUNS" \
    -v c="$(stat_min "$OUT/load.log" cpu)" -v cm="$(stat_min "$OUT/load-m.log" cpu)" \
    -v ct="$(stat_min "$OUT/load-t.log" cpu)" -v tr="$T_RUNFMT" \
    -v fc="$(sed -n 's/.*format=\([^ ]*\).*/\1/p' "$OUT/load.log" | sed -n 1p)" \
    -v fm="$(sed -n 's/.*format=\([^ ]*\).*/\1/p' "$OUT/load-m.log" | sed -n 1p)" '
function rate(s, d) { return s > 0 ? d / s : 0 }
function line(name, s, b, n) {
	printf "%-24s %7.3f s  %5.0f MB/s  %7.0f runs/s  (%.1f MB)\n", name, s, rate(s, b / 1e6), rate(s, n), b / 1e6
}
BEGIN {
	printf "\nthe loaders, read rate (parse, detection, loader; one thread, processor time):\n"
	line("load " fc, c, bytes, runs)
	line("load " fm, cm, mbytes, mruns)
	line("load tcreview", ct, tbytes, runs)
	best = rate(c, bytes); bn = fc
	if (rate(cm, mbytes) > best) { best = rate(cm, mbytes); bn = fm }
	x = best > 0 ? rate(ct, tbytes) / best : 0
	ok = x >= tr
	printf "%-80s  %-20s %s\n", sprintf("%-24s %6.2fx  in MB/s, against %s, the fastest built-in", "run format / fastest", x, bn),
	       sprintf("target >= %gx", tr), ok ? "ok" : "MISSED"
	printf "%-24s %6.2fx  in runs/s, against %s on the same runs\n", "run format / " fc,
	       (rate(c, runs) > 0 ? rate(ct, runs) / rate(c, runs) : 0), fc
}' > "$OUT/part.txt" || die "the loaders report failed"
report

# ---- one large record ----------------------------------------------------------
# The same four scorers on a file of one record of BENCH_HUGE_MB: its rate
# beside the chat file's in the same run (a record is read by one worker,
# the chat file's runs by all), and whether it loads in BENCH_LIMIT_KB of
# address space.
# The session holds many more calls a megabyte than the chat file (each
# scorer lists them all in its details): its rate is given per call too,
# and its target is on that.
calls_in() { grep -o '"tool_call_id"' "$1" | wc -l | tr -d ' '; }
awk -v bytes="$BYTES" -v hbytes="$HBYTES" -v sbytes="$SBYTES" -v tr="$T_LARGE" \
    -v calls="$(calls_in "$FILE")" -v scalls="$(calls_in "$SESSION")" \
    -v sco="$(figures "$OUT/score.log")" -v sch="$(figures "$OUT/score-h.log")" \
    -v scs="$(figures "$OUT/score-s.log")" -v limited="$LIMITED" -v lim="$LIMIT_KB" \
    -v hv="$HCHECK" -v sv="$SCHECK" '
function rate(s, d) { return s > 0 ? d / s : 0 }
function part(f, i,   x) { split(f, x, " "); return x[i] + 0 }
# name, figures, bytes, the MB/s of the chat file; with n and cbase, the
# rate in calls/s against that of the chat file is the one checked
function line(name, f, b, base, n, cbase,   r, c, ok) {
	r = rate(part(f, 1), b / 1e6)
	c = rate(part(f, 1), n)
	ok = n ? cbase > 0 && c >= tr * cbase : base > 0 && r >= tr * base
	if (!ok) missed++
	printf "%-80s  %-20s %s\n", sprintf("%-24s %7.3f s  %5.0f MB/s  %4.2fx the chat file  peak RSS %4.0f MB",
	       name, part(f, 1), r, base > 0 ? r / base : 0, part(f, 3) / 1024),
	       sprintf("target >= %gx%s", tr, n ? " calls" : ""), ok ? "ok" : "MISSED"
	if (n)
		printf "%-24s %7s    %5.0f calls/s, %4.2fx the chat file (%d calls, %.1fx its calls a MB)\n", "", "",
		       c, (cbase > 0 ? c / cbase : 0), n, (calls > 0 ? (n / (b / 1e6)) / (calls / (bytes / 1e6)) : 0)
}
BEGIN {
	base = rate(part(sco, 1), bytes / 1e6)
	cbase = rate(part(sco, 1), calls)
	printf "\none large record (four scorers; the chat file: %.0f MB/s, %.0f calls/s):\n", base, cbase
	line("huge answer", sch, hbytes, base)
	line("long session", scs, sbytes, base, scalls, cbase)
	ok = limited == "yes" || limited ~ /^n\/a/
	printf "%-80s  %-20s %s\n", sprintf("%-24s %s", "loads in " lim " KB", limited),
	       "target yes", limited == "yes" ? "ok" : ok ? "-" : "MISSED"
	printf "(huge: %s; session: %s)\n", hv, sv
}' > "$OUT/part.txt" || die "the large record report failed"
report

# ---- the review session (one pass; times in ms) ------------------------------
"$OUT/review_bench" "$CONF" "$FILE" > "$OUT/review.log" || die "review_bench failed (status $?)"
echo "review session: $(cat "$OUT/review.log")"
# The calibration pane rebuilds its figures on each saved label while it is
# open, so it must stay well inside a keystroke's patience; the baseline is
# the same session's sort of every run by id (a pass over all entries).
awk -v tp="${BENCH_TARGET_CALIB_MS:-250}" '{
	for (i = 1; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] }
	printf "\n%-18s %7.1f ms  %d runs, %d labels, %d pairs  %-16s %s\n", "calibration pane",
	       f["calib_pane_ms"], f["runs"], f["labels"], f["calib_pairs"],
	       sprintf("target <= %g ms", tp), f["calib_pane_ms"] <= tp ? "ok" : "MISSED"
	ratio = f["sort_ms"] > 0 ? f["calib_pane_ms"] / f["sort_ms"] : 0
	printf "%-18s %7.2fx the sort of every run by id (%.1f ms)\n", "  ratio", ratio, f["sort_ms"]
	printf "%-18s %7.0f ms  with 1000 bootstrap resamples (tcreview stats)\n", "calibration stats",
	       f["calib_boot1000_ms"]
}' "$OUT/review.log" > "$OUT/part.txt" || die "the review report failed"
report

# ---- the review screen, through its script mode --------------------------------
# Time to first screen on a BENCH_BIG_MB (default 1000) MB file: the binary
# draws once (--max-iterations 1) and TCR_TRACE records when the first
# screen was on it, counted from the program's start. Then key latency on
# the main file: a script of moves, page jumps, search, filters, sorts and
# decisions, each key timed from its handling to the end of its redraw.
BIG_MB=${BENCH_BIG_MB:-1000}
BIG="$OUT/big.jsonl"
input "$BIG" chat "$BIG_MB"
cat "$BIG" > /dev/null
SCREEN_ENV="LINES=24 COLUMNS=80 LANG=C.UTF-8 TERM=dumb NO_COLOR=1"
best_first=""
i=0
while [ "$i" -lt "$REPEAT" ]; do
	i=$((i + 1))
	rm -f "$OUT/bench.annotations.jsonl"
	env $SCREEN_ENV TCR_TRACE="$OUT/first.trace" "$TCR" --max-iterations 1 -c "$CONF" \
		-a "$OUT/bench.annotations.jsonl" "$BIG" > /dev/null 2>&1 < /dev/null ||
		die "tcreview --max-iterations 1 failed"
	t=$(awk '/^first-screen/ { print $2 }' "$OUT/first.trace")
	[ -n "$t" ] || die "no first-screen line in the trace"
	best_first=$(awk -v a="$best_first" -v b="$t" 'BEGIN { print (a == "" || b + 0 < a + 0) ? b : a }')
done

{
	n=0
	while [ "$n" -lt 200 ]; do echo j; n=$((n + 1)); done
	echo G; echo g
	n=0
	while [ "$n" -lt 30 ]; do echo '<PgDn>'; n=$((n + 1)); done
	echo '/refund<Enter>'
	n=0
	while [ "$n" -lt 20 ]; do echo n; n=$((n + 1)); done
	n=0
	while [ "$n" -lt 6 ]; do echo f; n=$((n + 1)); done
	n=0
	while [ "$n" -lt 4 ]; do echo s; n=$((n + 1)); done
	echo '<Tab>'; echo '<Enter>'; echo '<Tab>'; echo j; echo '<Enter>'; echo '<Tab>'
	echo u; echo a; echo A; echo x; echo 1
} > "$OUT/latency.keys"
rm -f "$OUT/bench.annotations.jsonl"
env $SCREEN_ENV TCR_SCRIPT="$OUT/latency.keys" TCR_TRACE="$OUT/keys.trace" "$TCR" -c "$CONF" \
	-a "$OUT/bench.annotations.jsonl" "$FILE" > /dev/null 2>&1 < /dev/null ||
	die "tcreview in script mode failed"
awk -v first="$best_first" -v big="$BIG_MB" -v tf="${BENCH_TARGET_FIRST_MS:-200}" \
    -v tk="${BENCH_TARGET_KEY_MS:-16}" '
/^key / { ms[++n] = $3 + 0 }
END {
	if (n == 0) { print "bench: error: no key was timed"; exit 1 }
	for (i = 1; i <= n; i++)             # insertion sort: n is a few hundred
		for (j = i; j > 1 && ms[j] < ms[j - 1]; j--) { t = ms[j]; ms[j] = ms[j - 1]; ms[j - 1] = t }
	p50 = ms[int((n + 1) / 2)]; p99 = ms[int(n * 0.99) > 0 ? int(n * 0.99) : 1]; mx = ms[n]
	printf "\n%-18s %7.1f ms  on %d MB       %-22s %s\n", "first screen", first, big,
	       sprintf("target <= %g ms", tf), first <= tf ? "ok" : "MISSED"
	printf "%-18s %7.2f ms  p50 %.2f, p99 %.2f over %d keys  %-12s %s\n", "key latency max", mx, p50, p99, n,
	       sprintf("target <= %g ms", tk), mx <= tk ? "ok" : "MISSED"
}' "$OUT/keys.trace" > "$OUT/part.txt" || die "no key timings"
report

# ---- one huge message in the screen ---------------------------------------------
# A file of one run whose final answer is a single BENCH_HUGE_MB message
# (gen -m huge), opened in the screen through its script mode: the first
# screen, the timeline focused, paged through, its end and back, the
# message unfolded and folded. The peak RSS over the record's size (the
# mapped record counts) must stay under BENCH_TARGET_HUGE_X.
cat "$HUGE" > /dev/null
{
	echo '<Tab>'
	n=0
	while [ "$n" -lt 200 ]; do echo '<PgDn>'; n=$((n + 1)); done
	echo G; echo '<PgUp>'; echo g; echo j; echo j; echo '<Enter>'; echo '<Enter>'; echo k
} > "$OUT/huge.keys"
rm -f "$OUT/bench.annotations.jsonl"
: > "$OUT/huge.log"
i=0
while [ "$i" -lt "$REPEAT" ]; do
	i=$((i + 1))
	rm -f "$OUT/bench.annotations.jsonl"
	env $SCREEN_ENV TCR_SCRIPT="$OUT/huge.keys" TCR_TRACE="$OUT/huge.trace" \
		"$OUT/runstat" -o "$OUT/stat.txt" "$TCR" -c "$CONF" -a "$OUT/bench.annotations.jsonl" \
		"$HUGE" > /dev/null 2>&1 < /dev/null || die "tcreview in script mode failed on $HUGE"
	t=$(awk '/^first-screen/ { print $2 }' "$OUT/huge.trace")
	[ -n "$t" ] || die "no first-screen line in the trace of $HUGE"
	k=$(awk '/^key / { if ($3 + 0 > m) m = $3 + 0 } END { print m + 0 }' "$OUT/huge.trace")
	echo "first_ms=$t key_max_ms=$k $(cat "$OUT/stat.txt")" >> "$OUT/huge.log"
done
rm -f "$OUT/bench.annotations.jsonl"
awk -v bytes="$HBYTES" -v rss="$(stat_max "$OUT/huge.log" maxrss_kb)" \
    -v first="$(stat_min "$OUT/huge.log" first_ms)" -v key="$(stat_min "$OUT/huge.log" key_max_ms)" \
    -v wall="$(stat_min "$OUT/huge.log" wall)" -v tx="$T_HUGE" 'BEGIN {
	x = bytes > 0 ? rss * 1024 / bytes : 0
	printf "\n%-18s %5.0f MB peak RSS for a %.0f MB record: %.2fx   %-16s %s\n", "huge message",
	       rss / 1024, bytes / 1e6, x, sprintf("target < %gx", tx), x < tx ? "ok" : "MISSED"
	printf "%-18s first screen %.0f ms, slowest key %.1f ms, whole script %.2f s\n", "", first, key, wall
}' > "$OUT/part.txt" || die "the huge message report failed"
report

# ---- LLM judges in batch, against the local test server ------------------------
sh "$SRC/bench/judge_bench.sh" "$BUILD" "$SRC" "$FILE" > "$OUT/part.txt" || {
	cat "$OUT/part.txt"
	die "the judge benchmark failed"
}
report

# ---- exec scorers in both protocols --------------------------------------------
sh "$SRC/bench/exec_bench.sh" "$BUILD" "$SRC" "$FILE" > "$OUT/part.txt" || {
	cat "$OUT/part.txt"
	die "the exec benchmark failed"
}
report

missed=$(grep -c 'MISSED$' "$OUT/report.txt" || true)
if [ "$missed" -gt 0 ]; then
	echo "bench: $missed target$( [ "$missed" -gt 1 ] && echo s) MISSED"
else
	echo "bench: all targets met"
fi
exit 0
