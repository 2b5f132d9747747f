#!/bin/sh
# judge_hosts.sh - where a shared configuration may send a judge's key:
# its provider's own host, loopback, or a host the user allows
# (--allow-host, the allowed-hosts file of the user's configuration
# folder); never over plain http:// but to loopback; api_key_env only a
# credential-like name unless --allow-key-env. Each refusal is a
# configuration error at the key's FILE:LINE:COLUMN, on every subcommand
# that reads the configuration (the screen asks about a host instead:
# screen_hosts.sh). Nothing here connects to a remote host:
# acceptance is checked with `tcreview formats`, which reads the
# configuration and sends nothing; the judging cases talk to 127.0.0.1.
. "$TCR_SRCDIR/tests/cli/lib.sh"

fake_llm_need

unset http_proxy HTTP_PROXY https_proxy HTTPS_PROXY all_proxy ALL_PROXY \
	OPENAI_BASE_URL AZURE_OPENAI_ENDPOINT AZURE_OPENAI_API_KEY ANTHROPIC_BASE_URL
no_proxy='*' NO_PROXY='*'
export no_proxy NO_PROXY
KEY=sk-tcr-test-DUMMY-hosts-93b1
OPENAI_API_KEY=$KEY ANTHROPIC_API_KEY=$KEY
export OPENAI_API_KEY ANTHROPIC_API_KEY
# The user's configuration folder is the test's own.
XDG_CONFIG_HOME=$TMP/xdg
export XDG_CONFIG_HOME

D=$TMP/w
mkdir -p "$D"
# The readable runs only: `formats` exits 0 when every record is read.
head -n 5 "$TCR_SRCDIR/tests/data/screen-runs.jsonl" > "$D/screen-runs.jsonl"
# The screen reads its keys from a script (it needs no terminal then).
printf 'q\n' > "$TMP/quit.keys"
TCR_SCRIPT=$TMP/quit.keys
export TCR_SCRIPT

# conf FILE LINES: a configuration with one judge whose last keys are LINES
# (the judge's mapping starts at line 2, its keys at column 5).
conf() {
	{
		printf 'judges:\n  - id: j\n    rubric: tool-appropriateness\n'
		printf '%s\n' "$2"
	} > "$D/$1"
}

# tcr NAME ARGS...: tcreview ARGS in $D; stdout/stderr in $TMP/NAME.out/.err.
tcr() {
	name=$1
	shift
	(cd "$D" && timeout 300 "$TCR_BIN" "$@") >"$TMP/$name.out" 2>"$TMP/$name.err"
	RC=$?
	cp "$TMP/$name.err" "$TMP/err"
}

# ---- refused at their key's place ------------------------------------------

conf evil.yaml '    model: openai/gpt-4o-mini
    base_url: https://llm.evil.example/v1'
tcr evil formats -c evil.yaml screen-runs.jsonl
assert_rc "a base_url to another host: configuration error" 2
assert_grep "... at base_url's FILE:LINE:COLUMN, naming the host, the key and the flag" "$TMP/evil.err" \
	"evil.yaml:5:15: judge 'j' would send its requests and its key (\$OPENAI_API_KEY) to llm.evil.example, which is neither OpenAI's own host nor loopback: if you trust it, allow it with --allow-host llm.evil.example or a line in $XDG_CONFIG_HOME/tcreview/allowed-hosts"
assert_no_grep "... and never the key's value" "$TMP/evil.err" "$KEY"

for cmd in score judge stats export; do
	tcr "evil-$cmd" "$cmd" -c evil.yaml screen-runs.jsonl
	assert_rc "$cmd: refused before any work" 2
	assert_grep "$cmd: the same message" "$TMP/evil-$cmd.err" "evil.yaml:5:15: judge 'j' would send its requests"
