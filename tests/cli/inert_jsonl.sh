#!/bin/sh
# inert_jsonl.sh - every JSONL the program writes escapes DEL, the C1
# controls (U+009B, the one-byte CSI, here) and the bidi controls (U+202E
# here) as \uXXXX, so `cat` of it cannot drive a terminal or turn its text
# around: `score -o jsonl`, `judge`'s lines and its cache, the annotations
# the screen writes (script mode) and `export`'s jsonl, all of a run whose
# id, text and tool name hold them, and of a judge whose reason holds them.
# Talks only to 127.0.0.1 (tests/fake_llm.c).
. "$TCR_SRCDIR/tests/cli/lib.sh"

fake_llm_need

unset http_proxy HTTP_PROXY https_proxy HTTPS_PROXY all_proxy ALL_PROXY OPENAI_BASE_URL
no_proxy='*' NO_PROXY='*'
OPENAI_API_KEY=sk-tcr-test-inert
export no_proxy NO_PROXY OPENAI_API_KEY

if command -v timeout >/dev/null 2>&1; then
	watchdog() { timeout 300 "$@"; }
else
	watchdog() { "$@"; }
fi

CSI=$(printf '\302\233')        # U+009B
RLO=$(printf '\342\200\256')    # U+202E
DEL=$(printf '\177')

# inert NAME FILE: FILE holds none of the three raw, and is not empty.
inert() {
	if [ ! -s "$2" ]; then
		fail "$1" "$2 is empty or missing"
		return
	fi
	for b in "$CSI" "$RLO" "$DEL"; do
		if LC_ALL=C grep -qF -- "$b" "$2"; then
			fail "$1" "a raw control in $2:" "$(od -c "$2" | head -n 20)"
			return
		fi
	done
	pass "$1"
}

D=$TMP/d
mkdir "$D"
# The id, the request, the answer and the tool's name hold all three.
printf '{"id":"h%s[31m%sX%s","task":"t","messages":[{"role":"user","content":"please %s[2J %sdesrever%s"},{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"look%sup","arguments":"{\\"q\\":\\"%s%s\\"}"}}]},{"role":"tool","tool_call_id":"c1","content":"found"},{"role":"assistant","content":"done %s%s%s"}]}\n' \
	"$CSI" "$RLO" "$DEL" "$CSI" "$RLO" "$DEL" "$CSI" "$RLO" "$DEL" "$CSI" "$RLO" "$DEL" > "$D/hostile.jsonl"

cat > "$TMP/llm.json" <<'EOF'
{"rules": [
 {"match": {"body_contains": "RUN="}, "content": {"score": 8, "reason": "fine \u009b[2J \u202eevil\u007f"}}
], "default": {"status": 418, "raw": "no rule for this request"}}
EOF
fake_llm_start llm "$TMP/llm.json"
cat > "$D/rate.txt" <<'EOF'
=== user
RUN={{run_id}};
Request: {{input}}
Answer: {{output}}
Calls: {{tool_calls}}
Give a score from {{min}} to {{max}}; {{pass}} passes.
EOF
cat > "$D/inert.yaml" <<EOF
scorers:
  - id: lookup
    type: tool-call-accuracy
    expectedTool: lookup
judges:
  - id: rate
    rubric: custom
    model: openai/judge-model
    base_url: http://127.0.0.1:$PORT/v1
    prompt_file: rate.txt
    scale: {min: 0, max: 10, pass: 6}
EOF

# in_d NAME ARGS...: tcreview ARGS in $D; stdout in $TMP/NAME.out, stderr
# in $TMP/NAME.err (and $TMP/err); sets RC.
in_d() {
	name=$1
	shift
	(cd "$D" && HOME="$TMP" watchdog "$TCR_BIN" "$@" </dev/null) >"$TMP/$name.out" 2>"$TMP/$name.err"
	RC=$?
	cp "$TMP/$name.err" "$TMP/err"
}

in_d score score -c inert.yaml -o jsonl hostile.jsonl
assert_rc "score: exit 0" 0
inert "score -o jsonl: no raw control" "$TMP/score.out"
assert_grep "score: the run's id escaped" "$TMP/score.out" '{"run":"h\u009b[31m\u202eX\u007f",'
assert_grep "score: the tool's name escaped" "$TMP/score.out" '"actualTools":["look\u009bup"]'

in_d judge judge -c inert.yaml hostile.jsonl
assert_rc "judge: exit 0" 0
inert "judge: no raw control in its lines" "$TMP/judge.out"
assert_grep "judge: the reason escaped" "$TMP/judge.out" '"reason":"fine \u009b[2J \u202eevil\u007f"'
assert_grep "judge: the prompt in the details escaped" "$TMP/judge.out" 'Request: please \u009b[2J \u202edesrever\u007f'
inert "judge cache: no raw control" "$D/hostile.jsonl.judgements.jsonl"
assert_grep "judge cache: the reason escaped" "$D/hostile.jsonl.judgements.jsonl" '"reason":"fine \u009b[2J \u202eevil\u007f"'
in_d judge2 judge -c inert.yaml hostile.jsonl
assert_eq "judge cache: read back, asked once" "$(wc -l < "$TMP/llm.log" | tr -d ' ')" 1
assert_eq "judge cache: the same lines from it" "$(cat "$TMP/judge2.out")" "$(cat "$TMP/judge.out")"

# The screen accepts every verdict of the run (script mode).
printf 'A\n' > "$TMP/keys"
(cd "$D" && HOME="$TMP" LANG=C.UTF-8 LC_ALL=C.UTF-8 TZ=UTC TERM=dumb NO_COLOR=1 LINES=24 COLUMNS=80 \
	TCR_SCRIPT="$TMP/keys" watchdog "$TCR_BIN" -c inert.yaml -a labels.jsonl --reviewer cy hostile.jsonl </dev/null) \
	>"$TMP/screen.out" 2>"$TMP/screen.err"
RC=$?
cp "$TMP/screen.err" "$TMP/err"
assert_rc "screen: decisions made, exit 0" 0
inert "annotations: no raw control" "$D/labels.jsonl"
assert_grep "annotations: the run's id escaped" "$D/labels.jsonl" '"h\u009b[31m\u202eX\u007f"'

in_d export export -c inert.yaml -a labels.jsonl --format jsonl hostile.jsonl
assert_rc "export: exit 0" 0
inert "export jsonl: no raw control" "$TMP/export.out"
assert_grep "export: the run's id escaped" "$TMP/export.out" '"run":"h\u009b[31m\u202eX\u007f"'

finish
