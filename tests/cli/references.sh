#!/bin/sh
# references.sh - reviewing a few runs by hand becomes the ground truth of
# all of them: on the screen (script mode, the real key handling), calls of
# a run are labelled and corrected (one replaced through the editor, one
# removed, one inserted before the last), another run's calls labelled
# correct and its answer given; `export --references` writes a reference
# per task; `score` with trajectory-match in strict mode reads them back
# through `expectations:` as written and gives the verdicts worked out by
# hand below. Then the same on the shared tau-bench sample (skipped when
# it is absent). The data: tests/data/screen-refs* (r6 in
# screen-refs-nameless.ndjson).
. "$TCR_SRCDIR/tests/cli/lib.sh"
. "$TCR_SRCDIR/tests/cli/screen_lib.sh"

# The reviewer's editor: sed on the file it is given, by what it holds, so
# every edit is known in advance.
cat > "$TMP/fake-editor.sh" <<'ED'
#!/bin/sh
case "$1" in
*.txt) printf 'Cancelled reservation R9.\n' > "$1" ;;
*) if grep -q '"name": ""' "$1"; then
	sed -e 's/"name": ""/"name": "check_balance"/' -e 's/"arguments": {}/"arguments": {"user_id": "u1"}/' "$1" > "$1.new"
   else
	sed 's/2024-05-20/2024-05-21/' "$1" > "$1.new"
   fi
   mv "$1.new" "$1" ;;
esac
ED
chmod +x "$TMP/fake-editor.sh"
unset VISUAL
EDITOR="$TMP/fake-editor.sh"; export EDITOR

# field NAME LINE: a plain value of a flat JSON line (awk: no jq needed).
field() {
	printf '%s\n' "$2" | awk -v k="$1" '{ if (match($0, "\"" k "\":(\"[^\"]*\"|[^,}]*)")) {
		v = substr($0, RSTART + length(k) + 3, RLENGTH - length(k) - 3); gsub(/^"|"$/, "", v); print v } }'
}

# r1 (task 1): get_user right (1), think should not have been called (D y),
# search on the wrong date (e: the editor moves it to the 21st), book with a
# call missing before it (i on the last call, b: before). Then r4 (task 2):
# both calls right, 3 then x on the second (the label taken back: right
# again), and the answer it should have given (R). Then r6 (task 4), whose
# first call has no name (neither the timeline nor trajectory-match counts
# it: shown "· (no name)"; a file of its own, .ndjson, as tcreview convert
# gives such a call another count than trajectory-match on the record
# reads, which convert.sh would hold against every .jsonl here): its second call, the timeline's #1, is labelled
# partly, and recorded as call 2, its place among the run's calls, as call
# marks number them.
SCREEN_CONFIG=screen-refs.yaml SCREEN_COLS=120 SCREEN_LINES=40
run_screen refs-review '<Tab>
jj1
jjDy
jje
jjib
:save-display %D/refs-r1.screen
<Tab><Tab>jjj<Tab>
jj1jj1
3x
R
<Tab><Tab>jj<Tab>
jjjj2' screen-refs.jsonl screen-refs-nameless.ndjson
assert_rc "the review by script exits 0" 0

assert_eq "ten decisions, a line each" "$(wc -l < "$ANNOT" | tr -d ' ')" 10
l() { sed -n "$1p" "$ANNOT"; }
l 9 > "$TMP/l9"
assert_eq "1: call 1 of r1 labelled correct" \
	"$(field run "$(l 1)") $(field decision "$(l 1)") $(field call "$(l 1)") $(field label "$(l 1)") $(field tool "$(l 1)") $(field call_id "$(l 1)")" \
	"r1 call-label 1 correct get_user c1"
assert_eq "2: call 2 of r1 removed" \
	"$(field decision "$(l 2)") $(field call "$(l 2)") $(field correction "$(l 2)") $(field tool "$(l 2)")" \
	"correct 2 remove think"
assert_grep "3: call 3 of r1 replaced by what the editor saved" "$ANNOT" \
	'"call":3,"call_id":"c3","tool":"search_flights","correction":"replace","expected":{"name":"search_flights","arguments":{"origin":"JFK","destination":"SEA","date":"2024-05-21"}}'
assert_grep "4: a call missing before call 4" "$ANNOT" \
	'"call":4,"correction":"insert","expected":{"name":"check_balance","arguments":{"user_id":"u1"}}'
assert_eq "5-8: r4's calls labelled, the second again, then taken back" \
	"$(for i in 5 6 7 8; do printf '%s/%s/%s ' "$(field decision "$(l $i)")" "$(field call "$(l $i)")" "$(field label "$(l $i)")"; done)" \
	"call-label/1/correct call-label/2/correct call-label/2/wrong retract/2/ "
assert_grep "8: the retract names the kind it takes back" "$ANNOT" '"retracts":"call-label"'
assert_grep "9: r4's expected answer" "$ANNOT" '"run":"r4"'
assert_grep "9: the answer as the editor left it, its newline aside" "$TMP/l9" '"correction":"answer","expected":"Cancelled reservation R9."}'
assert_no_grep "9: an answer names no call" "$TMP/l9" '"call'
assert_grep "10: r6's get_user is call 2 though the timeline numbers it #1" "$ANNOT" \
	'"run":"r6","source":"screen-refs-nameless.ndjson:1"'
