#!/bin/sh
# exec_bench.sh BUILDDIR SRCDIR RUNS - how fast the exec scorer scores, in
# both protocols: runs/s of a trivial check in sh, Python and Node, one
# process per run (per-run) and one per worker (stream), on the first
# BENCH_EXEC_RUNS (default 2000; per-run interpreters get a fifth of them)
# runs of the chat file, beside tool-call-accuracy on the same runs (the
# baseline of the same machine and moment) and a second pass answered from
# the cache. Target: stream at least BENCH_TARGET_STREAM_X (default 5)
# times per-run, in Python. All on the machine's cores (-j default).
set -u
BUILD=$1 SRC=$2 RUNS=$3
OUT="$BUILD/bench/out/exec"
mkdir -p "$OUT/checks"
TCR="$BUILD/tcreview"
N=${BENCH_EXEC_RUNS:-2000}
NSLOW=$((N / 5))
TX=${BENCH_TARGET_STREAM_X:-5}
export TCR_CACHE_DIR="$OUT/cache"
rm -rf "$TCR_CACHE_DIR"
head -n "$N" "$RUNS" > "$OUT/runs.jsonl"
head -n "$NSLOW" "$RUNS" > "$OUT/runs_slow.jsonl"

cat > "$OUT/checks/one.sh" <<'SH'
#!/bin/sh
cat >/dev/null
echo '{"score": 1}'
SH
chmod +x "$OUT/checks/one.sh"
cat > "$OUT/checks/per_run.py" <<'PY'
import json, sys
run = json.load(sys.stdin)
print(json.dumps({"score": 1 if run["calls"] else 0}))
PY
cat > "$OUT/checks/stream.py" <<'PY'
import json, sys
for line in sys.stdin:
    run = json.loads(line)
    print(json.dumps({"id": run["id"], "score": 1 if run["calls"] else 0}), flush=True)
PY
cat > "$OUT/checks/per_run.js" <<'JS'
let s = "";
process.stdin.on("data", (d) => (s += d));
process.stdin.on("end", () => console.log(JSON.stringify({ score: JSON.parse(s).calls.length ? 1 : 0 })));
JS
cat > "$OUT/checks/stream.js" <<'JS'
const rl = require("readline").createInterface({ input: process.stdin });
rl.on("line", (l) => { const r = JSON.parse(l); console.log(JSON.stringify({ id: r.id, score: r.calls.length ? 1 : 0 })); });
JS

# yaml ID TYPE-AND-OPTIONS: a configuration of one scorer.
yaml() { printf 'scorers:\n  - {id: %s, %s}\n' "$1" "$2" > "$OUT/$1.yaml"; }
yaml builtin 'type: tool-call-accuracy, expectedTool: get_order'
yaml sh_per_run 'type: exec, command: [./checks/one.sh], cache: false'
yaml py_per_run 'type: exec, command: [python3, checks/per_run.py], cache: false'
yaml py_stream 'type: exec, command: [python3, checks/stream.py], protocol: stream, cache: false'
yaml py_cached 'type: exec, command: [python3, checks/stream.py], protocol: stream'
yaml js_per_run 'type: exec, command: [node, checks/per_run.js], cache: false'
yaml js_stream 'type: exec, command: [node, checks/stream.js], protocol: stream, cache: false'

# measure NAME FILE: runs/s of `score` with NAME's configuration, printed
# and kept in $OUT/NAME.rate.
measure() {
	n=$(wc -l < "$2" | tr -d ' ')
	start=$(date +%s.%N)
	"$TCR" score -c "$OUT/$1.yaml" -o jsonl "$2" > "$OUT/$1.out" 2> "$OUT/$1.err"
	rc=$?
	end=$(date +%s.%N)
	ok=$(grep -c '"status":"ok"' "$OUT/$1.out")
	if [ "$rc" -gt 1 ] || [ "$ok" -ne "$n" ]; then
		echo "exec bench: $1 scored $ok of $n runs (exit $rc)"
		head -c 1000 "$OUT/$1.err"
		grep -m 3 '"status":"error"' "$OUT/$1.out" | cut -c 1-300
		exit 1
	fi
	awk -v s="$start" -v e="$end" -v n="$n" 'BEGIN { t = e - s; printf "%.1f\n", (t > 0 ? n / t : 0) }' > "$OUT/$1.rate"
	printf '%-18s %-20s %7d %10s\n' "" "$1" "$n" "$(cat "$OUT/$1.rate")"
}
rate() { cat "$OUT/$1.rate"; }

printf '\n%-18s %-20s %7s %10s\n' "exec scorer" "check" "runs" "runs/s"
measure builtin "$OUT/runs.jsonl"
measure sh_per_run "$OUT/runs_slow.jsonl"
measure py_per_run "$OUT/runs_slow.jsonl"
measure py_stream "$OUT/runs.jsonl"
measure py_cached "$OUT/runs.jsonl"
cp "$OUT/py_cached.rate" "$OUT/py_cold.rate"
measure py_cached "$OUT/runs.jsonl"
if command -v node >/dev/null 2>&1; then
	measure js_per_run "$OUT/runs_slow.jsonl"
	measure js_stream "$OUT/runs.jsonl"
fi
awk -v pr="$(rate py_per_run)" -v st="$(rate py_stream)" -v cold="$(rate py_cold)" \
    -v hot="$(rate py_cached)" -v base="$(rate builtin)" -v tx="$TX" 'BEGIN {
	x = (pr > 0) ? st / pr : 0
	printf "%-18s Python stream / per-run %.1fx   %-16s %s\n", "", x, sprintf("target >= %gx", tx), (x >= tx ? "ok" : "MISSED")
	printf "%-18s cached pass %.0f runs/s (%.1fx the first), tool-call-accuracy %.0f runs/s\n", "",
	       hot, (cold > 0 ? hot / cold : 0), base
}'
