#!/bin/sh
# fake_llm.sh - the fake LLM server the judge tests talk to (tests/fake_llm.c)
# does what its script says: canned completions, matching by path, body and
# header, `times`, error statuses, drops, delays that do not hold up other
# connections, trickled and truncated bodies, the request log; and it ends
# on SIGTERM and by itself after --max-seconds. curl plays the client.
. "$TCR_SRCDIR/tests/cli/lib.sh"

fake_llm_need

# Every server is started with fake_llm_start (lib.sh) and stopped on the
# way out, whatever happens; its own --max-seconds is the last resort if
# this shell is killed outright.

# wait_exit NAME TENTHS: waits at most TENTHS tenths of a second for the
# server NAME to end; false if it has not.
wait_exit() {
	n=0
	until [ -f "$TMP/$1.rc" ]; do
		n=$((n + 1))
		[ "$n" -ge "$2" ] && return 1
		sleep 0.1
	done
	return 0
}

cat > "$TMP/script.json" <<'EOF'
{"rules": [
	{"match": {"path_prefix": "/v1/chat/completions", "header": {"API-Key": "sekret"}}, "content": "header matched"},
	{"match": {"path_prefix": "/v1/chat/completions", "body_contains": "please analyse"}, "content": {"score": 0, "reason": "analysed"}},
	{"match": {"path_prefix": "/anthropic/v1/messages"}, "anthropic_content": "anthropic hi"},
	{"match": {"path_prefix": "/rate"}, "status": 429, "headers": {"Retry-After": "1"},
	 "body": {"error": {"message": "slow down", "type": "rate_limit"}}},
	{"match": {"path_prefix": "/boom"}, "status": 500, "raw": "server exploded"},
	{"match": {"path_prefix": "/drop"}, "drop": true},
	{"match": {"path_prefix": "/delay"}, "delay_ms": 1000, "content": "late"},
	{"match": {"path_prefix": "/trickle"}, "trickle_ms": 100, "raw": "abcdef"},
	{"match": {"path_prefix": "/truncate"}, "truncate": true, "content": "cut short"},
	{"match": {"path_prefix": "/once"}, "times": 1, "content": "first"},
	{"match": {"path_prefix": "/once"}, "content": "again"},
	{"match": {"path_prefix": "/hold"}, "delay_ms": 600000, "content": "held"},
	{"match": {"path_prefix": "/barrier"}, "until_held": 2, "content": "together"},
	{"match": {"path_prefix": "/file"}, "until_file": "GO_FILE", "content": "signalled"}
]}
EOF

sed "s|GO_FILE|$TMP/go|" "$TMP/script.json" > "$TMP/script.tmp" && mv "$TMP/script.tmp" "$TMP/script.json"
fake_llm_start main "$TMP/script.json" --max-seconds 600 || finish
pass "the server starts and writes its port"
URL="http://127.0.0.1:$PORT"

# req NAME CURL-ARGS...: one request; the body in $TMP/NAME.body, the
# response head in $TMP/NAME.head; sets $RC (curl's), $CODE, $T_FIRST and
# $T_TOTAL (seconds to the first byte and to the end).
req() {
	name=$1
	shift
	curl -q -sS --noproxy '*' --max-time 120 -o "$TMP/$name.body" -D "$TMP/$name.head" \
		-w '%{http_code} %{time_starttransfer} %{time_total}' "$@" >"$TMP/$name.w" 2>"$TMP/err"
	RC=$?
	read -r CODE T_FIRST T_TOTAL < "$TMP/$name.w" || true
}

if ! command -v curl >/dev/null 2>&1; then
	skip "the HTTP cases" "curl is not installed (./setup.sh installs it)"
