#!/bin/sh
# formats.sh - `tcreview formats`: a mixed folder (Chat Completions lines and
# an Anthropic document) with a record no format claims and a line that is
# not JSON; the closest formats of the unknown record with their loaders'
# messages; a load error under --format; --json's fixed keys and summary;
# --unread; -c (runs: id and format); standard input; escape codes kept off the terminal; and the exit
# statuses (0 all read, 1 some not, 2 usage, 3 none of an input).
. "$TCR_SRCDIR/tests/cli/lib.sh"

D=$TMP/runs
mkdir -p "$D"
# Chat Completions: a run with a call and its result, a record of nobody's
# format whose messages have no role (so the reader by shape finds no
# conversation in it either), a line cut short.
cat > "$D/a.jsonl" <<'EOF'
{"id":"run-1","messages":[{"role":"user","content":"Where is order 2087?"},{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"lookup_order","arguments":"{\"order\":\"2087\"}"}}]},{"role":"tool","tool_call_id":"c1","content":"shipped"},{"role":"assistant","content":"It has shipped."}]}
{"messages":[{"content":"hi"},{"content":"x"}]}
{"id":"run-3","messages":[{"role":"user","content":"hi"}]]}
EOF
# Anthropic: a failed tool call (is_error).
cat > "$D/b.json" <<'EOF'
{"id":"run-4","system":"Be brief.","messages":[{"role":"user","content":"Where is order 2087?"},
 {"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"lookup_order","input":{"order":"2087"}}]},
 {"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"not found","is_error":true}]},
 {"role":"assistant","content":[{"type":"text","text":"Not found."}]}]}
EOF

# ---- the mixed folder, as text ------------------------------------------------
run_tcr "$TMP/o" "$TMP/err" formats "$D"
assert_rc "some records read, some not: exit 1" 1
assert_grep "a Chat Completions line: format, id, counts" "$TMP/o" \
	"$D/a.jsonl:1  openai-chat  run-1  messages 4  calls 1  results 1  failed 0  notes 0"
assert_grep "the Anthropic file: one record, a failed call" "$TMP/o" \
	"$D/b.json  anthropic  run-4  messages 5  calls 1  results 1  failed 1  notes 0"
assert_grep "the unknown record: no format, no id of its own" "$TMP/o" "$D/a.jsonl:2  (no format)  -"
assert_grep "its shape" "$TMP/o" "    record:  an object {messages}"
# (which loaders come first depends on the table's order; what they say does not)
assert_eq "the closest formats, with their loaders' message and how far they read" \
	"$(grep -cE '^(    closest: |             )[a-z0-9-]+: messages\[0\]\.[a-z]+: missing' "$TMP/o")" 3
assert_grep "the loaders that got as far are named" "$TMP/o" "             (as far: "
assert_eq "openai-chat is among them, or among the three" \
	"$(grep -A6 "^$D/a.jsonl:2 " "$TMP/o" | grep -c 'openai-chat')" 1
assert_no_grep "loaders read some of it" "$TMP/o" "(no loader read anything of it)"
assert_grep "the broken line: FILE:LINE, parse error and column" "$TMP/o" \
	"$D/a.jsonl:3  not JSON: '}' expected near ']' (column 58)"
assert_grep "the file of three records ends with its totals" "$TMP/o" \
	"$D/a.jsonl: 3 records, 1 read, 2 not read (1 no format, 1 not JSON); 1 call, 0 notes"
assert_no_grep "a file of one record has no totals line" "$TMP/o" "$D/b.json: "
assert_grep "the summary" "$TMP/o" \
	"summary: 2 files, 4 records, 2 read, 2 not read (1 no format, 1 not JSON); 2 calls, 0 notes"
assert_grep "records per format: anthropic" "$TMP/o" \
	"  anthropic                         1        0        1        0"
assert_grep "records per format: openai-chat" "$TMP/o" \
	"  openai-chat                       1        0        1        0"
assert_eq "nothing on stderr when every input had a record read" "$(wc -c < "$TMP/err" | tr -d ' ')" 0

run_tcr "$TMP/o" "$TMP/err" formats --unread "$D"
assert_rc "--unread: same status" 1
assert_no_grep "--unread leaves out the records read" "$TMP/o" "run-1"
assert_grep "--unread keeps the unknown record" "$TMP/o" "$D/a.jsonl:2  (no format)"
assert_grep "--unread keeps the broken line" "$TMP/o" "$D/a.jsonl:3  not JSON"
assert_grep "--unread keeps the summary" "$TMP/o" "summary: 2 files, 4 records"

# ---- --json ---------------------------------------------------------------------
run_tcr "$TMP/j" "$TMP/err" formats --json "$D"
assert_rc "--json: same status" 1
assert_eq "--json: one line per record and a summary" "$(wc -l < "$TMP/j" | tr -d ' ')" 5
REC_KEYS='"type":"source":"file":"line":"index":"status":"format":"id":"messages":"calls":"results":"failed":"notes":"error":"closest":"ties":"shape":'
keys() { grep -F "$1" "$TMP/j" | grep -o '"[a-z_]*":' | tr -d '\n'; }
assert_eq "--json: a record read has the fixed keys in order" "$(keys '"id":"run-1"')" "$REC_KEYS"
assert_grep "--json: a record read" "$TMP/j" \
	"{\"type\":\"record\",\"source\":\"$D/a.jsonl:1\",\"file\":\"$D/a.jsonl\",\"line\":1,\"index\":null,\"status\":\"read\",\"format\":\"openai-chat\",\"id\":\"run-1\",\"messages\":4,\"calls\":1,\"results\":1,\"failed\":0,\"notes\":0,\"error\":null,\"closest\":null,\"ties\":null,\"shape\":null}"
assert_grep "--json: the unknown record's closest formats" "$TMP/j" \
	"\"status\":\"no-format\",\"format\":null,\"id\":\"$D/a.jsonl:2\""
assert_eq "--json: the closest formats and their messages" \
	"$(grep -o '{"format":"[a-z0-9-]*","loaded":false,"messages":0,"calls":0,"notes":0,"error":"messages\[0\]\.[a-z]*: missing[^"]*"}' "$TMP/j" | wc -l | tr -d ' ')" 3
assert_grep "--json: the ties, then the shape" "$TMP/j" '"ties":["'
assert_grep "--json: the shape" "$TMP/j" '],"shape":"an object {messages}"}'
assert_eq "--json: three closest formats" \
	"$(grep -F '"no-format"' "$TMP/j" | grep -o '"loaded":' | wc -l | tr -d ' ')" 3
assert_grep "--json: the broken line" "$TMP/j" \
	"\"status\":\"not-json\",\"format\":null,\"id\":null,\"messages\":0,\"calls\":0,\"results\":0,\"failed\":0,\"notes\":0,\"error\":\"'}' expected near ']' (column 58)\",\"closest\":null,\"ties\":null,\"shape\":null}"
assert_eq "--json: the broken line has the fixed keys" "$(keys '"not-json"')" "$REC_KEYS"
assert_grep "--json: the summary" "$TMP/j" \
	'{"type":"summary","files":2,"records":4,"read":2,"unread":2,"load_errors":0,"no_format":1,"not_json":1,"calls":2,"notes":0,"not_analysed":0,"formats":{"anthropic":{"read":1,"load_errors":0,"calls":1,"notes":0},"openai-chat":{"read":1,"load_errors":0,"calls":1,"notes":0}},"note_kinds":[],"other_notes":0,"per_file":[{"file":'
assert_grep "--json: a file's totals" "$TMP/j" \
	"{\"file\":\"$D/a.jsonl\",\"records\":3,\"read\":1,\"unread\":2,\"load_errors\":0,\"no_format\":1,\"not_json\":1,\"calls\":1,\"notes\":0}"
if command -v jq >/dev/null 2>&1; then
	if jq -e . "$TMP/j" > /dev/null 2>"$TMP/jqerr"; then pass "--json: every line parses (jq)"; else fail "--json: every line parses (jq)" "$(cat "$TMP/jqerr")"; fi
elif command -v python3 >/dev/null 2>&1; then
	if python3 -c 'import json,sys; [json.loads(l) for l in open(sys.argv[1])]' "$TMP/j" 2>"$TMP/jqerr"; then pass "--json: every line parses (python3)"; else fail "--json: every line parses (python3)" "$(cat "$TMP/jqerr")"; fi
else
	skip "--json: every line parses" "neither jq nor python3"
fi

# ---- --format, standard input, escape codes ---------------------------------------
run_tcr "$TMP/o" "$TMP/err" formats --format openai-chat "$D/a.jsonl"
assert_grep "--format: the unknown record is refused by the forced loader" "$TMP/o" "$D/a.jsonl:2  openai-chat  -"
assert_grep "--format: with the loader's message" "$TMP/o" "    load error: messages[0].role: "
assert_no_grep "--format: no closest formats" "$TMP/o" "closest:"
assert_grep "--format: load errors are counted per format" "$TMP/o" \
	"  openai-chat                       1        1        1        0"

printf 'runs:\n  format: openai-chat\n  id: messages[0].content\n' > "$TMP/runs.yaml"
run_tcr "$TMP/o" "$TMP/err" formats -c "$TMP/runs.yaml" "$D/a.jsonl"
assert_grep "-c: runs.id names the runs" "$TMP/o" "$D/a.jsonl:1  openai-chat  Where is order 2087?  messages 4"
assert_grep "-c: runs.format forces the loader" "$TMP/o" "$D/a.jsonl:2  openai-chat  hi"
run_tcr "$TMP/o" "$TMP/err" formats -c "$TMP/runs.yaml" --format anthropic "$D/b.json"
assert_grep "--format wins over runs.format" "$TMP/o" "$D/b.json  anthropic  "

"$TCR_BIN" formats - < "$D/b.json" > "$TMP/o" 2>"$TMP/err"; RC=$?
assert_rc "standard input: exit 0 when every record was read" 0
assert_grep "standard input is named -" "$TMP/o" "-  anthropic  run-4"
assert_grep "standard input: the summary" "$TMP/o" "summary: 1 file, 1 record, 1 read; 1 call, 0 notes"

printf '{"id":"x\\u001b[31my","messages":[{"role":"user","content":"hi"}]}\n' > "$TMP/esc.jsonl"
run_tcr "$TMP/o" "$TMP/err" formats "$TMP/esc.jsonl"
assert_rc "a record read: exit 0" 0
if grep -q "$(printf '\033')" "$TMP/o"; then fail "an escape code of a record does not reach the terminal"; else pass "an escape code of a record does not reach the terminal"; fi

# ---- a conversation no format claims: read by shape, and said so --------------------
cat > "$TMP/odd.json" <<'EOF'
{"log":{"turns":[{"author":"user","text":"Where is order 7?"},
 {"author":"agent","text":"Looking.","calls":[{"id":"k1","tool_name":"lookup_order","args":{"order":7}}]},
 {"author":"tool","tool_call_id":"k1","content":"shipped"}]}}
EOF
run_tcr "$TMP/o" "$TMP/err" formats "$TMP/odd.json"
assert_rc "read by shape: read, exit 0" 0
assert_grep "read by shape: the record line says so" "$TMP/o" \
	"$TMP/odd.json  shape  -  messages 3  calls 1  results 1  failed 0  notes 1  (read by shape)"
assert_grep "read by shape: the format's row says so" "$TMP/o" "(read by shape: no format claims these records)"
run_tcr "$TMP/o" "$TMP/err" formats --format openai-chat "$TMP/odd.json"
assert_rc "a forced format is not passed on to shape: exit 3" 3

# ---- exit statuses ----------------------------------------------------------------
printf '{"turns":[{"who":"user"}]}\n{"turns":[]}\n' > "$TMP/none.jsonl"
run_tcr "$TMP/o" "$TMP/err" formats "$D/b.json" "$TMP/none.jsonl"
assert_rc "an input none of whose records were read: exit 3" 3
assert_grep "it is named on stderr" "$TMP/err" "tcreview formats: $TMP/none.jsonl: none of its 2 records could be read"
assert_grep "it still gets its report" "$TMP/o" "    (no loader read anything of it)"
run_tcr "$TMP/o" "$TMP/err" formats "$TMP/nothing-here.jsonl"
assert_rc "an input that cannot be opened: exit 3" 3
assert_grep "it is named" "$TMP/err" "$TMP/nothing-here.jsonl: No such file or directory"
run_tcr "$TMP/o" "$TMP/err" formats --format nope "$D"
assert_rc "an unknown --format: exit 2" 2
assert_grep "the unknown format is named" "$TMP/err" "tcreview formats: unknown format 'nope'"
run_tcr "$TMP/o" "$TMP/err" formats --bogus "$D"
assert_rc "an unknown option: exit 2" 2
: > "$TMP/empty.jsonl"
run_tcr "$TMP/o" "$TMP/err" formats "$TMP/empty.jsonl"
assert_rc "an empty file has nothing unread: exit 0" 0
assert_grep "and no records" "$TMP/o" "summary: 1 file, 0 records, 0 read; 0 calls, 0 notes"

printf '{"messages": [\n  {"role": "user", "content": "hi"},\n  oops\n]}\n' > "$TMP/broken.json"
run_tcr "$TMP/o" "$TMP/err" formats "$TMP/broken.json"
assert_rc "a .json file that does not parse: exit 3" 3
assert_grep "its parse error at FILE:LINE with the column" "$TMP/o" "$TMP/broken.json:3  not JSON: invalid token near 'oops' (column 6)"

# ---- the bound on the closest-format analysis ----------------------------------------
: > "$TMP/many.jsonl"
for i in 1 2 3 4 5; do printf '{"turns":[%s]}\n' "$i" >> "$TMP/many.jsonl"; done
run_tcr "$TMP/o" "$TMP/err" formats "$TMP/many.jsonl"
assert_eq "the closest formats of the first 3 unknown records of a file" "$(grep -c '^    closest: ' "$TMP/o")" 3
assert_grep "the others are counted" "$TMP/o" "; 2 more not analysed"

# ---- help --------------------------------------------------------------------------------
run_tcr "$TMP/o" "$TMP/err" formats --help
assert_rc "formats --help exits 0" 0
assert_grep "formats --help: usage" "$TMP/o" "usage: tcreview formats [-c FILE] [--format NAME] [--json] [--unread] FILE..."
run_tcr "$TMP/o" "$TMP/err" formats --help formats
assert_grep "formats --help formats lists the formats" "$TMP/o" "  openai-chat "
run_tcr "$TMP/o" "$TMP/err" --help
assert_grep "tcreview --help lists the command" "$TMP/o" "  formats   which format each record is read as"

finish
