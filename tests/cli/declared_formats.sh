#!/bin/sh
# declared_formats.sh - formats declared as data, end to end, on records of
# a shape made up here ({"run_id", "steps": [...]}): one mapped with jq, one
# by a converter program; detected, loaded, scored, listed, forced with
# --format and shown on the review screen; and every way a declared format
# can fail, each named with its YAML position and the record, and each
# hostile one (a loop, a huge value, a converter that hangs, dies, prints
# garbage or too much) stopped by its bounds. The timeouts that must fire
# wait for what never comes (a loop, a sleep of an hour); the formats that
# must not time out keep the default minute, a guard only.
. "$TCR_SRCDIR/tests/cli/lib.sh"
. "$TCR_SRCDIR/tests/cli/screen_lib.sh"

cd "$TMP" || exit 99
# Two runs of the made-up shape; the second's last call has no result.
cat > steps.jsonl <<'EOF'
{"run_id":"s1","steps":[{"who":"user","say":"find x"},{"who":"agent","say":"looking","use":{"id":"c1","tool":"search","args":{"q":"x"}}},{"who":"tool","id":"c1","out":"x is here"},{"who":"agent","say":"found it"}]}

{"run_id":"s2","steps":[{"who":"user","say":"find y"},{"who":"agent","say":"looking","use":{"id":"c2","tool":"lookup","args":{"q":"y"}}},{"who":"tool","id":"c2","out":"no y"},{"who":"agent","say":"again","use":{"id":"c3","tool":"lookup","args":{"q":"y?"}}}]}
EOF
cat > steps.jq <<'EOF'
{tcreview_run: 1, id: .run_id, messages: [.steps[] |
  if .who == "tool" then {role: "tool", parts: [{type: "tool_result", call_id: .id, content: .out}]}
  elif .use then {role: "assistant", parts: [{type: "text", text: .say},
    {type: "tool_call", id: .use.id, name: .use.tool, arguments: .use.args}]}
  elif .who == "agent" then {role: "assistant", parts: [{type: "text", text: .say}]}
  else {role: .who, parts: [{type: "text", text: .say}]} end]}
EOF
{
	printf 'formats:\n  - name: my-steps\n    summary: steps of a made-up agent\n'
	printf '    detect: %s\n' "'type == \"object\" and has(\"steps\")'"
	printf '    run: |\n'
	sed 's/^/      /' steps.jq
	printf 'scorers:\n  - {id: errs, type: tool-errors}\n  - {id: answered, type: unanswered-calls}\n'
} > jq.yaml

# ---- a format in jq ----------------------------------------------------------

run_tcr formats.out err formats -c jq.yaml steps.jsonl
assert_rc "formats: both records read" 0
assert_grep "formats: the first record read as my-steps, with its call" formats.out \
	"steps.jsonl:1  my-steps  s1  messages 4  calls 1  results 1"
assert_grep "formats: the second named by its own line" formats.out "steps.jsonl:3  my-steps  s2"

run_tcr list.out err formats -c jq.yaml --list
assert_rc "formats --list" 0
assert_eq "--list: the built-in formats" "$(grep -cE '^openai-chat +built in ' list.out)" 1
assert_eq "--list: the declared one and where" \
	"$(grep -cE '^my-steps +configuration +steps of a made-up agent \(jq.yaml:2:5\)$' list.out)" 1

run_tcr score.out err score -c jq.yaml -o jsonl steps.jsonl
assert_rc "score reads the declared format" 0
assert_grep "score: s1's calls all answered" score.out \
	'"run":"s1","source":"steps.jsonl:1","format":"my-steps","scorer":"answered","type":"unanswered-calls","status":"ok","score":1'
assert_grep "score: s2 read from its line" score.out \
	'"run":"s2","source":"steps.jsonl:3","format":"my-steps","scorer":"answered","type":"unanswered-calls","status":"ok"'
assert_grep "score: s2's last call has no result" score.out '"calls":2,"answered":1,"unanswered":1'

# --format NAME forces it, even on a record its detect would refuse.
printf '{"run_id":"s3","steps":[{"who":"user","say":"hi"}],"other":1}\n' > forced.jsonl
sed 's/has("steps")/has("steps") and (has("other") | not)/' jq.yaml > strict.yaml
run_tcr forced.out err formats -c strict.yaml forced.jsonl
assert_rc "detect refuses: not read" 3
run_tcr forced.out err formats -c strict.yaml --format my-steps forced.jsonl
assert_rc "--format my-steps reads it" 0
assert_grep "... as my-steps" forced.out "forced.jsonl:1  my-steps  s3"

# A format file in the user's formats folder, read with no configuration.
mkdir -p "$XDG_CONFIG_HOME/tcreview/formats"
{ printf 'name: file-steps\ndetect: %s\nrun: |\n' "'has(\"steps\")'"; sed 's/^/  /' steps.jq; } \
	> "$XDG_CONFIG_HOME/tcreview/formats/steps.yaml"
