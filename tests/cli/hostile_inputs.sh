#!/bin/sh
# hostile_inputs.sh - transcripts and configurations made to hurt: a 100 MB
# line, 10^6-deep nesting, NUL bytes, invalid UTF-8, every class of terminal
# escape and bidi overrides in transcript text, YAML alias bombs and 10^5-deep
# YAML. Each gives a clear message naming the file and line, or is shown
# safely: `tcreview score -o jsonl` and the screen's dumps (script mode,
# tests/cli/screen_lib.sh) hold no raw ESC, no C1 control, no bidi control
# and no NUL.
#
# Time and memory are bounded by the limits the suite sets, not by
# wall-clock assertions: every command runs under `timeout 300` (a hang fails
# with status 124), `ulimit -t 60` CPU seconds and `ulimit -v` (2 GB of
# address space; not under the sanitizers, which reserve terabytes: probed by
# running the binary under the limit). The 100 MB line is 20 MB under the
# sanitizers, where everything is slower and memory doubles. The time and
# peak memory of each case are printed (GNU time, when installed).
#
# Symlink loops and FIFOs or devices as inputs are tests/cli/hostile_walk.sh
# and tests/cli/hostile_files.sh.
. "$TCR_SRCDIR/tests/cli/lib.sh"
SCREEN_TIMEOUT=300
. "$TCR_SRCDIR/tests/cli/screen_lib.sh"

LIMIT_KB=2000000
if ( (ulimit -v $LIMIT_KB && exec "$TCR_BIN" --version) >/dev/null 2>&1; exit $? ) 2>/dev/null; then
	SAN=0
	limits() { ulimit -v $LIMIT_KB; ulimit -t 60; }
	BIG_MB=100
else
	SAN=1
	limits() { ulimit -t 180; }
	BIG_MB=20
	skip "memory limit" "the binary does not run under ulimit -v (sanitizers): the huge line is ${BIG_MB} MB"
fi
if [ -x /usr/bin/time ] && /usr/bin/time -f %M true 2>/dev/null; then
	measured() { name=$1; shift; /usr/bin/time -f "%e s, %M KB peak" -o "$TMP/$name.time" "$@"; }
else
	measured() { shift; "$@"; }
fi
# The screen of screen_lib.sh (run_screen sets $name) under the same limits;
# screen_figures NAME prints its time and peak.
screen_watchdog() { (limits; measured "screen-$name" timeout 300 "$@"); }
screen_figures() {
	[ -s "$TMP/screen-$1.time" ] && echo "# screen $1: $(tail -n 1 "$TMP/screen-$1.time")"
	return 0
}

# tcr NAME ARGS...: the binary in $TMP under the limits; stdout and stderr in
# $TMP/NAME.out and $TMP/NAME.err, the status in $RC; prints the figures.
tcr() {
	name=$1; shift
	LAST=$name
	rm -f "$TMP/$name.time"
	(cd "$TMP" && limits && measured "$name" timeout 300 "$TCR_BIN" "$@" \
		</dev/null >"$TMP/$name.out" 2>"$TMP/$name.err")
	RC=$?
	[ -s "$TMP/$name.time" ] && echo "# $name: $(tail -n 1 "$TMP/$name.time")"
	return 0
}

# exits NAME WANT...: the last command's status is one of WANT (124 is a hang,
# above 128 a crash); on a failure shows $TMP/$LAST.err.
exits() {
	name=$1; shift
	for w in "$@"; do
		if [ "$RC" -eq "$w" ]; then pass "$name: exit $RC"; return; fi
	done
	why=""
	[ "$RC" -eq 124 ] && why=" (timed out: it hung)"
	[ "$RC" -gt 128 ] && [ "$RC" -ne 124 ] && why=" (killed by signal $((RC - 128)))"
	fail "$name: exit $*" "exit status $RC$why" "$(head -c 2000 "$TMP/$LAST.err")"
}

