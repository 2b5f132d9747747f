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
	{"match": {"path_prefix": "/once"}, "content": "again"}
]}
EOF

fake_llm_start main "$TMP/script.json" --max-seconds 60 || finish
pass "the server starts and writes its port"
URL="http://127.0.0.1:$PORT"

# req NAME CURL-ARGS...: one request; the body in $TMP/NAME.body, the
# response head in $TMP/NAME.head; sets $RC (curl's), $CODE, $T_FIRST and
# $T_TOTAL (seconds to the first byte and to the end).
req() {
	name=$1
	shift
	curl -q -sS --noproxy '*' --max-time 20 -o "$TMP/$name.body" -D "$TMP/$name.head" \
		-w '%{http_code} %{time_starttransfer} %{time_total}' "$@" >"$TMP/$name.w" 2>"$TMP/err"
	RC=$?
	read -r CODE T_FIRST T_TOTAL < "$TMP/$name.w" || true
}

# at_ms PATH: the at_ms the log gives the request for PATH.
at_ms() {
	sed -n "s|.*\"path\":\"$1\".*\"at_ms\":\([0-9]*\).*|\1|p" "$TMP/main.log" | head -n 1
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

	# Two delayed requests at once, then a third once both are answered:
	# the third comes about one delay after the first, not two.
	req par1 "$URL/delay?p=1" &
	p1=$!
	req par2 "$URL/delay?p=2" &
	p2=$!
	wait "$p1"
	wait "$p2"
	req mark "$URL/mark"
	a1=$(at_ms '/delay?p=1')
	a2=$(at_ms '/delay?p=2')
	am=$(at_ms '/mark')
	first=$a1
	[ -n "$a2" ] && [ -n "$a1" ] && [ "$a2" -lt "$a1" ] && first=$a2
	if [ -n "$first" ] && [ -n "$am" ] && [ $((am - first)) -ge 950 ] && [ $((am - first)) -lt 1800 ]; then
		pass "two delays in parallel take one delay"
	else
		fail "two delays in parallel take one delay" "at_ms: p=1 $a1, p=2 $a2, mark $am (want mark - first in [950, 1800))"
	fi
	assert_grep "both parallel requests answered" "$TMP/par1.body" '"content":"late"'
	assert_grep "both parallel requests answered (2)" "$TMP/par2.body" '"content":"late"'

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
	assert_grep "log: which rule answered" "$TMP/line1" '"answer":"builtin"}'
	grep -F '"path":"/rate"' "$L" > "$TMP/rate.line"
	assert_grep "log: a rule's index" "$TMP/rate.line" '"answer":"rules[3]"}'
	assert_grep "log: another body kept as a string" "$L" '"body":"plain words"'
	grep -F '"path":"/get"' "$L" > "$TMP/get.line"
	assert_grep "log: no body is an empty string" "$TMP/get.line" '"body":"","at_ms":'
	assert_grep "log: dropped requests are logged" "$L" '"path":"/drop"'
	# 22 requests: 20 by req (drop and truncate included), 2 on one connection.
	lines=$(wc -l < "$L" | tr -d ' ')
	assert_eq "log: one line per request" "$lines" 22
	assert_eq "log: n counts 1, 2, 3..." \
		"$(sed 's/^{"n":\([0-9]*\),.*/\1/' "$L" | awk '$1 != NR { bad = 1 } END { print bad ? "gaps" : "in order" }')" "in order"

	cat > "$TMP/default.json" <<'EOF'
{"rules": [{"match": {"method": "GET"}, "content": "a GET"}], "default": {"status": 503, "headers": {"X-Why": "busy"}}}
EOF
	fake_llm_start dflt "$TMP/default.json" --max-seconds 30
	req d1 -d '{}' "http://127.0.0.1:$PORT/v1/chat/completions"
	assert_eq "the default answers what no rule fits" "$CODE" 503
	assert_grep "the default's headers" "$TMP/d1.head" "X-Why: busy"
	assert_grep "a status without a body gets an error body" "$TMP/d1.body" \
		'{"error":{"message":"fake_llm: HTTP 503","type":"fake_llm_error","code":503}}'
	req d2 "http://127.0.0.1:$PORT/x"
	assert_grep "match by method" "$TMP/d2.body" '"content":"a GET"'
fi

# Ending: on SIGTERM, and by itself.
kill -TERM "$(cat "$TMP/main.pid")"
if wait_exit main 50; then
	assert_eq "SIGTERM ends it with status 0" "$(cat "$TMP/main.rc")" 0
else
	fail "SIGTERM ends it with status 0" "still running after 5 s"
fi

if ! fake_llm_start short "$TMP/script.json" --max-seconds 2; then
	:       # fake_llm_start said so
elif [ -f "$TMP/short.rc" ]; then
	fail "--max-seconds 2: it runs a while" "ended at once: $(cat "$TMP/short.srv.err")"
elif wait_exit short 100; then
	assert_eq "--max-seconds 2: it ends by itself with status 0" "$(cat "$TMP/short.rc")" 0
else
	fail "--max-seconds 2: it ends by itself with status 0" "still running after 10 s"
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