assert_eq "10: the call, its id, tool and label" \
	"$(field call "$(l 10)") $(field call_id "$(l 10)") $(field tool "$(l 10)") $(field label "$(l 10)")" \
	"2 c2 get_user partly"

# What a person sees under r1's calls before moving on.
screen_has refs-r1 "labelled correct"
screen_has refs-r1 "should not have been called"
screen_has refs-r1 'should be: search_flights(date: "2024-05-21")'
screen_has refs-r1 'missing before it: check_balance(user_id: "u1")'

# ---- export --references, per task (the configuration joins by task_id) ----
(cd "$TMP" && "$TCR_BIN" export --references -c screen-refs.yaml -a refs-review.annot.jsonl \
	-o refs.jsonl screen-refs.jsonl screen-refs-nameless.ndjson > export.out 2> export.err)
assert_eq "export --references exits 0" "$?" 0
assert_grep "export says what it wrote" "$TMP/export.err" "wrote 3 references (one per task) of 3 runs with call decisions to refs.jsonl"
assert_eq "a line per task" "$(wc -l < "$TMP/refs.jsonl" | tr -d ' ')" 3
assert_eq "task 4: the nameless call is not in the reference; partly is below the pass mark: kept, and listed" \
	"$(sed -n 3p "$TMP/refs.jsonl")" \
	'{"run":"r6","task":4,"reference":[{"name":"get_user","arguments":{"user_id":"u4"}}],"answer":null,"reviewer":"qa","kept":1,"corrected":0,"removed":0,"inserted":0,"wrong_kept":[2]}'
assert_eq "task 1: r1 corrected (think removed, the search replaced, check_balance inserted before book)" \
	"$(sed -n 1p "$TMP/refs.jsonl")" \
	'{"run":"r1","task":1,"reference":[{"name":"get_user","arguments":{"user_id":"u1"}},{"name":"search_flights","arguments":{"origin":"JFK","destination":"SEA","date":"2024-05-21"}},{"name":"check_balance","arguments":{"user_id":"u1"}},{"name":"book","arguments":{"user_id":"u1","flight":"HAT1"}}],"answer":null,"reviewer":"qa","kept":2,"corrected":1,"removed":1,"inserted":1,"wrong_kept":[]}'
assert_eq "task 2: r4 as it was, with the answer it should have given" \
	"$(sed -n 2p "$TMP/refs.jsonl")" \
	'{"run":"r4","task":2,"reference":[{"name":"get_user","arguments":{"user_id":"u2"}},{"name":"cancel","arguments":{"reservation":"R9"}}],"answer":"Cancelled reservation R9.","reviewer":"qa","kept":2,"corrected":0,"removed":0,"inserted":0,"wrong_kept":[]}'

# ---- score every run against them, through expectations: as written ----
# By hand, strict mode (the same calls in the same order, arguments exact):
# r1 (think, the 20th, no check_balance) fails; r2 made exactly the
# corrected calls and passes; r3 lacks check_balance and fails; r4 passes
# against its own calls; r5's task has no reference (skipped); r6 fails:
# its reference holds the calls the timeline and the run model count, but
# on an OpenAI chat record trajectory-match reads the record's own
# tool_calls, the nameless one too. Pass rate 2 of the 5 scored.
(cd "$TMP" && "$TCR_BIN" score -c screen-refs-score.yaml -o jsonl screen-refs.jsonl \
	screen-refs-nameless.ndjson > score.out 2> score.err)
