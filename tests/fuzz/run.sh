#!/bin/sh
# run.sh BUILDDIR SRCDIR SECONDS - `make fuzz`: each fuzz target of
# tests/fuzz for SECONDS, from a corpus seeded with the tree's examples and
# test data (copied into BUILDDIR/tests/fuzz/corpus, never written in the
# tree), with the JSON dictionary, under the sanitizers the targets were
# built with. Prints the executions of each; a finding (a crash, a leak, a
# sanitizer report, a timeout of 10 s or 2 GB of memory on one input) is
# kept under BUILDDIR/tests/fuzz/findings and fails the whole run.
set -u
BUILD=$1 SRC=$2 SECONDS_EACH=$3
FUZZ="$BUILD/tests/fuzz"
export TCREVIEW_DATADIR="$SRC"
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=0"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
mkdir -p "$FUZZ/findings"

# seed NAME PREFIX FILES...: copies small FILES (under 64 KB) into the
# corpus of NAME, each prefixed with the bytes PREFIX (printf format).
seed() {
	name=$1 prefix=$2
	shift 2
	mkdir -p "$FUZZ/corpus/$name"
	i=0
	for f in "$@"; do
		[ -f "$f" ] || continue
		[ "$(wc -c < "$f")" -lt 65536 ] || continue
		i=$((i + 1))
		{ printf "$prefix"; cat "$f"; } > "$FUZZ/corpus/$name/seed-$i"
	done
}
seed fuzz_dataset '\000\000' "$SRC"/examples/runs/*.jsonl "$SRC"/tests/data/*.jsonl
seed fuzz_dataset '\001\000' "$SRC"/examples/runs/*.json "$SRC"/tests/data/*.json
# The same files forced through the reader by shape (0xff names it).
seed fuzz_dataset_shape '\000\377' "$SRC"/examples/runs/*.jsonl "$SRC"/tests/data/*.jsonl
seed fuzz_dataset_shape '\001\377' "$SRC"/examples/runs/*.json "$SRC"/tests/data/*.json
for f in "$FUZZ/corpus/fuzz_dataset_shape"/*; do
	[ -f "$f" ] && mv "$f" "$FUZZ/corpus/fuzz_dataset/shape-${f##*/}"
done
rm -rf "$FUZZ/corpus/fuzz_dataset_shape"
seed fuzz_config '' "$SRC"/examples/*.yaml "$SRC"/tests/data/*.yaml
mkdir -p "$FUZZ/corpus/fuzz_logs"
printf '\000{"v":2,"run":"r1","source":"a.jsonl:1","run_hash":"%064d","scorer":"lookup","scorer_type":"tool-call-accuracy","model":null,"prompt_hash":null,"machine_score":1,"machine_passed":true,"decision":"accept","score":1,"reason":null,"reviewer":"qa","blind":false,"at":"2026-01-15T09:30:00Z","config":"0123456789abcdef"}\n{"v":1,"run":"r1","scorer":"lookup","decision":"retract","reviewer":"qa","at":"2026-01-15T09:31:00Z"}\n{"v":2,"run":"r2","decision":"note","reason":"odd","reviewer":"qa","at":"2026-01-15T09:32:00Z"}\n' 0 > "$FUZZ/corpus/fuzz_logs/seed-1"
printf '\001{"v":1,"key":"0123456789abcdef","run":"r1","judge":"appr","model":"openai/gpt-4o-mini","prompt_hash":"fedcba9876543210","at":"2026-01-15T09:30:00Z","verdict":{"status":"ok","score":1,"passed":true,"details":{"reason":"fine"},"error":null}}\n{"v":1,"key":"1123456789abcdef","group":"0123456789abcdef","run":"r1","judge":"appr","verdict":{"status":"error","error":"HTTP 500"}}\n' > "$FUZZ/corpus/fuzz_logs/seed-2"
mkdir -p "$FUZZ/corpus/fuzz_reply"
printf '\000{"score": 4, "reason": "fine"}' > "$FUZZ/corpus/fuzz_reply/seed-1"
printf '\001{"choices":[{"message":{"content":"{\\"score\\": 1, \\"reason\\": \\"ok\\"}"}}],"usage":{"prompt_tokens":3,"completion_tokens":2}}' > "$FUZZ/corpus/fuzz_reply/seed-2"
printf '\003{"content":[{"type":"text","text":"{\\"score\\": 3}"}],"usage":{"input_tokens":3,"output_tokens":2}}' > "$FUZZ/corpus/fuzz_reply/seed-3"
printf '\004The first call was right.\n===\n{"score": 2, "reason": "wrong city"}' > "$FUZZ/corpus/fuzz_reply/seed-4"

# Every finding, once fixed, stays as a regression input: each target
# first runs over its own (tests/fuzz/regressions/TARGET/*).
failed=0
for name in fuzz_dataset fuzz_config fuzz_reply fuzz_logs; do
	dir="$SRC/tests/fuzz/regressions/$name"
	[ -d "$dir" ] || continue
	if "$FUZZ/$name" -timeout=10 -rss_limit_mb=2048 "$dir"/* > "$FUZZ/$name.regressions.log" 2>&1; then
		echo "$name: $(ls "$dir" | wc -l | tr -d ' ') regression inputs pass"
	else
		echo "$name: a regression input fails again: see $FUZZ/$name.regressions.log"
		grep -m 10 -E 'ERROR|SUMMARY|runtime error' "$FUZZ/$name.regressions.log"
		failed=1
	fi
done
printf '%-14s %12s %10s %8s  %s\n' "fuzz target" "executions" "exec/s" "corpus" "result"
for name in fuzz_dataset fuzz_config fuzz_reply fuzz_logs; do
	bin="$FUZZ/$name"
	[ -x "$bin" ] || { echo "fuzz: $bin is not built (configure with --enable-fuzzing)"; exit 2; }
	log="$FUZZ/$name.log"
	"$bin" -max_total_time="$SECONDS_EACH" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
		-dict="$SRC/tests/fuzz/json.dict" -print_final_stats=1 \
		-artifact_prefix="$FUZZ/findings/$name-" "$FUZZ/corpus/$name" > "$log" 2>&1
	rc=$?
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
	rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
	files=$(ls "$FUZZ/corpus/$name" | wc -l | tr -d ' ')
	if [ "$rc" -eq 0 ]; then
		result=ok
	else
		result="FINDING (exit $rc): see $log and $FUZZ/findings"
		failed=1
	fi
	printf '%-14s %12s %10s %8s  %s\n' "$name" "${execs:-?}" "${rate:-?}" "$files" "$result"
	[ "$rc" -eq 0 ] || grep -m 20 -E 'ERROR|SUMMARY|#[0-9]+ 0x' "$log"
done
exit $failed
