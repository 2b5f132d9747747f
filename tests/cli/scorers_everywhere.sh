#!/bin/sh
# scorers_everywhere.sh - the trajectory-match, exec (both protocols) and
# record-field scorers seen where a reviewer meets them: `score`'s table,
# the review screen (verdict rows, the details of each, accepting them all
# into the annotations file) and `stats` over those labels.
. "$TCR_SRCDIR/tests/cli/lib.sh"
. "$TCR_SRCDIR/tests/cli/screen_lib.sh"

if ! command -v python3 >/dev/null 2>&1; then
	skip "scorers everywhere" "python3 is not installed"
	finish
fi
# Three tau-bench-like runs: r1 makes the expected calls, r2 refunds with
# the wrong amount, r3 makes no call; each carries its benchmark reward.
call() { printf '{"id":"%s","type":"function","function":{"name":"%s","arguments":"%s"}}' "$1" "$2" "$3"; }
run() { # ID REWARD CALLS...
	id=$1 reward=$2; shift 2
	calls=$(IFS=,; echo "$*")
	msgs='{"role":"user","content":"I want a refund for order 7."}'
	[ -n "$calls" ] && msgs="$msgs"',{"role":"assistant","content":null,"tool_calls":['"$calls"']}'
	msgs="$msgs"',{"role":"assistant","content":"Done."}'
	printf '{"id":"%s","reward":%s,"expected_actions":[{"name":"get_order","arguments":{"order_id":7}},{"name":"refund","arguments":{"order_id":7,"amount":20}}],"messages":[%s]}\n' \
		"$id" "$reward" "$msgs"
}
{
	run r1 1 "$(call c1 get_order '{\"order_id\": 7}')" "$(call c2 refund '{\"order_id\": 7, \"amount\": 20.0}')"
	run r2 0 "$(call c1 get_order '{\"order_id\": 7}')" "$(call c2 refund '{\"order_id\": 7, \"amount\": 200}')"
	run r3 0
} > "$TMP/runs.jsonl"
mkdir -p "$TMP/checks"
cat > "$TMP/checks/polite.py" <<'PY'
import json, sys
for line in sys.stdin:
    run = json.loads(line)
    last = [m["text"] or "" for m in run["messages"] if m["role"] == "assistant"][-1]
    n = len(run["calls"])
    print(json.dumps({"id": run["id"], "score": 1 if n else 0,
                      "reason": "%d calls before '%s'" % (n, last)}), flush=True)
PY
cat > "$TMP/everywhere.yaml" <<'YAML'
runs: {id: id}
scorers:
  - id: actions
    type: trajectory-match
    reference: {from: expected_actions}
    mode: strict
    args: exact
  - id: checker
    type: exec
    command: [python3, checks/polite.py]
    protocol: stream
    timeout: 5m
  - id: reward
    type: record-field
    path: reward
    scale: binary
YAML

run_tcr "$TMP/table" "$TMP/err" score -c "$TMP/everywhere.yaml" -o table "$TMP/runs.jsonl"
assert_rc "score exits 0" 0
# scorer, runs, scored, passed (the type stands between)
for row in "actions 3 3 1" "checker 3 3 2" "reward 3 3 1"; do
	set -- $row
	got=$(awk -v id="$1" '$1 == id { print $1, $3, $4, $5 }' "$TMP/table")
	assert_eq "score table: $1" "$got" "$row"
done

# The screen: every verdict row of r2, the details of the trajectory one,
# then every verdict of every run accepted.
SCREEN_CONFIG=everywhere.yaml
SCREEN_LINES=40
SCREEN_COLS=120
run_screen everywhere "j<Tab><Tab>
:save-display %D/rows.screen
<Enter>
:save-display %D/details.screen
<Enter>j<Enter>
:save-display %D/exec.screen
<Esc>g
AAA" runs.jsonl
for want in "actions" "checker" "reward"; do
	assert_grep "screen: the $want row" "$TMP/rows.screen" "$want"
done
assert_grep "screen: the exec reason" "$TMP/exec.screen" "2 calls before 'Done.'"
assert_grep "screen: what differed in the refund, numbers as written" "$TMP/details.screen" "amount: output 200 reference 20"
assert_eq "screen: nine verdicts accepted" "$(grep -c '"decision":"accept"' "$ANNOT")" 9

run_tcr "$TMP/stats" "$TMP/err" stats -c "$TMP/everywhere.yaml" -a "$ANNOT" -o table "$TMP/runs.jsonl"
assert_rc "stats exits 0" 0
for pass_rate in "actions: 0.333" "checker: 0.667" "reward: 0.333"; do
	id=${pass_rate%%:*}
	# one reviewer: the row that names her (the consensus would repeat it)
	assert_grep "stats: $id agrees with its 3 labels" "$TMP/stats" \
		"scorer:$id ~ human:qa  3      1.000  1.000"
	assert_grep "stats: $id's intervals" "$TMP/stats" \
		"scorer:$id ~ human:qa  [1.000, 1.000]  [1.000, 1.000]"
	assert_grep "stats: $id's pass rate" "$TMP/stats" "pass rate of scorer:$pass_rate over 3 runs"
done
finish