# inert NAME FILE...: no raw ESC, C1 control (UTF-8 or 8-bit), bidi control
# (U+202A..U+202E, U+2066..U+2069) or NUL in the files, which are valid
# UTF-8 (so no 8-bit C1 byte either; checked where iconv is installed).
ESC=$(printf '\033')
C1=$(printf '\302[\200-\237]')
BIDI=$(printf '\342\200[\252-\256]\\|\342\201[\246-\251]')
ICONV=$(command -v iconv)
inert() {
	name=$1; shift
	bad=""
	for f in "$@"; do
		[ -f "$f" ] || { bad="$bad $f is missing;"; continue; }
		LC_ALL=C grep -q "$ESC" "$f" && bad="$bad raw ESC in $(basename "$f");"
		LC_ALL=C grep -q "$C1" "$f" && bad="$bad a C1 control in $(basename "$f");"
		LC_ALL=C grep -q "$BIDI" "$f" && bad="$bad a bidi control in $(basename "$f");"
		# an 8-bit C1 byte outside a UTF-8 sequence, or any broken one
		if [ -n "$ICONV" ] && ! iconv -f UTF-8 -t UTF-8 "$f" >/dev/null 2>&1; then
			bad="$bad invalid UTF-8 (an 8-bit C1 byte?) in $(basename "$f");"
		fi
		[ "$(tr -d '\000' < "$f" | wc -c)" -eq "$(wc -c < "$f")" ] || bad="$bad NUL in $(basename "$f");"
	done
	if [ -z "$bad" ]; then pass "$name: no raw ESC, C1, bidi or NUL"
	else fail "$name: no raw ESC, C1, bidi or NUL" "$bad" "$(od -c "$1" | head -20)"; fi
}

cat > "$TMP/two.yaml" <<'EOF'
scorers:
  - id: lookup
    type: tool-call-accuracy
    expectedTool: get_order
  - id: words
    type: word-inclusion
EOF
SCREEN_CONFIG=two.yaml
OK_RUN='{"id":"ok","messages":[{"role":"user","content":"hi"},{"role":"assistant","content":"ok"}]}'

# screen_walk NAME FILE N: the screen on FILE, a dump of each of its first N
# runs with the timeline unfolded (NAME-1.screen ...), all inert.
screen_walk() {
	name=$1 file=$2 n=$3
	k="" i=1
	while [ "$i" -le "$n" ]; do
		k="$k
<Tab>
<Enter>
:save-display %D/$name-$i.screen
<BTab>
j"
		i=$((i + 1))
	done
	run_screen "$name" "$k" "$file"
	screen_figures "$name"
	dumps="$TMP/$name.screen"
	i=1
	while [ "$i" -le "$n" ]; do dumps="$dumps $TMP/$name-$i.screen"; i=$((i + 1)); done
	# shellcheck disable=SC2086
	inert "screen $name" $dumps "$TMP/$name.out"
}

# ---- a huge line ----------------------------------------------------------

{
	echo "$OK_RUN"
	printf '{"id":"huge","messages":[{"role":"user","content":"hi"},{"role":"assistant","content":"'
	head -c $((BIG_MB * 1024 * 1024)) /dev/zero | tr '\000' x
	printf '"}]}\n'
} > "$TMP/huge.jsonl"
tcr huge score -c two.yaml -o jsonl huge.jsonl
exits "a ${BIG_MB} MB line" 0
assert_grep "a ${BIG_MB} MB line: scored" "$TMP/huge.out" '"run":"huge","source":"huge.jsonl:2","format":"openai-chat","scorer":"words","type":"word-inclusion","status":"ok"'
run_screen huge "j
<Tab>
:save-display %D/huge-run.screen" huge.jsonl
screen_figures huge
screen_has huge-run "xxxxxxxxxxxxxxxxxxxx"
screen_has huge-run "[timeline] 2 entries, lines 1-"
if [ "$SAN" -eq 0 ]; then
	# Under a memory limit too small for it, the line is an error record
	# naming it (it once ground for 36 s in a second parse, then crashed).
	(cd "$TMP" && ulimit -v 600000 && exec timeout 300 "$TCR_BIN" score -c two.yaml -o jsonl huge.jsonl \
		</dev/null >"$TMP/huge-tight.out" 2>"$TMP/huge-tight.err")
	RC=$? LAST=huge-tight
	exits "a ${BIG_MB} MB line in 600 MB" 0
	if grep -q '"run":"huge"' "$TMP/huge-tight.out"; then
		pass "a ${BIG_MB} MB line in 600 MB: scored all the same"
	else
		assert_grep "a ${BIG_MB} MB line in 600 MB: says so, naming the line" "$TMP/huge-tight.err" \
			"huge.jsonl:2: out of memory for the parser"
	fi
fi

# ---- deep nesting -----------------------------------------------------------