else
	req canned -H 'Content-Type: application/json' -H 'X-Mixed-Case: Value' \
		-d '{"model":"judge-model","messages":[{"role":"user","content":"hi"}]}' \
		"$URL/v1/chat/completions?api-version=2024-06-01"
	assert_eq "no rule fits: 200" "$RC $CODE" "0 200"
	assert_grep "no rule fits: the canned score" "$TMP/canned.body" '"content":"{\"score\":1,\"reason\":\"ok\"}"'
	assert_grep "the completion has the OpenAI shape" "$TMP/canned.body" \
		'"object":"chat.completion","created":1700000000,"model":"judge-model","choices":[{"index":0,"message":{"role":"assistant"'
	assert_grep "the completion has usage" "$TMP/canned.body" '"usage":{"prompt_tokens":11,"completion_tokens":7,"total_tokens":18}'

	req header -H 'api-key: sekret' -d '{}' "$URL/v1/chat/completions"
	assert_grep "match by header (name in any case)" "$TMP/header.body" '"content":"header matched"'
	req header2 -H 'api-key: wrong' -d '{}' "$URL/v1/chat/completions"
	assert_grep "a header with another value does not match" "$TMP/header2.body" '"content":"{\"score\":1'

	req body -d '{"messages":[{"role":"user","content":"please analyse this"}]}' "$URL/v1/chat/completions"
	assert_grep "match by body; content given as JSON" "$TMP/body.body" '"content":"{\"score\":0,\"reason\":\"analysed\"}"'

	req anth -d '{"model":"claude-x","messages":[]}' "$URL/anthropic/v1/messages"
	assert_grep "match by path: the Anthropic shape" "$TMP/anth.body" \
		'{"id":"msg_fake_5","type":"message","role":"assistant","model":"claude-x","content":[{"type":"text","text":"anthropic hi"}],"stop_reason":"end_turn"'

	req once1 "$URL/once"
	req once2 "$URL/once"
	req once3 "$URL/once"
	assert_eq "times: 1 answers once, then the next rule" \
		"$(grep -o '"content":"[a-z]*"' "$TMP/once1.body" "$TMP/once2.body" "$TMP/once3.body" | sed 's/.*://' | tr '\n' ' ')" \
		'"first" "again" "again" '

	req rate -d '{}' "$URL/rate"
	assert_eq "status 429" "$CODE" 429
	assert_grep "429 says Retry-After" "$TMP/rate.head" "Retry-After: 1"
	assert_grep "429 sends its JSON body" "$TMP/rate.body" '{"error":{"message":"slow down","type":"rate_limit"}}'

	req boom "$URL/boom"
	assert_eq "status 500 with a raw body" "$CODE $(cat "$TMP/boom.body")" "500 server exploded"

	req drop -d '{}' "$URL/drop"
	assert_eq "drop: curl sees an empty reply (52)" "$RC" 52

	req trunc "$URL/truncate"
	assert_eq "truncate: curl sees a short body (18)" "$RC" 18

	req trickle "$URL/trickle"
	assert_eq "trickle: the whole body arrives" "$RC $(cat "$TMP/trickle.body")" "0 abcdef"
	if awk -v a="$T_FIRST" -v b="$T_TOTAL" 'BEGIN { exit !(b - a >= 0.4) }'; then
		pass "trickle: six bytes take at least 0.4 s after the head"
	else
		fail "trickle: six bytes take at least 0.4 s after the head" "first byte $T_FIRST s, end $T_TOTAL s"
	fi

	req delay "$URL/delay?p=0"
	assert_eq "delay: still answers" "$RC $CODE" "0 200"
	assert_grep "delay: with its content" "$TMP/delay.body" '"content":"late"'
	if awk -v t="$T_TOTAL" 'BEGIN { exit !(t >= 0.9) }'; then
		pass "delay: the answer waits 1 s"
	else
		fail "delay: the answer waits 1 s" "took $T_TOTAL s"
	fi

	# A delay holds up no other connection: a request the server holds for
	# ten minutes is still waiting when a later one, delayed 1 s, has its
	# answer. An order of events, not a measure of time: nothing here
	# depends on how busy the machine is.
	curl -q -sS --noproxy '*' --max-time 900 -o "$TMP/held.body" "$URL/hold" >/dev/null 2>&1 &
	held=$!
	n=0
	until grep -qF '"path":"/hold"' "$TMP/main.log" || [ "$n" -ge 600 ]; do n=$((n + 1)); sleep 0.1; done
	req par2 "$URL/delay?p=2"
	if kill -0 "$held" 2>/dev/null && [ ! -s "$TMP/held.body" ] && grep -qF '"path":"/hold"' "$TMP/main.log"; then
		pass "a delayed request is answered while an earlier one is still held"
	else
		fail "a delayed request is answered while an earlier one is still held" \
			"the held request: $(grep -c '"path":"/hold"' "$TMP/main.log") in the log, its curl $(kill -0 "$held" 2>/dev/null && echo running || echo ended)"
	fi
	assert_grep "the later request has its answer" "$TMP/par2.body" '"content":"late"'
	kill "$held" 2>/dev/null
	wait "$held" 2>/dev/null

	# until_held 2: the first request waits for a second, however long
	# that takes; then both are answered.
	logged() { # PATH: waits (a minute at most) until the log shows PATH
		n=0
		until grep -qF "\"path\":\"$1\"" "$TMP/main.log" || [ "$n" -ge 600 ]; do n=$((n + 1)); sleep 0.1; done
	}
	curl -q -sS --noproxy '*' --max-time 120 -o "$TMP/bar1.body" "$URL/barrier?p=1" >/dev/null 2>&1 &
	bar1=$!
	logged '/barrier?p=1'
	if kill -0 "$bar1" 2>/dev/null && [ ! -s "$TMP/bar1.body" ]; then
		pass "until_held 2: one request alone is held"
	else
		fail "until_held 2: one request alone is held" "answered: $(cat "$TMP/bar1.body")"
	fi
	req bar2 "$URL/barrier?p=2"
	wait "$bar1"
	assert_grep "until_held 2: the second request is answered" "$TMP/bar2.body" '"content":"together"'
	assert_grep "until_held 2: and so is the first" "$TMP/bar1.body" '"content":"together"'
	grep -F '"path":"/barrier?p=2"' "$TMP/main.log" > "$TMP/bar2.line"
	assert_grep "log: waiting is 2 when the second arrives" "$TMP/bar2.line" '"waiting":2}'

	# until_file: held until the test makes the file.
	curl -q -sS --noproxy '*' --max-time 120 -o "$TMP/file.body" "$URL/file" >/dev/null 2>&1 &
	filer=$!
	logged '/file'
	if kill -0 "$filer" 2>/dev/null && [ ! -s "$TMP/file.body" ]; then
		pass "until_file: held while the file is missing"
	else
		fail "until_file: held while the file is missing" "answered: $(cat "$TMP/file.body")"
	fi
	: > "$TMP/go"
	wait "$filer"
	assert_grep "until_file: answered once it exists" "$TMP/file.body" '"content":"signalled"'

	curl -q -sS --noproxy '*' --max-time 20 -o /dev/null -o /dev/null -w '%{num_connects} ' \
		"$URL/k1" "$URL/k2" >"$TMP/keep.w" 2>"$TMP/err"
	assert_eq "keep-alive: the second request reuses the connection" "$(cat "$TMP/keep.w")" "1 0 "
	req close -H 'Connection: close' "$URL/c"
	assert_eq "Connection: close still answers" "$RC $CODE" "0 200"
	assert_grep "Connection: close is echoed" "$TMP/close.head" "Connection: close"

	req plain -d 'plain words' "$URL/plain"
	req get "$URL/get"

	L=$TMP/main.log
	head -n 1 "$L" > "$TMP/line1"
	assert_grep "log: n, method and path with the query" "$TMP/line1" \
		'{"n":1,"method":"POST","path":"/v1/chat/completions?api-version=2024-06-01","headers":{'
	assert_grep "log: header names in lower case" "$TMP/line1" '"x-mixed-case":"Value"'
	assert_grep "log: content-type" "$TMP/line1" '"content-type":"application/json"'
	assert_grep "log: a JSON body parsed" "$TMP/line1" \
		'"body":{"model":"judge-model","messages":[{"role":"user","content":"hi"}]},"at_ms":'
	assert_grep "log: which rule answered" "$TMP/line1" '"answer":"builtin",'
	grep -F '"path":"/rate"' "$L" > "$TMP/rate.line"
	assert_grep "log: a rule's index" "$TMP/rate.line" '"answer":"rules[3]",'
	assert_grep "log: another body kept as a string" "$L" '"body":"plain words"'
	grep -F '"path":"/get"' "$L" > "$TMP/get.line"
	assert_grep "log: no body is an empty string" "$TMP/get.line" '"body":"","at_ms":'
	assert_grep "log: dropped requests are logged" "$L" '"path":"/drop"'
	# 24 requests: 19 by req (drop and truncate included), the held one,
	# the first at the barrier, the one held for a file, 2 on one connection.
	lines=$(wc -l < "$L" | tr -d ' ')
	assert_eq "log: one line per request" "$lines" 24
	assert_eq "log: n counts 1, 2, 3..." \
		"$(sed 's/^{"n":\([0-9]*\),.*/\1/' "$L" | awk '$1 != NR { bad = 1 } END { print bad ? "gaps" : "in order" }')" "in order"

	cat > "$TMP/default.json" <<'EOF'
{"rules": [{"match": {"method": "GET"}, "content": "a GET"}], "default": {"status": 503, "headers": {"X-Why": "busy"}}}
EOF
	fake_llm_start dflt "$TMP/default.json" --max-seconds 600
	req d1 -d '{}' "http://127.0.0.1:$PORT/v1/chat/completions"
	assert_eq "the default answers what no rule fits" "$CODE" 503
	assert_grep "the default's headers" "$TMP/d1.head" "X-Why: busy"
	assert_grep "a status without a body gets an error body" "$TMP/d1.body" \
		'{"error":{"message":"fake_llm: HTTP 503","type":"fake_llm_error","code":503}}'
	req d2 "http://127.0.0.1:$PORT/x"
	assert_grep "match by method" "$TMP/d2.body" '"content":"a GET"'
