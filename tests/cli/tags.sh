#!/bin/sh
# tags.sh - `tcreview tags`: the tags and free codes of an annotations file
# with their runs and calls, in all and by reviewer, what each counts under
# (a defined tag's absorbs, a merge written as a tag-alias), the aliases in
# effect, a tag taken back; text and jsonl, and bad options.
. "$TCR_SRCDIR/tests/cli/lib.sh"

cd "$TMP" || exit 1
printf '{"id":"r1"}\n{"id":"r2"}\n{"id":"r3"}\n' > runs.jsonl
cat > tcreview.yaml <<'YAML'
tags:
  - id: wrong-tool
    description: Called a tool that does not fit the request
    key: w
    absorbs: [bad tool]
  - id: policy-breach
    description: Acted against the policy
YAML
A=runs.jsonl.annotations.jsonl
line() { # RUN CALL TAG REVIEWER AT [DECISION]
	call=; [ "$2" -gt 0 ] && call=",\"call\":$2"
	printf '{"v":2,"run":"%s","decision":"%s","tag":"%s"%s,"reviewer":"%s","at":"%s"}\n' \
		"$1" "${6:-tag}" "$3" "$call" "$4" "$5" >> "$A"
}
line r1 0 "lookup err" alice 2026-01-01T00:00:01Z
line r1 2 "lookup err" alice 2026-01-01T00:00:02Z
line r2 0 "Lookup  Err" bob 2026-01-01T00:00:03Z
line r2 1 "bad tool" alice 2026-01-01T00:00:04Z
line r3 0 "slow" alice 2026-01-01T00:00:05Z
line r3 3 "slow" bob 2026-01-01T00:00:06Z
printf '{"v":2,"run":"r3","decision":"retract","retracts":"tag","tag":"slow","reviewer":"alice","at":"2026-01-01T00:00:07Z"}\n' >> "$A"
printf '{"v":2,"run":null,"decision":"tag-alias","tag":"lookup err","tag_to":"policy-breach","reviewer":"carol","at":"2026-01-01T00:00:08Z"}\n' >> "$A"

run_tcr "$TMP/out" "$TMP/err" tags -o jsonl runs.jsonl
assert_rc "tags -o jsonl exits 0" 0
get() { # NAME KEY: a tag line's value
	python3 -c "
import json,sys
for l in open('$TMP/out'):
    d=json.loads(l)
    if d['kind']=='tag' and d['name']==sys.argv[1]: print(json.dumps(d[sys.argv[2]]))" "$1" "$2"
}
if command -v python3 >/dev/null 2>&1; then
	assert_eq "the defined tags come first, then the codes as first typed" \
		"$(python3 -c "
import json
print(' | '.join(json.loads(l).get('name') or json.loads(l)['code'] for l in open('$TMP/out')))")" \
		"wrong-tool | policy-breach | lookup err | bad tool | slow | lookup err"
	assert_eq "wrong-tool counts the code it absorbs: 1 run, 1 call" "$(get wrong-tool runs) $(get wrong-tool calls)" "1 1"
	assert_eq "policy-breach counts the merged code's runs (spellings as one)" "$(get policy-breach runs) $(get policy-breach calls)" "2 1"
	assert_eq "lookup err counts under policy-breach" "$(get 'lookup err' counts_under)" '"policy-breach"'
	assert_eq "lookup err by reviewer" "$(get 'lookup err' by)" \
		'[{"reviewer": "alice", "runs": 1, "calls": 1}, {"reviewer": "bob", "runs": 1, "calls": 0}]'
	assert_eq "a tag taken back no longer counts; the call's tag stands" "$(get slow by)" \
		'[{"reviewer": "bob", "runs": 1, "calls": 1}]'

	assert_eq "a defined tag is defined, a code is not" "$(get wrong-tool defined) $(get slow defined)" "true false"
	assert_grep "the alias in effect, with who and when" "$TMP/out" \
		'{"kind":"alias","code":"lookup err","to":"policy-breach","reviewer":"carol","at":"2026-01-01T00:00:08Z","group":null}'
else
	skip "tags jsonl parsed back" "python3 is not installed"
fi

run_tcr "$TMP/out" "$TMP/err" tags runs.jsonl
assert_rc "tags (text) exits 0" 0
assert_grep "text: a defined tag with its counts" "$TMP/out" "policy-breach                    2      1  (defined)            alice 1/1, bob 1/0"
assert_grep "text: a code and what it counts under" "$TMP/out" "bad tool                         1      1  wrong-tool           alice 1/1"
assert_grep "text: the aliases in effect" "$TMP/out" "  lookup err -> policy-breach  (carol, 2026-01-01T00:00:08Z)"

run_tcr "$TMP/out" "$TMP/err" tags -o csv runs.jsonl
assert_rc "tags -o csv is refused" 2
assert_grep "and says what it takes" "$TMP/err" "expected text or jsonl"
run_tcr "$TMP/out" "$TMP/err" tags -a missing.jsonl runs.jsonl
assert_rc "a missing -a file is an input error" 3
assert_grep "naming the file" "$TMP/err" "missing.jsonl"

finish
