#!/bin/sh
# init.sh - `tcreview init`: the configuration it proposes loads and scores
# every run, and its report says what it found. On the bundled demo (the
# join by task_id), on every shared real sample tcreview reads (tau-bench v1
# and tau2 with their expected samples: the join and the trajectory and
# tool scorers), and on hand-made cases: no ids, duplicate ids, task_id with
# trial, two formats in one folder, a join file with another key name, an
# existing output, a record no format reads, a sample of a large input.
# The judge block: commented with no key and no Ollama, an openai judge with
# OPENAI_API_KEY=dummy (no API is called), an Ollama judge from the local
# test server answering GET /api/tags.
. "$TCR_SRCDIR/tests/cli/lib.sh"

unset OPENAI_API_KEY ANTHROPIC_API_KEY AZURE_OPENAI_API_KEY AZURE_OPENAI_ENDPOINT OPENAI_BASE_URL
# Nothing answers there: no Ollama of this machine's takes part. Where the
# test's own server answers, it may be slow to on a busy machine: the
# probe waits for it up to a minute (a refused connection costs nothing).
TCR_OLLAMA_URL=http://127.0.0.1:1; export TCR_OLLAMA_URL
TCR_OLLAMA_TIMEOUT_MS=60000; export TCR_OLLAMA_TIMEOUT_MS

# has NAME FILE TEXT: the file holds TEXT, newlines and all.
has() {
	if case $(cat "$2") in *"$3"*) true ;; *) false ;; esac; then pass "$1"
	else fail "$1" "not found in $2:" "$3"; fi
}

# scorers_in YAML: how many scorers the YAML lists (the judges' ids not counted).
scorers_in() {
	awk '/^scorers:/ { s = 1; next } /^[^ #]/ { s = 0 } s && /^  - id:/ { n++ } END { print n + 0 }' "$1"
}

# runs_read REPORT: the figure of "runs read: N".
runs_read() {
	sed -n 's/^runs read: //p' "$1"
}

# scores_all NAME YAML REPORT [SCORE-ARGS...] INPUTS...: score loads the YAML
# (exit 0, or 1 for failing verdicts) and gives every run read a row per scorer
# (a record no format reads, in a file of some that are read, has its error
# rows besides, with no format: those are not counted).
scores_all() {
	name=$1 yaml=$2 report=$3
	shift 3
	"$TCR_BIN" score -c "$yaml" -o jsonl "$@" > "$TMP/score.out" 2> "$TMP/score.err"
	rc=$?
	if [ "$rc" -gt 1 ]; then
		fail "$name: the YAML loads and scores" "exit status $rc" "$(head -c 2000 "$TMP/score.err")"
		return
	fi
	pass "$name: the YAML loads and scores (exit $rc)"
	rows=$(grep -vc '"format":"unknown"' "$TMP/score.out")
	want=$(( $(runs_read "$report") * $(scorers_in "$yaml") ))
	assert_eq "$name: a row per run and scorer" "$rows" "$want"
}

# ---- the bundled demo, in a folder of its own --------------------------------
D=$TMP/demo
mkdir -p "$D"
cp -R "$TCR_SRCDIR/examples/runs" "$D/runs"
cp "$TCR_SRCDIR/examples/tasks.jsonl" "$D/tasks.jsonl"
(cd "$D" && "$TCR_BIN" init runs tasks.jsonl > "$TMP/demo.out" 2> "$TMP/err")
RC=$?
assert_rc "demo: init writes ./tcreview.yaml" 0
assert_grep "demo: the formats with their counts" "$TMP/demo.out" \
	"formats: anthropic 10, mastra 10, openai-chat 10, tau2 10"
assert_grep "demo: each file of the folder" "$TMP/demo.out" "input runs/tau2.jsonl: 10 records, 10 runs: tau2 10"
assert_grep "demo: the join by task_id" "$TMP/demo.out" "join: runs' task_id = task_id of tasks.jsonl"
assert_grep "demo: tasks.jsonl is ground truth" "$TMP/demo.out" \
	"input tasks.jsonl: 9 records; no format reads them as runs: ground truth, joined to the runs"
assert_grep "demo: the expectations section, relative" "$D/tcreview.yaml" \
	"  file: tasks.jsonl"
assert_grep "demo: tool-call-accuracy from the expectation" "$D/tcreview.yaml" \
	"expectedToolOrder: {from: expected.expected_tools}"
assert_grep "demo: trajectory-match from the expectation" "$D/tcreview.yaml" \
	"reference: {from: expected.expected_actions}"
assert_grep "demo: tau2's reward as a binary record-field" "$TMP/demo.out" \
	"reward_info.reward (10 runs): record-field, scale binary"
