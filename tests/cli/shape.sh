#!/bin/sh
# shape.sh - the reader by shape: a conversation no format claims is read by
# its shape and every output says so (formats, score's table, the screen's
# status line); a record with no conversation says what to do; a loader
# whose claim reads nothing passes the record on; a forced --format is not
# passed on. Then its quality, forced on every shared real sample of other
# ecosystems (../shared/fixtures/real/wild): per file it reports no call the
# sample's count does not have, and it finds 90% of all their calls.
. "$TCR_SRCDIR/tests/cli/lib.sh"

printf 'scorers:\n  - id: any\n    type: tool-call-accuracy\n    expectedTool: no-such-tool\n' > "$TMP/any.yaml"

# ---- a conversation of nobody's format ----------------------------------------------
cat > "$TMP/odd.jsonl" <<'EOF'
{"session":{"events":[{"sender":"human","message":"Where is order 7?"},{"sender":"bot","message":"Looking it up.","actions":[{"toolName":"lookup_order","kwargs":{"order":7},"callId":"k1"}]},{"callId":"k1","result":"shipped"},{"sender":"bot","message":"It has shipped."}]}}
EOF
run_tcr "$TMP/o" "$TMP/err" score -c "$TMP/any.yaml" -o jsonl "$TMP/odd.jsonl"
assert_grep "score: the row says shape" "$TMP/o" '"format":"shape"'
assert_grep "score: the call is read" "$TMP/o" '"actualTools":["lookup_order"]'
run_tcr "$TMP/o" "$TMP/err" score -c "$TMP/any.yaml" -o table "$TMP/odd.jsonl"
assert_grep "score's table says a run was read by shape" "$TMP/o" "read by shape: 1 run (no format claims"
run_tcr "$TMP/o" "$TMP/err" formats "$TMP/odd.jsonl"
assert_rc "formats: read" 0
assert_grep "formats: the record line says shape" "$TMP/o" \
	"$TMP/odd.jsonl:1  shape  -  messages 4  calls 1  results 1  failed 0  notes 1  (read by shape)"
assert_grep "formats: the run carries a note saying so" "$TMP/o" "read by shape: its messages and calls were found by their shape"

# The screen's status line says so too, whatever else gives way.
printf '\n:save-display %s\n' "$TMP/odd.screen" > "$TMP/odd.keys"
(cd "$TMP" && HOME="$TMP" LANG=C.UTF-8 LC_ALL=C.UTF-8 TZ=UTC TERM=dumb NO_COLOR=1 LINES=30 \
	COLUMNS=160 TCR_NO_ANIMATION=1 TCR_SCRIPT="$TMP/odd.keys" timeout 300 "$TCR_BIN" \
	"$TMP/odd.jsonl" </dev/null >"$TMP/odd.out" 2>"$TMP/odd.err"); RC=$?
assert_rc "the screen: exit 0" 0
assert_grep "the screen's status line: by shape" "$TMP/odd.screen" "run 1 of 1 (by shape)"

# ---- nothing conversation-like ---------------------------------------------------------
printf '{"temperature": 21, "readings": [{"sensor": "a", "value": 3}]}\n' > "$TMP/none.jsonl"
run_tcr "$TMP/o" "$TMP/err" formats "$TMP/none.jsonl"
assert_rc "no conversation: not read, exit 3" 3
assert_grep "no conversation: said clearly, with what to do" "$TMP/o" \
	"no format"
run_tcr "$TMP/o" "$TMP/err" score -c "$TMP/any.yaml" -o jsonl "$TMP/none.jsonl"
assert_grep "score: the message names the record and what to do" "$TMP/err" \
	"$TMP/none.jsonl:1: not a transcript format tcreview knows, and no conversation found by its shape"
run_tcr "$TMP/o" "$TMP/err" score -c "$TMP/any.yaml" -o jsonl --format shape "$TMP/none.jsonl"
assert_grep "--format shape: no conversation found" "$TMP/err" "$TMP/none.jsonl:1: no conversation found"

