#!/bin/sh
# screen_tags_list.sh - golden screens of failure-mode tags on the shared
# tau-bench sample, as init proposes it with two defined tags added: the
# run list with its runs' tags (a name where it fits, else ⚑ and how
# many), the timeline's title with the run's own tags and reviewers, and
# the tags pane after a free code was promoted into a defined tag, at
# 80x24 and 120x40. Skips where the shared samples are absent.
. "$TCR_SRCDIR/tests/cli/lib.sh"
. "$TCR_SRCDIR/tests/cli/screen_lib.sh"

R="${TCR_SHARED_DIR:-}/fixtures/real"
if [ -z "${TCR_SHARED_DIR:-}" ] || [ ! -f "$R/taubench_v1_airline_sample.jsonl" ] ||
	[ ! -f "$R/taubench_v1_airline_expected_sample.jsonl" ]; then
	skip "tags on the tau-bench sample" "the shared real samples are absent"
	finish
fi
cp "$R/taubench_v1_airline_sample.jsonl" "$R/taubench_v1_airline_expected_sample.jsonl" "$TMP/"
(cd "$TMP" && HOME="$TMP" XDG_CONFIG_HOME="$TMP/xdg" "$TCR_BIN" init taubench_v1_airline_sample.jsonl \
	taubench_v1_airline_expected_sample.jsonl >"$TMP/init.out" 2>&1)
if [ ! -f "$TMP/tcreview.yaml" ]; then
	fail "init proposes a configuration for the tau-bench sample" "$(cat "$TMP/init.out")"
	finish
fi
cat >> "$TMP/tcreview.yaml" <<'YAML'
tags:
  - id: wrong-tool
    description: Called a tool that does not fit the request
    key: w
  - id: policy-breach
    description: Acted against the airline policy
    key: p
YAML
SCREEN_CONFIG=tcreview.yaml

# Run 1: "lookup err" and wrong-tool (by its key); run 2 "Lookup  Err"
# (written as "lookup err"); run 3 "slow"; back on run 1.
TAGGING='tlookup err<Enter>
tw
jtLookup  Err<Enter>
jtslow<Enter>
gg'
# The pane: "slow" promoted into policy-breach (completed with Tab).
PANE="$TAGGING
T
Gppo<Tab><Enter>"

for size in "80 24" "120 40"; do
	set -- $size
	SCREEN_COLS=$1 SCREEN_LINES=$2
	run_screen "tags-list-$1" "$TAGGING" taubench_v1_airline_sample.jsonl
	check_screen "tags-list-$1"
	run_screen "tags-pane-$1" "$PANE" taubench_v1_airline_sample.jsonl
	check_screen "tags-pane-$1"
	screen_has "tags-pane-$1" "slow"
done
assert_eq "the pane's promotion is one tag-alias line, slow into policy-breach" \
	"$(grep '"tag-alias"' "$ANNOT" | grep -c '"tag":"slow","tag_to":"policy-breach"')" 1

finish
