#!/bin/sh
# generic_scorers.sh - `tcreview score` with tool-errors and unanswered-calls,
# the checks that need no ground truth, over every real sample of the
# shared reference folder: how many runs of each file pass, fail, are
# skipped or cannot be read, and the failed and unanswered calls of the
# files that have them.
#
# The figures were counted apart from tcreview, over the raw files: the
# agent's calls and their results by each format's own fields (tau-bench's
# traj, tau2's messages with requestor assistant, Claude Code's tool_use /
# tool_result blocks outside progress lines, Codex's response items and
# exec_command_end exit codes, mini-swe-agent's tool messages and their
# <returncode> (extra.returncode agrees), the Messages code execution
# results' return_code, OpenHands'
# observations by cause, the UI stream's tool-input-start / output chunks)
# and the results beginning with "Error:", "Exception:" or "Traceback (most
# recent call last)" in any case; the call counts agree with the shared
# folder's own README.
. "$TCR_SRCDIR/tests/cli/lib.sh"

R="${TCR_SHARED_DIR:-}/fixtures/real"
if [ ! -d "$R" ]; then
	skip "generic scorers on the real samples" "not found (set TCR_SHARED_DIR to the shared reference folder)"
	finish
fi
if ! command -v jq >/dev/null 2>&1; then
	skip "generic scorers on the real samples" "jq is not installed"
	finish
fi

cat > "$TMP/generic.yaml" <<'YAML'
scorers:
  - id: errors
    type: tool-errors
  - id: pairs
    type: unanswered-calls
YAML

# FILE, then passed failed skipped error for errors, then for pairs. The
# expectation files and BFCL's (questions and ground truth, no model
# output) are no transcripts: every record is an error verdict.
cat > "$TMP/expected" <<'EOF'
anthropic_claude_code_sample.jsonl 0 1 0 0 1 0 0 0
bfcl_sample.jsonl 0 0 0 8 0 0 0 8
tau2_expected_sample.jsonl 0 0 0 10 0 0 0 10
tau2_sample.jsonl 10 0 0 0 10 0 0 0
taubench_v1_airline_expected_sample.jsonl 0 0 0 6 0 0 0 6
taubench_v1_airline_sample.jsonl 8 4 0 0 12 0 0 0
wild/ai-sdk-ui-message-stream/langchain-react-agent-tool-calling.json 1 0 0 0 1 0 0 0
wild/ai-sdk-ui-message-stream/langgraph-hitl-request-1.json 0 0 1 0 0 0 1 0
wild/anthropic-messages/anthropic-code-execution-20250825.pptx-skill.json 0 1 0 0 1 0 0 0
wild/anthropic-messages/anthropic-tool-search-bm25.1.json 1 0 0 0 0 1 0 0
wild/chat-completions/deepseek-tool-call.json 0 0 1 0 0 0 1 0
wild/chat-completions/groq-tool-call.json 0 0 1 0 0 0 1 0
wild/chat-completions/mistral-tool-call.json 0 0 1 0 0 0 1 0
wild/claude-code/claude-code-log-edge_cases.jsonl 0 1 1 0 0 1 1 0
wild/claude-code/claude-code-log-representative_messages.jsonl 1 0 0 0 1 0 0 0
wild/claude-code/spotter-ae4a77f8-subagents-agent-aac57f5.jsonl 1 0 0 0 1 0 0 0
wild/claude-code/spotter-short.jsonl 0 1 0 0 1 0 0 0
wild/claude-code/spotter-subagent.jsonl 1 0 0 0 1 0 0 0
wild/claude-code/spotter-tool_heavy.jsonl 1 0 0 0 1 0 0 0
wild/codex-rollout/rollout-2026-01-02T18-39-45-019b7f94-51b4-7593-922e-ba12b5b73b52.jsonl 1 0 0 0 1 0 0 0
wild/codex-rollout/rollout-2026-05-11T11-26-55-019e1625-789d-76c0-80ab-3724b5ddb799.jsonl 0 1 0 0 1 0 0 0
wild/inspect-ai/2025-05-12T20-28-13-04-00_popularity.json 3 0 0 0 3 0 0 0
wild/inspect-ai/log_message_deduplication.eval 1 0 0 0 1 0 0 0
wild/mini-swe-agent-traj/pvlib__pvlib-python-1606.traj.json 1 0 0 0 1 0 0 0
wild/mini-swe-agent-traj/sqlfluff__sqlfluff-2419.traj.json 0 1 0 0 0 1 0 0
wild/openai-agents-runstate/minimal-v1_17.json 1 0 0 0 1 0 0 0
wild/openai-agents-runstate/v1_13_pending_tool_approval.json 0 0 1 0 0 0 1 0
wild/openai-agents-runstate/v1_5_tool_search_and_display_metadata.json 0 0 1 0 0 0 1 0
wild/openai-responses/openai-apply-patch-tool.1.json 0 0 1 0 0 0 1 0
wild/openai-responses/openai-local-shell-tool.1.json 0 0 1 0 0 0 1 0
wild/openai-responses/parallel-tool-call-wrapper.1.json 0 0 1 0 0 0 1 0
wild/openhands-events/basic_gui_mode.json 1 0 0 0 1 0 0 0
wild/openhands-events/wrong_initial_state.json 1 0 0 0 1 0 0 0
wild/otel-openinference-spans/openinference_client_span_tool_calls.json 1 0 0 0 1 0 0 0
wild/otel-openinference-spans/otel_genai_client_span_tool_calls.json 1 0 0 0 1 0 0 0
wild/otel-openinference-spans/otel_genai_tool_execution_span.json 1 0 0 0 1 0 0 0
wild/otel-openinference-spans/vercel-ai-v6-all-spans.json 10 0 0 0 10 0 0 0
wild/swe-agent-traj/ctf-pwn-warmup.traj 1 0 0 0 1 0 0 0
wild/swe-agent-traj/function_calling_simple.traj 1 0 0 0 1 0 0 0
wild/swe-agent-traj/marshmallow-1867__function_calling_replace.traj 1 0 0 0 1 0 0 0
wild/swe-agent-traj/pydicom__pydicom-1458.traj 0 1 0 0 1 0 0 0
EOF