assert_grep "demo: the tools, counted" "$TMP/demo.out" "get_order 30 in 29 runs"
assert_grep "demo: the tools table in the YAML" "$D/tcreview.yaml" \
	"#   get_order               30     29"
has "demo: the generic checks" "$D/tcreview.yaml" "  - id: tool-errors
    type: tool-errors"
assert_grep "demo: unanswered-calls" "$D/tcreview.yaml" "    type: unanswered-calls"
assert_grep "demo: no key, no Ollama: the judge commented, saying what to set" "$D/tcreview.yaml" \
	"# No judge: no key variable is set and no Ollama server answers on localhost:11434."
assert_grep "demo: which variables" "$D/tcreview.yaml" "set OPENAI_API_KEY (or ANTHROPIC_API_KEY"
assert_eq "demo: no judge uncommented" "$(grep -cx 'judges:' "$D/tcreview.yaml")" 0
assert_eq "demo: the report ends with the next command, as the program was run" \
	"$(tail -n 1 "$TMP/demo.out")" "next: $TCR_BIN runs"
(cd "$D" && "$TCR_BIN" score -o jsonl runs > "$TMP/score.out" 2> "$TMP/score.err")
RC=$?
[ "$RC" -le 1 ] && pass "demo: score reads ./tcreview.yaml unasked (exit $RC)" || \
	fail "demo: score reads ./tcreview.yaml unasked" "exit $RC" "$(cat "$TMP/score.err")"
scores_all "demo" "$D/tcreview.yaml" "$TMP/demo.out" "$D/runs"

# One folder holding the runs and their ground truth side by side.
D3=$TMP/demo3
mkdir -p "$D3"
cp -R "$TCR_SRCDIR/examples/runs" "$TCR_SRCDIR/examples/tasks.jsonl" "$D3/"
(cd "$D3" && "$TCR_BIN" init . > "$TMP/demo3.out" 2> "$TMP/err")
RC=$?
assert_rc "runs and ground truth in one folder: written" 0
assert_grep "one folder: the ground truth told apart" "$TMP/demo3.out" \
	"input ./tasks.jsonl: 9 records; no format reads them as runs: ground truth, joined to the runs"
assert_grep "one folder: the next command names the files of runs" "$TMP/demo3.out" \
	"next: $TCR_BIN ./runs/anthropic.jsonl ./runs/mastra.jsonl ./runs/openai-chat.jsonl ./runs/tau2.jsonl"
scores_all "one folder" "$D3/tcreview.yaml" "$TMP/demo3.out" "$D3/runs/anthropic.jsonl" \
	"$D3/runs/mastra.jsonl" "$D3/runs/openai-chat.jsonl" "$D3/runs/tau2.jsonl"

# The demo where it lies, the YAML elsewhere: the file is outside its folder,
# and the user named it, so init records that this YAML may read it. (The
# copy below lies as deep, so a relative path would name the same file.)
D2=$TMP/d2
mkdir -p "$D2"
run_tcr "$TMP/demo2.out" "$TMP/err" init -o "$D2/demo2.yaml" "$TCR_SRCDIR/examples/runs" \
	"$TCR_SRCDIR/examples/tasks.jsonl"
assert_rc "demo elsewhere: written" 0
assert_grep "demo elsewhere: the report says it may be read, and why" "$TMP/demo2.out" \
	"the expectations file lies outside the configuration's folder: you named it, so this configuration may read it"
assert_grep "demo elsewhere: the next command needs no --allow-path" "$TMP/demo2.out" \
	"next: $TCR_BIN -c $D2/demo2.yaml $TCR_SRCDIR/examples/runs"
assert_grep "demo elsewhere: the YAML says so too" "$D2/demo2.yaml" "recorded in your"
AP=$XDG_CONFIG_HOME/tcreview/allowed-paths
assert_grep "demo elsewhere: the allowance, in the user's own folder" "$AP" \
	"$(cd "$D2" && pwd -P)/demo2.yaml	$(cd "$TCR_SRCDIR/examples" && pwd -P)/tasks.jsonl"
scores_all "demo elsewhere, no flag" "$D2/demo2.yaml" "$TMP/demo2.out" "$TCR_SRCDIR/examples/runs"
run_tcr "$TMP/r" "$TMP/err" init --force -o "$D2/demo2.yaml" "$TCR_SRCDIR/examples/runs" \
	"$TCR_SRCDIR/examples/tasks.jsonl"
