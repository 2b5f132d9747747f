#!/bin/sh
# screen.sh - the review screen as a person sees it: key scripts run in
# script mode (no terminal), each screen compared with a golden file in
# tests/screens/, and every decision checked in the annotations file.
# TCR_UPDATE_SCREENS=1 rewrites the golden files (read them before
# committing). The data: tests/data/screen.yaml, screen-tasks.jsonl,
# screen-runs.jsonl (English, Japanese, Chinese, escape sequences, a run
# with no expectation, a broken last line), screen-fold.jsonl (a long call),
# screen-order.jsonl (Responses items: text, call, text), screen-policy.jsonl
# (a long system prompt), screen-thinking.jsonl (reasoning_content, a role
# no format knows), screen-marks.jsonl with screen-marks.yaml (the call
# marks of trajectory-match beside each call), screen-checks.jsonl with
# screen-checks.yaml (those of tool-errors and unanswered-calls).
. "$TCR_SRCDIR/tests/cli/lib.sh"
. "$TCR_SRCDIR/tests/cli/screen_lib.sh"

# annot_fields FILE: one line per decision, "run|scorer|decision|score|reason|reviewer"
# (null for a JSON null). The store writes flat objects with plain values;
# awk reads them, as jq and python may be missing.
annot_fields() {
	awk '{
		n = split("run scorer decision score reason reviewer", k, " "); out = ""
		for (i = 1; i <= n; i++) {
			v = "?"
			if (match($0, "\"" k[i] "\":(\"[^\"]*\"|[^,}]*)")) {
				v = substr($0, RSTART + length(k[i]) + 3, RLENGTH - length(k[i]) - 3)
				if (v ~ /^".*"$/) v = substr(v, 2, length(v) - 2)
			}
			out = out (i > 1 ? "|" : "") v
		}
		print out
	}' "$1" 2>/dev/null
}

lines_of() { if [ -f "$1" ]; then wc -l < "$1" | tr -d ' '; else echo 0; fi; }

# ---- the main screen ------------------------------------------------------

run_screen main-80x24 ''
assert_rc "the screen runs a script and exits 0" 0
check_screen main-80x24
assert_eq "the screen writes nothing to stdout when headless" "$(wc -c < "$TMP/main-80x24.out" | tr -d ' ')" 0
assert_eq "looking writes no decision" "$(lines_of "$ANNOT")" 0

SCREEN_COLS=160 SCREEN_LINES=48
run_screen wide-zh 'j
:save-display %D/wide-ja.screen
j'
check_screen wide-ja
screen_has wide-ja "注文番号1042の荷物はどこにありますか？月曜日に届く予定でした。"
check_screen wide-zh
screen_has wide-zh "已为您的订单 2087 办理退款，款项将在 3–5 个工作日内退回。"
SCREEN_COLS=80 SCREEN_LINES=24

run_screen help-closed '?
:save-display %D/help.screen
<Esc>'
check_screen help
if cmp -s "$TMP/help-closed.screen" "$TMP/main-80x24.screen"; then
	pass "Esc closes the help"
else
	fail "Esc closes the help" "$(diff "$TMP/main-80x24.screen" "$TMP/help-closed.screen" | head -20)"
fi

# Paging down stops with the last line at the bottom, not on an empty page.
run_screen help-end '?<PgDn><PgDn><PgDn><PgDn><PgDn><PgDn>'
check_screen help-end
screen_has help-end "Quit (every decision is already saved)"
screen_has help-end "wheel"
screen_has help-end ", end"
# The help is in sections, says where it is and that more follows; Tab goes
# to the next section; keys are named as people call them.
screen_has help "[help] Moving  lines 1-22 of"
screen_has help ", ↓ more"
screen_has help "Shift-Tab         focus-prev"
run_screen help-sections '?<Tab><Tab>'
check_screen help-sections
screen_has help-sections "[help] Labelling  lines"
SCREEN_COLS=120 SCREEN_LINES=40
run_screen help-120 '?'
check_screen help-120
for sec in Moving Reading Labelling; do screen_has help-120 " $sec"; done
run_screen help-120-end '?G'
check_screen help-120-end
for sec in Judging Calibration Files Mouse; do screen_has help-120-end " $sec"; done
screen_has help-120-end "click"
SCREEN_COLS=80 SCREEN_LINES=24
for f in help help-end help-sections help-120 help-120-end; do
	if grep -qF "BTab" "$TMP/$f.screen"; then fail "screen $f never says BTab" "$(cat "$TMP/$f.screen")"
	else pass "screen $f never says BTab"; fi
