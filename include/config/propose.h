/* propose.h - a first configuration proposed from the user's own runs.
 *
 * Reads the inputs (all of a small one, a bounded sample of a large one),
 * finds the formats, a unique run id path, the tools called, the verdicts
 * the records carry, ground truth inside the records or in another input
 * that joins them, and the judge the environment offers; writes them as a
 * commented YAML that loads and a report for a person. Used by `tcreview
 * init` and by the review screen, so it prints nothing and is bounded in
 * time (PROPOSE_TIME_MS). */
#ifndef TCR_CONFIG_PROPOSE_H
#define TCR_CONFIG_PROPOSE_H

#include <stdbool.h>
#include <stddef.h>
#include "util/strbuf.h"
#include "util/error.h"
struct config_opts;

/* Records read per input when propose_opts.max_records is 0. */
#define PROPOSE_DEFAULT_RECORDS 2000
/* Reading stops after this long, whatever is left (the report says so). */
#define PROPOSE_TIME_MS 20000

struct propose_opts {
	const char *out_path;   /* where the YAML will be written: paths in it are made relative to its folder */
	size_t max_records;     /* records read per input at most (0: your default) */
	bool probe_local;       /* ask http://localhost:11434 whether an Ollama server answers */
	/* The program as the user ran it ("./tcreview"), for the commands the
	 * report names, so that they run as printed; NULL: "tcreview". */
	const char *prog;
	/* The caller records that the YAML may read an expectations file
	 * outside its folder (config/allowed_paths.h), as `tcreview init` does
	 * for a file the user named to it: the report and the YAML say so
	 * instead of asking for --allow-path. */
	bool allow_outside;
	/* What the proposed YAML is loaded with to check it: the data folder
	 * of the built-in prompts, the judges' allowances (config.h); NULL:
	 * nothing lent. */
	const struct config_opts *load;
	/* The inputs' folder walk gives no warning: a screen owns the terminal. */
	bool walk_quiet;
};

struct proposal {
	struct strbuf yaml;     /* the commented configuration; loads without error */
	struct strbuf report;   /* for a person: what was found and what to do next (plain text, lines) */
	size_t nruns;           /* runs read */
	bool sampled;           /* an input was read only in part */
	/* The expectations file, resolved, when it lies outside the YAML's
	 * folder (what propose_opts.allow_outside's caller records); else NULL. */
	char *outside;
};

/* Returns 0, or -1 with "FILE: message" in err. Writes no file, prints nothing. */
int  config_propose(const char *const *inputs, size_t ninputs, const struct propose_opts *o,
                    struct proposal *p, struct error *err);
/* Writes p->yaml to path atomically; refuses an existing file unless force. 0, or -1 with err. */
int  config_proposal_write(const struct proposal *p, const char *path, bool force, struct error *err);
void proposal_free(struct proposal *p);
/* Whether a record's field at path is one init proposes as a recorded
 * verdict by its name (reward, score, passed..., Inspect's
 * scores.NAME.value): what `tcreview convert` keeps of every run. */
bool propose_verdict_path(const char *path);

#endif