assert_eq "demo elsewhere: init again records it once" "$(grep -c "demo2.yaml" "$AP")" 1
# What the user did not name stays refused: a copy of that YAML elsewhere,
# another YAML in the same folder naming the same file, a YAML naming
# ../secret by itself.
cp "$D2/demo2.yaml" "$D2/hand-copy.yaml"
mkdir -p "$TMP/copy"
cp "$D2/demo2.yaml" "$TMP/copy/demo2.yaml"
run_tcr "$TMP/o" "$TMP/err" score -c "$TMP/copy/demo2.yaml" -o jsonl "$TCR_SRCDIR/examples/runs"
assert_rc "a copy of that YAML elsewhere: refused" 2
assert_grep "a copy: said, with the file and line" "$TMP/err" "copy/demo2.yaml:"
assert_grep "a copy: why" "$TMP/err" "resolves outside the configuration's folder"
run_tcr "$TMP/o" "$TMP/err" score -c "$D2/hand-copy.yaml" -o jsonl "$TCR_SRCDIR/examples/runs"
assert_rc "another YAML of the same folder naming the same file: refused" 2
mkdir -p "$TMP/proj" "$TMP/secret"
cp "$TCR_SRCDIR/examples/tasks.jsonl" "$TMP/secret/tasks.jsonl"
printf 'expectations:\n  file: ../secret/tasks.jsonl\n  match: {run: task_id, expected: task_id}\n' \
	> "$TMP/proj/tcreview.yaml"
(cd "$TMP/proj" && "$TCR_BIN" score -o jsonl "$TCR_SRCDIR/examples/runs") > "$TMP/o" 2> "$TMP/err"
RC=$?
assert_rc "a YAML naming ../secret by itself: refused" 2
assert_grep "... at its line, with the way to allow it" "$TMP/err" \
	"tcreview.yaml:2:9: file '../secret/tasks.jsonl' resolves outside the configuration's folder (use --allow-path PATH to allow it)"
# Runs and their ground truth in two folders, init run beside the runs.
mkdir -p "$TMP/two/runs" "$TMP/two/truth"
cp "$TCR_SRCDIR/examples/runs/tau2.jsonl" "$TMP/two/runs/"
cp "$TCR_SRCDIR/examples/tasks.jsonl" "$TMP/two/truth/"
(cd "$TMP/two/runs" && "$TCR_BIN" init tau2.jsonl ../truth/tasks.jsonl) > "$TMP/two.out" 2> "$TMP/err"
RC=$?
assert_rc "two folders: init writes ./tcreview.yaml" 0
assert_grep "two folders: the file named relatively, through their common folder" \
	"$TMP/two/runs/tcreview.yaml" '  file: "../truth/tasks.jsonl"'
(cd "$TMP/two/runs" && "$TCR_BIN" score -o jsonl tau2.jsonl) > "$TMP/score.out" 2> "$TMP/score.err"
RC=$?
assert_rc "two folders: score RUNS with no flag: exit 0" 0
assert_eq "two folders: a row per run and scorer" "$(wc -l < "$TMP/score.out" | tr -d ' ')" \
	"$(( $(runs_read "$TMP/two.out") * $(scorers_in "$TMP/two/runs/tcreview.yaml") ))"
assert_grep "two folders: the joined expectation reached its scorer" "$TMP/score.out" \
	'"scorer":"tool-order:expected_tools","type":"tool-call-accuracy","status":"ok"'
(cd "$TMP/two/runs" && "$TCR_BIN" --help config) > "$TMP/o" 2>&1
assert_grep "two folders: --help config says what it may read outside" "$TMP/o" \
	"may read outside its folder (your allowed-paths): $(cd "$TMP/two/truth" && pwd -P)/tasks.jsonl"
# Without a home for the record, init says to give --allow-path, as before.
(cd "$TMP/two/runs" && env -u XDG_CONFIG_HOME -u HOME "$TCR_BIN" init -o nohome.yaml tau2.jsonl \
	../truth/tasks.jsonl) > "$TMP/r" 2> "$TMP/err"
RC=$?
assert_rc "no HOME: written" 0
assert_grep "no HOME: the next command carries --allow-path" "$TMP/r" \
	"next: $TCR_BIN -c nohome.yaml --allow-path $(cd "$TMP/two/truth" && pwd -P)/tasks.jsonl tau2.jsonl"
# A line of the record that is no allowance is said with its place.
printf '# mine\nnot a path\n' >> "$AP"
run_tcr "$TMP/o" "$TMP/err" score -c "$D2/demo2.yaml" -o jsonl "$TCR_SRCDIR/examples/runs"
assert_rc "a broken allowed-paths line: exit 2" 2
assert_grep "... said at FILE:LINE" "$TMP/err" \
	"$AP:$(grep -c '' "$AP"): expected a configuration's path, a tab and a file's path, both absolute"
