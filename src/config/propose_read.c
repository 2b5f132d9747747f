/* propose_read.c - the inputs read for a proposal: every record of a small
 * input, the first max_records of a large one, within the time allowed;
 * each record's fields, format, default id and tools noted. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "propose_int.h"
#include "runs/dataset.h"
#include "runs/format.h"
#include "util/clock.h"
#include "util/xalloc.h"
#include "util/error.h"

const char *prop_last_key(const char *path)
{
	const char *dot = strrchr(path, '.');
	return dot ? dot + 1 : path;
}

static void count_format(struct prop_input *in, const char *name)
{
	for (size_t i = 0; i < in->nformats; i++)
		if (!strcmp(in->formats[i].name, name)) {
			in->formats[i].n++;
			return;
		}
	in->formats = xrealloc(in->formats, (in->nformats + 1) * sizeof *in->formats);
	in->formats[in->nformats++] = (struct prop_count){ xstrdup(name), 1 };
}

static void note_unread(struct prop_input *in, const char *src, const char *why)
{
	if (in->first_unread)
		return;
	in->first_unread = xstrdup(src);
	in->unread_why = xstrdup(why);
}

/* One record: its fields, and what a format made of it. */
static void read_record(struct prop_ctx *x, struct prop_input *in, struct dataset *ds,
                        const struct record_ref *rec)
{
	struct error err = {0};
	char src[1024];
	size_t i = in->nrecs++;
	if (in->nrecs > in->cap) {
		in->cap = in->cap ? in->cap * 2 : 16;
		in->srcs = xrealloc(in->srcs, in->cap * sizeof *in->srcs);
		in->ids = xrealloc(in->ids, in->cap * sizeof *in->ids);
	}
	in->ids[i] = NULL;
	record_source(ds, rec, src, sizeof src);
	in->srcs[i] = xstrdup(src);
	struct run *r = dataset_load_run(ds, rec, NULL, NULL, &err);
	if (!r) {
		in->nbroken++;
		note_unread(in, src, err.msg);
		return;
	}
	prop_fields_add(in, i, r->doc, run_root(r));
	bool known = format_find(r->format) != NULL;
	if (!known) {
		in->nunread++;
		note_unread(in, src, r->load_error ? r->load_error : "no format reads it");
	} else if (r->load_error) {
		in->nbroken++;
		note_unread(in, src, r->load_error);
	} else {
		in->nruns++;
		x->nruns++;
		count_format(in, r->format);
		in->ids[i] = xstrdup(r->id);
		prop_tools_add(x, r);
	}
	run_free(r);
}

static void read_input(struct prop_ctx *x, struct prop_input *in)
{
	struct dataset ds = { 0 };
	struct error err = {0};
	char *paths[1] = { in->path };
	const struct dataset_opts opts = { .walk_quiet = x->o->walk_quiet };
	if (dataset_open_with(&ds, &opts, paths, 1, &err) < 0) {
		in->error = xstrdup(err.msg);
		dataset_close(&ds);
		return;
	}
	in->reccap = x->max_records;
	struct dataset_cursor cur;
	struct record_ref rec;
	dataset_cursor_init(&cur);
	while (dataset_next(&ds, &cur, &rec)) {
		if (in->nrecs == in->reccap || now_ms() > (double)x->deadline_ms) {
			in->sampled = true;
			x->timed_out = x->timed_out || in->nrecs < in->reccap;
			break;
		}
		read_record(x, in, &ds, &rec);
	}
	x->sampled = x->sampled || in->sampled;
	prop_fields_done(in);
	dataset_close(&ds);
}

static struct prop_input *new_input(struct prop_ctx *x, const char *path, size_t origin)
{
	x->in = xrealloc(x->in, (x->nin + 1) * sizeof *x->in);
	struct prop_input *in = &x->in[x->nin++];
	memset(in, 0, sizeof *in);
	in->path = xstrdup(path);
	in->origin = origin;
	return in;
}

/* A folder's files, each read as an input of its own: a folder may hold
 * the runs and their ground truth side by side. */
static bool read_folder(struct prop_ctx *x, const char *path, size_t origin)
{
	struct stat st;
	if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode))
		return false;
	struct dataset ds = { 0 };
	struct error err = {0};
	char *paths[1] = { (char *)path };
	const struct dataset_opts opts = { .walk_quiet = x->o->walk_quiet };
	if (dataset_open_with(&ds, &opts, paths, 1, &err) < 0) {
		new_input(x, path, origin)->error = xstrdup(err.msg);
		dataset_close(&ds);
		return true;
	}
	for (size_t f = 0; f < ds.nfiles; f++) {
		if (now_ms() > (double)x->deadline_ms) {
			x->timed_out = x->sampled = true;
			x->files_left += ds.nfiles - f;
			break;
		}
		struct prop_input *in = new_input(x, ds.files[f].path, origin);
		in->in_folder = true;
		read_input(x, in);
	}
	dataset_close(&ds);
	return true;
}

void prop_read_inputs(struct prop_ctx *x, const char *const *inputs, size_t ninputs)
{
	for (size_t i = 0; i < ninputs; i++) {
		if (!read_folder(x, inputs[i], i))
			read_input(x, new_input(x, inputs[i], i));
		if (x->nin && x->in[x->nin - 1].error)
			return;
	}
}

void prop_inputs_free(struct prop_ctx *x)
{
	for (size_t i = 0; i < x->nin; i++) {
		struct prop_input *in = &x->in[i];
		prop_fields_free(in);
		for (size_t r = 0; r < in->nrecs; r++) {
			free(in->srcs[r]);
			free(in->ids[r]);
		}
		free(in->srcs);
		free(in->ids);
		for (size_t f = 0; f < in->nformats; f++)
			free(in->formats[f].name);
		free(in->formats);
		free(in->path);
		free(in->error);
		free(in->first_unread);
		free(in->unread_why);
	}
	free(x->in);
	x->in = NULL;
	x->nin = 0;
}
