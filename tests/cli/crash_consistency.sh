#!/bin/sh
# crash_consistency.sh - the review screen killed with SIGKILL at random
# points loses no decision it had called saved, and leaves an annotations
# file every reader takes.
#
# The screen, driven by a key script (TCR_SCRIPT, src/tui/script.c) of
# accept-all, labels, moves, retracts and group labels (=, a label, y: one
# line per run in one write) in a random order, labels 200 runs
# with two code scorers. It is started again and again on the same
# annotations file, so decisions accumulate, and killed (kill -9) after a
# random delay. The rounds go on until TCR_CRASH_KILLS kills (15) landed
# and TCR_CRASH_MIN_DECISIONS decisions (200) were reported saved: a loop
# on counts, never on the clock, so a slow or busy machine (the sanitizer
# build, other work beside it) makes the same test, only slower. Two
# bounds end a loop that is stuck: TCR_CRASH_MAX_ROUNDS rounds (200), or
# TCR_CRASH_LIMIT_SECONDS (900), far past what a loaded machine needs; an
# uninterrupted round is killed after TCR_CRASH_ROUND_LIMIT seconds (300).
#
# "Saved" is what the store promises (include/annot/store.h): annot_append
# returns 0 once the line is written and fsync()ed, and only then does the
# screen say "(saved)". The test hook TCR_SAVED_LOG (src/annot/store.c)
# appends each such line to a log after the fsync, so after every kill:
#   - every line of the log is in the annotations file, as many times
#     (a multiset: the same decision may be made twice in one second);
#   - `tcreview export` on the file exits 0 and reports no broken line but
#     a truncated last line (util/jsonl_log.h: a writer that died in its
#     write), which it skips; such a line, ended by the next append, may be
#     reported later at the same place, and only there;
#   - each group in the file is whole (every run's line, one after the
#     other), or, cut by the kill inside its one write() (the kernel may
#     stop a long write at a page), its first lines end the file before
#     the torn line (counted and printed); a reader then takes none of
#     them: the lines say how many they are (`group_lines`, store.h, and
#     test_groups.c's cut group).
# The figures are printed. TCR_CRASH_SEED replays a sequence of delays and
# scripts.
. "$TCR_SRCDIR/tests/cli/lib.sh"

KILLS=${TCR_CRASH_KILLS:-15}
MIN_DECISIONS=${TCR_CRASH_MIN_DECISIONS:-200}
MAX_ROUNDS=${TCR_CRASH_MAX_ROUNDS:-200}
LIMIT=${TCR_CRASH_LIMIT_SECONDS:-900}
ROUND_LIMIT=${TCR_CRASH_ROUND_LIMIT:-300}
SEED=${TCR_CRASH_SEED:-$(date +%s)}
echo "# crash_consistency: seed $SEED (TCR_CRASH_SEED=$SEED replays it), until $KILLS kills" \
	"and $MIN_DECISIONS decisions (at most $MAX_ROUNDS rounds, ${LIMIT}s)"

ANNOT=annot.jsonl
SAVED="$TMP/saved.log"
cat > "$TMP/cc.yaml" <<'EOF'
scorers:
  - id: lookup
    type: tool-call-accuracy
    expectedTool: get_order
  - id: words
    type: word-inclusion
EOF
# 200 runs: the first run of the screen tests under 200 ids.
head -n 1 "$TCR_SRCDIR/tests/data/screen-runs.jsonl" > "$TMP/one.jsonl"
awk 'BEGIN { getline l < ARGV[1]; ARGV[1] = ""
	for (i = 1; i <= 200; i++) { s = l; sub(/"id": "en-pass"/, "\"id\": \"run-" i "\"", s); print s } }' \
	"$TMP/one.jsonl" > "$TMP/runs.jsonl"
if [ "$(grep -c '"id": "run-' "$TMP/runs.jsonl")" -ne 200 ]; then
	fail "200 runs generated" "$(head -c 300 "$TMP/runs.jsonl")"
	finish
fi

# now_ms: milliseconds of the clock (GNU date), else whole seconds * 1000.
now_ms() {
	ms=$(date +%s%3N 2>/dev/null)
	case $ms in *[!0-9]*|'') echo $(($(date +%s) * 1000)) ;; *) echo "$ms" ;; esac
}

# keys ROUND: a random key script of 500 keys, mostly accept-all (A), with
# labels (1, 0), moves (j, k, u) and retracts (x), and now and then (one
# in 40) a whole group labelled: the groups overlay (=), a label, y, Esc.
# The 200 runs call the same tools, so the group holds all 200: 200 lines
# in one write.
keys() {
	awk -v seed="$SEED" -v r="$1" 'BEGIN { srand((seed % 100000) * 1000 + r)
		n = split("A A A A 1 1 0 0 j k u x", k, " ")
		for (i = 0; i < 500; i++)
			if (rand() < 0.025) print (rand() < 0.5 ? "=0y<Esc>" : "=1y<Esc>")
			else print k[int(rand() * n) + 1] }' > "$TMP/keys"
}
GROUP_RUNS=200
TORN_GROUPS=0   # groups cut by a kill in the middle of their one write (store.h)
GROUPS_SEEN=0
CUT=" "         # the groups found cut so, once