done

# ---- the status line and the message log -----------------------------------

# A message longer than the row is cut, the position and the help's key
# kept; M shows it whole, with its time; Esc closes the log.
run_screen message-cut 'I'
check_screen message-cut
screen_has message-cut "run 1 of 6"
screen_has message-cut "screen.yaml is in use; \`tcreview init -o FILE… (M: messages)  ? help"
run_screen message-log 'Ij<Tab><Tab>3M'
check_screen message-log
screen_has message-log "[messages] 2 kept, newest last"
screen_has message-log "09:30:00  screen.yaml is in use; \`tcreview init -o FILE\` on the command line"
screen_has message-log "          proposes another"
SCREEN_COLS=120 SCREEN_LINES=40
run_screen message-log-120 'Ij<Tab><Tab>3M'
check_screen message-log-120
SCREEN_COLS=80 SCREEN_LINES=24

# ---- filters and sorts ----------------------------------------------------

# One override on ja-fail first, so the "overridden" filter has a run.
run_screen filters-seed 'j<Tab><Tab>jo1<Enter>it did look the order up<Enter>'
assert_eq "the seed override is written" "$(annot_fields "$ANNOT")" \
	"ja-fail|lookup|override|1|it did look the order up|qa"
SCREEN_ANNOT=filters-seed.annot.jsonl
run_screen filter-all 'f
:save-display %D/filter-menu.screen
u
:save-display %D/filter-unreviewed.screen
ff
:save-display %D/filter-failing.screen
fd
:save-display %D/filter-disagreement.screen
fo
:save-display %D/filter-overridden.screen
fe
:save-display %D/filter-errors.screen
fc
:save-display %D/filter-code-human.screen
fr
:save-display %D/filter-reviewers.screen
fs
:save-display %D/filter-stale.screen
f<Esc>
:save-display %D/filter-esc.screen
fa'
SCREEN_ANNOT=
for f in menu unreviewed failing disagreement overridden errors code-human reviewers stale all; do
	check_screen "filter-$f"
done
# The menu: a letter per filter that applies (no judges here: none about them)
screen_has filter-menu "│ a  all  ← in use"
screen_has filter-menu "│ u  unreviewed"
screen_has filter-menu "│ s  stale label"
if grep -qF "judge ≠ human" "$TMP/filter-menu.screen"; then
	fail "the menu leaves out the filters about judges when there are none" "$(cat "$TMP/filter-menu.screen")"
else
	pass "the menu leaves out the filters about judges when there are none"
fi
# The list's title says how many of all the runs a filter lets in.
screen_has filter-unreviewed "[runs] 5 of 6 runs"
screen_has filter-failing "[runs] 3 of 6 runs"
screen_has filter-all "[runs] 6 runs"
# Esc leaves the filter as it was (stale label: no run).
screen_has filter-esc "filter: stale label"
if grep -qF "│ a  all" "$TMP/filter-esc.screen"; then fail "Esc closes the filter menu" "$(cat "$TMP/filter-esc.screen")"
else pass "Esc closes the filter menu"; fi
# the override of ja-fail's lookup (0 by the machine, 1 by qa) is the one
# code ≠ human; no judges here, so the filters about judges are left out
screen_has filter-code-human "filter: code ≠ human"
screen_has filter-code-human ">✎ ja-fail"
screen_has filter-reviewers "filter: reviewers disagree"
screen_has filter-stale "filter: stale label"