deep() { # N OPEN CLOSE: N times OPEN then N times CLOSE
	yes "$2" | head -n "$1" | tr -d '\n'
	yes "$3" | head -n "$1" | tr -d '\n'
}
{ echo "$OK_RUN"; deep 1000000 '[' ']'; echo; } > "$TMP/deep-array.jsonl"
{ echo "$OK_RUN"; yes '{"a":' | head -n 1000000 | tr -d '\n'; printf 1; yes '}' | head -n 1000000 | tr -d '\n'; echo; } \
	> "$TMP/deep-object.jsonl"
{ printf '{"id":"deep","messages":[{"role":"user","content":"hi","extra":'; deep 1000000 '[' ']'; printf '}]}\n'; } \
	> "$TMP/deep-inside.jsonl"
for f in deep-array deep-object; do
	tcr "$f" score -c two.yaml -o jsonl "$f.jsonl"
	exits "10^6-deep $f" 0
	assert_grep "10^6-deep $f: names the line" "$TMP/$f.err" "$f.jsonl:2: maximum parsing depth reached"
	assert_grep "10^6-deep $f: the good run is scored" "$TMP/$f.out" '"run":"ok"'
done
tcr deep-inside score -c two.yaml -o jsonl deep-inside.jsonl
exits "10^6-deep value inside a run" 3
assert_grep "10^6-deep value inside a run: names the line" "$TMP/deep-inside.err" "deep-inside.jsonl:1: maximum parsing depth reached"
screen_walk deep deep-array.jsonl 2
screen_has deep-2 "deep-array.jsonl:2: maximum parsing depth"

# ---- NUL bytes -----------------------------------------------------------------

{
	printf '%s\n' '{"id":"nul-escaped","messages":[{"role":"user","content":"a\u0000b"},{"role":"assistant","content":"x\u0000y"}]}'
	printf '{"id":"nul-in-string","messages":[{"role":"user","content":"a\000b"}]}\n'
	printf '{"id":"nul-outside"\000,"messages":[{"role":"user","content":"ab"}]}\n'
	echo "$OK_RUN"
} > "$TMP/nul.jsonl"
tcr nul score -c two.yaml -o jsonl nul.jsonl
exits "NUL bytes" 0
assert_grep "NUL escaped in a string: the run is read" "$TMP/nul.out" '"run":"nul-escaped","source":"nul.jsonl:1","format":"openai-chat"'
assert_grep "raw NUL in a string: names the line" "$TMP/nul.err" "nul.jsonl:2: control character 0x0"
# jansson's words (which jdoc keeps) call a raw NUL the end of the file,
# but the line and column are the NUL's.
assert_grep "raw NUL outside a string: names the line and column" "$TMP/nul.err" "nul.jsonl:3: '}' expected near end of file (column 20)"
inert "score on NUL bytes" "$TMP/nul.out" "$TMP/nul.err"
screen_walk nul nul.jsonl 4
screen_has nul-2 "nul.jsonl:2: control character 0x0"

# ---- invalid UTF-8 -------------------------------------------------------------

{
	printf '{"id":"bad-bytes","messages":[{"role":"user","content":"a\377\376 b \303"}]}\n'
	printf '{"id":"overlong","messages":[{"role":"user","content":"a\300\257 b \355\240\200"}]}\n'
	echo "$OK_RUN"
} > "$TMP/utf8.jsonl"
tcr utf8 score -c two.yaml -o jsonl utf8.jsonl
exits "invalid UTF-8" 0
assert_grep "invalid UTF-8: the run is read" "$TMP/utf8.out" '"run":"overlong","source":"utf8.jsonl:2","format":"openai-chat"'
if command -v iconv >/dev/null 2>&1; then
	if iconv -f UTF-8 -t UTF-8 "$TMP/utf8.out" >/dev/null 2>&1; then pass "invalid UTF-8: the output is valid UTF-8"
	else fail "invalid UTF-8: the output is valid UTF-8" "$(od -c "$TMP/utf8.out" | head)"; fi
fi
screen_walk utf8 utf8.jsonl 2
screen_has utf8-1 "$(printf 'a\357\277\275\357\277\275 b \357\277\275')"

# ---- terminal escapes and bidi controls in transcript text ---------------------