# The watchdog of an uninterrupted round: a screen that hangs is killed
# (status 124) after ROUND_LIMIT seconds instead of holding the test.
if command -v timeout >/dev/null 2>&1; then
	watchdog() { timeout "$ROUND_LIMIT" "$@"; }
else
	watchdog() { "$@"; }
fi

# round DELAY_MS: one run of the screen, killed after DELAY_MS (0: never,
# but under the watchdog), as reviewer $REVIEWER. Sets ROUND_RC (137 when
# the kill landed).
round() {
	if [ "$1" -gt 0 ]; then w=exec; else w=watchdog; fi
	(
		cd "$TMP" || exit 1
		HOME="$TMP" LANG=C.UTF-8 LC_ALL=C.UTF-8 TZ=UTC TERM=dumb NO_COLOR=1 \
		LINES=24 COLUMNS=80 TCR_SCRIPT="$TMP/keys" TCR_SAVED_LOG="$SAVED" \
			$w "$TCR_BIN" -c cc.yaml -a "$ANNOT" --reviewer "$REVIEWER" runs.jsonl \
			</dev/null >"$TMP/round.out" 2>"$TMP/round.err"
	) &
	pid=$!
	if [ "$1" -gt 0 ]; then
		sleep "$(awk -v ms="$1" 'BEGIN { printf "%.3f", ms / 1000 }')"
		kill -9 "$pid" 2>/dev/null
	fi
	wait "$pid" 2>/dev/null    # no "Killed" notice in the log
	ROUND_RC=$?
}

TORN=" "        # line numbers once reported as a truncated last line
BAD=0           # rounds with a failure (each reported once, the first few in full)
# check_file ROUND: the file reads, and holds every saved line.
check_file() {
	(cd "$TMP" && "$TCR_BIN" export -c cc.yaml -a "$ANNOT" runs.jsonl >"$TMP/export.out" 2>"$TMP/export.err")
	rc=$?
	problems=""
	[ "$rc" -eq 0 ] || problems="export exits $rc"
	lines=$(wc -l < "$TMP/$ANNOT" | tr -d ' ')
	# Warnings naming a line of the file: "annot.jsonl:N: ..."
	warned=$(grep -o "$ANNOT:[0-9]*: .*" "$TMP/export.err")
	if [ -n "$warned" ]; then
		while IFS= read -r w; do
			n=${w#"$ANNOT":}; n=${n%%:*}
			case $w in
			*"truncated last line"*)
				if [ "$n" -eq $((lines + 1)) ]; then TORN="$TORN$n "
				else problems="$problems; a truncated line reported that is not the last: $w"; fi ;;
			*)
				case $TORN in *" $n "*) ;; *) problems="$problems; broken line: $w" ;; esac ;;
			esac
		done <<EOF
$warned
EOF
	fi
	# Each group in the file is whole: its GROUP_RUNS lines one after the
	# other. Only a kill inside the group's one write() may leave a part
	# of it, and then only as the file's last lines before a torn line.
	awk -v want="$GROUP_RUNS" 'index($0, "\"group\":\"") && !index($0, "\"retracts\":\"group\"") {
		match($0, /"group":"[^"]*"/); g = substr($0, RSTART, RLENGTH)
		if ((g in last) && last[g] != NR - 1) gap[g] = 1
		n[g]++; last[g] = NR }
		END { for (g in n) print g, n[g], (n[g] == want && !gap[g]) ? "whole" : "cut", last[g] }' \
		"$TMP/$ANNOT" > "$TMP/groups"
	GROUPS_SEEN=$(wc -l < "$TMP/groups" | tr -d ' ')
	while read -r g count state end; do
		[ "$state" = whole ] && continue
		case $CUT in *" $g "*) continue ;; esac
		case $TORN in
		*" $((end + 1)) "*)
			if [ "$end" -eq "$lines" ]; then
				TORN_GROUPS=$((TORN_GROUPS + 1)) CUT="$CUT$g "
				continue
			fi ;;
		esac
		problems="$problems; group $g has $count of its $GROUP_RUNS lines (its last at line $end of $lines)"
	done < "$TMP/groups"
	# Every saved line is in the file, as many times.
	missing=$(awk 'FILENAME == ARGV[1] { have[$0]++; next } { if (have[$0]-- <= 0) { print; exit } }' \
		"$TMP/$ANNOT" "$SAVED")
	[ -z "$missing" ] || problems="$problems; a decision reported saved is not in the file: $(printf %s "$missing" | head -c 400)"
	if [ -n "$problems" ]; then
		BAD=$((BAD + 1))
		[ "$BAD" -le 3 ] && fail "round $1: the annotations file reads and holds every saved decision" \
			"$problems" "$(head -c 1000 "$TMP/export.err")"
	fi
}