# en-pass accepted (reviewed), zh-refund with one override (overridden).
# `a` moves on to the next undecided row, as a digit does.
run_screen sort-file 'A
j<Tab><Tab>aa
o0<Enter>no refund words<Enter>
<Tab>
s
:save-display %D/sort-id.screen
s
:save-display %D/sort-score.screen
s
:save-display %D/sort-state.screen
s'
for s in id score state file; do
	check_screen "sort-$s"
done
assert_eq "the sort test's decisions" "$(annot_fields "$ANNOT" | tr '\n' ' ')" \
"en-pass|tool-order|accept|1|null|qa en-pass|lookup|accept|1|null|qa en-pass|words|accept|0.5|null|qa \
zh-refund|tool-order|accept|1|null|qa zh-refund|lookup|accept|1|null|qa zh-refund|words|override|0|no refund words|qa "

# Several inputs: the status line names the first and "+N" the others.
run_screen two-inputs '' screen-runs.jsonl screen-fold.jsonl screen-order.jsonl
screen_has two-inputs "screen-runs.jsonl +2  run 1 of"
run_screen one-input ''
assert_no_grep "screen one-input: one input, no +N" "$TMP/one-input.screen" "screen-runs.jsonl +"

# ---- search ---------------------------------------------------------------

# / looks in the run under the cursor first: en-pass has JD014 three times
# (a result, an argument, its last answer); n steps through them, then on
# to ja-fail's; N comes back to en-pass's last.
run_screen search-prev '/JD014<Enter>
:save-display %D/search-first.screen
nnn
:save-display %D/search-next.screen
N'
check_screen search-first
check_screen search-next
check_screen search-prev
run_screen search-ja 'jj/月曜日<Enter>'
check_screen search-ja
run_screen search-none '/no such words<Enter>'
check_screen search-none
# n past the run's last match goes on to the next run's (esc-codes has it
# twice too), and past the last run's back to the first, saying so
run_screen search-run '/shipped<Enter>nn'
screen_has search-run "/shipped  match 1 of 2 in this run"
screen_has search-run ">  esc-codes"
run_screen search-wrap '/shipped<Enter>nnnn'
screen_has search-wrap "/shipped  match 1 of 2 in this run  (from the top)"
screen_has search-wrap ">  en-pass"
run_screen search-case '/jd014<Enter>'
screen_has search-case "/jd014  match 1 of 3 in this run"

# ---- focus, details, folds ------------------------------------------------

run_screen focus-verdict '<Tab>
:save-display %D/focus-timeline.screen
<Tab>j<Enter>'
check_screen focus-timeline
check_screen focus-verdict
# PgDn in the verdicts scrolls details that do not fit
run_screen details-scrolled '<Tab><Tab>j<Enter><PgDn>'
screen_has details-scrolled "actual    get_order, track_parcel"
screen_has details-scrolled "strict mode off"
SCREEN_LINES=40
run_screen fold-open '<Tab>jjjj
:save-display %D/fold-closed.screen
<Enter>' screen-fold.jsonl
check_screen fold-closed
check_screen fold-open
screen_has fold-closed "… 6 more lines (Enter in the timeline"
screen_has fold-open '"note": "torn on arrival"'
SCREEN_LINES=24

# ---- runs shown as they happened --------------------------------------------

# Responses items: the text, the call, the text after it, in the record's
# order; the status line names the format the run was read as.
run_screen order '' screen-order.jsonl
check_screen order
screen_has order "run 1 of 1 (openai-responses)"