# ---- a loader whose claim reads nothing passes the record on ----------------------------
printf '{"$schemaVersion":"1.0","original_input":[],"generated_items":[],"model_responses":[{"output":[{"type":"function_call","name":"lookup","arguments":"{}","call_id":"c1"}]}]}\n' > "$TMP/claimed.jsonl"
run_tcr "$TMP/o" "$TMP/err" formats "$TMP/claimed.jsonl"
assert_grep "a claim that reads nothing goes on to shape" "$TMP/o" "$TMP/claimed.jsonl:1  shape  -  messages 1  calls 1"
run_tcr "$TMP/o" "$TMP/err" formats --format openai-agents "$TMP/claimed.jsonl"
assert_grep "a forced format is not passed on" "$TMP/o" "$TMP/claimed.jsonl:1  openai-agents  -  messages 0  calls 0"
# An empty run its loader reads legitimately stays that loader's.
printf '{"$schemaVersion":"1.0","original_input":[],"generated_items":[]}\n' > "$TMP/empty.jsonl"
run_tcr "$TMP/o" "$TMP/err" formats "$TMP/empty.jsonl"
assert_grep "an empty run with nothing to find stays its loader's" "$TMP/o" "$TMP/empty.jsonl:1  openai-agents  -  messages 0  calls 0"

# ---- forced on the shared real samples ------------------------------------------------
W="${TCR_SHARED_DIR:-}/fixtures/real/wild"
if [ ! -f "$W/count_tools.py" ]; then
	skip "the reader by shape on the real samples" "not found (set TCR_SHARED_DIR to the shared reference folder)"
	finish
fi
if ! command -v python3 >/dev/null 2>&1; then
	skip "the reader by shape on the real samples" "python3 not found (it counts the samples' calls)"
	finish
fi
python3 "$W/count_tools.py" > "$TMP/counts" 2>/dev/null
# Where the rules every reader follows count a call the sample's count
# leaves out, the call is still in the record, and named here:
# OpenHands' finish is a tool call of the model (toolu_... "finish"), and
# a Responses tool_search_call is a hosted call.
allowed_extra() {
	case $1 in
	openhands-events/wrong_initial_state.json) echo 1 ;;
	openai-agents-runstate/v1_5_tool_search_and_display_metadata.json) echo 1 ;;
	*) echo 0 ;;
	esac
}
found_all=0 count_all=0 files=0
while IFS='|' read -r name runs tools rest; do
	name=$(echo "$name" | tr -d ' ')
	want=$(echo "$tools" | sed 's/[^0-9]//g')
	[ -n "$want" ] && [ -e "$W/$name" ] || continue
	"$TCR_BIN" score -c "$TMP/any.yaml" -o jsonl --format shape "$W/$name" > "$TMP/rows" 2>/dev/null
	got=$(python3 -c 'import json,sys
print(sum(len((r.get("details") or {}).get("actualTools") or []) for r in map(json.loads, (l for l in open(sys.argv[1]) if l.startswith("{"))) if r.get("status") == "ok"))' "$TMP/rows")
	extra=$(allowed_extra "$name")
	echo "    $name: $got of $want calls"
	files=$((files + 1))
	found_all=$((found_all + got))
	count_all=$((count_all + want))
	if [ "$got" -gt "$want" ] && [ "$got" -le $((want + extra)) ]; then
		pass "shape on $name: $got of $want, the extra one a call the rules count and the sample's count leaves out"
	elif [ "$got" -le "$want" ]; then
		pass "shape on $name: no call the sample does not have ($got of $want)"
	else
		fail "shape on $name: no call the sample does not have" "found $got, the sample has $want"
	fi
done < "$TMP/counts"
echo "    all $files samples: $found_all of $count_all calls"
if [ "$files" -gt 0 ] && [ $((found_all * 100)) -ge $((count_all * 90)) ]; then
	pass "shape finds at least 90% of the samples' calls ($found_all of $count_all)"
else
	fail "shape finds at least 90% of the samples' calls" "$found_all of $count_all in $files files"
fi
finish