fi

# Ending: on SIGTERM, and by itself.
# The waits are bounded generously (a minute): they guard against a hang,
# they do not measure.
kill -TERM "$(cat "$TMP/main.pid")"
if wait_exit main 600; then
	assert_eq "SIGTERM ends it with status 0" "$(cat "$TMP/main.rc")" 0
else
	fail "SIGTERM ends it with status 0" "still running after 60 s"
fi

# now_ms: milliseconds of the clock (GNU date), else whole seconds * 1000.
now_ms() {
	ms=$(date +%s%3N 2>/dev/null)
	case $ms in *[!0-9]*|'') echo $(($(date +%s) * 1000)) ;; *) echo "$ms" ;; esac
}
t0=$(now_ms)
if ! fake_llm_start short "$TMP/script.json" --max-seconds 2; then
	:       # fake_llm_start said so
elif wait_exit short 600; then
	assert_eq "--max-seconds 2: it ends by itself with status 0" "$(cat "$TMP/short.rc")" 0
	# A floor, which no load can break: it lived at least its 2 s.
	took=$(($(now_ms) - t0))
	if [ "$took" -ge 1900 ]; then pass "--max-seconds 2: not before 2 s"
	else fail "--max-seconds 2: not before 2 s" "ended after $took ms: $(cat "$TMP/short.srv.err")"; fi
else
	fail "--max-seconds 2: it ends by itself with status 0" "still running after 60 s"
fi

# Under the sanitizers, a memory error or leak shows in a server's stderr.
cat "$TMP"/*.err > "$TMP/all.err" 2>/dev/null
assert_no_grep "no sanitizer report from the servers" "$TMP/all.err" "Sanitizer"

# A mistyped script is refused, not half obeyed.
echo '{"rules":[{"time":1}]}' > "$TMP/bad.json"
"$FAKE" --script "$TMP/bad.json" --log "$TMP/bad.log" --port-file "$TMP/bad.port" --max-seconds 5 2>"$TMP/bad.err"
RC=$?
assert_rc "an unknown key in the script: status 1" 1
assert_grep "an unknown key is named" "$TMP/bad.err" 'rules[0]: unknown key "time"'

finish
