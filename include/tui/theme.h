/* theme.h - colours named by what they mean, loaded from themes/NAME.theme.
 *
 * A theme file has one line per slot:   SLOT FG BG [ATTR...]
 *   selection  black  cyan   bold
 *   pass       green  default
 *   fail       red    default bold
 * Colours: default, black, red, green, yellow, blue, magenta, cyan, white,
 * bright-black .. bright-white, or 0..255. Attributes: bold, dim,
 * underline, reverse, standout, italic. `#` starts a comment. Slots a file
 * leaves out keep the built-in dark default. New slots are added at the
 * end, so that a slot's number (its colour pair) never changes.
 * Diff lines keep their '+' and '-': without colour they still tell added
 * from removed. */
#ifndef TCR_TUI_THEME_H
#define TCR_TUI_THEME_H

#include <stdbool.h>
#include <stddef.h>
#include "util/error.h"

/*  slot             name               mono attributes (no colour) */
#define TCR_SLOTS(S) \
	S(NORMAL,          "normal",          "") \
	S(SELECTION,       "selection",       "reverse") \
	S(SELECTION_DIM,   "selection-dim",   "underline") \
	S(HEADER,          "header",          "bold underline") \
	S(TITLE,           "title",           "bold") \
	S(TITLE_FOCUS,     "title-focus",     "reverse bold") \
	S(BORDER,          "border",          "") \
	S(STATUS,          "status",          "reverse") \
	S(STATUS_ERROR,    "status-error",    "bold standout") \
	S(PASS,            "pass",            "bold") \
	S(FAIL,            "fail",            "bold underline") \
	S(SKIPPED,         "skipped",         "dim") \
	S(ERROR,           "error",           "reverse underline") \
	S(ROLE_SYSTEM,     "role-system",     "dim") \
	S(ROLE_USER,       "role-user",       "bold") \
	S(ROLE_ASSISTANT,  "role-assistant",  "bold") \
	S(ROLE_TOOL,       "role-tool",       "") \
	S(TOOL_NAME,       "tool-name",       "bold") \
	S(USER_TOOL,       "user-tool",       "underline") \
	S(JSON_KEY,        "json-key",        "") \
	S(JSON_VALUE,      "json-value",      "") \
	S(MARK_REVIEWED,   "mark-reviewed",   "bold") \
	S(MARK_OVERRIDDEN, "mark-overridden", "bold underline") \
	S(SEARCH_HIT,      "search-hit",      "reverse") \
	S(DIM,             "dim",             "dim") \
	S(JSON_STRING,     "json-string",     "") \
	S(JSON_NUMBER,     "json-number",     "") \
	S(DIFF_ADD,        "diff-add",        "") \
	S(DIFF_DEL,        "diff-del",        "") \
	S(DIFF_HUNK,       "diff-hunk",       "bold") \
	S(DIFF_CONTEXT,    "diff-context",    "") \
	S(DIFF_FILE,       "diff-file",       "bold underline")

enum theme_slot {
#define S(id, name, mono) SLOT_##id,
	TCR_SLOTS(S)
#undef S
	SLOT_COUNT,
};

#define THEME_DEFAULT_COLOR (-1)

struct theme_style {
	short fg, bg;           /* 0..255, or THEME_DEFAULT_COLOR */
	unsigned attrs;         /* THEME_ATTR_* bits */
};

enum {
	THEME_ATTR_BOLD      = 1u << 0,
	THEME_ATTR_DIM       = 1u << 1,
	THEME_ATTR_UNDERLINE = 1u << 2,
	THEME_ATTR_REVERSE   = 1u << 3,
	THEME_ATTR_STANDOUT  = 1u << 4,
	THEME_ATTR_ITALIC    = 1u << 5,
};

struct theme {
	char name[64];
	bool monochrome;        /* the theme uses no colour at all */
	struct theme_style style[SLOT_COUNT];
};

const char *theme_slot_name(enum theme_slot s);
/* The built-in dark theme (also what a file's missing slots fall back to). */
void theme_default(struct theme *t);
/* The monochrome styles of the table above: what NO_COLOR and terminals
 * without colour get. */
void theme_monochrome(struct theme *t);
/* What a terminal of `colours` colours (COLORS) draws for colour c: c
 * itself when it has it, else the nearest (by xterm's RGB) of its first 16
 * (8 when it has fewer). */
short theme_fallback_colour(short c, int colours);
/* Reads themes/NAME.theme from dir. Returns 0, or -1 with
 * "FILE:LINE: message" in err. */
int  theme_load(struct theme *t, const char *dir, const char *name, struct error *err);
int  theme_parse(struct theme *t, const char *file, const char *text, struct error *err);

/* Reads the YAML's theme: NAME into c->theme (config/config.h), checking
 * that the name can be a file name. Handed down by the command line in
 * config_opts.readers, as config/ stands below tui/. */
struct conf;
struct conf_node;
struct config;
int theme_conf_read(struct conf *cf, const struct conf_node *v, struct config *c);

#endif
