/* error.h - the one error type: a kind to branch on and a message for a
 * person.
 *
 * A function that can fail takes `struct error *err` (NULL when the caller
 * does not want to know), fills it with error_set (or error_at, for a
 * loader's message about a field) and returns -1 or NULL:
 *
 *	if (!f)
 *		return error_set(err, ERR_SYSTEM, "%s: %s", path, strerror(errno));
 *
 * A caller that adds where it happened keeps the kind:
 *
 *	if (load(path, &e) < 0)
 *		error_prefix(&e, "%s:%lu: ", path, line);
 *
 * and one that prints it declares `struct error e = {0};`, passes `&e` and
 * prints `e.msg`. Code decides on the kind (and on the structured members
 * below), never on the text: the text is for a person and may change. */
#ifndef TCR_UTIL_ERROR_H
#define TCR_UTIL_ERROR_H

#include <stdarg.h>
#include <stddef.h>

/* The kinds some caller branches on, and ERR_FAILED for the rest. */
enum error_kind {
	ERR_NONE = 0,               /* nothing failed */
	ERR_FAILED,                 /* failed; the message says why */
	ERR_EXISTS,                 /* the file to write exists already (init: exit 2) */
	ERR_MISSING,                /* error_at: the field is missing (not reached) */
	/* The review session's reasons, which the screen answers each its way. */
	ERR_NO_RUN,                 /* no run in view */
	ERR_UNREADABLE,             /* the record could not be read */
	ERR_NO_ROW,                 /* no such verdict row */
	ERR_JUDGE_PENDING,          /* the row's judge is still answering */
	ERR_JUDGE_NOT_ASKED,        /* the row's judge has not been asked */
	ERR_OFF_SCALE,              /* a score the row's scale does not hold */
	ERR_NOTHING_TO_RETRACT,
	ERR_STORE,                  /* the annotations file refused the decision */
	ERR_BLIND,                  /* an accept in blind mode: the verdict is hidden */
};

/* The longest message kept; a longer one ends in ERROR_CUT. */
#define ERROR_MSG_MAX 1024
#define ERROR_CUT "..."

struct error {
	enum error_kind kind;
	unsigned lead;              /* bytes of context error_prefix put before the reason */
	unsigned path_depth;        /* error_at: names and indexes of the field path */
	unsigned long path_at;      /* error_at: the sum of the path's indexes */
	char msg[ERROR_MSG_MAX];
};

/* Sets kind and message (e may be NULL: nothing is kept); returns -1, so
 * that `return error_set(...)` reads as the failure it is. The path
 * members are cleared. */
int error_set(struct error *e, enum error_kind kind, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int error_vset(struct error *e, enum error_kind kind, const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));

/* A loader's message that opens with the field path it is about, up to the
 * first ": " ("messages[2].role: not a string"): set as error_set does, with
 * the path measured into path_depth and path_at (0 when the message opens
 * with words, not a path; a path said ERR_MISSING counts one name less, as
 * that name was not reached). How far a loader got is read from them. */
int error_at(struct error *e, enum error_kind kind, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int error_vat(struct error *e, enum error_kind kind, const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));

/* Puts context before the message ("FILE:LINE: "), keeping the kind and the
 * path; lead grows by the context's length, so e->msg + e->lead is the
 * reason as it was first set. Returns -1. */
int error_prefix(struct error *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Adds to the end of the message, keeping the kind (e may be NULL);
 * returns -1. */
int error_append(struct error *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Copies src into e (either may be NULL); returns -1. */
int error_copy(struct error *e, const struct error *src);

/* Clears e to no error (NULL-tolerant). */
void error_clear(struct error *e);

#endif
