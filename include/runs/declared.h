/* declared.h - formats declared as data: a name, a jq test and a jq mapping
 * to the run format (or a converter program), from the `formats:` section
 * of a configuration and from format files (*.yaml in the user's formats
 * folder and in the installed data folder's formats/).
 *
 * When any is declared, each input file's first record is tested against
 * them before the built-in formats; a file one claims is converted, in a
 * child process under limits (util/child.h), into run-format JSONL held in
 * an unlinked temporary file, which the dataset maps in place of the input
 * and reads with the `tcreview` loader, each run still named by the input
 * file and the line (or element) it came from. With none declared nothing
 * of this runs. */
#ifndef TCR_RUNS_DECLARED_H
#define TCR_RUNS_DECLARED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "conf/conf.h"
#include "util/error.h"

struct jqprog;

#define DECLARED_TIMEOUT_MS 60000L              /* wall clock, per input file */
#define DECLARED_CPU_S 30L                      /* CPU seconds, per input file */
#define DECLARED_MEM ((size_t)2 << 30)          /* address space of the child */
#define DECLARED_MAX_OUTPUT ((size_t)1 << 30)   /* run-format bytes written */

struct declared_format {
	char *name;
	char *summary;              /* `summary:`, or a default */
	char *origin;               /* the YAML file it was declared in */
	const char *where;          /* "configuration", "formats folder", "installed" */
	int line, col;              /* the entry in origin */
	int detect_line, detect_col, run_line, run_col;
	struct jqprog *detect, *run;    /* run is NULL with a converter */
	bool whole_file;
	char **convert;             /* converter argv, NULL-terminated, or NULL */
	size_t nconvert;
	char *program;              /* convert[0] resolved (against dir or PATH) */
	char *dir;                  /* the YAML's folder: the converter starts there */
	char **env;                 /* `env:` names passed on besides PATH, HOME, LANG */
	size_t nenv;
	long timeout_ms;
	long cpu_s;
	size_t max_output;
	size_t max_memory;
	bool cache;                 /* a converter's output kept by its key and the input's */
	char cache_key[17];         /* the converter's (util/child.h), "" for jq */
};

struct declared_set {
	struct declared_format *v;
	size_t n;
};

/* Reads a `formats:` list (or a format file's root: one entry, or a list
 * of them) into set, appending. Programs are compiled here, so a jq syntax
 * error is reported at its YAML position. where: see above. */
int  declared_conf_read(struct conf *cf, const struct conf_node *v, const char *where,
                        struct declared_set *set);
/* Every *.yaml of dir in name order (a missing folder is none). Returns 0,
 * or -1 with "FILE:LINE:COLUMN: message" in err. */
int  declared_load_folder(struct declared_set *set, const char *dir, const char *where,
                          struct error *err);
/* A name given twice, or a built-in format's: -1 with both places. */
int  declared_check_names(const struct declared_set *set, struct error *err);
void declared_set_free(struct declared_set *set);
void declared_format_free(struct declared_format *f);

/* The formats a dataset's inputs are tested against (NULL for none; the
 * set must outlive the datasets), and the one that reads every input,
 * without its test (--format NAME), or NULL: what the command lends to
 * the datasets it opens (runs/dataset.h). */
struct declared_use {
	const struct declared_set *set;
	const struct declared_format *forced;
};
/* Whether use tests inputs against any format (use may be NULL). */
bool declared_in_use(const struct declared_use *use);
const struct declared_format *declared_find(const struct declared_set *set, const char *name);

/* Where a converted run came from, by the line of the converted file. */
struct declared_src {
	int64_t line;               /* the input's line (JSONL), 0 when none */
	int64_t index;              /* element of a .json array, -1 when none */
};

/* Tests the file's first record against use's formats and, when one
 * claims it (or is forced), converts it. Returns 1 with the converted
 * text's descriptor in *fd, its sources (malloc'd, one per line, or NULL
 * when the converter cannot say) and the format; 0 when none claims it;
 * -1 with the message in err ("FILE:LINE: format 'NAME' (YAML:L:C): ...").
 * data has size bytes; path names it; json: a .json document, else JSONL. */
int declared_convert(const struct declared_use *use, const char *path, const char *data,
                     size_t size, bool json, int *fd, struct declared_src **src, size_t *nsrc,
                     const struct declared_format **by, struct error *err);

#endif
