#!/bin/sh
# review_order.sh - the files of src/review/ form a one-way stack: each calls
# only functions defined in files below it in the declared order (the one
# doc/ARCHITECTURE.md shows), so no two of them call each other. Read from
# the built objects with nm: what each file defines and what it calls.
. "$TCR_SRCDIR/tests/cli/lib.sh"

objdir="$(dirname "$TCR_BIN")/src/review"
# Lowest first; files on one line stand side by side and call none of each other.
order='assign keymap runsearch callrefs align prefer
session compare_lines
rows
labels marks failmodes prefs
filters
queue
view
decisions tags compare
search callmarks fewshot calib_figs calls groups group_decide compare_pair
fewshot_gather
judging calib_compare
calib calib_calls
settle'

rank_of() { # FILE: its line in the order, or nothing
	printf '%s\n' "$order" | awk -v f="$1" '{ for (i = 1; i <= NF; i++) if ($i == f) print NR }'
}

if ! command -v nm >/dev/null 2>&1; then
	skip "review/ is a one-way stack" "nm is not installed"
	finish
fi
ls "$objdir"/*.o >/dev/null 2>&1 || { fail "the review objects are built" "none in $objdir"; finish; }

: > "$TMP/syms"
unplaced=""
for o in "$objdir"/*.o; do
	f=$(basename "$o" .o)
	[ -n "$(rank_of "$f")" ] || unplaced="$unplaced $f"
	nm "$o" | awk -v f="$f" 'NF == 3 && $2 ~ /^[TDRBC]$/ { print "D", f, $3 } NF == 2 && $1 == "U" { print "U", f, $2 }' >> "$TMP/syms"
done
assert_eq "every file of review/ has its place in the order" "$unplaced" ""

# F -> G SYMBOL for each call of F to a function G defines
awk '$1 == "D" { def[$3] = $2 } $1 == "U" { n++; uf[n] = $2; us[n] = $3 }
     END { for (i = 1; i <= n; i++) if ((us[i] in def) && def[us[i]] != uf[i]) print uf[i], def[us[i]], us[i] }' \
	"$TMP/syms" | sort -u > "$TMP/calls"
[ -s "$TMP/calls" ] && pass "the files of review/ call each other (the objects were read)" ||
	fail "the files of review/ call each other (the objects were read)" "no call found in $objdir"

: > "$TMP/upward"
while read -r from to sym; do
	rf=$(rank_of "$from"); rt=$(rank_of "$to")
	if [ -n "$rf" ] && [ -n "$rt" ] && [ "$rt" -ge "$rf" ]; then
		echo "$from calls $sym of $to, which is not below it" >> "$TMP/upward"
	fi
done < "$TMP/calls"
if [ -s "$TMP/upward" ]; then
	fail "no file of review/ calls one above it or beside it" "$(head -20 "$TMP/upward")"
else
	pass "no file of review/ calls one above it or beside it"
fi

# No circle, whatever the order says: a pair that calls both ways.
awk '{ print $1, $2 }' "$TMP/calls" | sort -u > "$TMP/edges"
awk 'NR == FNR { e[$1 " " $2] = 1; next } ($2 " " $1) in e { print $1 " <-> " $2 }' \
	"$TMP/edges" "$TMP/edges" > "$TMP/pairs"
assert_eq "no two files of review/ call each other" "$(head -5 "$TMP/pairs")" ""
finish
