#!/bin/sh
# memory.sh - running out of memory is an error, not an abort.
#
# Standard input is capped like the files read whole are (TCR_STDIN_MAX
# sets the cap, so that the test reads a megabyte, not a gigabyte); a file
# redirected to it is mapped instead. A record of 30 MB loads under a limit
# on address space in proportion to the 1 GB a 100 MB record must load
# under, and where memory truly runs out the command says so, naming the
# input, and exits with status 3: never a signal.
#
# Time is bounded by CPU seconds (ulimit -t), not by the clock. The limits
# on address space are skipped under the sanitizers, which reserve
# terabytes of it (probed by running the binary under a limit).
. "$TCR_SRCDIR/tests/cli/lib.sh"
EX="$TCR_SRCDIR/examples"

# lines FILE: how many lines FILE holds
lines() { wc -l < "$1" | tr -d ' '; }

# no_signal NAME: the last command ended by exiting, not by a signal
no_signal() {
	if [ "$RC" -lt 128 ]; then pass "$1: no signal"; else fail "$1: no signal" "status $RC"; fi
}

# ---- standard input ---------------------------------------------------------

head -c 3000000 /dev/zero | (ulimit -t 60; TCR_STDIN_MAX=1M exec "$TCR_BIN" score -) \
	>"$TMP/out" 2>"$TMP/err"
RC=$?
assert_rc "a pipe past the cap: status 3" 3
assert_eq "a pipe past the cap: one line" "$(lines "$TMP/err")" 1
assert_grep "a pipe past the cap: the line names it" "$TMP/err" \
	"tcreview score: -: standard input is larger than 1 MB, the cap on input that is not a file (name the file instead, or set TCR_STDIN_MAX)"
assert_eq "a pipe past the cap: no row" "$(lines "$TMP/out")" 0

(ulimit -t 60; TCR_STDIN_MAX=64K exec "$TCR_BIN" score -) </dev/zero >"$TMP/out" 2>"$TMP/err"
RC=$?
assert_rc "/dev/zero: status 3" 3
no_signal "/dev/zero"
assert_eq "/dev/zero: one line" "$(lines "$TMP/err")" 1
assert_grep "/dev/zero: the line names the cap" "$TMP/err" "-: standard input is larger than 64 KB"

TCR_STDIN_MAX=lots "$TCR_BIN" score - </dev/null >"$TMP/out" 2>"$TMP/err"
RC=$?
assert_rc "a cap that is not a size: status 3" 3
assert_grep "a cap that is not a size: says so" "$TMP/err" \
	"TCR_STDIN_MAX: 'lots' is not a size (bytes, or a number with K, M or G)"

# Under the cap, a pipe is read; a file redirected to standard input is
# mapped, whatever the cap, and gives the same rows.
cat "$EX/runs/openai-chat.jsonl" | TCR_STDIN_MAX=1M "$TCR_BIN" score -c "$EX/scorers.yaml" -o jsonl - \
	>"$TMP/piped.jsonl" 2>"$TMP/err"
RC=$?
assert_rc "a pipe under the cap: scored" 0
TCR_STDIN_MAX=1K "$TCR_BIN" score -c "$EX/scorers.yaml" -o jsonl - <"$EX/runs/openai-chat.jsonl" \
	>"$TMP/redirected.jsonl" 2>"$TMP/err"
RC=$?
assert_rc "a file redirected past the cap: scored" 0
"$TCR_BIN" score -c "$EX/scorers.yaml" -o jsonl "$EX/runs/openai-chat.jsonl" >"$TMP/named.jsonl" 2>/dev/null
assert_eq "a file redirected: its rows" "$(cksum < "$TMP/redirected.jsonl")" "$(cksum < "$TMP/piped.jsonl")"
assert_eq "a file redirected: as many rows as the file named" "$(lines "$TMP/redirected.jsonl")" \
	"$(lines "$TMP/named.jsonl")"

# ---- a large record under a limit on address space ------------------------

if ! ( (ulimit -v 2000000 && exec "$TCR_BIN" --version) >/dev/null 2>&1; exit $? ) 2>/dev/null; then
	skip "limits on address space" "the binary does not run under ulimit -v (sanitizers)"
	finish
fi

