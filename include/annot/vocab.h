/* vocab.h - the words of failure analysis a configuration defines: the
 * failure-mode tags (axial coding) and the scale of call labels.
 *
 *   tags:
 *     - id: wrong-tool                    # a defined failure mode
 *       description: Called a tool that does not fit the request
 *       key: w                            # optional: one character, picks it at the tag prompt
 *       absorbs: [wrong tool, bad tool]   # free codes counted as this tag
 *   call_labels:                          # a list, or {labels: [...], pass: VALUE}
 *     - {id: correct, value: 1}           # digits 1, 2, 3... in list order
 *     - {id: partly, value: 0.5}
 *     - {id: wrong, value: 0}
 *
 * A code is what a reviewer typed; the name it counts under is found by
 * following the annotations file's tag-aliases (renames, merges,
 * promotions, annot_tag_resolve) and then the defined tags' ids and
 * `absorbs`, compared without case and with runs of spaces as one. */
#ifndef TCR_ANNOT_VOCAB_H
#define TCR_ANNOT_VOCAB_H

#include <stdbool.h>
#include <stddef.h>
#include "annot/store.h"
#include "conf/conf.h"

struct tag_def {
	char *id;
	char *description;      /* NULL when none */
	char key;               /* '\0' when none */
	char **absorbs;
	size_t nabsorbs;
	int line, col;          /* where it is defined, for messages */
};

struct call_label_def {
	char *id;
	double value;
};

struct vocab {
	struct tag_def *tags;
	size_t ntags;
	struct call_label_def *labels;  /* call_labels:, when own_labels */
	size_t nlabels;
	double pass;                    /* a call labelled at least this counts as right */
	bool own_labels;                /* call_labels: was given */
};

/* A zeroed struct vocab is the defaults: no tag defined, and the call
 * labels correct 1, partly 0.5, wrong 0, right from 1. */
void vocab_free(struct vocab *vo);

/* The call labels in use (the section's, else the defaults), and the
 * value from which a call counts as right. */
const struct call_label_def *vocab_labels(const struct vocab *vo, size_t *n);
double vocab_pass(const struct vocab *vo);

/* The sections' readers (config/ hands them the value); 0 or -1 after
 * conf_fail with FILE:LINE:COLUMN. */
int vocab_tags_read(struct conf *cf, const struct conf_node *v, struct vocab *vo);
int vocab_call_labels_read(struct conf *cf, const struct conf_node *v, struct vocab *vo);

/* The defined tag whose id or `absorbs` is `name`, or NULL. */
const struct tag_def *vocab_tag_find(const struct vocab *vo, const char *name);
/* The defined tag picked by `key`, or NULL. */
const struct tag_def *vocab_tag_by_key(const struct vocab *vo, char key);

/* The name a code counts under: aliases followed (s may be NULL), then
 * the defined tag that absorbs it; else the code as the aliases left it. */
const char *vocab_tag_name(const struct vocab *vo, const struct annot_store *s,
                           const char *code);

/* Whether two codes are the same words: case and runs of spaces aside. */
bool vocab_code_eq(const char *a, const char *b);

/* The call label of a digit (1 is the first), or NULL. */
const struct call_label_def *vocab_label_of_digit(const struct vocab *vo, int digit);
/* The call label with this value, or NULL. */
const struct call_label_def *vocab_label_of_value(const struct vocab *vo, double value);

#endif
