/* propose_int.h - what the pieces of config/propose*.c share: the inputs as
 * sampled, and what each piece found in them. */
#ifndef TCR_CONFIG_PROPOSE_INT_H
#define TCR_CONFIG_PROPOSE_INT_H

#include <stdbool.h>
#include <stddef.h>
#include "config/propose.h"
#include "util/htab.h"
#include "util/strbuf.h"

#define PROP_MAX_FIELDS 400     /* paths kept per input; more are not looked at */
#define PROP_DEPTH 4            /* objects walked this deep (lists are not walked into) */
#define PROP_VALUE_MAX 200      /* longer values are no ids or join keys */
#define PROP_TEXTS 12           /* distinct text values kept per field */

/* One path seen in an input's records, and what it held. */
struct prop_field {
	char *path;
	size_t present;             /* records holding a value (not null) here */
	size_t nnum, nbool, nstr, nlist, nobj;
	size_t nlist_str;           /* non-empty lists of strings only */
	size_t nlist_call;          /* non-empty lists of objects with a name */
	size_t nlist_keyed;         /* non-empty lists of one-key objects ({"fn": {...}}) */
	double lo, hi;              /* numbers seen (booleans count 0 and 1) */
	bool fractional;
	char *texts[PROP_TEXTS];    /* distinct strings seen, in order */
	size_t ntexts;
	bool more_texts;
	char **vals;                /* per record: the scalar as text, or NULL (nrecs of them once read) */
	size_t vcap;
	/* Per record: a digest of a list of calls (names and arguments, key
	 * order aside), 0 when it held none; to tell two fields of expected
	 * calls that say the same from two that differ. dcap entries. */
	unsigned long long *digests;
	size_t dcap;
};

struct prop_count {
	char *name;
	size_t n;
};

struct prop_input {
	char *path;                 /* as given, or a file found in a folder given */
	size_t origin;              /* the input given it comes from */
	bool in_folder;             /* found in a folder given */
	char *error;                /* could not be opened or read: why */
	size_t nrecs;               /* records looked at */
	size_t reccap;              /* at most this many */
	size_t cap;                 /* the per-record arrays' room */
	bool sampled;               /* stopped before its end */
	size_t nruns;               /* records a format read */
	size_t nunread;             /* records that parse but no format reads */
	size_t nbroken;             /* records that do not parse, or that a format refused */
	char *first_unread;         /* FILE:LINE of the first of those */
	char *unread_why;
	struct prop_count *formats;
	size_t nformats;
	char **srcs;                /* per record: FILE:LINE */
	char **ids;                 /* per record: the run's id as read by default, NULL when no run */
	struct prop_field *fields;
	size_t nfields;
	struct htab field_index;
	bool fields_done;           /* read: the fields array is its own size */
	bool truth;                 /* taken for ground truth: joins the runs, no format reads it */
	bool joins_too;             /* joins the runs as well, but another file joins them better */
};

struct prop_tool {
	char *name;
	size_t calls, runs;
	size_t last_run;            /* the run that last counted it, + 1 */
};

/* A verdict the records carry, proposed as a record-field scorer. */
struct prop_verdict {
	char *path;
	char *id;
	char *scale;                /* YAML text of the scale: binary, 0..1, 1..5, {min: A, max: B} */
	char *map;                  /* YAML text of map, or NULL */
	char *note;                 /* a comment for the YAML: values seen, or why it is left out */
	bool proposed;              /* false: a comment only */
	size_t nruns;
};

enum prop_gt_kind {
	GT_TOOL_NAMES,              /* ["get_order", ...]: tool-call-accuracy */
	GT_CALLS,                   /* [{name, arguments|kwargs}, ...]: trajectory-match */
	GT_KEYED,                   /* [{"fn": {"arg": [choices]}}] (BFCL): no scorer reads it */
	GT_FIRST_TOOL,              /* "get_order": tool-call-accuracy's expectedTool */
	GT_EMPTY,                   /* a list that was empty in every record: nothing to check */
};