run_tcr folder.out err formats steps.jsonl
assert_rc "a format file in the user's formats folder" 0
assert_grep "... claims the file" folder.out "steps.jsonl:1  file-steps  s1"
run_tcr list.out err formats --list
assert_eq "--list names the folder" "$(grep -cE '^file-steps +formats folder ' list.out)" 1
run_tcr clash.out err formats -c jq.yaml --list
assert_rc "the same name in the configuration and a file" 0
sed 's/name: file-steps/name: my-steps/' "$XDG_CONFIG_HOME/tcreview/formats/steps.yaml" \
	> "$XDG_CONFIG_HOME/tcreview/formats/clash.yaml"
run_tcr clash.out err formats -c jq.yaml steps.jsonl
assert_rc "a name declared twice is a configuration error" 2
assert_grep "... naming both places" err "clash.yaml:1:1: format 'my-steps' is declared twice: also at jq.yaml:2:5"
rm -f "$XDG_CONFIG_HOME/tcreview/formats/"*.yaml

# ---- the review screen -------------------------------------------------------

SCREEN_CONFIG=jq.yaml
run_screen declared-list '' steps.jsonl
screen_has declared-list "s1"
screen_has declared-list "s2"
run_screen declared-timeline '<Tab>' steps.jsonl
screen_has declared-timeline "search"
screen_has declared-timeline "found it"

# ---- a format by a converter ---------------------------------------------------

cat > conv.py <<'EOF'
import json, sys
open("conv.count", "a").write("ran\n")
for line in sys.stdin:
    if not line.strip():
        continue
    r = json.loads(line)
    msgs = []
    for s in r["steps"]:
        if s["who"] == "tool":
            msgs.append({"role": "tool", "parts": [{"type": "tool_result", "call_id": s["id"], "content": s["out"]}]})
            continue
        parts = [{"type": "text", "text": s["say"]}]
        if "use" in s:
            parts.append({"type": "tool_call", "id": s["use"]["id"], "name": s["use"]["tool"], "arguments": s["use"]["args"]})
        msgs.append({"role": "assistant" if s["who"] == "agent" else s["who"], "parts": parts})
    print(json.dumps({"tcreview_run": 1, "id": r["run_id"], "messages": msgs}))
EOF
conv_yaml() { # NAME SCRIPT [EXTRA LINE]
	printf 'formats:\n  - name: %s\n    detect: %s\n    convert: [python3, %s]\n%s\nscorers:\n  - {id: answered, type: unanswered-calls}\n' \
		"$1" "'has(\"steps\")'" "$2" "${3:-}" > "$1.yaml"
}
if command -v python3 >/dev/null 2>&1; then
	conv_yaml py-steps conv.py
	run_tcr conv.out err score -c py-steps.yaml -o jsonl steps.jsonl
	assert_rc "score through the converter" 0
	assert_grep "converter: s2, named by its place in the file" conv.out \
		'"run":"s2","source":"steps.jsonl[1]","format":"py-steps","scorer":"answered","type":"unanswered-calls","status":"ok"'
	assert_grep "converter: s2's last call has no result" conv.out '"calls":2,"answered":1,"unanswered":1'
	SCREEN_CONFIG=py-steps.yaml
	run_screen declared-conv '<Tab>' steps.jsonl
	screen_has declared-conv "search"
	assert_eq "the converter's output is kept: it ran once for two reads" "$(wc -l < conv.count | tr -d ' ')" 1
	printf 'x\n' >> steps.jsonl
	run_tcr conv.out err formats -c py-steps.yaml steps.jsonl
	assert_eq "... and again once the input changed" "$(wc -l < conv.count | tr -d ' ')" 2
	assert_rc "... a line the converter cannot read is its error" 3
	assert_grep "... with its stderr" err "format 'py-steps' (py-steps.yaml:4:14): the converter exited with status 1; stderr:"
	sed -i '$d' steps.jsonl
	printf '    cache: false\n' > nocache.extra
	conv_yaml nocache conv.py "$(cat nocache.extra)"
	run_tcr conv.out err formats -c nocache.yaml steps.jsonl
	run_tcr conv.out err formats -c nocache.yaml steps.jsonl
	assert_eq "cache: false runs it every time" "$(wc -l < conv.count | tr -d ' ')" 4

	printf 'import time\ntime.sleep(3600)\n' > hang.py
	printf 'import sys\nsys.stderr.write("cannot read step 3\\n")\nsys.exit(4)\n' > die.py
	printf 'print("hello")\n' > garbage.py
	printf 'print("{\\"id\\": 1}")\n' > notrun.py
	printf 'import sys\nwhile True:\n    sys.stdout.write("{\\"tcreview_run\\": 1}\\n")\n' > much.py
	conv_yaml hang hang.py '    timeout: 2s'
	conv_yaml die die.py
	conv_yaml garbage garbage.py
	conv_yaml notrun notrun.py
	conv_yaml much much.py '    max_output: 100000'
	for c in hang die garbage notrun much; do
		run_tcr "$c.out" "$c.err" score -c "$c.yaml" steps.jsonl
		assert_rc "converter $c: refused" 3
	done
	assert_grep "a converter that hangs is killed" hang.err \
		"steps.jsonl: format 'hang' (hang.yaml:4:14): the converter ran past its timeout of 2 s (killed)"
	assert_grep "one that dies: its status and stderr" die.err \
		"format 'die' (die.yaml:4:14): the converter exited with status 4; stderr: cannot read step 3"
	assert_grep "one that prints garbage" garbage.err \
		"line 1 of the converter's output is not JSON"
	assert_grep "one that prints JSON that is not a run" notrun.err \
		"line 1 of the converter's output is not a run"
	assert_grep "one that prints too much" much.err \
		"the converter wrote more than 100000 bytes of runs (max_output; stopped)"