done
# The screen opens and asks before the judge's first request instead
# (screen_hosts.sh); what no leave makes safe it refuses like the others.
tcr evil-review review -c evil.yaml screen-runs.jsonl
assert_rc "review: opens, to ask before the first request" 0

tcr allowed formats -c evil.yaml --allow-host llm.evil.example screen-runs.jsonl
assert_rc "--allow-host HOST: the configuration is accepted" 0
tcr allowed-case formats -c evil.yaml --allow-host LLM.Evil.Example screen-runs.jsonl
assert_rc "--allow-host: hosts compare in any case" 0
tcr allowed-wild formats -c evil.yaml --allow-host '*.evil.example' screen-runs.jsonl
assert_rc "--allow-host '*.DOMAIN': its subdomains" 0
tcr allowed-other formats -c evil.yaml --allow-host other.example screen-runs.jsonl
assert_rc "--allow-host of another host does not help" 2
tcr allowed-url formats -c evil.yaml --allow-host https://llm.evil.example:443 screen-runs.jsonl
assert_rc "--allow-host with a scheme or port: a usage error" 2
assert_grep "... saying what it takes" "$TMP/allowed-url.err" \
	"tcreview: --allow-host takes a host name (e.g. llm.example.com, *.example.com), without scheme, port or path: got 'https://llm.evil.example:443'"

# Every subcommand that reads the configuration takes the flag: allowed,
# the host passes and the plain-http rule is what stops these.
conf evil-http.yaml '    model: openai/gpt-4o-mini
    base_url: http://llm.evil.example/v1'
for cmd in formats score judge stats export review; do
	tcr "http-$cmd" "$cmd" -c evil-http.yaml --allow-host llm.evil.example screen-runs.jsonl
	assert_rc "$cmd --allow-host: http:// still refused" 2
	assert_grep "$cmd: the key in the clear, whatever is allowed" "$TMP/http-$cmd.err" \
		"evil-http.yaml:5:15: judge 'j' would send its key (\$OPENAI_API_KEY) in the clear to llm.evil.example: plain http:// is only for loopback (127.0.0.1, ::1, localhost); use https://"
done

conf userinfo.yaml '    model: openai/gpt-4o-mini
    base_url: https://api.openai.com@llm.evil.example/v1'
tcr userinfo formats -c userinfo.yaml screen-runs.jsonl
assert_rc "a base_url with user info: refused" 2
assert_grep "... saying why" "$TMP/userinfo.err" \
	"userinfo.yaml:5:15: 'base_url' is refused: it holds a user name or password"

conf azure.yaml '    model: azure/dep
    endpoint: https://llm.evil.example
    api_version: "2024-10-21"'
tcr azure formats -c azure.yaml screen-runs.jsonl
assert_rc "an Azure endpoint elsewhere: refused" 2
assert_grep "... at endpoint's place" "$TMP/azure.err" \
	"azure.yaml:5:15: judge 'j' would send its requests and its key (\$AZURE_OPENAI_API_KEY) to llm.evil.example, which is neither Azure OpenAI's own host nor loopback"
conf azure-ok.yaml '    model: azure/dep
    endpoint: https://myres.openai.azure.com
    api_version: "2024-10-21"'
tcr azure-ok formats -c azure-ok.yaml screen-runs.jsonl
assert_rc "an Azure resource's endpoint: accepted" 0

conf home.yaml '    model: openai/gpt-4o-mini
    api_key_env: HOME'
tcr home formats -c home.yaml screen-runs.jsonl
assert_rc "api_key_env: HOME: refused" 2
assert_grep "... at api_key_env's place, naming the flag" "$TMP/home.err" \
	"home.yaml:5:18: judge 'j': api_key_env HOME does not look like a credential (a name ending in _KEY, _TOKEN or _SECRET); if its value is meant to go to the judge's server, allow it with --allow-key-env HOME"