# A long system prompt is folded to its first lines and the run opens at
# the first user message; k goes up to the prompt, Enter unfolds it.
run_screen policy-open '<Tab>
:save-display %D/policy-start.screen
k
:save-display %D/policy-folded.screen
<Enter>' screen-policy.jsonl
check_screen policy-start
check_screen policy-folded
check_screen policy-open
screen_has policy-start "lines 7-20 of 25"
screen_has policy-start ">user"
screen_has policy-folded ">system"
screen_has policy-folded "… 4 more lines (Enter in the timeline"
screen_has policy-open "7. Keep answers short: two sentences at"

# Thinking folded under its label, Enter unfolding it; an unknown role kept
# as a note. They need the loader to make thinking parts and note messages
# (openai-chat's reasoning_content and unknown roles): until it does, the
# checks say so and skip.
run_screen thinking-open '<Tab>jj
:save-display %D/thinking-folded.screen
<Enter>' screen-thinking.jsonl
if grep -qF "thinking (" "$TMP/thinking-folded.screen"; then
	screen_has thinking-folded ">  ▸ thinking (3 lines)"
	if grep -qF "The record says it shipped." "$TMP/thinking-folded.screen"; then
		fail "folded thinking hides its text" "$(cat "$TMP/thinking-folded.screen")"
	else
		pass "folded thinking hides its text"
	fi
	screen_has thinking-open ">  ▾ thinking (3 lines)"
	screen_has thinking-open "The record says it shipped."
else
	skip "thinking folded and unfolded on the screen" "openai-chat makes no thinking parts yet"
fi
run_screen note-kept 'j' screen-thinking.jsonl
if grep -qF "note: " "$TMP/note-kept.screen"; then
	# the run around the note is read and drawn
	screen_has note-kept "Yes: it shipped on Monday."
	if grep -qF "malformed" "$TMP/note-kept.screen"; then
		fail "a note leaves its run readable" "$(cat "$TMP/note-kept.screen")"
	else
		pass "a note leaves its run readable"
	fi
else
	skip "a note on the screen" "openai-chat keeps no unknown role as a note yet"
fi
# A Claude Code session of our own (screen-claude-code.jsonl): the file of
# its events is one run, named by its sessionId; an assistant turn written
# over several lines is one message, its thinking, text and call in order.
SCREEN_LINES=30 SCREEN_COLS=100
run_screen claude-code '<Tab>' screen-claude-code.jsonl
check_screen claude-code
screen_has claude-code "Running the parser test."
screen_has claude-code "Bash"
screen_has claude-code "▸ thinking (1 line)"
screen_has claude-code "(claude-code)"
SCREEN_LINES=24 SCREEN_COLS=80

# ---- decisions, each checked in the file ----------------------------------

# 30 rows, so the open details show the human decision whole (at 24 they
# are cut: see focus-verdict).
SCREEN_LINES=30

run_screen accept 'a<Enter>'
check_screen accept
assert_eq "a writes an accept" "$(annot_fields "$ANNOT")" "en-pass|tool-order|accept|1|null|qa"

run_screen accept-all 'A'
check_screen accept-all
assert_eq "A writes an accept per verdict" "$(annot_fields "$ANNOT" | tr '\n' ' ')" \
	"en-pass|tool-order|accept|1|null|qa en-pass|lookup|accept|1|null|qa en-pass|words|accept|0.5|null|qa "

run_screen override 'jo1<Enter>it asked for the tracking number<Enter>
<Enter>'
check_screen override
assert_eq "o writes an override with its reason" "$(annot_fields "$ANNOT")" \
	"ja-fail|tool-order|override|1|it asked for the tracking number|qa"

# o with the machine's own score is an accept (as a digit is), reason kept
run_screen override-agrees 'o1<Enter>same as the scorer<Enter>'
screen_has override-agrees "tool-order: same score, accepted (saved)"
assert_eq "o with the machine's score writes an accept" "$(annot_fields "$ANNOT")" \
	"en-pass|tool-order|accept|1|same as the scorer|qa"

