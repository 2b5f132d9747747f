#!/bin/sh
# error_convention.sh - errors travel as one type (util/error.h): no
# function or struct takes a `char *err, size_t errlen` pair any more, and
# no code decides on an error's text (callers branch on its kind).
. "$TCR_SRCDIR/tests/cli/lib.sh"
cd "$TCR_SRCDIR" || exit 1

find src include -name '*.[ch]' -o -name '*.cc' | sort > "$TMP/files"
# shellcheck disable=SC2046
grep -n 'size_t errlen' $(cat "$TMP/files") > "$TMP/pairs"
assert_eq "no 'size_t errlen' remains in src/ and include/" "$(wc -l < "$TMP/pairs" | tr -d ' ')" 0
[ -s "$TMP/pairs" ] && head -20 "$TMP/pairs"

# shellcheck disable=SC2046
grep -nE 'set_err\(|review_error\b' $(cat "$TMP/files") > "$TMP/old"
assert_eq "set_err and enum review_error are gone" "$(wc -l < "$TMP/old" | tr -d ' ')" 0
[ -s "$TMP/old" ] && head -20 "$TMP/old"

# An error's text is for a person: compared, it would break when worded anew.
# shellcheck disable=SC2046
grep -nE '(strstr|strcmp|strncmp|strcasecmp|memcmp)\(\s*&?[A-Za-z_>.-]*\berr(\.msg|->msg)?\b\s*,|(strstr|strcmp|strncmp)\([^;]*\.msg\b\s*,' \
	$(cat "$TMP/files") > "$TMP/compared"
assert_eq "no code compares an error's text" "$(wc -l < "$TMP/compared" | tr -d ' ')" 0
[ -s "$TMP/compared" ] && head -20 "$TMP/compared"
finish
