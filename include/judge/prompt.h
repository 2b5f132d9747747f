/* prompt.h - judge prompt files: sections, {{placeholders}}, hashing.
 *
 * A prompt file is plain text cut into sections by header lines:
 *
 *   # Notes for people: lines before the first header that are blank or
 *   # start with '#' are not sent.
 *   === system
 *   You grade ...
 *   === analyse
 *   The user wrote: {{input}}
 *
 * A header is a line "=== NAME" (NAME in a-z, 0-9, '-' and '_'; trailing
 * blanks allowed). A file without any header is one section named "user".
 * Each section's text loses its leading blank lines and trailing white
 * space. {{name}} (blanks inside the braces allowed) is replaced by a value
 * pasted as is; the result is never scanned again, so a value that itself
 * holds "{{input}}" stays literal. Braces that do not form a placeholder
 * ("{{" followed by anything but a name and "}}") are ordinary text. */
#ifndef TCR_JUDGE_PROMPT_H
#define TCR_JUDGE_PROMPT_H

#include <stdbool.h>
#include <stddef.h>
#include "util/error.h"

#define PROMPT_MAX_SECTIONS 8

struct prompt_section {
	char name[32];
	const char *text;           /* into the file's text; not NUL-terminated */
	size_t len;
	int line;                   /* 1-based line of text[0] in the file */
	int header_line;            /* of its "=== NAME" line; 0 for a file without headers */
};

struct prompt_doc {
	struct prompt_section sec[PROMPT_MAX_SECTIONS];
	size_t n;
};

struct prompt_var {
	const char *name;
	const char *value;          /* NULL renders as "" */
};

/* Cuts text into sections. Returns 0, or -1 with the 1-based line and
 * column of the problem and a message. */
int prompt_parse(const char *text, struct prompt_doc *doc, int *line, int *col,
                 struct error *err);
const struct prompt_section *prompt_find(const struct prompt_doc *doc, const char *name);

/* Finds the next placeholder at or after *pos: its start in *at, its name
 * in *name and *nlen, and moves *pos past it. False when there is none. */
bool prompt_next_var(const char *s, size_t len, size_t *pos, size_t *at,
                     const char **name, size_t *nlen);
/* Whether the section uses {{name}}. */
bool prompt_uses(const struct prompt_section *sec, const char *name);
/* The 1-based line and column (in characters) of byte `at` of a section. */
void prompt_position(const struct prompt_section *sec, size_t at, int *line, int *col);
/* The section with every known placeholder replaced (malloc'd). Unknown
 * ones stay as written. */
char *prompt_render(const struct prompt_section *sec, const struct prompt_var *vars, size_t nvars);

/* FNV-1a of the whole prompt text, 16 hex digits into out. */
void prompt_hash(const char *text, char out[17]);

/* Reads a prompt file (at most 1 MB). Returns 0 with *text malloc'd, or -1
 * with "PATH: reason" in err. */
int prompt_read(const char *path, char **text, struct error *err);
/* The path of a built-in prompt: DATADIR/prompts/FILE (malloc'd), where
 * DATADIR is datadir, the one the command found (NULL: the installed
 * data folder). */
char *prompt_builtin_path(const char *datadir, const char *file);

#endif