else
	skip "converters" "no python3"
fi

# ---- jq that fails ------------------------------------------------------------

jq_yaml() { # NAME DETECT RUN [EXTRA LINE]
	printf 'formats:\n  - name: %s\n    detect: %s\n    run: %s\n%s\nscorers:\n  - {id: answered, type: unanswered-calls}\n' \
		"$1" "$2" "$3" "${4:-}" > "$1.yaml"
}
jq_yaml syntax "'has(\"steps\") and'" "'.'"
run_tcr o syntax.err score -c syntax.yaml steps.jsonl
assert_rc "a jq syntax error is a configuration error" 2
assert_grep "... at its YAML line and column, in jq's words" syntax.err "syntax.yaml:3:13: detect: syntax error"
jq_yaml detecterr "'.steps + 1'" "'.'"
run_tcr o detecterr.err score -c detecterr.yaml steps.jsonl
assert_rc "detect failing at run time" 3
assert_grep "... named with the record" detecterr.err \
	"steps.jsonl:1: format 'detecterr' (detecterr.yaml:3:13): detect: array"
jq_yaml notrun "'has(\"steps\")'" "'if .run_id == \"s2\" then .run_id else {tcreview_run: 1} end'"
run_tcr o notrun.err score -c notrun.yaml steps.jsonl
assert_rc "run giving what is not a run" 3
assert_grep "... names the record that did" notrun.err \
	"steps.jsonl:3: format 'notrun' (notrun.yaml:4:10): run: must give runs ({tcreview_run: 1, ...}) or arrays of them, gave a string (\"s2\")"
jq_yaml loop "'has(\"steps\")'" "'def f: f; f'" '    timeout: 2s'
run_tcr o loop.err score -c loop.yaml steps.jsonl
assert_rc "a loop is stopped" 3
assert_grep "... by its timeout" loop.err "format 'loop' (loop.yaml:4:10): its run program"
jq_yaml much "'has(\"steps\")'" "'range(1000000) | {tcreview_run: 1}'" '    max_output: 100000'
run_tcr o much.err score -c much.yaml steps.jsonl
assert_rc "too many runs are stopped" 3
assert_grep "... at max_output" much.err "its run program wrote more than 100000 bytes of runs"
# A value that doubles without end: under the sanitizers there is no
# address-space limit (they reserve terabytes), so it is left to the others.
if "$TCR_BIN" --version >/dev/null 2>&1 && (ulimit -v 1000000; "$TCR_BIN" --version >/dev/null 2>&1); then
	jq_yaml huge "'has(\"steps\")'" "'reduce range(64) as \$i (\"x\"; . + .)'" '    max_memory: 268435456'
	run_tcr o huge.err score -c huge.yaml steps.jsonl
	assert_rc "a huge value is stopped" 3
	assert_grep "... at its memory limit" huge.err "(its limit is 256 MB"
else
	skip "a huge value" "the binary does not run under ulimit -v (sanitizers)"
fi

# The programs see the records, not the user's environment (a key there
# would leave with the run to a judge).
jq_yaml envleak "'has(\"steps\")'" "'{tcreview_run: 1, id: (\$ENV.TCR_SECRET // env.TCR_SECRET // \"none\"), messages: []}'"
TCR_SECRET=xyz; export TCR_SECRET
run_tcr o err formats -c envleak.yaml steps.jsonl
unset TCR_SECRET
assert_grep "jq sees no environment" o "steps.jsonl:1  envleak  none"

# ---- nothing declared: nothing changes -------------------------------------------

printf '{"id":"o1","messages":[{"role":"user","content":"hi"}]}\n' > chat.jsonl
run_tcr o err formats -c jq.yaml chat.jsonl
assert_rc "a file the declared formats do not claim" 0
assert_grep "... is read by the built-in formats" o "chat.jsonl:1  openai-chat  o1"
{ printf '{"id":\n'; cat chat.jsonl; } > broken.jsonl
run_tcr o err formats -c jq.yaml broken.jsonl
assert_rc "a first line that is not JSON is claimed by no declared format" 1
assert_grep "... the built-in reading says what is wrong with it" o "broken.jsonl:1  not JSON"
assert_grep "... and reads the rest" o "broken.jsonl:2  openai-chat  o1"
run_tcr o err formats -c jq.yaml --format openai-chat steps.jsonl
assert_grep "a built-in format forced: no declared format converts first" o "steps.jsonl:1  openai-chat"

finish
