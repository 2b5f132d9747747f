/* formats_report.h - `tcreview formats`: what each record was read as, the
 * formats that came closest for a record none claims, and the writers of
 * both (text for people, JSON lines with fixed keys for scripts). */
#ifndef TCR_CLI_FORMATS_REPORT_H
#define TCR_CLI_FORMATS_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "runs/dataset.h"
#include "runs/declared.h"

/* Closest formats shown for a record no format claims. */
#define FORMATS_GUESSES 3
/* Records no format claims that get that analysis, in all and in one file
 * (the records of a file are alike); the others are counted. */
#define FORMATS_ANALYSED_MAX 30
#define FORMATS_ANALYSED_PER_FILE 3

/* One loader forced on a record no format claims. */
struct formats_guess {
	const char *format;
	bool loaded;                /* it loaded without an error */
	size_t msgs, calls;         /* what it read (before its error, when it failed); notes
	                               are not messages */
	size_t notes;
	unsigned depth;             /* how deep into the record its error's field path goes */
	unsigned long at;           /* the sum of that path's indexes: how far along */
	char error[256];            /* its own message, "" when it loaded */
};

/* Forces every loader of the format table on the record and keeps the
 * `max` that came closest, best first: loads that read messages (by calls,
 * then messages), then failures by how far they got (messages and calls
 * made before the error, the depth of the field path it names, how far
 * along the lists of that path), then loads that read nothing, then
 * failures at the record's top level ("messages: missing"). Ties keep the
 * table's order. Returns how many were kept (0 when it does not parse);
 * ties gets the names of the others that got exactly as far as the last
 * one kept, comma-separated ("" when none). */
size_t formats_closest(struct dataset *ds, const struct record_ref *rec,
                       struct formats_guess *out, size_t max, char *ties, size_t tieslen);

/* What the record is, for one who wonders why no format claims it: "an
 * object of type \"user\" {parentUuid, type, message, ...}". "" when it
 * does not parse. */
void formats_shape(struct dataset *ds, const struct record_ref *rec, char *buf, size_t len);

enum formats_status {
	FORMATS_READ,               /* loaded without an error */
	FORMATS_LOAD_ERROR,         /* its format (detected or forced) refused it */
	FORMATS_NO_FORMAT,          /* no format claims it */
	FORMATS_NOT_JSON,           /* it does not parse */
	FORMATS_NSTATUS,
};

/* One record as the writers see it. */
struct formats_rec {
	enum formats_status status;
	const char *source;         /* FILE:LINE, FILE[INDEX] or FILE */
	const char *file;
	long line;                  /* 0 when not known */
	long index;                 /* -1 when not an element of a list */
	const char *format;         /* NULL for NO_FORMAT and NOT_JSON */
	const char *id;             /* NULL for NOT_JSON */
	size_t msgs, calls, results, failed, notes;     /* msgs: not counting notes */
	const char *error;          /* load or parse error, NULL when read */
	bool analysed;              /* NO_FORMAT: closest[] and shape were worked out */
	char shape[512];
	struct formats_guess closest[FORMATS_GUESSES];
	size_t nclosest;
	char ties[512];             /* loaders as far as the last of closest[] */
};

/* Records of one kind added up: a file's, a format's, or all of them. */
struct formats_tally {
	size_t records;
	size_t by_status[FORMATS_NSTATUS];
	size_t calls, notes;
};

/* The notes of every record read, by their text (`event type "x" (not
 * read)`): what the loaders kept without knowing it, most frequent first
 * in the summary. Texts past FORMATS_NOTE_KINDS distinct ones are only
 * counted. */
#define FORMATS_NOTE_KINDS 64
/* Kinds the text summary lists (the JSON one has them all). */
#define FORMATS_NOTE_KINDS_SHOWN 10
struct formats_note_kind {
	char *text;
	size_t count;
};
struct formats_notes {
	struct formats_note_kind kinds[FORMATS_NOTE_KINDS];
	size_t nkinds;
	size_t other;               /* notes of kinds past the table */
};
void formats_notes_add(struct formats_notes *n, const struct run *r);
/* Most frequent first (ties by text), for the summary. */
void formats_notes_sort(struct formats_notes *n);
void formats_notes_free(struct formats_notes *n);

/* What the summary says. formats[i] is format_table[i]'s tally. */
struct formats_summary {
	size_t nfiles;
	const struct input_file *files;
	const struct formats_tally *file_tally;     /* nfiles */
	const struct formats_tally *format_tally;   /* one per format_table entry */
	struct formats_tally all;
	size_t not_analysed;        /* NO_FORMAT records past those bounds */
	const struct formats_notes *notes;      /* sorted */
	const struct declared_set *declared;    /* the declared formats in use */
};

void formats_write_rec(FILE *out, const struct formats_rec *fr, bool json);
/* A file's totals line, after its records (text only). */
void formats_write_file(FILE *out, const char *path, const struct formats_tally *t);
void formats_write_summary(FILE *out, const struct formats_summary *s, bool json);
/* "read", "load-error", "no-format", "not-json" */
const char *formats_status_name(enum formats_status st);

#endif
