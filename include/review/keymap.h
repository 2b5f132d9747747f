/* keymap.h - every action of the screen, once, and the keys bound to it.
 * (src/review/keymap.c: the review layer, below the screen.)
 *
 * The action table below is the single source of the key bindings, the
 * help screen (`?`) and the man page's KEYS section (`tcreview --help keys`
 * prints it in both forms). The YAML's `keys:` rebinds actions by name:
 *   keys:
 *     accept: [a, Enter]
 *     next-unreviewed: C-n
 */
#ifndef TCR_REVIEW_KEYMAP_H
#define TCR_REVIEW_KEYMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <wchar.h>

/* Each action belongs to one section of the help and the man page (enum
 * key_section), so a new key lands in its section by itself.
 *  id            name               default keys            section      help */
#define TCR_ACTIONS(X) \
	X(DOWN,        "down",            "j Down",               MOVING,      "Next run; in the timeline scroll down; in the verdicts the next one") \
	X(UP,          "up",              "k Up",                 MOVING,      "Previous run; in the timeline scroll up; in the verdicts the previous one") \
	X(PAGE_DOWN,   "page-down",       "PgDn C-f Space",       MOVING,      "A page down in the focused pane") \
	X(PAGE_UP,     "page-up",         "PgUp C-b",             MOVING,      "A page up in the focused pane") \
	X(FIRST,       "first",           "g Home",               MOVING,      "First run (or top of the pane)") \
	X(LAST,        "last",            "G End",                MOVING,      "Last run (or bottom of the pane)") \
	X(FOCUS_NEXT,  "focus-next",      "Tab",                  MOVING,      "Focus: run list, timeline, verdicts") \
	X(FOCUS_PREV,  "focus-prev",      "Shift-Tab",            MOVING,      "Focus the previous pane") \
	X(ZOOM,        "zoom",            "z",                    READING,     "Give the focused pane the whole screen, and back; zoomed, Tab shows the next pane whole") \
	X(TOGGLE,      "toggle",          "Enter",                READING,     "Unfold or fold the selected call, thinking, system prompt or verdict") \
	X(SEARCH,      "search",          "/",                    READING,     "Search the run shown (messages, arguments, results), then the other runs: ids, messages, tool names and arguments") \
	X(SEARCH_NEXT, "search-next",     "n",                    READING,     "Next match, then the next run's; in the side by side, the next divergence") \
	X(SEARCH_PREV, "search-prev",     "N",                    READING,     "Previous match; in the side by side, the previous divergence") \
	X(FILTER,      "filter",          "f",                    MOVING,      "Filter: a menu of the filters (all, unreviewed, failing, disagreement, overridden, errors, judge \xe2\x89\xa0 human, code \xe2\x89\xa0 human, code \xe2\x89\xa0 judge, reviewers disagree, stale label); a letter or Enter picks one") \
	X(NEXT_DISAGREE, "next-disagreement", "]",               MOVING,      "Next run with a disagreement of the filter's kind (else machine \xe2\x89\xa0 human, code \xe2\x89\xa0 judge, reviewers); in the side by side, the next task both sides ran") \
	X(PREV_DISAGREE, "prev-disagreement", "[",               MOVING,      "Previous run with such a disagreement; in the side by side, the previous task") \
	X(SORT,        "sort",            "s",                    MOVING,      "Sort: file order, id, score, review state") \
	X(NEXT_TODO,   "next-unreviewed", "u",                    MOVING,      "Jump to the next unreviewed run") \
	X(ACCEPT,      "accept",          "a",                    LABELLING,   "Accept the selected verdict, then the next undecided row or run (not with --blind: type a label)") \
	X(ACCEPT_ALL,  "accept-all",      "A",                    LABELLING,   "Accept every verdict of the run and go to the next unreviewed (not with --blind)") \
	X(OVERRIDE,    "override",        "o",                    LABELLING,   "Override the selected verdict: a score on its scale, then a reason (the machine's own score is an accept)") \
	X(LABEL_0,     "label-0",         "0",                    LABELLING,   "Label the selected verdict 0 (an accept when the machine said 0), then the next undecided row or run") \
	X(LABEL_1,     "label-1",         "1",                    LABELLING,   "Label it 1, then the next undecided row or run; on a call selected in the timeline, digits 1.. label the call on the call scale (correct, partly, wrong)") \
	X(LABEL_2,     "label-2",         "2",                    LABELLING,   "Label it 2 (1..5 scales), then the next undecided row or run") \
	X(LABEL_3,     "label-3",         "3",                    LABELLING,   "Label it 3 (1..5 scales), then the next undecided row or run") \
	X(LABEL_4,     "label-4",         "4",                    LABELLING,   "Label it 4 (1..5 scales), then the next undecided row or run") \
	X(LABEL_5,     "label-5",         "5",                    LABELLING,   "Label it 5 (1..5 scales), then the next undecided row or run") \
	X(NOTE,        "note",            "c",                    LABELLING,   "Write a note on the run") \
	X(RETRACT,     "retract",         "x",                    LABELLING,   "Take back the last decision on the selected verdict; on a call selected in the timeline, the call's latest tag, label or correction; on a run whose latest decision of yours is a tag, that tag") \
	X(TAG,         "tag",             "t",                    LABELLING,   "Tag the run, or the call selected in the timeline, with a failure mode: a free code or a defined tag (Tab completes, Up/Down choose, a tag's key picks it)") \
	X(TAGS,        "tags",            "T",                    LABELLING,   "The tags pane: every tag and code with its runs; r renames, Space marks and m merges, p promotes, x takes back an alias, Enter filters to its runs") \
	X(CALL_CORRECT, "correct-call",   "e",                    LABELLING,   "On a call selected in the timeline: what it should have been, in your editor ($VISUAL, $EDITOR, vi) on the call as JSON") \
	X(CALL_REMOVE, "remove-call",     "D",                    LABELLING,   "On a call selected in the timeline: it should not have been called (asks y/n)") \
	X(CALL_INSERT, "insert-call",     "i",                    LABELLING,   "On a call selected in the timeline: a call is missing before it (on the last call, before or after), in your editor") \
	X(ANSWER_CORRECT, "correct-answer", "R",                  LABELLING,   "The answer the run should have given, in your editor on the run's final answer") \
	X(GROUPS,      "groups",          "=",                    LABELLING,   "Groups of the runs in view (tools, first error, verdicts); label or tag a whole group, after a y/n") \
	X(COMPARE,     "compare",         "C",                    COMPARING,   "Compare the selected run side by side with another: a menu of the other side's runs of its task, its other trials, then the rest (Enter opens; in the side by side, C or Esc closes)") \
	X(FIRST_DIVERGENCE, "first-divergence", "d",              COMPARING,   "In the side by side, jump to the first divergence: the first call the two runs did not make alike") \
	X(PREFER_BASE, "prefer-base",     "<",                    COMPARING,   "In the side by side, record a preference: the base (left) run is better") \
	X(PREFER_CAND, "prefer-cand",     ">",                    COMPARING,   "In the side by side, the candidate (right) run is better") \
	X(PREFER_TIE,  "prefer-tie",      "~",                    COMPARING,   "In the side by side, a tie: neither run is better") \
	X(PREFER_BAD,  "prefer-both-bad", "!",                    COMPARING,   "In the side by side, both runs are bad (x takes your preference back)") \
	X(JUDGE,       "judge",           "J",                    JUDGING,     "Ask the LLM judges about this run") \
	X(INIT,        "init",            "I",                    FILES,       "With no configuration found: write the tcreview.yaml `tcreview init` proposes for these runs, and load it") \
	X(CALIB,       "calibration",     "K",                    CALIBRATION, "Calibration: agreement of each scorer and judge with the labels, a confusion matrix (K or Esc closes)") \
	X(LEFT,        "left",            "h Left",               CALIBRATION, "In the calibration, the previous cell of the matrix") \
	X(RIGHT,       "right",           "l Right",              CALIBRATION, "In the calibration, the next cell of the matrix") \
	X(CANCEL,      "cancel",          "Esc",                  READING,     "Close a prompt, the help or the calibration; cancel pending work") \
	X(REDRAW,      "redraw",          "C-l",                  READING,     "Redraw the screen") \
	X(MESSAGES,    "messages",        "M",                    READING,     "The message log: every message of the status line, whole, newest last (Esc closes)") \
	X(HELP,        "help",            "?",                    READING,     "Show the keys") \
	X(QUIT,        "quit",            "q",                    FILES,       "Quit (every decision is already saved)")

