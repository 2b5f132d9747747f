#!/bin/sh
# man_keys.sh - the man page's KEYS section is the key table of the binary,
# so the help screen (`?`), `tcreview --help keys` and the man page never
# disagree. `make update-man` rewrites the section after the table changes.
. "$TCR_SRCDIR/tests/cli/lib.sh"
man="$TCR_SRCDIR/doc/tcreview.1"

run_tcr "$TMP/keys.roff" "$TMP/err" --help keys --man
assert_rc "--help keys --man exits 0" 0
assert_eq "--help keys --man prints one entry per action" \
	"$(grep -c '^\.TP$' "$TMP/keys.roff")" "$(grep -c '^\.BR ' "$TMP/keys.roff")"
assert_grep "--help keys --man escapes hyphens" "$TMP/keys.roff" '.BR "PgDn, C\-f, Space" " (page\-down)"'

assert_eq "the man page has one KEYS section" "$(grep -c '^\.SH KEYS$' "$man")" 1
assert_eq "the man page has one keys-begin marker" "$(grep -c '^\.\\" keys-begin$' "$man")" 1
assert_eq "the man page has one keys-end marker" "$(grep -c '^\.\\" keys-end$' "$man")" 1
sed -n '/^\.\\" keys-begin$/,/^\.\\" keys-end$/p' "$man" | sed '1d;$d' > "$TMP/man.roff"
if cmp -s "$TMP/keys.roff" "$TMP/man.roff"; then
	pass "the man page's KEYS section is the binary's table"
else
	fail "the man page's KEYS section is the binary's table" \
		"doc/tcreview.1 differs from 'tcreview --help keys --man'; run 'make update-man':" \
		"$(diff "$TMP/man.roff" "$TMP/keys.roff" | head -40)"
fi

run_tcr "$TMP/keys.txt" "$TMP/err" --help keys
assert_rc "--help keys exits 0" 0
assert_eq "--help keys prints as many entries as the man page" \
	"$(grep -c '^  ' "$TMP/keys.txt")" "$(grep -c '^\.TP$' "$TMP/keys.roff")"
assert_eq "--help keys has as many section headings as the man page" \
	"$(grep -c '^[^ ]' "$TMP/keys.txt")" "$(grep -c '^\.SS ' "$TMP/keys.roff")"
for sec in Moving Reading Labelling Judging Calibration Files Mouse; do
	if grep -qx -- "$sec" "$TMP/keys.txt"; then pass "--help keys has the section $sec"
	else fail "--help keys has the section $sec" "$(head -c 2000 "$TMP/keys.txt")"; fi
done
assert_grep "Shift-Tab is named as people call it" "$TMP/keys.txt" "  Shift-Tab "
assert_no_grep "BTab is never shown" "$TMP/keys.txt" "BTab"
assert_grep "--help keys shows the keys and the help" "$TMP/keys.txt" "  j, Down"
assert_no_grep "--help keys is plain text" "$TMP/keys.txt" ".TP"
finish