run_screen override-refused 'o7<Enter>'
check_screen override-refused
assert_eq "an off-scale override writes nothing" "$(lines_of "$ANNOT")" 0
run_screen label-refused '3'
check_screen label-refused
screen_has label-refused "tool-order: 3 is not on its scale (0 or 1)"
assert_eq "an off-scale label writes nothing" "$(lines_of "$ANNOT")" 0

# A label that differs from the machine is an override, one that agrees an
# accept; each moves forward: to the next row of the run without a
# decision, and once the run is reviewed to the next unreviewed run, on
# its first row (zh-refund's lookup is selected at the end).
run_screen labels 'j1
:save-display %D/labels-row2.screen
0
0
1'
check_screen labels
screen_has labels-row2 ">2 lookup          0  fail"
screen_has labels-row2 "tool-order labelled 1 (saved)"
screen_has labels ">  zh-refund"
screen_has labels ">2 lookup          1  pass"
screen_has labels "tool-order labelled 1 (agrees: accepted) (saved)"
assert_eq "digit labels write overrides, or accepts when they agree" "$(annot_fields "$ANNOT" | tr '\n' ' ')" \
	"ja-fail|tool-order|override|1|null|qa ja-fail|lookup|accept|0|null|qa ja-fail|words|accept|0|null|qa zh-refund|tool-order|accept|1|null|qa "

run_screen retract 'a
:save-display %D/retract-before.screen
<Tab><Tab>kx<Enter>'
check_screen retract-before
check_screen retract
assert_eq "x writes a retract after the accept" "$(annot_fields "$ANNOT" | tr '\n' ' ')" \
	"en-pass|tool-order|accept|1|null|qa en-pass|tool-order|retract|null|null|qa "
run_screen retract-nothing 'x'
screen_has retract-nothing "not saved: nothing to take back"
assert_eq "x with nothing to take back writes nothing" "$(lines_of "$ANNOT")" 0

SCREEN_LINES=32    # two rows more for the note
run_screen note 'jjjcpasted escape codes: 追跡番号<Enter>
<Enter>'
SCREEN_LINES=30
check_screen note
assert_eq "c writes a note on the run" "$(annot_fields "$ANNOT")" \
	"esc-codes|null|note|null|pasted escape codes: 追跡番号|qa"
run_screen note-cancelled 'csomething<Esc>'
screen_has note-cancelled "cancelled"
assert_eq "Esc in the note prompt writes nothing" "$(lines_of "$ANNOT")" 0

SCREEN_LINES=24

# ---- resume after a restart -----------------------------------------------

run_screen resume-seed 'A
A'
SCREEN_ANNOT=resume-seed.annot.jsonl
run_screen resume ''
SCREEN_ANNOT=
check_screen resume
screen_has resume "reviewed 2 of 6"

# ---- a damaged annotations file -------------------------------------------

printf '%s\n' '{"v":1,"run":"ja-fail","source":"screen-runs.jsonl:2","scorer":"lookup","scorer_type":"tool-call-accuracy","machine_score":0,"machine_passed":false,"decision":"override","score":1,"reason":"it did look","reviewer":"qa","at":"2026-01-10T08:00:00Z","config":"1e9de2a8de3e88aa"}' > "$TMP/cut.jsonl"
printf '%s' '{"v":1,"run":"en-pass","source":"screen-runs.jsonl:1","scorer":"tool-order","scorer_type":"tool-call-ac' >> "$TMP/cut.jsonl"
SCREEN_ANNOT=cut.jsonl SCREEN_LINES=30
run_screen annot-truncated 'j<Tab><Tab>j<Enter>'
SCREEN_LINES=24
SCREEN_ANNOT=
assert_rc "a truncated annotations file still opens" 0
check_screen annot-truncated
screen_has annot-truncated "cut.jsonl:2: truncated last line"
screen_has annot-truncated "human: overridden to 1 by qa at"

# ---- several annotation files ---------------------------------------------