got=$(awk '{ r = ""; p = ""; s = ""
	if (match($0, /"run":"[^"]*"/)) r = substr($0, RSTART + 7, RLENGTH - 8)
	if (match($0, /"passed":[a-z]*/)) p = substr($0, RSTART + 9, RLENGTH - 9)
	if (match($0, /"status":"[^"]*"/)) s = substr($0, RSTART + 10, RLENGTH - 11)
	printf "%s:%s:%s ", r, s, p }' "$TMP/score.out")
assert_eq "strict trajectory-match against the references: the verdicts worked out by hand" \
	"$got" "r1:ok:false r2:ok:true r3:ok:false r4:ok:true r5:skipped:null r6:ok:false "

# ---- the shared tau-bench sample --------------------------------------------
R="${TCR_SHARED_DIR:-}/fixtures/real"
if [ ! -f "$R/taubench_v1_airline_sample.jsonl" ] || [ ! -f "$R/taubench_v1_airline_expected_sample.jsonl" ]; then
	skip "the loop on the tau-bench sample" "not found (set TCR_SHARED_DIR to the shared reference folder)"
	finish
fi
cp "$R/taubench_v1_airline_sample.jsonl" "$R/taubench_v1_airline_expected_sample.jsonl" "$TMP/"
(cd "$TMP" && "$TCR_BIN" init -o tb.yaml taubench_v1_airline_sample.jsonl \
	taubench_v1_airline_expected_sample.jsonl > tb-init.out 2>&1)
assert_grep "init proposes the join by task_id" "$TMP/tb.yaml" "match: {run: task_id, expected: task_id}"
# The editor gives every call it is shown no baggage to pay for: unchanged
# (nothing written) but for the bookings that paid for one.
cat > "$TMP/tb-editor.sh" <<'ED'
#!/bin/sh
sed 's/"nonfree_baggages": 1/"nonfree_baggages": 0/' "$1" > "$1.new" && mv "$1.new" "$1"
ED
chmod +x "$TMP/tb-editor.sh"
EDITOR="$TMP/tb-editor.sh"
# task000-trial0: its first call (get_user_details) right, the second
# (search_direct_flight) should not have been made, then e on each entry
# after it. The golden screens: the booking found by a search, its
# correction under it (120x40); the label and the removal (80x24).
SCREEN_CONFIG=tb.yaml SCREEN_COLS=120 SCREEN_LINES=40 SCREEN_ANNOT=tb.annot.jsonl
rm -f "$TMP/tb.annot.jsonl"
run_screen calls-taubench-120x40 '<Tab>jjjjjj1
jjDy
jjejjejjejjejjejjejjejjejjejjejjejje
/nonfree_baggages
<Enter>' taubench_v1_airline_sample.jsonl
check_screen calls-taubench-120x40
screen_has calls-taubench-120x40 "→ should be: book_reservation(nonfree_baggages: 0)"
SCREEN_COLS=80 SCREEN_LINES=24
run_screen calls-taubench-80x24 '<Tab>/HAT069
<Enter>kk' taubench_v1_airline_sample.jsonl
check_screen calls-taubench-80x24
screen_has calls-taubench-80x24 "#1 get_user_details  labelled correct"
screen_has calls-taubench-80x24 "✗ should not have been called"
SCREEN_ANNOT=
A=$TMP/tb.annot.jsonl
assert_grep "tau-bench: call 1 labelled correct" "$A" '"call":1,"call_id":"call_oIHazX6yQrB8hUwl4cRilFKj","tool":"get_user_details","label":"correct"'
assert_grep "tau-bench: call 2 removed" "$A" '"call":2,"call_id":"call_HGn16KZh9oNCruxsMJ4gYXan","tool":"search_direct_flight","correction":"remove"'
nrep=$(grep -c '"correction":"replace"' "$A")
assert_eq "tau-bench: only the bookings that paid for a bag are corrected" "$nrep" \
	"$(grep -c '"decision":"correct".*"tool":"book_reservation".*"nonfree_baggages":0' "$A")"
(cd "$TMP" && "$TCR_BIN" export --references -c tb.yaml -a tb.annot.jsonl -o tb-refs.jsonl \
	taubench_v1_airline_sample.jsonl > tb-export.out 2> tb-export.err)
assert_eq "tau-bench: export --references exits 0" "$?" 0
assert_eq "tau-bench: one reference, for task 0" "$(wc -l < "$TMP/tb-refs.jsonl" | tr -d ' ')" 1
assert_grep "tau-bench: from task000-trial0" "$TMP/tb-refs.jsonl" '{"run":"tau1-airline-gpt-4o-task000-trial0","task":0,"reference":[{"name":"get_user_details"'
assert_grep "tau-bench: the counts" "$TMP/tb-refs.jsonl" "\"corrected\":$nrep,\"removed\":1,\"inserted\":0"
assert_no_grep "tau-bench: the removed call is not in the reference" "$TMP/tb-refs.jsonl" "search_direct_flight"
assert_no_grep "tau-bench: no booking pays for a bag" "$TMP/tb-refs.jsonl" '"nonfree_baggages":1'
# Scored against it in strict mode, task 0's two runs are judged and the
# others have no reference; trial0 made the call that should not have
# been made, so it fails.
cat > "$TMP/tb-score.yaml" <<'YML'
runs:
  id: _corpus.run_id
expectations:
  file: tb-refs.jsonl
  match: {run: task_id, expected: task}
scorers:
  - id: actions
    type: trajectory-match
    reference: {from: expected.reference}
    mode: strict
YML
(cd "$TMP" && "$TCR_BIN" score -c tb-score.yaml -o jsonl taubench_v1_airline_sample.jsonl > tb-score.out 2> tb-score.err)
assert_eq "tau-bench: task 0's runs scored, the ten others without a reference" \
	"$(grep -c '"status":"ok"' "$TMP/tb-score.out") $(grep -c '"status":"skipped"' "$TMP/tb-score.out")" "2 10"
assert_grep "tau-bench: trial0 fails against its own corrected calls" "$TMP/tb-score.out" \
	'"run":"tau1-airline-gpt-4o-task000-trial0"'
assert_eq "tau-bench: trial0's verdict fails" \
	"$(grep '"run":"tau1-airline-gpt-4o-task000-trial0"' "$TMP/tb-score.out" | grep -c '"passed":false')" 1

finish