: > "$SAVED"
# The first round runs its whole script: its length sets the range of the
# delays, so the kills land in start-up, in scoring and in the labelling
# on a fast machine and on a slow one alike.
keys 0
REVIEWER=r0
t0=$(now_ms)
round 0
full_ms=$(($(now_ms) - t0))
if [ "$ROUND_RC" -ne 0 ] || [ -s "$TMP/round.err" ]; then
	why="exit status $ROUND_RC"
	[ "$ROUND_RC" -eq 124 ] && why="still running after ${ROUND_LIMIT}s: killed by the watchdog"
	fail "the uninterrupted round exits 0, stderr empty" "$why" "$(head -c 2000 "$TMP/round.err")"
	finish
fi
first=$(wc -l < "$SAVED" | tr -d ' ')
check_file 0
[ "$full_ms" -ge 50 ] || full_ms=50
echo "# a whole round takes ${full_ms} ms and saves $first decisions"

# Counts end the loop; the rounds and the clock only bound a loop that is
# stuck (kills that never land, a screen that never starts).
started=$(date +%s)
stuck=""
rounds=0 kills=0 finished=0 checks=$first odd=0 range_ms=$full_ms
while [ "$kills" -lt "$KILLS" ] || [ "$(wc -l < "$SAVED")" -lt "$MIN_DECISIONS" ]; do
	if [ "$rounds" -ge "$MAX_ROUNDS" ]; then stuck="$MAX_ROUNDS rounds"; break; fi
	if [ $(($(date +%s) - started)) -ge "$LIMIT" ]; then stuck="${LIMIT}s"; break; fi
	rounds=$((rounds + 1))
	keys "$rounds"
	# Eight reviewers in turn: each finds runs still waiting for them, so
	# accept-all keeps writing, and their decisions mix in one file.
	REVIEWER=r$((rounds % 8))
	delay=$(awk -v seed="$SEED" -v r="$rounds" -v full="$range_ms" \
		'BEGIN { srand((seed % 100000) * 1000 + 500 + r); printf "%d", 1 + rand() * full * 1.1 }')
	t0=$(now_ms)
	round "$delay"
	case $ROUND_RC in
	137) kills=$((kills + 1)) ;;
	0) finished=$((finished + 1))
	   # Later rounds may be quicker (fewer runs wait): aim inside them.
	   range_ms=$(($(now_ms) - t0))
	   [ "$range_ms" -ge 20 ] || range_ms=20 ;;
	*) odd=$((odd + 1))
	   [ "$odd" -le 3 ] && fail "round $rounds: the screen is killed or ends well" \
		"exit status $ROUND_RC" "$(head -c 2000 "$TMP/round.err")" ;;
	esac
	# A sanitizer's report, or any complaint, before the kill.
	if [ -s "$TMP/round.err" ]; then
		odd=$((odd + 1))
		[ "$odd" -le 3 ] && fail "round $rounds: the screen writes nothing to stderr" "$(head -c 2000 "$TMP/round.err")"
	fi
	check_file "$rounds"
	checks=$((checks + $(wc -l < "$SAVED")))
done

saved=$(wc -l < "$SAVED" | tr -d ' ')
lines=$(wc -l < "$TMP/$ANNOT" | tr -d ' ')
echo "# $rounds rounds: $kills killed, $finished ended before the kill; $saved decisions reported saved" \
	"(checked $checks times over the rounds), $lines lines in the file, torn lines:${TORN% }," \
	"$GROUPS_SEEN groups of $GROUP_RUNS runs in it, $TORN_GROUPS cut in their write"
[ "$BAD" -eq 0 ] && pass "after each of $rounds rounds the file reads and holds every saved decision"
[ "$BAD" -eq 0 ] && [ "$GROUPS_SEEN" -gt 0 ] && pass "and each of the $GROUPS_SEEN groups in it is whole"
[ "$GROUPS_SEEN" -gt 0 ] || fail "groups were labelled in the rounds" "no group line in the file"
[ "$odd" -eq 0 ] && pass "every round was killed or ended with status 0 and nothing on stderr"
if [ "$kills" -ge "$KILLS" ]; then pass "$KILLS kills landed ($rounds rounds)"
else fail "$KILLS kills landed" "only $kills, then the loop stopped after $stuck ($rounds rounds)"; fi
if [ "$saved" -ge "$MIN_DECISIONS" ]; then pass "at least $MIN_DECISIONS decisions checked ($saved)"
else fail "at least $MIN_DECISIONS decisions checked" "only $saved, then the loop stopped after $stuck"; fi
finish