/* The help's sections, in the order they are shown. */
enum key_section {
	SEC_MOVING, SEC_READING, SEC_LABELLING, SEC_JUDGING, SEC_CALIBRATION, SEC_COMPARING, SEC_FILES,
	SEC_COUNT,
};

enum tcr_action {
#define X(id, name, keys, section, help) ACT_##id,
	TCR_ACTIONS(X)
#undef X
	ACT_COUNT,
	ACT_NONE = -1,
};

/* A key: a character (Enter is '\n', Tab '\t', Esc 27, C-x its control
 * code), or a named function key with KEYCODE_FN set so the two never
 * collide. The screen translates curses' KEY_* codes into these; nothing
 * here depends on curses, so the configuration can check key names. */
typedef unsigned int keycode_t;
#define KEYCODE_FN 0x40000000u

enum keyfn {
	KF_UP = 1, KF_DOWN, KF_LEFT, KF_RIGHT, KF_PGUP, KF_PGDN, KF_HOME, KF_END,
	KF_BTAB, KF_BACKSPACE, KF_DELETE, KF_INSERT,
	KF_F1, KF_F2, KF_F3, KF_F4, KF_F5, KF_F6, KF_F7, KF_F8, KF_F9, KF_F10, KF_F11, KF_F12,
};
#define KEY_FN(k) (KEYCODE_FN | (keycode_t)(k))