tcr home-ok formats -c home.yaml --allow-key-env HOME screen-runs.jsonl
assert_rc "--allow-key-env HOME: accepted" 0
conf token.yaml '    model: anthropic/claude-3-5-haiku-latest
    api_key_env: MY_TEAM_TOKEN'
tcr token formats -c token.yaml screen-runs.jsonl
assert_rc "api_key_env: *_TOKEN to the provider's own host: accepted" 0

# A compatible server elsewhere gets no key without api_key_env, but the
# runs still go there: the host must be allowed; plain http is then fine.
conf compat.yaml '    model: llama-3
    base_url: http://gpu-box:8000/v1'
tcr compat formats -c compat.yaml screen-runs.jsonl
assert_rc "a compatible server on another host: refused" 2
assert_grep "... naming the host" "$TMP/compat.err" \
	"compat.yaml:5:15: judge 'j' would send its requests to gpu-box, which is not loopback: if you trust it, allow it with --allow-host gpu-box"

# ---- the user's allowed-hosts file ----------------------------------------

mkdir -p "$XDG_CONFIG_HOME/tcreview"
printf '# hosts I trust\ngpu-box   # the lab machine\n' > "$XDG_CONFIG_HOME/tcreview/allowed-hosts"
tcr compat-file formats -c compat.yaml screen-runs.jsonl
assert_rc "a host in XDG_CONFIG_HOME/tcreview/allowed-hosts: accepted" 0
mkdir -p "$TMP/home/.config/tcreview"
printf 'gpu-box\n' > "$TMP/home/.config/tcreview/allowed-hosts"
(cd "$D" && env -u XDG_CONFIG_HOME HOME="$TMP/home" "$TCR_BIN" formats -c compat.yaml screen-runs.jsonl) \
	>"$TMP/home-file.out" 2>"$TMP/err"
RC=$?
assert_rc "without XDG_CONFIG_HOME: ~/.config/tcreview/allowed-hosts" 0
rm "$XDG_CONFIG_HOME/tcreview/allowed-hosts"
mkfifo "$XDG_CONFIG_HOME/tcreview/allowed-hosts"
tcr fifo formats -c compat.yaml screen-runs.jsonl
assert_rc "an allowed-hosts file that is a FIFO: refused, not waited on" 2
assert_grep "... saying so" "$TMP/fifo.err" "allowed-hosts: not a regular file (a FIFO)"
rm "$XDG_CONFIG_HOME/tcreview/allowed-hosts"

# ---- loopback, and a base_url with or without /v1 ---------------------------

cat > "$TMP/anth.json" <<'EOF'
{"rules": [
 {"match": {"path_prefix": "/v1/messages"}, "anthropic_content": "{\"score\": 4, \"reason\": \"Fine.\"}"}
], "default": {"status": 404, "raw": "no such path"}}
EOF
fake_llm_start anth "$TMP/anth.json" || finish
cat > "$D/p.txt" <<'EOF'
=== user
RUN={{run_id}}: {{output}}
EOF
for base in "http://127.0.0.1:$PORT" "http://127.0.0.1:$PORT/v1" "http://localhost:$PORT/v1/"; do
	rm -f "$D/screen-runs.jsonl.judgements.jsonl"
	: > "$TMP/anth.log"
	conf anth.yaml "    model: anthropic/claude-test
    base_url: $base
    prompt_file: p.txt
    scale: {min: 1, max: 5, pass: 3}"
	sed -i 's/tool-appropriateness/custom/' "$D/anth.yaml"
	tcr anth judge -c anth.yaml --limit 1 screen-runs.jsonl
	assert_rc "anthropic/ at $base: judged over loopback" 0
	assert_grep "... the verdict" "$TMP/anth.out" '"status":"ok","score":4'
	assert_grep "... asked /v1/messages (never /v1/v1/messages)" "$TMP/anth.log" '"path":"/v1/messages"'
	assert_grep "... with the key" "$TMP/anth.log" "\"x-api-key\":\"$KEY\""
done

finish