sed -i '$d' "$AP"

# ---- hand-made cases -----------------------------------------------------------
# chat_run EXTRA TOOL: an openai-chat record with one call and its result.
chat_run() {
	printf '{%s"messages":[{"role":"user","content":"hi"},{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"%s","arguments":"{}"}}]},{"role":"tool","tool_call_id":"c1","content":"ok"},{"role":"assistant","content":"done"}]}\n' "$1" "$2"
}
H=$TMP/hand
mkdir -p "$H"

{ chat_run '' get_order; chat_run '' get_order; } > "$H/noids.jsonl"
run_tcr "$TMP/r" "$TMP/err" init -o "$H/noids.yaml" "$H/noids.jsonl"
assert_rc "no ids: written" 0
assert_grep "no ids: said" "$TMP/r" "run ids: the records carry no id field; kept the default"
assert_eq "no ids: no runs section" "$(grep -cx 'runs:' "$H/noids.yaml")" 0
scores_all "no ids" "$H/noids.yaml" "$TMP/r" "$H/noids.jsonl"

{ chat_run '"id":"a",' get_order; chat_run '"id":"b",' get_order; chat_run '"id":"a",' track; } > "$H/dups.jsonl"
run_tcr "$TMP/r" "$TMP/err" init -o "$H/dups.yaml" "$H/dups.jsonl"
assert_rc "duplicate ids: written" 0
assert_grep "duplicate ids: FILE:LINE of the first duplicate" "$TMP/r" \
	"$H/dups.jsonl:3 has the same id as $H/dups.jsonl:1 (a); kept the default"
scores_all "duplicate ids" "$H/dups.yaml" "$TMP/r" "$H/dups.jsonl"

{ chat_run '"task_id":"t1","trial":0,' a; chat_run '"task_id":"t1","trial":1,' b
  chat_run '"task_id":"t2","trial":0,' a; } > "$H/trials.jsonl"
run_tcr "$TMP/r" "$TMP/err" init -o "$H/trials.yaml" "$H/trials.jsonl"
assert_rc "task_id with trial: written" 0
assert_grep "task_id with trial: the composite id" "$H/trials.yaml" "  id: [task_id, trial]"
scores_all "task_id with trial" "$H/trials.yaml" "$TMP/r" "$H/trials.jsonl"
assert_grep "task_id with trial: the runs are named by both" "$TMP/score.out" '"run":"t1#1"'

mkdir -p "$H/two"
cp "$TCR_SRCDIR/examples/runs/tau2.jsonl" "$TCR_SRCDIR/examples/runs/openai-chat.jsonl" "$H/two/"
run_tcr "$TMP/r" "$TMP/err" init -o "$H/two.yaml" "$H/two"
assert_rc "two formats in one folder: written" 0
assert_grep "two formats in one folder: both counted" "$TMP/r" "formats: openai-chat 10, tau2 10"
assert_grep "two formats in one folder: tau2's reward" "$H/two.yaml" "    path: reward_info.reward"
scores_all "two formats" "$H/two.yaml" "$TMP/r" "$H/two"
# A JSON array of runs.
{ printf '['; chat_run '"id":"j1","score":0.5,' get_order | tr -d '\n'; printf ','
  chat_run '"id":"j2","score":0.25,' track | tr -d '\n'; printf ']\n'; } > "$H/array.json"
run_tcr "$TMP/r" "$TMP/err" init -o "$H/array.yaml" "$H/array.json"
assert_rc "a JSON array: written" 0
assert_grep "a JSON array: its runs" "$TMP/r" "input $H/array.json: 2 records, 2 runs: openai-chat 2"
assert_grep "a JSON array: score on 0..1" "$TMP/r" "score (2 runs): record-field, scale 0..1"
scores_all "a JSON array" "$H/array.yaml" "$TMP/r" "$H/array.json"

# A folder where only some records have an id: said where one is missing.
mkdir -p "$H/mix"
cp "$TCR_SRCDIR/examples/runs/tau2.jsonl" "$H/mix/"
{ chat_run '' get_order; } > "$H/mix/z.jsonl"
run_tcr "$TMP/r" "$TMP/err" init -o "$H/mix.yaml" "$H/mix"
assert_rc "an id some runs lack: written" 0
assert_grep "an id some runs lack: where" "$TMP/r" "run ids: no field names every run once (id is missing from $H/mix/z.jsonl:1); kept the default"
scores_all "an id some runs lack" "$H/mix.yaml" "$TMP/r" "$H/mix"