struct keymap {
	struct {
		keycode_t key;
		enum tcr_action action;
	} *binds;
	size_t nbinds, cap;
};

const char *action_name(enum tcr_action a);
const char *action_help(enum tcr_action a);
const char *action_default_keys(enum tcr_action a);
enum key_section action_section(enum tcr_action a);
/* "Moving", "Reading", ...: a section's heading. */
const char *section_title(enum key_section s);
enum tcr_action action_find(const char *name);

/* Key names: a character ("a", "?", "é"), "Space", "Enter", "Tab",
 * "Shift-Tab" (also read as "S-Tab" and "BTab", curses' name), "Esc", "Up", "Down", "Left", "Right", "PgUp", "PgDn", "Home", "End",
 * "Backspace", "Delete", "F1".."F12", and "C-x" for control keys.
 * Returns false when the name means nothing. */
bool keycode_parse(const char *name, keycode_t *out);
/* The name of a key, for the help screen and messages. */
void keycode_name(keycode_t key, char *buf, size_t n);

void keymap_init_defaults(struct keymap *km);
/* The help screen's and man page's lines: "  j, Down        Next run; ...",
 * by section, each under its heading ("Moving" on a line of its own; .SS
 * in roff), then the mouse's lines. Writes the whole table; `man` formats
 * it as roff (.TP entries). */
#include <stdio.h>
#include "util/error.h"
void keymap_print(const struct keymap *km, FILE *out, bool man);
void keymap_free(struct keymap *km);
/* Replaces the keys of one action (a space-separated list of key names).
 * Returns -1 with a message when a name is unknown. */
int  keymap_bind(struct keymap *km, enum tcr_action a, const char *keys, struct error *err);
enum tcr_action keymap_lookup(const struct keymap *km, keycode_t key);
/* The keys bound to an action, as "j, Down". */
void keymap_keys_of(const struct keymap *km, enum tcr_action a, char *buf, size_t n);

/* Reads the YAML's keys: section into c->keys (config/config.h), checking
 * action names, key names and keys bound twice, with FILE:LINE:COLUMN.
 * config/ stands below review/ and so does not call this by name: the
 * command line hands it down in config_opts.readers. */
struct conf;
struct conf_node;
struct config;
int keymap_conf_read(struct conf *cf, const struct conf_node *m, struct config *c);

#endif
