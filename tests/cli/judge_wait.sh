#!/bin/sh
# judge_wait.sh - J never keeps a key waiting, in a real terminal (tmux):
# not for local judges whose connect hangs (their probes are polled by the
# loop, and their answer comes later), not for gathering the examples of
# a judge with examples: from 5,000 labelled runs (gathered between keys,
# the request sent after, with the prompt `tcreview judge` makes).
#
# Orders are made, not timed: the listener the probes connect to holds
# them (its accept queue is full) until the test lets it go, and J and j
# reach the program together, so the J's few milliseconds of gathering
# end before j is read. The program's own trace (TCR_TRACE) says in which
# order the keys and the judges' messages came. Every wait polls, bounded
# by a minute: a guard against a hang, never a measure.
. "$TCR_SRCDIR/tests/cli/lib.sh"

if ! command -v python3 >/dev/null 2>&1; then
	skip "J in tmux" "python3 is needed for the listener that holds connects"
	finish
fi
. "$TCR_SRCDIR/tests/cli/tmux_lib.sh"
tmux_setup "J in tmux" wait 'touch "$TMP/release"; fake_llm_stop;'

# start NAME CONFIG RUNS [ENV...]: the screen in a detached 80x24 session,
# its trace in $TMP/NAME.trace.
start() {
	name=$1 conf=$2 runs=$3
	shift 3
	cat > "$TMP/$name.sh" <<EOF
cd "$TMP" || exit 1
env TERM=$PANE_TERM LANG=C.UTF-8 LC_ALL=C.UTF-8 TZ=UTC NO_COLOR=1 HOME="$TMP" \
	TCR_FAKE_NOW=2026-01-15T09:30:00Z TCR_TRACE="$TMP/$name.trace" $* \
	"$TCR_BIN" -c $conf --reviewer qa $runs
echo "EXITED \$?"
EOF
	tmux_spawn "$name" 80 24
}
# line_no FILE TEXT: the number of the first line of FILE holding TEXT, else 999999.
line_no() { n=$(grep -nF -- "$2" "$1" 2>/dev/null | head -n 1 | cut -d: -f1); echo "${n:-999999}"; }
# line_re FILE RE: the same for an extended regular expression.
line_re() { n=$(grep -nE -- "$2" "$1" 2>/dev/null | head -n 1 | cut -d: -f1); echo "${n:-999999}"; }
# before NAME FILE A B: a check that A comes before B in FILE (fixed strings;
# A may be an extended regular expression given as /RE/).
before() {
	case $3 in
	/*/) a=$(line_re "$2" "$(echo "$3" | sed 's|^/||; s|/$||')") ;;
	*) a=$(line_no "$2" "$3") ;;
	esac
	b=$(line_no "$2" "$4")
	if [ "$a" -lt 999999 ] && [ "$a" -lt "$b" ]; then pass "$1"
	else fail "$1" "'$3' (line $a) before '$4' (line $b) in:" "$(cat "$2")"; fi
}
# key_ms FILE KEY: what the trace says the key took (handled and drawn).
key_ms() { grep "^key $2 " "$1" | head -n 1 | cut -d' ' -f3; }

# ---- two local judges whose connects hang --------------------------------------
# A listener on 127.0.0.1 whose accept queue is full (backlog 0, filled by
# connects it never accepts): the kernel drops further SYNs, so a connect
# stays in flight until the listener closes, after which it is refused.
cat > "$TMP/hold.py" <<'EOF'
import os, socket, sys, time
d = sys.argv[1]
s = socket.socket()
s.bind(("127.0.0.1", 0))
s.listen(0)
port = s.getsockname()[1]
fill = []
for i in range(3):
    c = socket.socket()
    c.setblocking(False)
    try:
        c.connect(("127.0.0.1", port))
    except BlockingIOError:
        pass
    fill.append(c)
with open(os.path.join(d, "hold.port.tmp"), "w") as f:
    f.write(str(port))
os.rename(os.path.join(d, "hold.port.tmp"), os.path.join(d, "hold.port"))
# held until the test lets go (or 10 minutes: a guard if it is killed)
for i in range(6000):
    if os.path.exists(os.path.join(d, "release")):
        break
    time.sleep(0.1)
s.close()
EOF
python3 "$TMP/hold.py" "$TMP" &
HOLD_PID=$!
n=0
until [ -s "$TMP/hold.port" ] || [ "$n" -ge 600 ]; do n=$((n + 1)); sleep 0.1; done
HPORT=$(cat "$TMP/hold.port" 2>/dev/null)
cp "$TCR_SRCDIR/tests/data/screen-runs.jsonl" "$TMP/"
cat > "$TMP/hold.yaml" <<EOF
judges:
  - id: near
    rubric: tool-appropriateness
    model: ollama/llama3.2
    base_url: http://127.0.0.1:$HPORT/v1
  - id: also
    rubric: tool-appropriateness
    model: ollama/llama3.2
    base_url: http://127.0.0.1:$HPORT/v1
EOF

# The probes' own limit is 300 ms; here 10 minutes, so that only the
# listener's closing ends them.
start probe hold.yaml screen-runs.jsonl TCR_REACH_TIMEOUT_MS=600000
if ! $T has-session -t probe 2>/dev/null; then
	skip "J in tmux" "tmux could not start a server here"
	finish
fi
expect probe "the list shows" "run 1 of 6 (openai-chat)"
$T send-keys -t probe J
expect probe "J with two judges offers the menu" "judge: Enter all, 1 near, 2 also"
$T send-keys -t probe Enter j
expect probe "J is answered at once: it says it is probing" "probing 2 local judges"
expect probe "and j moved the list meanwhile" "run 2 of 6  reviewed 0 of 6  probing"
if cap probe | grep -qF "could not be reached"; then
	fail "the probes have not answered while the listener holds them" "$(cap probe)"
else
	pass "the probes have not answered while the listener holds them"
fi
touch "$TMP/release"
wait "$HOLD_PID" 2>/dev/null
expect probe "once nothing listens, the probes' answer comes, with today's message" \
	"2 judges could not be reached (their rows say why)"
before "trace: J is handled before the probes answer" "$TMP/probe.trace" "key Enter " \
	"judges 2 judges could not be reached"
before "trace: j moved before the probes answered" "$TMP/probe.trace" "key j " \
	"judges 2 judges could not be reached"
$T send-keys -t probe k
expect probe "the run asked about is marked on its rows" "unreached"
echo "    J (Enter of its menu) took $(key_ms "$TMP/probe.trace" Enter) ms; j took $(key_ms "$TMP/probe.trace" j) ms"
$T send-keys -t probe q
expect probe "q quits with status 0" "EXITED 0"

# ---- a judge with examples and 5,000 labelled runs -------------------------------
fake_llm_need
cat > "$TMP/fs.json" <<'EOF'
{"rules": [], "default": {"content": {"score": 4, "reason": "fine", "status": "completed"}}}
EOF
fake_llm_start fs "$TMP/fs.json"
mkdir "$TMP/many"
# 5,000 runs, each labelled once on the judge's row (scores 1..5 in turn).
python3 - "$TMP/many" <<'EOF'
import json, sys
d = sys.argv[1]
with open(d + "/runs.jsonl", "w") as runs, open(d + "/runs.jsonl.annotations.jsonl", "w") as ann:
    for i in range(1, 5001):
        rid = "r%05d" % i
        runs.write(json.dumps({"id": rid, "model": "gpt-4o", "messages": [
            {"role": "user", "content": "Where is my order %d?" % i},
            {"role": "assistant", "content": None, "tool_calls": [{"id": "c%d" % i, "type": "function",
                "function": {"name": "get_order", "arguments": json.dumps({"order_id": str(i)})}}]},
            {"role": "tool", "tool_call_id": "c%d" % i, "content": "shipped"},
            {"role": "assistant", "content": "Order %d has shipped." % i}]}) + "\n")
        ann.write(json.dumps({"v": 2, "run": rid, "source": "runs.jsonl:%d" % i, "run_hash": None,
            "scorer": "acc", "scorer_type": "tool-call-accuracy-1to5", "model": "openai/judge-model",
            "prompt_hash": "fedcba9876543210", "machine_score": 3, "machine_passed": True,
            "decision": "override", "score": 1 + i % 5, "reason": "reason %d" % i, "reviewer": "ann",
            "blind": False, "at": "2026-01-%02dT09:00:00Z" % (1 + i % 28),
            "config": "0123456789abcdef"}, separators=(",", ":")) + "\n")
EOF
cat > "$TMP/many/judges.yaml" <<EOF
judges:
  - id: acc
    rubric: tool-call-accuracy-1to5
    model: openai/judge-model
    base_url: http://127.0.0.1:$PORT/v1
    max_retries: 0
    tools: [{name: get_order, description: looks an order up}]
    examples: {k: 3, pick: stratified, split: train, splits: "train=1"}
EOF
OPENAI_API_KEY=sk-tcr-test-DUMMY-wait
export OPENAI_API_KEY
start many many/judges.yaml many/runs.jsonl OPENAI_API_KEY=$OPENAI_API_KEY
expect many "5,000 runs: the list shows" "run 1 of 5000"
# Summarized to the end (the examples are gathered from summarized runs).
n=0
while cap many | grep -qE "indexing|scoring" && [ "$n" -lt 600 ]; do n=$((n + 1)); sleep 0.1; done
expect many "and the runs are all scored" "reviewed 0 of 5000"
: > "$TMP/many.trace.mark"
$T send-keys -t many J j
expect many "j moved the list" "run 2 of 5000"
expect many "the judge answered about the run J asked about" "acc answered: 4 (pass)"
# J's own note (written before its key's line) says it gathers; the
# gathering begun at opening says so without "(Esc cancels)".
J_GATHERS='/^judges gathering examples.* \(Esc cancels\)$/'
before "trace: J is answered while the examples are still being gathered" "$TMP/many.trace" \
	"$J_GATHERS" "key J "
before "trace: j is handled before the gathering ends" "$TMP/many.trace" "key j " \
	"judges asking 1 judge"
before "trace: the request is sent after the gathering" "$TMP/many.trace" \
	"$J_GATHERS" "judges asking 1 judge"
assert_eq "one request went out" "$(grep -c '"path"' "$TMP/fs.log")" 1
echo "    J took $(key_ms "$TMP/many.trace" J) ms; j took $(key_ms "$TMP/many.trace" j) ms"
$T send-keys -t many q
expect many "q quits with status 0" "EXITED 0"

# The same examples as `tcreview judge` chooses for the first run: its
# request (--batch-out writes it without sending; --refresh, as the screen
# cached its verdict) has the same prompt.
(cd "$TMP/many" && "$TCR_BIN" judge -c judges.yaml --limit 1 --refresh --batch-out batch.jsonl \
	runs.jsonl) >"$TMP/batch.out" 2>"$TMP/batch.err"
python3 - "$TMP/fs.log" "$TMP/many/batch.jsonl" > "$TMP/prompts.cmp" 2>&1 <<'EOF'
import json, sys
def user(body):
    return [m["content"] for m in body["messages"] if m["role"] == "user"]
screen = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
sent = user(screen[-1]["body"])
# The prompt holds the run judged and its examples: only the batch's
# request about the same run with the same examples is equal to it.
same = any(user(json.loads(l)["body"]) == sent for l in open(sys.argv[2]) if l.strip())
print("same" if same else "differ")
if not same:
    print(json.dumps(sent)[:3000])
EOF
assert_grep "the screen's request shows the examples tcreview judge chooses" "$TMP/prompts.cmp" "same"

finish
