/* propose.c - a proposal made from the inputs: read them, find what each
 * piece finds, write the YAML and the report, and check that the YAML
 * loads; and the proposal written to its file atomically. */
#include "config/propose.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config/config.h"
#include "propose_int.h"
#include "util/clock.h"
#include "util/xalloc.h"
#include "util/error.h"

/* The resolved folder the YAML will be written in. */
static char *out_folder(const char *out)
{
	char *copy = xstrdup(out ? out : "tcreview.yaml");
	char *real = realpath(dirname(copy), NULL);
	free(copy);
	return real;
}

static void ctx_free(struct prop_ctx *x)
{
	prop_tools_free(x);
	prop_inputs_free(x);
	free(x->id_spec);
	free(x->id_said);
	for (size_t i = 0; i < x->nverdicts; i++) {
		free(x->verdicts[i].path);
		free(x->verdicts[i].id);
		free(x->verdicts[i].scale);
		free(x->verdicts[i].map);
		free(x->verdicts[i].note);
	}
	free(x->verdicts);
	for (size_t i = 0; i < x->ngts; i++)
		free(x->gts[i].path);
	free(x->gts);
	free(x->join.run_path);
	free(x->join.exp_path);
	free(x->join.file);
	free(x->join.allow_dir);
	free(x->judge.block);
	free(x->judge.said);
	free(x->out_dir);
}

/* Whether the YAML loads as `tcreview` will load it; the message when not. */
static int loads(const struct prop_ctx *x, const struct strbuf *yaml, struct error *msg)
{
	struct config c;
	const char *name = x->o->out_path ? x->o->out_path : "tcreview.yaml";
	int rc = config_load_string(&c, x->o->load, name, x->out_dir, yaml->buf, yaml->len, msg);
	if (rc == 0)
		config_free(&c);
	return rc;
}

static int first_input_error(const struct prop_ctx *x, struct error *err)
{
	for (size_t i = 0; i < x->nin; i++)
		if (x->in[i].error) {
			error_set(err, ERR_FAILED, "%s%s", x->in[i].error, "");
			return -1;
		}
	if (x->nruns)
		return 0;
	error_set(err, ERR_FAILED, "%s: no record is a run tcreview reads (%s formats %s says why)",
	        x->nin ? x->in[0].path : "-", x->o->prog && *x->o->prog ? x->o->prog : "tcreview",
	        x->nin ? x->in[0].path : "-");
	return -1;
}

/* The YAML and the report; a judge the checks refuse is commented out. */
static int compose(struct prop_ctx *x, struct proposal *p, struct error *err)
{
	struct error msg = {0};
	prop_write_yaml(x, &p->yaml);
	if (loads(x, &p->yaml, &msg) < 0 && x->judge.active) {
		char reason[1200];
		snprintf(reason, sizeof reason, "the judge the environment offers does not pass the "
		         "checks (%.1000s)", msg.msg);
		prop_judge_commented(x, reason);
		strbuf_reset(&p->yaml);
		prop_write_yaml(x, &p->yaml);
	}
	if (loads(x, &p->yaml, &msg) < 0) {
		error_set(err, ERR_FAILED, "%s (in the configuration proposed: %s)", msg.msg,
		        "a bug of tcreview init, please report it");
		return -1;
	}
	prop_write_report(x, &p->report);
	return 0;
}

int config_propose(const char *const *inputs, size_t ninputs, const struct propose_opts *o,
                   struct proposal *p, struct error *err)
{
	static const struct propose_opts none = { 0 };
	memset(p, 0, sizeof *p);
	struct prop_ctx x = { .o = o ? o : &none, .tool_index = HTAB_INIT };
	x.max_records = x.o->max_records ? x.o->max_records : PROPOSE_DEFAULT_RECORDS;
	x.deadline_ms = (long long)now_ms() + PROPOSE_TIME_MS;
	if (!ninputs) {
		error_set(err, ERR_FAILED, "%s%s", "tcreview init: no input given", "");
		return -1;
	}
	x.out_dir = out_folder(x.o->out_path);
	if (!x.out_dir) {
		error_set(err, ERR_FAILED, "%s: %s", x.o->out_path ? x.o->out_path : "tcreview.yaml",
		        "its folder does not exist");
		return -1;
	}
	x.given = inputs;
	x.ngiven = ninputs;
	prop_read_inputs(&x, inputs, ninputs);
	int rc = first_input_error(&x, err);
	if (rc == 0) {
		prop_choose_ids(&x);
		prop_find_join(&x);
		prop_find_truth(&x);
		prop_find_verdicts(&x);
		prop_find_judge(&x);
		rc = compose(&x, p, err);
	}
	p->nruns = x.nruns;
	p->sampled = x.sampled;
	if (rc == 0 && x.join.truth && x.join.outside)
		p->outside = xstrdup(x.join.allow_dir);
	ctx_free(&x);
	if (rc < 0)
		proposal_free(p);
	return rc;
}

void proposal_free(struct proposal *p)
{
	strbuf_release(&p->yaml);
	strbuf_release(&p->report);
	free(p->outside);
	memset(p, 0, sizeof *p);
}

/* Puts tmp at path: never over a file there unless force. */
static int put(const char *tmp, const char *path, bool force, struct error *err)
{
	if (force) {
		if (rename(tmp, path) == 0)
			return 0;
	} else if (link(tmp, path) == 0) {
		unlink(tmp);
		return 0;
	} else if (errno == EEXIST) {
		error_set(err, ERR_EXISTS, "%s: %s", path, "exists already (--force writes over it)");
		return -1;
	}
	error_set(err, ERR_FAILED, "%s: %s", path, strerror(errno));
	return -1;
}

int config_proposal_write(const struct proposal *p, const char *path, bool force, struct error *err)
{
	struct stat st;
	if (!force && lstat(path, &st) == 0) {
		error_set(err, ERR_EXISTS, "%s: %s", path, "exists already (--force writes over it)");
		return -1;
	}
	size_t n = strlen(path);
	char *tmp = xcalloc(1, n + 16);
	snprintf(tmp, n + 16, "%s.tmp.XXXXXX", path);
	int fd = mkstemp(tmp);
	if (fd < 0) {
		error_set(err, ERR_FAILED, "%s: %s", path, strerror(errno));
		free(tmp);
		return -1;
	}
	const char *buf = p->yaml.buf ? p->yaml.buf : "";
	size_t left = p->yaml.len;
	bool ok = fchmod(fd, 0644) == 0;
	while (ok && left) {
		ssize_t w = write(fd, buf, left);
		if (w < 0 && errno == EINTR)
			continue;
		ok = w > 0;
		buf += ok ? w : 0;
		left -= ok ? (size_t)w : 0;
	}
	ok = ok && fsync(fd) == 0;
	ok = close(fd) == 0 && ok;
	int rc = ok ? put(tmp, path, force, err) : -1;
	if (!ok)
		error_set(err, ERR_FAILED, "%s: %s", path, strerror(errno));
	if (rc < 0)
		unlink(tmp);
	free(tmp);
	return rc;
}
