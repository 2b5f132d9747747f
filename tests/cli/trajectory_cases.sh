#!/bin/sh
# trajectory_cases.sh - the trajectory-match scorer against the case set
# tests/data/trajectory_cases.jsonl: every case's verdict must be what
# agentevals 0.0.7 returned for it (written by tests/tools/trajectory_cases.mjs;
# Node is not needed here). expect true: status ok and passed; false: ok and
# not passed; "error": status error. The in-order cases (agentevals has no
# such mode) carry expectations written by hand.
#
# One departure is by design: an unknown argument mode (of args or of an
# override) is ignored by agentevals but refused by tcreview, so such a case
# expects "error" whatever agentevals gave. It is worked out from the case
# itself, so a case file written elsewhere is held to the same rule.
#
# The verdict lines are read back with jq, or python3 when jq is missing;
# without either the suite skips, saying so.
#
# TCR_TRAJECTORY_CASES names another case file (tests/tools/trajectory_diff.sh
# passes fresh random cases); a source without cases is then skipped.
. "$TCR_SRCDIR/tests/cli/lib.sh"
CASES=${TCR_TRAJECTORY_CASES:-$TCR_SRCDIR/tests/data/trajectory_cases.jsonl}

cat > "$TMP/tm.yaml" <<'YAML'
scorers:
  - id: tm
    type: trajectory-match
    outputs: {from: outputs}
    reference: {from: reference}
    mode: {from: mode}
    args: {from: args}
    args_overrides: {from: args_overrides, default: {}}
YAML

# tsv_cases FILE: "id<TAB>expect<TAB>source" per case.
# tsv_verdicts FILE: "run<TAB>status<TAB>passed" per verdict of scorer tm.
if command -v jq >/dev/null 2>&1; then
	tsv_cases() { jq -r '["exact", "ignore", "subset", "superset"] as $known
		| def unknown: type == "string" and (. as $m | $known | index($m) | not);
		  [.id,
		   (if (.args | unknown) or ([(.args_overrides // {})[] | unknown] | any) then "error"
		    else (.expect | tostring) end),
		   .source] | @tsv' "$1"; }
	tsv_verdicts() { jq -r 'select(.scorer == "tm") | [.run, .status, (.passed | tostring)] | @tsv' "$1"; }
elif command -v python3 >/dev/null 2>&1; then
	tsv_cases() {
		python3 -c 'import json,sys
for l in open(sys.argv[1]):
    c = json.loads(l)
    e = c["expect"]
    known = ("exact", "ignore", "subset", "superset")
    modes = [c.get("args")] + list((c.get("args_overrides") or {}).values())
    if any(isinstance(m, str) and m not in known for m in modes):
        e = "error"
    print("%s\t%s\t%s" % (c["id"], json.dumps(e) if isinstance(e, bool) else e, c["source"]))' "$1"
	}
	tsv_verdicts() {
		python3 -c 'import json,sys
for l in open(sys.argv[1]):
    v = json.loads(l)
    if v.get("scorer") == "tm":
        print("%s\t%s\t%s" % (v["run"], v["status"], json.dumps(v.get("passed"))))' "$1"
	}
else
	skip "trajectory cases" "neither jq nor python3 is installed, so the verdicts are not read back"
	finish
fi

run_tcr "$TMP/out" "$TMP/err" score -c "$TMP/tm.yaml" --format openai-chat -o jsonl "$CASES"
# 0 or 1 (some verdict failed) both mean every run was scored; 2 and 3
# mean the configuration or the input was refused.
if [ "$RC" -le 1 ]; then pass "tcreview scores the case file"; else fail "tcreview scores the case file" "exit status $RC" "$(head -c 2000 "$TMP/err")"; fi

tsv_cases "$CASES" > "$TMP/cases.tsv"
tsv_verdicts "$TMP/out" > "$TMP/verdicts.tsv"

# One line per case: "source<TAB>id<TAB>expected<TAB>got<TAB>verdict", the
# verdict "match" or "MISMATCH"; got is "missing" when no verdict names it.
awk -F '\t' '
	FILENAME == ARGV[1] { got[$1] = $2 " passed=" $3; status[$1] = $2; passed[$1] = $3; next }
	{
		id = $1; want = $2; src = $3
		if (!(id in got)) { g = "missing"; ok = 0 }
		else {
			g = got[id]
			if (want == "error") ok = status[id] == "error"
			else ok = status[id] == "ok" && passed[id] == want
		}
		printf "%s\t%s\t%s\t%s\t%s\n", src, id, want, g, ok ? "match" : "MISMATCH"
	}' "$TMP/verdicts.tsv" "$TMP/cases.tsv" > "$TMP/compared.tsv"

# check_source SOURCE LABEL: one check for the cases of one source.
check_source() {
	n=$(awk -F '\t' -v s="$1" '$1 == s' "$TMP/compared.tsv" | wc -l | tr -d ' ')
	bad=$(awk -F '\t' -v s="$1" '$1 == s && $5 != "match"' "$TMP/compared.tsv" | wc -l | tr -d ' ')
	echo "checked $n $2, $bad mismatch(es)"
	if [ "$n" -eq 0 ] && [ -n "${TCR_TRAJECTORY_CASES:-}" ]; then
		skip "$2" "no case of source '$1' in $CASES"
	elif [ "$n" -eq 0 ]; then
		fail "$2" "no case of source '$1' in $CASES"
	elif [ "$bad" -eq 0 ]; then
		pass "$2: all $n as expected"
	else
		fail "$2: $bad of $n differ"
		awk -F '\t' -v s="$1" '$1 == s && $5 != "match" {
			printf "    %s: expected %s, got %s\n", $2, ($3 == "error" ? "status error" : "ok passed=" $3), $4 }' \
			"$TMP/compared.tsv"
	fi
}
check_source reference "worked examples of the reference"
check_source containers "outputs and reference as {messages} and other objects"
check_source generated "seeded random cases"
check_source azure-in-order "in-order cases (written by hand)"
echo "checked $(wc -l < "$TMP/compared.tsv" | tr -d ' ') cases in all"
finish
