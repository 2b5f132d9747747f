#!/bin/sh
# screen_hosts.sh - the screen asks before a judge's first request to a host
# the user has not allowed: n asks nobody, y remembers the host in the
# user's allowed-hosts file and asks; the next screen does not ask again;
# the judge's details say where its requests go. The host is 127.1, which
# curl reads as 127.0.0.1 but which is not written as loopback, so it needs
# the user's leave while every request stays on this machine. A key
# variable not named like a credential is asked about the same way.
. "$TCR_SRCDIR/tests/cli/lib.sh"
. "$TCR_SRCDIR/tests/cli/screen_lib.sh"

fake_llm_need

unset http_proxy HTTP_PROXY https_proxy HTTPS_PROXY all_proxy ALL_PROXY OPENAI_BASE_URL
no_proxy='*' NO_PROXY='*'
TCR_NO_ANIMATION=1
# The user's configuration folder is this test's own.
XDG_CONFIG_HOME=$TMP/xdg
export no_proxy NO_PROXY TCR_NO_ANIMATION XDG_CONFIG_HOME
ALLOWED=$XDG_CONFIG_HOME/tcreview/allowed-hosts

lines_of() { if [ -f "$1" ]; then wc -l < "$1" | tr -d ' '; else echo 0; fi; }

# The default answer of the fake server, {"score":1,"reason":"ok"}, is a
# custom judge's answer.
printf '{"rules": []}\n' > "$TMP/any.json"
fake_llm_start any "$TMP/any.json" || finish
cat > "$TMP/p.txt" <<'EOF2'
=== user
RUN={{run_id}}: {{output}}
EOF2
{
	cat "$TMP/screen.yaml"
	printf 'judges:\n  - id: far\n    rubric: custom\n    model: judge-model\n'
	printf '    base_url: http://127.1:%s/v1\n' "$PORT"
	printf '    prompt_file: p.txt\n    scale: {min: 0, max: 1, pass: 1}\n'
} > "$TMP/far.yaml"
SCREEN_CONFIG=far.yaml

# Another command refuses what the screen asks about.
(cd "$TMP" && "$TCR_BIN" score -c far.yaml screen-runs.jsonl) >"$TMP/score.out" 2>"$TMP/err"
RC=$?
assert_rc "score: a host not allowed is a configuration error" 2
assert_grep "... naming the flag" "$TMP/err" "far.yaml:18:15: judge 'far' would send its requests to 127.1, which is not loopback: if you trust it, allow it with --allow-host 127.1"

SCREEN_COLS=100 SCREEN_LINES=40
run_screen hosts-refused 'J
:save-display %D/hosts-asked.screen
n
:save-display %D/hosts-no.screen
<Tab><Tab>jjj<Enter>
:save-display %D/hosts-details.screen'
screen_has hosts-asked "judge far sends runs to 127.1, not allowed yet: allow and remember it? y/n"
screen_has hosts-no "not asked: 127.1 is not allowed"
screen_has hosts-details "requests go to 127.1 (plain http; not allowed yet: J"
screen_has hosts-details "J asks the judges about this run"
assert_eq "n: no request" "$(lines_of "$TMP/any.log")" 0
if [ -e "$ALLOWED" ]; then fail "n: nothing remembered" "$(cat "$ALLOWED")"; else pass "n: nothing remembered"; fi

run_screen hosts-allowed 'J
y
:wait
:save-display %D/hosts-yes.screen'
screen_has hosts-yes "far answered: 1 (pass)"
assert_eq "y: the judge is asked" "$(lines_of "$TMP/any.log")" 1
assert_eq "y: the host is remembered in the user's allowed-hosts file" "$(cat "$ALLOWED" 2>/dev/null)" "127.1"

rm -f "$TMP/screen-runs.jsonl.judgements.jsonl"
run_screen hosts-again 'j
J
:wait
:save-display %D/hosts-again-asked.screen'
screen_has hosts-again-asked "far answered: 1 (pass)"
assert_eq "the next screen asks the judge without asking the user" "$(lines_of "$TMP/any.log")" 2
(cd "$TMP" && "$TCR_BIN" score -c far.yaml screen-runs.jsonl) >"$TMP/score2.out" 2>"$TMP/err"
assert_no_grep "... nor do the other commands refuse it" "$TMP/err" "would send its requests"

# ---- a key variable not named like a credential, the same way ----------------

TCR_PASS=sk-tcr-screen-DUMMY-pass-5e2
export TCR_PASS
{
	cat "$TMP/screen.yaml"
	printf 'judges:\n  - id: near\n    rubric: custom\n    model: judge-model\n'
	printf '    base_url: http://127.0.0.1:%s/v1\n    api_key_env: TCR_PASS\n' "$PORT"
	printf '    prompt_file: p.txt\n    scale: {min: 0, max: 1, pass: 1}\n'
} > "$TMP/pass.yaml"
SCREEN_CONFIG=pass.yaml
rm -f "$TMP/screen-runs.jsonl.judgements.jsonl"
run_screen keyenv-refused 'J
:save-display %D/keyenv-asked.screen
n'
screen_has keyenv-asked "judge near sends \$TCR_PASS as its key, not a credential's name: allow and"
screen_has keyenv-refused 'not asked: $TCR_PASS is not allowed'
assert_eq "n: no request" "$(lines_of "$TMP/any.log")" 2
run_screen keyenv-allowed 'J
y
:wait'
screen_has keyenv-allowed "near answered: 1 (pass)"
assert_eq "y: the judge is asked" "$(lines_of "$TMP/any.log")" 3
assert_grep "... with the key from that variable" "$TMP/any.log" "\"authorization\":\"Bearer $TCR_PASS\""
assert_eq "y: the name is remembered in the user's allowed-key-envs file" \
	"$(cat "$XDG_CONFIG_HOME/tcreview/allowed-key-envs" 2>/dev/null)" "TCR_PASS"

finish