# A colleague's file (a v1 line, as an older tcreview wrote it): read, shown,
# never written to; our decisions go to the first -a.
head -n 1 "$TMP/cut.jsonl" > "$TMP/theirs.jsonl"
cp "$TMP/theirs.jsonl" "$TMP/theirs.orig"
SCREEN_LINES=30
run_screen two-files-read 'j<Tab><Tab>j<Enter>' -a theirs.jsonl screen-runs.jsonl
SCREEN_LINES=24
screen_has two-files-read "human: overridden to 1 by qa at"
assert_eq "-a twice: looking writes to neither file" "$(lines_of "$ANNOT")" 0
run_screen two-files-accept 'A' -a theirs.jsonl screen-runs.jsonl
assert_eq "-a twice: the accepts go to the first file" "$(annot_fields "$ANNOT" | cut -d'|' -f1,3 | sort -u)" "en-pass|accept"
if cmp -s "$TMP/theirs.jsonl" "$TMP/theirs.orig"; then
	pass "-a twice: the second file is left as it was"
else
	fail "-a twice: the second file is left as it was" "$(diff "$TMP/theirs.orig" "$TMP/theirs.jsonl")"
fi
(cd "$TMP" && TCR_SCRIPT="$TMP/two-files-accept.keys" "$TCR_BIN" -c screen.yaml -a mine.jsonl \
	-a nobody.jsonl screen-runs.jsonl </dev/null >"$TMP/two-missing.out" 2>"$TMP/two-missing.err")
RC=$?
assert_rc "-a twice: a second file that does not exist is an input error" 3
assert_grep "... naming it" "$TMP/two-missing.err" "nobody.jsonl: No such file or directory"

# ---- what a record must not do to the terminal ----------------------------

run_screen escapes 'jjj'
check_screen escapes
screen_has escapes '^[[31m (pasted from a'
screen_has escapes '^[]0;owned^Gshipped ^[[2J'
if LC_ALL=C tr -d '\033\007' < "$TMP/escapes.screen" | cmp -s - "$TMP/escapes.screen"; then
	pass "no raw ESC or BEL byte reaches the screen"
else
	fail "no raw ESC or BEL byte reaches the screen" "$(od -c "$TMP/escapes.screen" | grep -m3 '033')"
fi

# ---- an Inspect AI log: each sample a run ------------------------------------

# The log's two epochs of one sample are two runs; the timeline shows the
# call whose result was an attachment, resolved (the reasoning and the
# scores are parts the timeline draws as it learns to).
SCREEN_CONFIG=screen-inspect.yaml
run_screen inspect-log '' screen-inspect.json
SCREEN_CONFIG=screen.yaml
check_screen inspect-log
screen_has inspect-log "order-2087#2"
screen_has inspect-log '"status": "shipped"'   # a result that is JSON text, pretty-printed
screen_has inspect-log "note: scores: match C (answer shipped)"
screen_has inspect-log "▸ thinking (1 line)"
screen_has inspect-log "(inspect)"

# ---- call marks: what trajectory-match made of each call ---------------------

# Two trajectory-match scorers on each record's own reference (get_user,
# then book HAT136): the agent's get_user matches reference call 1, its
# search_flights is extra, its book of HAT999 differs from call 2 in its
# arguments under exact arguments (actions) and matches it when arguments
# are ignored (names). The second run has no reference: both are skipped
# and its call stays unmarked. Tab and j j select the first call, whose
# badges are drawn in the selection's colour; Tab twice more and j open
# the second run.
SCREEN_CONFIG=screen-marks.yaml SCREEN_COLS=100
run_screen call-marks '<Tab>jj
:save-display %D/call-marks-select.screen
<Tab><Tab>j' screen-marks.jsonl
SCREEN_COLS=80
run_screen call-marks-80 '' screen-marks.jsonl
SCREEN_CONFIG=screen.yaml
check_screen call-marks-select
check_screen call-marks
check_screen call-marks-80
screen_has call-marks-select ">  #1 get_user  actions ✓ #1  names ✓ #1  id c0"
screen_has call-marks-select "#2 search_flights  actions + extra  names + extra"
screen_has call-marks-select "#3 book  actions ≠ #2 args  names ✓ #2  id c2"
if grep -q "#1 lookup_order  id c0 *$" "$TMP/call-marks.screen"; then
	pass "a call no scorer marked has no badge"