{ chat_run '"id":"r1","case":"refund",' get_order; chat_run '"id":"r2","case":"track",' track_parcel
  chat_run '"id":"r3","case":"refund",' refund_order; } > "$H/jruns.jsonl"
cat > "$H/jtasks.jsonl" <<'EOF'
{"id":"refund","expected_tools":["get_order","refund_order"],"expected_actions":[{"name":"get_order","arguments":{}}]}
{"id":"track","expected_tools":["track_parcel"],"expected_actions":[{"name":"track_parcel","arguments":{}}]}
EOF
run_tcr "$TMP/r" "$TMP/err" init -o "$H/join.yaml" "$H/jruns.jsonl" "$H/jtasks.jsonl"
assert_rc "join under another key name: written" 0
assert_grep "join under another key name: found" "$TMP/r" "join: runs' case = id of $H/jtasks.jsonl (3 of 3 runs, 2 expectations)"
has "join under another key name: the section" "$H/join.yaml" "  file: jtasks.jsonl
  match: {run: case, expected: id}"
assert_grep "join: trajectory-match proposed" "$H/join.yaml" "    type: trajectory-match"
assert_grep "join: the next command leaves the ground truth out" "$TMP/r" "next: $TCR_BIN -c $H/join.yaml $H/jruns.jsonl"
scores_all "join under another key name" "$H/join.yaml" "$TMP/r" "$H/jruns.jsonl"
assert_grep "join: the expectation reached the scorer" "$TMP/score.out" '"scorer":"tool-order:expected_tools","type":"tool-call-accuracy","status":"ok"'

# The runs' own expected calls and the joined file's: the same calls with
# the arguments' keys in another order (and as a JSON text) are one
# trajectory-match; calls that differ in one run are two.
own() { # ID CASE ACTIONS
	printf '{"id":"%s","case":"%s","actions":%s,"messages":[{"role":"user","content":"hi"},{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"get_order","arguments":"{}"}}]},{"role":"tool","tool_call_id":"c1","content":"ok"}]}\n' "$1" "$2" "$3"
}
{ own o1 refund '[{"name":"get_order","arguments":{"b":2,"a":1}}]'
  own o2 track '[{"name":"track_parcel","arguments":"{\"id\":7}"}]'; } > "$H/own.jsonl"
printf '%s\n' '{"id":"refund","expected_actions":[{"name":"get_order","arguments":{"a":1,"b":2}}]}' \
	'{"id":"track","expected_actions":[{"name":"track_parcel","arguments":{"id":7}}]}' > "$H/owntasks.jsonl"
run_tcr "$TMP/r" "$TMP/err" init -o "$H/own.yaml" "$H/own.jsonl" "$H/owntasks.jsonl"
assert_rc "the same calls twice: written" 0
assert_eq "the same calls twice: one trajectory-match" "$(grep -c 'type: trajectory-match' "$H/own.yaml")" 1
assert_grep "the same calls twice: said" "$TMP/r" "(the same calls as actions in all 2 runs both reach"
scores_all "the same calls twice" "$H/own.yaml" "$TMP/r" "$H/own.jsonl"
{ own o1 refund '[{"name":"get_order","arguments":{"a":1,"b":3}}]'
  own o2 track '[{"name":"track_parcel","arguments":{"id":7}}]'; } > "$H/own2.jsonl"
run_tcr "$TMP/r" "$TMP/err" init -o "$H/own2.yaml" "$H/own2.jsonl" "$H/owntasks.jsonl"
assert_eq "calls that differ in one run: two trajectory-matches" \
	"$(grep -c 'type: trajectory-match' "$H/own2.yaml")" 2
scores_all "calls that differ" "$H/own2.yaml" "$TMP/r" "$H/own2.jsonl"

# Two files join the runs: one expectations file is read, the better one.
printf '{"id":"refund","expected_tools":["get_order"]}\n' > "$H/jless.jsonl"
run_tcr "$TMP/r" "$TMP/err" init -o "$H/join2.yaml" "$H/jruns.jsonl" "$H/jless.jsonl" "$H/jtasks.jsonl"
assert_rc "two files join: written" 0
assert_grep "two files join: the better one is used" "$TMP/r" "join: runs' case = id of $H/jtasks.jsonl (3 of 3 runs, 2 expectations)"
assert_grep "two files join: the other is said" "$TMP/r" \
	"input $H/jless.jsonl: 1 record; ground truth that joins the runs too, but a configuration reads one expectations file"
