#!/bin/sh
# judge_bench.sh BUILDDIR SRCDIR RUNS - batch judging throughput against the
# local test server answering every request after 200 ms, at concurrency
# 1, 8 and 32, as runs/s and as a ratio to the ideal (concurrency / latency).
# Target: 0.9 of the ideal at 32. Only 127.0.0.1 is ever contacted.
set -u
BUILD=$1 SRC=$2 RUNS=$3
OUT="$BUILD/bench/out/judge"
mkdir -p "$OUT"
TCR="$BUILD/tcreview"
TCR_FAKE_LLM="$BUILD/tests/fake_llm"
[ -x "$TCR_FAKE_LLM" ] || (cd "$BUILD" && make tests/fake_llm >/dev/null) || { echo "judge bench: cannot build tests/fake_llm"; exit 1; }
# The test suites' start and stop of the server (tests/cli/lib.sh).
TCR_BIN=$TCR TCR_SRCDIR=$SRC
. "$SRC/tests/cli/lib.sh"
LAT=${BENCH_JUDGE_LATENCY_MS:-200}
cat > "$OUT/script.json" <<JSON
{"rules": [], "default": {"delay_ms": $LAT, "content": "{\"score\": 4, \"reason\": \"clear and polite\"}"}}
JSON
fake_llm_start bench "$OUT/script.json" --max-seconds 300 --log /dev/null >/dev/null ||
	{ echo "judge bench: the test server did not start"; exit 1; }
cat > "$OUT/prompt.txt" <<'TXT'
=== system
You rate how helpful the agent's final answer is.
=== user
Request: {{input}}
Answer: {{output}}
Reply with JSON {"score": 1-5, "reason": "..."}.
TXT
cat > "$OUT/judge.yaml" <<YAML
judges:
  - id: helpful
    rubric: custom
    model: openai/bench-model
    base_url: http://127.0.0.1:$PORT/v1
    prompt_file: prompt.txt
    scale: {min: 1, max: 5, pass: 4}
YAML
export OPENAI_API_KEY=bench-not-a-real-key
printf '\n%-18s %6s %8s %9s %9s %7s\n' "judge batch" "conc." "runs" "runs/s" "ideal" "ratio"
for c in 1 8 32; do
	case $c in 1) limit=20 ;; 8) limit=160 ;; *) limit=640 ;; esac
	rm -f "$RUNS.judgements.jsonl"
	start=$(date +%s.%N)
	"$TCR" judge --refresh --concurrency "$c" --limit "$limit" -c "$OUT/judge.yaml" "$RUNS" > "$OUT/out.jsonl" 2> "$OUT/err.txt" ||
		{ echo "judge bench: tcreview judge failed"; cat "$OUT/err.txt"; exit 1; }
	end=$(date +%s.%N)
	got=$(grep -c '"status":"ok"' "$OUT/out.jsonl")
	awk -v s="$start" -v e="$end" -v n="$got" -v c="$c" -v lat="$LAT" -v want="$limit" 'BEGIN {
		t = e - s; rate = t > 0 ? n / t : 0; ideal = c / (lat / 1000); ratio = rate / ideal
		verdict = ""
		if (c == 32) verdict = ratio >= 0.9 ? "target >= 0.9  ok" : "target >= 0.9  MISSED"
		printf "%-18s %6d %8d %9.1f %9.1f %7.2f  %s\n", "", c, n, rate, ideal, ratio, verdict
		if (n != want) printf "judge bench: only %d of %d verdicts were ok\n", n, want
	}'
done
rm -f "$RUNS.judgements.jsonl"