# passed failed skipped error of one scorer in a jsonl output
tally() { # FILE SCORER
	jq -rs --arg s "$2" '[.[] | select(.scorer == $s)]
		| [([.[] | select(.status == "ok" and .passed)] | length),
		   ([.[] | select(.status == "ok" and (.passed | not))] | length),
		   ([.[] | select(.status == "skipped")] | length),
		   ([.[] | select(.status == "error")] | length)] | map(tostring) | join(" ")' "$1"
}

while read -r file e1 e2 e3 e4 u1 u2 u3 u4; do
	if [ ! -f "$R/$file" ]; then
		skip "$file" "not in the shared folder"
		continue
	fi
	"$TCR_BIN" score -c "$TMP/generic.yaml" -o jsonl "$R/$file" > "$TMP/out" 2> "$TMP/err"
	got="$(tally "$TMP/out" errors) | $(tally "$TMP/out" pairs)"
	assert_eq "$file: pass fail skip error" "$got" "$e1 $e2 $e3 $e4 | $u1 $u2 $u3 $u4"
done < "$TMP/expected"

# What the verdicts say, file by file: jq over the verdicts of one file.
verdicts() { # FILE SCORER JQ
	"$TCR_BIN" score -c "$TMP/generic.yaml" -o jsonl "$R/$1" 2>/dev/null |
		jq -rc --arg s "$2" "select(.scorer == \$s) | $3"
}
if [ -f "$R/taubench_v1_airline_sample.jsonl" ]; then
	# tau-bench's failures are the results beginning "Error:", which its
	# loader already flags as failed
	got=$(verdicts taubench_v1_airline_sample.jsonl errors '"\(.details.failed)/\(.details.calls)"' | tr '\n' ' ')
	assert_eq "tau-bench: failed calls per run" "$got" "1/8 0/0 0/7 5/20 0/6 0/6 1/6 0/5 0/27 1/14 0/0 0/6 "
	got=$(verdicts taubench_v1_airline_sample.jsonl errors '.details.failures[] | "\(.why) \(.text[0:6])"' | sort -u)
	assert_eq "tau-bench: flagged, each an Error: text" "$got" "flagged Error:"
fi
if [ -f "$R/tau2_sample.jsonl" ]; then
	# 42 agent calls; the simulated user's (its "Speed test failed") do not count
	got=$(verdicts tau2_sample.jsonl errors '.details.calls' | awk '{ n += $1 } END { print n }')
	assert_eq "tau2: the agent's calls only" "$got" 42