/* A field that holds expected calls, in the runs or in the joined file. */
struct prop_gt {
	char *path;                 /* in the run's record, or in the expectation */
	bool in_expectation;
	enum prop_gt_kind kind;
	size_t nrecs;               /* records holding it non-empty */
	/* Holds the same calls as gts[same_as] in every run both reach (in
	 * `same_runs` runs): not proposed a second time. -1: none. */
	int same_as;
	size_t same_runs;
};

struct prop_join {
	struct prop_input *truth;   /* NULL: none */
	char *run_path, *exp_path;
	size_t matched;             /* runs the key joins */
	size_t distinct;            /* expectations they reach */
	char *file;                 /* the path written in the YAML */
	bool outside;               /* lies outside the YAML's folder: needs --allow-path */
	char *allow_dir;            /* what --allow-path must name */
};

struct prop_judge {
	bool active;                /* an uncommented judge */
	char *block;                /* YAML lines of the judges section (commented or not) */
	char *said;                 /* one line for the report */
};

struct prop_ctx {
	const struct propose_opts *o;
	const char *const *given;   /* the inputs as given */
	size_t ngiven;
	size_t max_records;
	long long deadline_ms;
	bool timed_out;
	size_t files_left;          /* files of folders not read for want of time */
	struct prop_input *in;
	size_t nin;
	size_t nruns;
	bool sampled;
	size_t ntools;
	struct htab tool_index;
	/* found */
	char *id_spec;              /* NULL: the default */
	char *id_said;              /* the report's line about ids */
	struct prop_verdict *verdicts;
	size_t nverdicts;
	struct prop_gt *gts;
	size_t ngts;
	struct prop_join join;
	struct prop_judge judge;
	char *out_dir;              /* the YAML's folder, resolved */
};

/* propose_read.c: reads every input (a sample of a large one) into ctx->in. */
void prop_read_inputs(struct prop_ctx *x, const char *const *inputs, size_t ninputs);
void prop_inputs_free(struct prop_ctx *x);
struct prop_field *prop_field_find(const struct prop_input *in, const char *path);
/* The last key of a path ("reward" of "info.reward_info.reward"). */
const char *prop_last_key(const char *path);

/* propose_fields.c: a record's values walked into its input's fields. */
struct jdoc;
void prop_fields_add(struct prop_input *in, size_t rec, const struct jdoc *d, unsigned root);
void prop_fields_free(struct prop_input *in);
/* Gives every field's vals the input's nrecs entries, once it is read. */
void prop_fields_done(struct prop_input *in);

/* propose_ids.c */
void prop_choose_ids(struct prop_ctx *x);
/* propose_tools.c */
struct run;
void prop_tools_add(struct prop_ctx *x, const struct run *r);
void prop_tools_table(const struct prop_ctx *x, struct strbuf *yaml);
void prop_tools_line(const struct prop_ctx *x, struct strbuf *out);
void prop_tools_free(struct prop_ctx *x);
/* propose_verdicts.c */
void prop_find_verdicts(struct prop_ctx *x);
/* propose_truth.c */
void prop_find_truth(struct prop_ctx *x);
/* propose_join.c */
void prop_find_join(struct prop_ctx *x);
/* propose_judge.c */
void prop_find_judge(struct prop_ctx *x);
/* The judges section commented out, saying why and what to set. */
void prop_judge_commented(struct prop_ctx *x, const char *reason);
/* propose_yaml.c */
void prop_write_yaml(const struct prop_ctx *x, struct strbuf *yaml);
void prop_yaml_scalar(struct strbuf *sb, const char *s);
/* propose_report.c */
void prop_write_report(const struct prop_ctx *x, struct strbuf *report);

/* The proposed judge's id: scorers and judges share one namespace. */
#define JUDGE_PROPOSED_ID "appropriateness"

/* A scorer id made from a path: "reward_info.reward" -> "reward-info-reward". */
char *prop_id_of(const char *prefix, const char *path);

#endif