# Each text is in the user's message, a tool's name, its arguments, its
# result and the answer. JSON carries controls as \u escapes; C1 and bidi
# controls may also be raw UTF-8.
esc_run() { # ID TEXT (as it goes inside a JSON string)
	printf '{"id":"%s","messages":[{"role":"user","content":"q %s"},{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"get_%s","arguments":"{\\"q\\": \\"%s\\"}"}}]},{"role":"tool","tool_call_id":"c1","content":"%s"},{"role":"assistant","content":"a %s"}]}\n' \
		"$1" "$2" "$2" "$2" "$2" "$2"
}
{
	esc_run osc52 'osc52 \u001b]52;c;SGVsbG8=\u0007 end'
	esc_run osc0 'osc0 \u001b]0;pwned\u0007 end'
	esc_run csi 'csi \u001b[2J\u001b[H end'
	esc_run dcs 'dcs \u001bPq#0;2;0;0;0\u001b\\\\ end'
	esc_run paste 'paste \u001b[200~rm -rf ~\u001b[201~ end'
	esc_run c1 "c1 \\u009b2J $(printf '\302\233')2J $(printf '\302\235')0;t$(printf '\302\234') end"
	esc_run bidi "bidi $(printf '\342\200\256')gnp.exe$(printf '\342\200\254') \\u202e end $(printf '\342\201\246')x$(printf '\342\201\251')"
} > "$TMP/escapes.jsonl"
tcr escapes score -c two.yaml -o jsonl escapes.jsonl
exits "terminal escapes" 0
if [ "$(grep -c '"format":"openai-chat"' "$TMP/escapes.out")" -eq 14 ]; then pass "terminal escapes: the 7 runs are read"
else fail "terminal escapes: the 7 runs are read" "$(head -c 2000 "$TMP/escapes.err")"; fi
inert "score on terminal escapes" "$TMP/escapes.out" "$TMP/escapes.err"
screen_walk esc escapes.jsonl 7
screen_has esc-1 '^[]52;c;SGVsbG8=^G'
screen_has esc-7 '<U+202E>gnp.exe<U+202C>'

# ---- YAML: alias bombs, deep nesting ---------------------------------------------

# billion laughs: nine levels of nine aliases, in a scorer's parameter
{
	printf 'scorers:\n  - id: order\n    type: tool-call-accuracy\n    expectedToolOrder: [&a0 [lol,lol,lol,lol,lol,lol,lol,lol,lol]'
	i=1
	while [ "$i" -le 9 ]; do
		p="*a$((i - 1))"
		printf ', &a%d [%s,%s,%s,%s,%s,%s,%s,%s,%s]' "$i" "$p" "$p" "$p" "$p" "$p" "$p" "$p" "$p" "$p"
		i=$((i + 1))
	done
	printf ']\n'
} > "$TMP/bomb.yaml"
tcr bomb score -c bomb.yaml -o jsonl huge.jsonl
exits "YAML alias bomb" 2
assert_grep "YAML alias bomb: names the place" "$TMP/bomb.err" "bomb.yaml:4:"
assert_grep "YAML alias bomb: says why" "$TMP/bomb.err" "expands to more than"
{ printf 'scorers: '; deep 100000 '[' ']'; echo; } > "$TMP/deep-flow.yaml"
{ printf 'scorers: '; yes '{a: ' | head -n 100000 | tr -d '\n'; printf 1; yes '}' | head -n 100000 | tr -d '\n'; echo; } > "$TMP/deep-map.yaml"
{ printf 'scorers:\n  '; awk 'BEGIN { for (i = 0; i < 100000; i++) printf "- "; print "x" }'; } > "$TMP/deep-dash.yaml"
awk 'BEGIN { print "scorers:"; s = ""; for (i = 0; i < 2000; i++) { print s "-"; s = s "  " } }' > "$TMP/deep-block.yaml"
for f in deep-flow deep-map deep-dash deep-block; do
	tcr "$f" score -c "$f.yaml" -o jsonl huge.jsonl
	exits "deep YAML $f" 2
	assert_grep "deep YAML $f: names the place" "$TMP/$f.err" "$f.yaml:"
	assert_grep "deep YAML $f: says why" "$TMP/$f.err" "nesting deeper than"
done
# The screen refuses a bomb before it starts.
printf 'q\n' > "$TMP/quit.keys"
(cd "$TMP" && limits && HOME="$TMP" TERM=dumb TCR_SCRIPT="$TMP/quit.keys" exec timeout 300 "$TCR_BIN" \
	-c bomb.yaml -a bomb.annot.jsonl huge.jsonl </dev/null >"$TMP/bomb-screen.out" 2>"$TMP/bomb-screen.err")
RC=$? LAST=bomb-screen
exits "the screen on a YAML alias bomb" 2
assert_grep "the screen on a YAML alias bomb: says why" "$TMP/bomb-screen.err" "bomb.yaml:4:"

finish