# Numbers meet by chance: the demo tau2 runs' seeds 300 and 301 are no join with tasks 300 and 301.
printf '{"task_id":300,"expected_tools":["a"]}\n{"task_id":301,"expected_tools":["b"]}\n' > "$H/numtasks.jsonl"
run_tcr "$TMP/r" "$TMP/err" init -o "$H/num.yaml" "$TCR_SRCDIR/examples/runs/tau2.jsonl" "$H/numtasks.jsonl"
assert_rc "a join by chance: written" 0
assert_no_grep "a join by chance: not proposed" "$TMP/r" "join:"
assert_grep "a join by chance: the file is said not read" "$TMP/r" "  see why: $TCR_BIN formats $H/numtasks.jsonl"

echo "mine" > "$H/exists.yaml"
run_tcr "$TMP/r" "$TMP/err" init -o "$H/exists.yaml" "$H/jruns.jsonl"
assert_rc "an existing output without --force: refused" 2
assert_grep "an existing output: said" "$TMP/err" "exists already: --force writes over it"
assert_eq "an existing output: untouched" "$(cat "$H/exists.yaml")" "mine"
run_tcr "$TMP/r" "$TMP/err" init --force -o "$H/exists.yaml" "$H/jruns.jsonl"
assert_rc "an existing output with --force: written" 0
assert_grep "--force: the proposal is there" "$H/exists.yaml" "type: tool-errors"
assert_eq "no temporary file left" "$(ls "$H" | grep -c '\.tmp\.')" 0

{ chat_run '"id":"u1",' get_order; echo '{"foo":1}'; chat_run '"id":"u2",' get_order; } > "$H/unread.jsonl"
run_tcr "$TMP/r" "$TMP/err" init -o "$H/unread.yaml" "$H/unread.jsonl"
assert_rc "a record no format reads: written" 0
assert_grep "a record no format reads: where" "$TMP/r" \
	"  not read: 1 record (1 no format reads, 0 malformed); first $H/unread.jsonl:2"
assert_grep "a record no format reads: the pointer" "$TMP/r" "  see why: $TCR_BIN formats $H/unread.jsonl"

# Names and values from the records never reach the YAML as YAML: a tool
# name with a newline, an escape code, a key holding a dot.
{ chat_run '"id":"x1","reward":"\u001b[31m","scores":{"ok":{"value":"C"}},' 'x\n- id: evil\n  type: exec'
  chat_run '"id":"x2","reward":1,"scores":{"ok":{"value":"I"}},"a.b":{"success":true},' get_order; } > "$H/hostile.jsonl"
run_tcr "$TMP/r" "$TMP/err" init -o "$H/hostile.yaml" "$H/hostile.jsonl"
assert_rc "hostile names: written" 0
assert_eq "hostile names: no scorer injected" "$(grep -c 'evil' "$H/hostile.yaml")" 1
assert_grep "hostile names: the tool shown in its comment" "$H/hostile.yaml" "#   x^J- id: evil^J  type: exec"
assert_grep "hostile names: the escape code shown, not sent" "$TMP/r" "(^[[31m)"
assert_grep "hostile names: a key with a dot quoted" "$H/hostile.yaml" '    path: "[\"a.b\"].success"'
scores_all "hostile names" "$H/hostile.yaml" "$TMP/r" "$H/hostile.jsonl"

echo '{"foo":1}' > "$H/none.jsonl"
run_tcr "$TMP/r" "$TMP/err" init -o "$H/none.yaml" "$H/none.jsonl"
assert_rc "no run at all: exit 3" 3
assert_grep "no run at all: said" "$TMP/err" "no record is a run tcreview reads ($TCR_BIN formats $H/none.jsonl says why)"
[ -e "$H/none.yaml" ] && fail "no run at all: nothing written" || pass "no run at all: nothing written"

i=0
while [ $i -lt 50 ]; do chat_run "\"id\":\"s$i\"," get_order; i=$((i + 1)); done > "$H/big.jsonl"
run_tcr "$TMP/r" "$TMP/err" init --max-records 20 -o "$H/big.yaml" "$H/big.jsonl"
assert_rc "a sample: written" 0
assert_grep "a sample: said" "$TMP/r" "input $H/big.jsonl: 20 records read, a sample (the input holds more)"

run_tcr "$TMP/r" "$TMP/err" init -o "$H/missing.yaml" "$H/no-such.jsonl"
assert_rc "a missing input: exit 3" 3
assert_grep "a missing input: named" "$TMP/err" "tcreview init: $H/no-such.jsonl: "
run_tcr "$TMP/r" "$TMP/err" init -o "$H/no-such-dir/x.yaml" "$H/jruns.jsonl"
assert_rc "an output in no folder: exit 3" 3
assert_grep "an output in no folder: said" "$TMP/err" "$H/no-such-dir/x.yaml: its folder does not exist"
run_tcr "$TMP/r" "$TMP/err" init
assert_rc "no input: usage" 2
run_tcr "$TMP/r" "$TMP/err" init --help
assert_rc "--help" 0
assert_grep "--help names the options" "$TMP/r" "usage: tcreview init [-o FILE] [--force]"
run_tcr "$TMP/r" "$TMP/err" init --bogus x
assert_rc "an unknown option: usage" 2

