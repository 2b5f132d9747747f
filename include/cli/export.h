/* export.h - what `tcreview export`'s files share: a row of the labelled
 * set as a JSON object with fixed keys (export_keys, in order), its
 * writers (jsonl, csv, the fine-tuning line) and the output written in
 * place atomically.
 *
 * A row is built with JSON strings that are valid UTF-8 (export_str
 * repairs what is not), so every writer may print it as it is. */
#ifndef TCR_CLI_EXPORT_H
#define TCR_CLI_EXPORT_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "review/labels.h"
#include "review/session.h"
#include "util/strbuf.h"
#include "util/error.h"

/* The keys of a row, in the order written; the csv header. NULL-terminated. */
extern const char *const export_keys[];

/* Appends len bytes of s with each byte that does not start a valid UTF-8
 * sequence (a stray continuation, an overlong or truncated sequence, a
 * surrogate) replaced by U+FFFD. */
void export_utf8(struct strbuf *sb, const char *s, size_t len);
/* A JSON string of s, repaired; NULL gives JSON null. Never NULL. */
json_t *export_str(const char *s);

/* Appends one CSV field: as it is, or in double quotes with its quotes
 * doubled when it holds a comma, a quote, CR or LF (RFC 4180). */
void export_csv_field(struct strbuf *sb, const char *s, size_t len);
/* A value as a cell: a string's text, a number as JSON writes it, true or
 * false, nothing for null (an empty string is "" so the two differ), an
 * object or list as compact JSON. */
void export_csv_cell(struct strbuf *sb, const json_t *v);
/* The header line and one row's line, each ending in CRLF. */
void export_csv_header(struct strbuf *sb);
void export_csv_row(struct strbuf *sb, const json_t *row);
/* One row as a JSON line (compact, keys in order, ending in LF). */
void export_jsonl_row(struct strbuf *sb, const json_t *row);
/* A chat fine-tuning line: {"messages":[system (when there is one), user,
 * assistant]} with the assistant's content the compact JSON of answer. */
void export_ft_line(struct strbuf *sb, const char *system, const char *user, const json_t *answer);

/* ---- rows (export_rows.c) ------------------------------------------------ */

struct split_spec;

/* Which labels a row takes: of the reviewers named (NULL: all), stale
 * ones counted only when asked. */
struct export_sel {
	const char *const *reviewers;
	size_t nreviewers;
	bool include_stale;
};

/* A row's labels (every one, stale ones flagged) and their consensus over
 * those that count. */
struct export_labels {
	struct label l[LABELS_MAX];
	size_t n, counted;
	enum consensus_result cons;
	double score;
	bool passed;
};

/* Reads the labels of row `row` of entry `entry`; returns how many count. */
size_t export_labels_of(struct review *rv, size_t entry, size_t row,
                        const struct export_sel *sel, struct export_labels *out);

/* What every row of a run repeats: run, source, run_hash, input, output,
 * calls, expected and split. NULL with a reason when the record cannot
 * be hashed. */
json_t *export_run_base(struct review *rv, const struct review_run *rr, const json_t *expected,
                        const struct split_spec *split, struct error *err);
/* A whole row: the run's base and what the verdict row and its labels add. */
json_t *export_row(struct review *rv, const json_t *base, const struct review_row *row,
                   const struct export_labels *lab);

/* The reason a label set gives its consensus: the first reviewer (by
 * name) whose counted label is the consensus score and who wrote one;
 * else "", which a judge's answer fills with its own reason when the
 * consensus is its score. */
const char *export_consensus_reason(const struct export_labels *lab);

/* Where the export goes: standard output, or FILE written as a temporary
 * file in FILE's folder and renamed over FILE once complete, so a reader
 * never sees half an export and a failure leaves FILE as it was. */
struct export_out {
	FILE *f;
	char *path;                 /* NULL for standard output */
	char *tmp;
};
/* path NULL or "-": standard output. 0, or -1 with "PATH: reason". */
int export_out_open(struct export_out *o, const char *path, struct error *err);
int export_out_write(struct export_out *o, const struct strbuf *sb);
/* keep: flushes, syncs and renames (0, or -1 with a reason, and FILE is
 * left as it was); !keep: the temporary file is removed. */
int export_out_close(struct export_out *o, bool keep, struct error *err);

#endif