else
	fail "a call no scorer marked has no badge" "$(cat "$TMP/call-marks.screen")"
fi
# The badges come before the call's id (cut like any text); in 80 columns
# a badge that does not fit is not cut but stands as …
screen_has call-marks-80 "#1 get_user  actions ✓ #1  names ✓ #1  id"
screen_has call-marks-80 "#2 search_flights  actions + extra  …"

# ---- call marks of the checks: tool-errors and unanswered-calls ---------------

# The checks that need no ground truth mark only the calls that are not
# fine: lookup_order's result begins "Error:" (tool-errors ✗ failed),
# refund never got one (unanswered-calls ✗ no result); get_user, and the
# second run's one call, stay unmarked. Tab and j four times select the
# failed call; at 100 columns the unanswered call's line is cut at its end. In blind mode the badges wait for the row's label: none before,
# tool-errors' alone after the reviewer labels it (Tab Tab, 0).
SCREEN_CONFIG=screen-checks.yaml SCREEN_COLS=100
run_screen check-marks '<Tab>jjjj
:save-display %D/check-marks-select.screen
<Tab><Tab>j' screen-checks.jsonl
run_screen check-marks-blind '<Tab><Tab>
:save-display %D/check-marks-blind-before.screen
0' --blind screen-checks.jsonl
SCREEN_COLS=80 SCREEN_CONFIG=screen.yaml
check_screen check-marks-select
check_screen check-marks
check_screen check-marks-blind-before
check_screen check-marks-blind
screen_has check-marks-select "#1 get_user  id c0"
screen_has check-marks-select ">  #2 lookup_order  tool-errors ✗ failed  id c1"
screen_has check-marks-select "#3 refund  unanswered-calls ✗ no result  id c2  [no resul"
if grep -q "#1 lookup_order  id c0 *$" "$TMP/check-marks.screen"; then
	pass "a run whose calls are fine shows no check badge"
else
	fail "a run whose calls are fine shows no check badge" "$(cat "$TMP/check-marks.screen")"
fi
if grep -qE "(tool-errors|unanswered-calls) ✗" "$TMP/check-marks-blind-before.screen"; then
	fail "blind: no check badge before the label" "$(cat "$TMP/check-marks-blind-before.screen")"
else
	pass "blind: no check badge before the label"
fi
screen_has check-marks-blind-before "#3 refund  id c2  [no result]"
screen_has check-marks-blind "#2 lookup_order  tool-errors ✗ failed  id c1"
screen_has check-marks-blind "#3 refund  id c2  [no result]"

# ---- sizes ----------------------------------------------------------------

run_screen resize-100x30 ':resize 100 30'
check_screen resize-100x30
SCREEN_COLS=30 SCREEN_LINES=8
run_screen too-small ''
check_screen too-small
SCREEN_COLS=80 SCREEN_LINES=24
run_screen resize-back ':resize 30 8
:save-display %D/resize-small.screen
:resize 80 24'
if cmp -s "$TMP/resize-small.screen" "$TMP/too-small.screen"; then
	pass "shrinking to 30x8 shows the too-small screen"
else
	fail "shrinking to 30x8 shows the too-small screen" "$(diff "$TMP/too-small.screen" "$TMP/resize-small.screen")"
fi
if cmp -s "$TMP/resize-back.screen" "$TMP/main-80x24.screen"; then
	pass "growing back to 80x24 shows the main screen again"
else
	fail "growing back to 80x24 shows the main screen again" "$(diff "$TMP/main-80x24.screen" "$TMP/resize-back.screen")"
fi

finish