# ---- the judge block -------------------------------------------------------------
OPENAI_API_KEY=dummy "$TCR_BIN" init -o "$H/openai.yaml" "$H/jruns.jsonl" > "$TMP/r" 2> "$TMP/err"
RC=$?
assert_rc "OPENAI_API_KEY set: written" 0
has "OPENAI_API_KEY set: an openai judge" "$H/openai.yaml" "judges:
  - id: appropriateness
    rubric: tool-appropriateness
    model: openai/gpt-4o-mini"
assert_no_grep "the key is never written" "$H/openai.yaml" "dummy"
assert_grep "OPENAI_API_KEY set: said" "$TMP/r" "judge: openai/gpt-4o-mini (OPENAI_API_KEY is set)"
OPENAI_API_KEY=dummy scores_all "openai judge" "$H/openai.yaml" "$TMP/r" "$H/jruns.jsonl"
unset OPENAI_API_KEY    # (a shell may keep an assignment made before a function call)

# Azure: the endpoint's host must pass the judges' checks; one the user
# allowed before (the allowed-hosts file) passes here as it will at load.
AZ="AZURE_OPENAI_API_KEY=dummy AZURE_OPENAI_ENDPOINT=https://llm.example.com"
env $AZ XDG_CONFIG_HOME="$TMP/xdg" "$TCR_BIN" init -o "$H/az1.yaml" "$H/jruns.jsonl" > "$TMP/r" 2> "$TMP/err"
assert_grep "azure elsewhere: commented, saying why" "$H/az1.yaml" \
	"# No judge: the judge the environment offers does not pass the checks ("
assert_grep "azure elsewhere: the way to allow it" "$H/az1.yaml" "--allow-host llm.example.com"
mkdir -p "$TMP/xdg/tcreview"
echo "llm.example.com" > "$TMP/xdg/tcreview/allowed-hosts"
env $AZ XDG_CONFIG_HOME="$TMP/xdg" "$TCR_BIN" init -o "$H/az2.yaml" "$H/jruns.jsonl" > "$TMP/r" 2> "$TMP/err"
has "azure allowed: the judge" "$H/az2.yaml" "    model: azure/gpt-4o-mini
    tools: from-run
    endpoint: \"https://llm.example.com\""
XDG_CONFIG_HOME="$TMP/xdg" AZURE_OPENAI_API_KEY=dummy scores_all "azure allowed" "$H/az2.yaml" "$TMP/r" "$H/jruns.jsonl"
unset AZURE_OPENAI_API_KEY

fake_llm_need
cat > "$TMP/tags.json" <<'EOF'
{"rules": [{"match": {"method": "GET", "path_prefix": "/api/tags"},
            "body": {"models": [{"name": "llama3.1:8b"}, {"name": "qwen2.5:7b"}]}}]}
EOF
if fake_llm_start tags "$TMP/tags.json"; then
	TCR_OLLAMA_URL=http://127.0.0.1:$PORT "$TCR_BIN" init -o "$H/ollama.yaml" "$H/jruns.jsonl" > "$TMP/r" 2> "$TMP/err"
	RC=$?
	assert_rc "Ollama answers: written" 0
	assert_grep "Ollama answers: its first model" "$H/ollama.yaml" '    model: "ollama/llama3.1:8b"'
	assert_grep "Ollama answers: at the address asked" "$H/ollama.yaml" "    base_url: \"http://127.0.0.1:$PORT/v1\""
	assert_grep "Ollama answers: said" "$TMP/r" "an Ollama server answers at http://127.0.0.1:$PORT with 2 models"
	assert_grep "the probe asked GET /api/tags" "$TMP/tags.log" '"method":"GET","path":"/api/tags"'
	scores_all "ollama judge" "$H/ollama.yaml" "$TMP/r" "$H/jruns.jsonl"
	TCR_OLLAMA_URL=http://127.0.0.1:$PORT "$TCR_BIN" init --no-probe -o "$H/noprobe.yaml" "$H/jruns.jsonl" > "$TMP/r" 2> "$TMP/err"
	assert_no_grep "--no-probe: no Ollama judge" "$H/noprobe.yaml" "ollama/llama3.1:8b"