# long_run MB: one OpenAI chat run of about MB megabytes (10^6 bytes): a
# long session of calls, each answered by a result of about 2 KB, one of
# them 4 MB in one piece (a raw feed), then the answer.
long_run() {
	awk -v mb="$1" 'BEGIN {
		target = mb * 1000000
		s = "The parcel left the Sapporo warehouse; it is in transit to Osaka. "
		res = s; while (length(res) < 2000) res = res s
		big = s; while (length(big) < 4000000) big = big big
		printf "{\"id\":\"long\",\"task_id\":\"where-is-my-order\",\"messages\":["
		printf "{\"role\":\"user\",\"content\":\"Where is my order KO-204817? I need it by Friday.\"}"
		size = 200
		for (n = 1; size < target; n++) {
			call = sprintf(",{\"role\":\"assistant\",\"content\":null,\"tool_calls\":[{\"id\":\"c%d\",\"type\":\"function\",\"function\":{\"name\":\"%s\",\"arguments\":\"{\\\"order_id\\\":\\\"KO-%06d\\\"}\"}}]},{\"role\":\"tool\",\"tool_call_id\":\"c%d\",\"content\":\"",
			               n, n % 3 ? "get_order" : "track_parcel", n, n)
			content = n == 10 ? big : res
			printf "%s%s\"}", call, content
			size += length(call) + length(content) + 2
		}
		printf ",{\"role\":\"assistant\",\"content\":\"Your order KO-204817 is on its way and arrives by Friday.\"}]}\n"
	}'
}
long_run 30 > "$TMP/long.jsonl"
CALLS=$(grep -o '"tool_call_id"' "$TMP/long.jsonl" | wc -l | tr -d ' ')

# under LIMIT_KB ARGS...: tcreview ARGS in $TMP under the limit, with two
# workers (each thread's stack and heap take address space), at most 60
# CPU seconds; sets $RC.
under() {
	limit=$1
	shift
	(cd "$TMP" && ulimit -v "$limit" && ulimit -t 60 && exec "$TCR_BIN" "$@") \
		</dev/null >"$TMP/out" 2>"$TMP/err"
	RC=$?
}

# A 100 MB record must load in 1 GB; this one is 30 MB, in 350 MB (with
# two workers it needs about 280 MB on the machine it was written on).
under 350000 score -j 2 -o jsonl long.jsonl
assert_rc "a 30 MB record in 350 MB: scored" 0
assert_grep "a 30 MB record in 350 MB: every call read" "$TMP/out" \
	"\"run\":\"long\",\"source\":\"long.jsonl:1\",\"format\":\"openai-chat\",\"scorer\":\"unanswered-calls\",\"type\":\"unanswered-calls\",\"status\":\"ok\",\"score\":1,\"passed\":true,\"details\":{\"calls\":$CALLS,"
assert_eq "a 30 MB record in 350 MB: nothing on stderr" "$(lines "$TMP/err")" 0

# Too little for it, from just past what the file's mapping takes to just
# short of what the record needs: status 3 and a line saying so, naming the
# record or its file; never a signal. (Where the parser cannot reserve its
# buffers the record is an error row, and a second line says that none of
# the file's records was read.)
for limit in 100000 140000 180000 220000 260000; do
	under $limit score -j 2 -o jsonl long.jsonl
	assert_rc "a 30 MB record in ${limit} KB: status 3" 3
	no_signal "a 30 MB record in ${limit} KB"
	if grep -q '^tcreview: long\.jsonl\(:1\)\?: out of memory' "$TMP/err" && [ "$(lines "$TMP/err")" -le 2 ]; then
		pass "a 30 MB record in ${limit} KB: says so, naming it"
	else
		fail "a 30 MB record in ${limit} KB: says so, naming it" "$(head -c 1000 "$TMP/err")"
	fi
done

# Where memory runs out outside the parser: one line, naming the input
# and what was being done, and nothing after it.
head -c 300000000 /dev/zero | (ulimit -v 200000 && ulimit -t 60 && TCR_STDIN_MAX=1G exec "$TCR_BIN" score -) \
	>"$TMP/out" 2>"$TMP/err"
RC=$?
assert_rc "standard input past memory: status 3" 3
no_signal "standard input past memory"
assert_eq "standard input past memory: one line" "$(cat "$TMP/err")" \
	"tcreview: -: out of memory while reading standard input"

finish
