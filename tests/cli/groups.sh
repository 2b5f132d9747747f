#!/bin/sh
# groups.sh - `tcreview groups --by tools|error|verdicts`: the same groups on
# every run of the command and in any order of the inputs (lines reversed
# and shuffled, files given in another order), on a small set whose groups
# are known and on the shared real samples (each skipped when absent; the
# shuffled copies are made in the suite's own folder); the jsonl keys in
# their fixed order, --min, --runs, and bad options.
. "$TCR_SRCDIR/tests/cli/lib.sh"

LC_ALL=C.UTF-8
export LC_ALL

# ---- a small set whose groups are known ------------------------------------
call() { # ID NAME RESULT
	printf '{"role":"assistant","content":null,"tool_calls":[{"id":"%s","type":"function","function":{"name":"%s","arguments":"{}"}}]},{"role":"tool","tool_call_id":"%s","content":"%s"},' "$1" "$2" "$1" "$3"
}
run() { # ID CALLS...
	id=$1
	shift
	printf '{"id":"%s","messages":[{"role":"user","content":"hi"},%s{"role":"assistant","content":"done"}]}\n' "$id" "$*"
}
S=$TMP/set.jsonl
{
	run r4 "$(call a get_user mia)" "$(call b book 'Error: flight HAT001 is full')"
	run r2 "$(call a get_user 'Error: user 17 not found')"
	run r3 "$(call a get_user ok)" "$(call b book 'Error: flight HAT202 is full')"
	run r1 ""
	run r5 "$(call a get_user ok)" "$(call b book ok)"
} > "$S"

run_tcr "$TMP/tools" "$TMP/err" groups --by tools -o jsonl "$S"
assert_rc "groups --by tools exits 0" 0
assert_eq "three groups by tools" "$(wc -l < "$TMP/tools" | tr -d ' ')" 3
assert_eq "the largest group first, its keys in their order, its runs by id" "$(head -1 "$TMP/tools" | sed 's/"group":"g[0-9a-f]*"/"group":G/')" \
	'{"group":G,"by":"tools","fingerprint":"get_user → book","count":3,"example":"r3","runs":["r3","r4","r5"]}'
assert_grep "a run without calls has its group" "$TMP/tools" '"fingerprint":"(no tool calls)","count":1,"example":"r1"'

run_tcr "$TMP/error" "$TMP/err" groups --by error -o jsonl "$S"
assert_grep "errors that differ in an id are one group" "$TMP/error" '"fingerprint":"Error: flight <id> is full","count":2,"example":"r3","runs":["r3","r4"]'
assert_grep "runs without an error are one group" "$TMP/error" '"fingerprint":"(no error)","count":2'

run_tcr "$TMP/verdicts" "$TMP/err" groups --by verdicts -o text --runs "$S"
assert_rc "groups --by verdicts -o text exits 0" 0
assert_grep "the text says how many runs in how many groups" "$TMP/verdicts" "5 runs in 2 groups by verdicts"
assert_grep "a verdict pattern with its count and share" "$TMP/verdicts" "     3   60%  g"
assert_grep "--runs lists the members" "$TMP/verdicts" "                           r2"

run_tcr "$TMP/min" "$TMP/err" groups --by tools -o text --min 2 "$S"
assert_grep "--min hides the small groups and says so" "$TMP/min" "(2 smaller groups under --min 2 not shown)"

run_tcr "$TMP/out" "$TMP/err" groups --by colour "$S"
assert_rc "an unknown --by is a usage error" 2
assert_grep "it names what --by takes" "$TMP/err" "--by takes tools, error or verdicts, not 'colour'"
run_tcr "$TMP/out" "$TMP/err" groups -o csv "$S"
assert_rc "an unknown output is a usage error" 2
run_tcr "$TMP/out" "$TMP/err" groups --min x "$S"
assert_rc "--min takes a number" 2