fi
f=wild/codex-rollout/rollout-2026-05-11T11-26-55-019e1625-789d-76c0-80ab-3724b5ddb799.jsonl
if [ -f "$R/$f" ]; then
	got=$(verdicts "$f" errors '"\(.details.failed) of \(.details.calls): \([.details.failures[].number] | join(","))"')
	assert_eq "codex: the calls that exited non-zero" "$got" "4 of 105: 34,41,57,72"
fi
f=wild/swe-agent-traj/pydicom__pydicom-1458.traj
if [ -f "$R/$f" ]; then
	got=$(verdicts "$f" errors '.details.failures[] | "#\(.number) \(.name) \(.why) \(.prefix)"')
	assert_eq "SWE-agent: a traceback" "$got" "#3 python text Traceback (most recent call last)"
fi
f=wild/claude-code/claude-code-log-edge_cases.jsonl
if [ -f "$R/$f" ]; then
	got=$(verdicts "$f" errors 'select(.status == "ok") | .details.failures[] | "\(.name) \(.id) \(.why)"')
	assert_eq "Claude Code: an is_error result" "$got" "FailingTool tool_edge_001 flagged"
	got=$(verdicts "$f" pairs 'select(.status == "skipped") | .reason')
	assert_eq "Claude Code: a session with one call and no result is skipped" "$got" \
		"unanswered-calls: 1 call and not one result: the format or the harness keeps no results (set when_no_results: fail to fail such runs)"
fi
f=wild/mini-swe-agent-traj/sqlfluff__sqlfluff-2419.traj.json
if [ -f "$R/$f" ]; then
	got=$(verdicts "$f" pairs '"\(.details.answered)/\(.details.calls) #\(.details.unanswered_calls[0].number) \(.details.unanswered_calls[0].name)"')
	assert_eq "mini-swe-agent: the final submit has no reply" "$got" "42/43 #43 bash"
	# three replies open with a non-zero <returncode> (1, 1, 4)
	got=$(verdicts "$f" errors '"\(.details.failed) of \(.details.calls): \([.details.failures[] | "#\(.number) \(.text[0:26])"] | join(", "))"')
	assert_eq "mini-swe-agent: the commands that exited non-zero" "$got" \
		"3 of 43: #11 <returncode>1</returncode>, #14 <returncode>1</returncode>, #31 <returncode>4</returncode>"
	got=$(verdicts "$f" errors '[.details.call_marks[] | "\(.call) \(.mark)"] | join(",")')
	assert_eq "mini-swe-agent: their call marks" "$got" "11 failed,14 failed,31 failed"
	got=$(verdicts "$f" pairs '[.details.call_marks[] | "\(.call) \(.mark)"] | join(",")')
	assert_eq "mini-swe-agent: the unanswered submit's mark" "$got" "43 no-result"
fi
f=wild/mini-swe-agent-traj/pvlib__pvlib-python-1606.traj.json
if [ -f "$R/$f" ]; then
	got=$(verdicts "$f" errors '"\(.details.failed) of \(.details.calls) \(.details.call_marks | length)"')
	assert_eq "mini-swe-agent: every command exited 0, no mark" "$got" "0 of 4 0"
fi
f=wild/anthropic-messages/anthropic-code-execution-20250825.pptx-skill.json
if [ -f "$R/$f" ]; then
	# one bash_code_execution_result with return_code 1 (its error is on
	# stdout); fourteen exit 0, some printing Error: on stderr
	got=$(verdicts "$f" errors '"\(.details.failed) of \(.details.calls): \([.details.failures[] | "#\(.number) \(.name) \(.why) \(.text[0:36])"] | join(", "))"')
	assert_eq "Messages: the code execution that exited 1" "$got" \
		"1 of 61: #59 bash_code_execution flagged exit code 1 Processing: renewable-en"
fi
f=wild/chat-completions/groq-tool-call.json
if [ -f "$R/$f" ]; then
	# a bare response: calls and no results, skipped unless told to fail
	printf 'scorers:\n  - id: pairs\n    type: unanswered-calls\n    when_no_results: fail\n' > "$TMP/fail.yaml"
	run_tcr "$TMP/out" "$TMP/err" score -c "$TMP/fail.yaml" -o jsonl "$R/$f"
	got=$(jq -rc '"\(.status) \(.passed) \(.details.unanswered)"' "$TMP/out")
	assert_eq "chat completion: when_no_results: fail" "$got" "ok false 1"
fi
finish
