#!/bin/sh
# hostile_walk.sh - a folder of links back to itself (`a -> .`, `b -> .`,
# `up -> ..`) and a second path to one of its files: scored with each run
# once, in sorted order, each loop reported once, in bounded time.
. "$TCR_SRCDIR/tests/cli/lib.sh"

if command -v timeout >/dev/null 2>&1; then
	watchdog() { timeout 120 "$@"; }
else
	watchdog() { "$@"; }
fi

# count FILE FIXED: the lines of FILE holding FIXED.
count() { grep -cF -- "$2" "$1"; }

cat > "$TMP/words.yaml" <<'EOF2'
scorers:
  - id: words
    type: word-inclusion
EOF2

# ---- a folder of links back to itself ---------------------------------------

# $TMP/top holds only d, so up -> .. leads back to d and to nothing else.
mkdir -p "$TMP/top/d/sub"
W=$TMP/top/d
printf '%s\n' '{"id":"r1","messages":[{"role":"user","content":"one"},{"role":"assistant","content":"one"}]}' \
	'{"id":"r2","messages":[{"role":"user","content":"two"},{"role":"assistant","content":"two"}]}' > "$W/runs.jsonl"
printf '%s\n' '{"id":"r3","messages":[{"role":"user","content":"three"},{"role":"assistant","content":"three"}]}' > "$W/sub/more.jsonl"
ln -s . "$W/a"
ln -s . "$W/b"
ln -s .. "$W/up"
ln -s runs.jsonl "$W/same.jsonl"        # the same file by another path

watchdog "$TCR_BIN" score -c "$TMP/words.yaml" -o jsonl "$W" >"$TMP/walk.out" 2>"$TMP/walk.err"
RC=$?
cp "$TMP/walk.err" "$TMP/err"
assert_rc "walk: links back to the folder end, exit 0 (not killed after 120 s)" 0
assert_eq "walk: three runs, one line each" "$(wc -l < "$TMP/walk.out" | tr -d ' ')" 3
for r in r1 r2 r3; do
	assert_eq "walk: $r scored once" "$(count "$TMP/walk.out" "{\"run\":\"$r\",")" 1
done
assert_eq "walk: the files in sorted order" "$(sed -n 's/^{"run":"\([^"]*\)".*/\1/p' "$TMP/walk.out" | tr '\n' ' ')" "r1 r2 r3 "
assert_grep "walk: the runs come from runs.jsonl, not same.jsonl" "$TMP/walk.out" "\"source\":\"$W/runs.jsonl:1\""
for l in a b up/d; do
	assert_eq "walk: $l reported once" \
		"$(count "$TMP/walk.err" "tcreview: $W/$l: a link back to a folder already read; skipped")" 1
done
assert_eq "walk: three warnings, nothing else on stderr" "$(wc -l < "$TMP/walk.err" | tr -d ' ')" 3

finish