fi
echo '{"rules": [{"match": {"path_prefix": "/api/tags"}, "body": {"models": []}}]}' > "$TMP/empty.json"
if fake_llm_start empty "$TMP/empty.json"; then
	TCR_OLLAMA_URL=http://127.0.0.1:$PORT "$TCR_BIN" init -o "$H/nomodel.yaml" "$H/jruns.jsonl" > "$TMP/r" 2> "$TMP/err"
	assert_grep "Ollama with no model: commented, saying to pull one" "$H/nomodel.yaml" \
		"has no model (ollama pull llama3.2)"
fi

# ---- the shared real samples -------------------------------------------------------
R="${TCR_SHARED_DIR:-}/fixtures/real"
if [ ! -d "$R" ]; then
	skip "shared real samples" "not found (set TCR_SHARED_DIR to the shared reference folder)"
	finish
fi
S=$TMP/shared
mkdir -p "$S"
for f in "$R"/*.jsonl "$R"/wild/*/*; do
	case $f in *.md | *.py | *.annotations.jsonl | *.judgements.jsonl) continue ;; esac
	b=$(basename "$f")
	"$TCR_BIN" formats "$f" > /dev/null 2>&1
	frc=$?
	if [ "$frc" -eq 3 ]; then
		run_tcr "$TMP/r" "$TMP/err" init -o "$S/$b.yaml" "$f"
		assert_rc "$b: no run in it: exit 3" 3
		assert_grep "$b: said, with the pointer" "$TMP/err" "($TCR_BIN formats $f says why)"
		continue
	fi
	run_tcr "$TMP/r" "$TMP/err" init -o "$S/$b.yaml" "$f"
	assert_rc "$b: written" 0
	assert_grep "$b: its formats" "$TMP/r" "input $f: "
	scores_all "$b" "$S/$b.yaml" "$TMP/r" "$f"
done

# The benchmarks with their expected samples, copied beside the YAML.
pair() { # NAME RUNS EXPECTED
	mkdir -p "$S/$1"
	cp "$R/$2" "$R/$3" "$S/$1/"
	(cd "$S/$1" && "$TCR_BIN" init "$2" "$3" > "$TMP/$1.out" 2> "$TMP/err")
	RC=$?
	assert_rc "$1: written" 0
	assert_grep "$1: the expected sample is ground truth" "$TMP/$1.out" \
		"input $3: "
	assert_grep "$1: the expectations section" "$S/$1/tcreview.yaml" "  file: $3"
	assert_grep "$1: tool-call-accuracy proposed" "$S/$1/tcreview.yaml" "    type: tool-call-accuracy"
	assert_grep "$1: trajectory-match proposed" "$S/$1/tcreview.yaml" "    type: trajectory-match"
	scores_all "$1" "$S/$1/tcreview.yaml" "$TMP/$1.out" "$S/$1/$2"
}
pair taubench taubench_v1_airline_sample.jsonl taubench_v1_airline_expected_sample.jsonl
assert_grep "taubench: joined by task_id" "$TMP/taubench.out" \
	"join: runs' task_id = task_id of taubench_v1_airline_expected_sample.jsonl (12 of 12 runs, 6 expectations)"
assert_grep "taubench: the reward" "$TMP/taubench.out" "reward (12 runs): record-field, scale binary"
assert_grep "taubench: a unique id" "$TMP/taubench.out" "run ids: _corpus.run_id is unique"
# The records' info.task.actions and the joined expected_actions hold the
# same calls: one trajectory-match, on the records' own, and why.
assert_eq "taubench: one trajectory-match" "$(grep -c 'type: trajectory-match' "$S/taubench/tcreview.yaml")" 1
assert_grep "taubench: on the records' own actions" "$S/taubench/tcreview.yaml" \
	"reference: {from: info.task.actions}"
assert_grep "taubench: the twin said in the report" "$TMP/taubench.out" \
	"ground truth: expected.expected_actions (the same calls as info.task.actions in all 12 runs both reach: not proposed twice; the record's own is kept, as it needs no join)"
assert_grep "taubench: and in the YAML" "$S/taubench/tcreview.yaml" \
	"# the expectation's expected_actions: the same calls as the record's info.task.actions in all 12 runs"
pair tau2 tau2_sample.jsonl tau2_expected_sample.jsonl
assert_grep "tau2: joined to its tasks" "$TMP/tau2.out" "= task_id of tau2_expected_sample.jsonl (10 of 10 runs, 10 expectations)"
assert_grep "tau2: the evaluation criteria's actions" "$S/tau2/tcreview.yaml" \
	"reference: {from: expected.task.evaluation_criteria.actions}"

finish