# ---- the same groups every time, in any order --------------------------------
# same_groups NAME [-c FILE] INPUTS...: two runs alike, and alike on the
# inputs given in the other order (FILES reversed; one file's lines
# reversed and shuffled, unless -w: a file that is one run, its lines the
# run's events in order).
shuffle() { # FILE OUT: the lines in another order, the same every time
	awk '{ printf "%d\t%s\n", (NR * 7919) % 101, $0 }' "$1" | sort -n -s -k1,1 | cut -f2- > "$2"
}
same_groups() {
	name=$1
	shift
	cfg=""
	whole=""
	if [ "$1" = "-w" ]; then whole=1; shift; fi
	if [ "$1" = "-c" ]; then cfg="-c $2"; shift 2; fi
	for by in tools error verdicts; do
		# shellcheck disable=SC2086
		"$TCR_BIN" groups $cfg --by "$by" -o jsonl "$@" > "$TMP/a" 2> "$TMP/err"
		RC=$?
		assert_rc "$name: groups --by $by exits 0" 0
		if [ ! -s "$TMP/a" ]; then
			fail "$name: groups --by $by finds groups" "nothing written"
			continue
		fi
		# shellcheck disable=SC2086
		"$TCR_BIN" groups $cfg --by "$by" -o jsonl "$@" > "$TMP/b" 2>/dev/null
		assert_eq "$name --by $by: the same groups on a second run" "$(cmp -s "$TMP/a" "$TMP/b" && echo same)" same
		if [ $# -gt 1 ]; then
			rev=""
			for f in "$@"; do rev="$f $rev"; done
			# shellcheck disable=SC2086
			"$TCR_BIN" groups $cfg --by "$by" -o jsonl $rev > "$TMP/c" 2>/dev/null
			assert_eq "$name --by $by: the same groups with the files reversed" "$(cmp -s "$TMP/a" "$TMP/c" && echo same)" same
		elif [ -z "$whole" ]; then
			base=$(basename "$1")
			mkdir -p "$TMP/rev" "$TMP/shuf"
			tac "$1" > "$TMP/rev/$base" 2>/dev/null || awk '{ l[NR] = $0 } END { for (i = NR; i > 0; i--) print l[i] }' "$1" > "$TMP/rev/$base"
			shuffle "$1" "$TMP/shuf/$base"
			for o in rev shuf; do
				# shellcheck disable=SC2086
				"$TCR_BIN" groups $cfg --by "$by" -o jsonl "$TMP/$o/$base" > "$TMP/c" 2>/dev/null
				assert_eq "$name --by $by: the same groups with the lines in another order ($o)" "$(cmp -s "$TMP/a" "$TMP/c" && echo same)" same
			done
		fi
	done
}

same_groups "small set" "$S"

R="${TCR_SHARED_DIR:-}/fixtures/real"
if [ ! -d "$R" ]; then
	skip "groups on the real samples" "not found (set TCR_SHARED_DIR to the shared reference folder)"
	finish
fi

# tau-bench with its expected file, set up as init proposes it: its verdicts
# (reward, the expected actions) are the ones grouped by verdicts.
if [ -f "$R/taubench_v1_airline_sample.jsonl" ] && [ -f "$R/taubench_v1_airline_expected_sample.jsonl" ]; then
	mkdir -p "$TMP/tb"
	cp "$R/taubench_v1_airline_sample.jsonl" "$R/taubench_v1_airline_expected_sample.jsonl" "$TMP/tb/"
	(cd "$TMP/tb" && "$TCR_BIN" init taubench_v1_airline_sample.jsonl taubench_v1_airline_expected_sample.jsonl) > "$TMP/init" 2>&1
	same_groups "tau-bench" -c "$TMP/tb/tcreview.yaml" "$TMP/tb/taubench_v1_airline_sample.jsonl"
	"$TCR_BIN" groups -c "$TMP/tb/tcreview.yaml" --by error -o jsonl "$TMP/tb/taubench_v1_airline_sample.jsonl" > "$TMP/tb.err" 2>/dev/null
	assert_grep "tau-bench: the seats error is one group whatever the flight" "$TMP/tb.err" '"fingerprint":"Error: not enough seats on flight <id>","count":2'
	"$TCR_BIN" groups -c "$TMP/tb/tcreview.yaml" --by verdicts -o jsonl "$TMP/tb/taubench_v1_airline_sample.jsonl" > "$TMP/tb.v" 2>/dev/null
	assert_grep "tau-bench: the verdicts include the reward" "$TMP/tb.v" 'reward ✗'
else
	skip "groups on the tau-bench sample" "not found in $R"
fi

for f in tau2_sample.jsonl bfcl_sample.jsonl; do
	if [ -f "$R/$f" ]; then same_groups "$f" "$R/$f"; else skip "groups on $f" "not found in $R"; fi
done
f=anthropic_claude_code_sample.jsonl
if [ -f "$R/$f" ]; then same_groups "$f" -w "$R/$f"; else skip "groups on $f" "not found in $R"; fi

for d in claude-code codex-rollout swe-agent-traj openhands-events; do
	if [ -d "$R/wild/$d" ] && [ -n "$(ls "$R/wild/$d")" ]; then
		# shellcheck disable=SC2046
		same_groups "wild/$d" $(ls -d "$R/wild/$d"/* | sort)
	else
		skip "groups on wild/$d" "not found in $R/wild"
	fi
done
finish
