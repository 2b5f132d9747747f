/* propose_ids.c - a run id path that names every run once: the usual id
 * fields first, then a task with its trial, then any field that looks like
 * an id; else the default, with the first duplicate it has. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "propose_int.h"
#include "runs/runs_conf.h"
#include "util/hash.h"
#include "util/xalloc.h"

/* Tried in this order, before the fields that look like ids. */
static const char *const usual_ids[] = {
	"id", "run_id", "runId", "_corpus.run_id", "task_id trial", "task_id epoch",
	"session_id", "sessionId", "uuid", "trace_id", "traceId", "instance_id", NULL,
};

/* A duplicate found: where, and where the id was first. */
struct dup {
	const char *src, *first, *id;
};

static bool str_is(const void *item, const void *key)
{
	return strcmp(*(const char *const *)item, key) == 0;
}

/* The id spec's value for record r of in, or NULL when a path is missing. */
static char *value_of(const struct prop_input *in, size_t r, const char *spec)
{
	struct strbuf sb = STRBUF_INIT;
	char path[RUN_ID_PATH_MAX];
	size_t n = run_id_spec_count(spec);
	for (size_t i = 0; i < n; i++) {
		const struct prop_field *f = run_id_spec_part(spec, i, path, sizeof path)
		                             ? prop_field_find(in, path) : NULL;
		if (!f || !f->vals || !f->vals[r]) {
			strbuf_release(&sb);
			return NULL;
		}
		if (i)
			strbuf_addstr(&sb, RUN_ID_JOIN);
		strbuf_addstr(&sb, f->vals[r]);
	}
	return strbuf_detach(&sb);
}

/* Each run's id under spec (NULL spec: the default ids) into a table;
 * returns 1 when all are there and distinct, 0 on a duplicate (in *d), -1
 * when a run has none. The strings stay in *keep for *d to point into. */
static int check(const struct prop_ctx *x, const char *spec, struct dup *d, struct htab *seen,
                 char ***keep, size_t *nkeep)
{
	for (size_t i = 0; i < x->nin; i++) {
		const struct prop_input *in = &x->in[i];
		for (size_t r = 0; r < in->nrecs; r++) {
			if (!in->ids[r])
				continue;
			char *v = spec ? value_of(in, r, spec) : xstrdup(in->ids[r]);
			if (!v) {
				*d = (struct dup){ in->srcs[r], NULL, NULL };
				return -1;
			}
			*keep = xrealloc(*keep, (*nkeep + 1) * sizeof **keep);
			(*keep)[(*nkeep)++] = v;
			void **slot = htab_put(seen, hash_fnv1a(v, strlen(v), 0), str_is, v);
			if (*slot) {
				*d = (struct dup){ in->srcs[r], *slot ? ((const char *const *)*slot)[1] : "", v };
				return 0;
			}
			/* The slot holds the value and, after it, its source. */
			char **pair = xcalloc(2, sizeof *pair);
			pair[0] = v;
			pair[1] = in->srcs[r];
			*slot = pair;
		}
	}
	return 1;
}

static void drop(struct htab *seen, char **keep, size_t nkeep)
{
	for (size_t i = 0; i < seen->nslots; i++)
		free(seen->slots[i].item);
	htab_free(seen);
	for (size_t i = 0; i < nkeep; i++)
		free(keep[i]);
	free(keep);
}

/* Whether some run holds every path of spec. */
static bool found_somewhere(const struct prop_ctx *x, const char *spec)
{
	for (size_t i = 0; i < x->nin; i++)
		for (size_t r = 0; x->in[i].nruns && r < x->in[i].nrecs; r++) {
			char *v = x->in[i].ids[r] ? value_of(&x->in[i], r, spec) : NULL;
			free(v);
			if (v)
				return true;
		}
	return false;
}

/* 1 unique, 0 duplicate (*said tells where), -1 missing somewhere. */
static int try_spec(const struct prop_ctx *x, const char *spec, char **said)
{
	struct htab seen = HTAB_INIT;
	char **keep = NULL;
	size_t nkeep = 0;
	struct dup d = { 0 };
	int rc = check(x, spec, &d, &seen, &keep, &nkeep);
	char buf[2048];
	if (rc == 0 && said && !*said) {
		snprintf(buf, sizeof buf, "%s has the same id as %s (%.200s)", d.src, d.first, d.id);
		*said = xstrdup(buf);
	} else if (rc < 0 && said && !*said && spec && found_somewhere(x, spec)) {
		snprintf(buf, sizeof buf, "%s is missing from %s", spec, d.src);
		*said = xstrdup(buf);
	}
	drop(&seen, keep, nkeep);
	return rc;
}

static bool looks_like_id(const char *path)
{
	const char *k = prop_last_key(path);
	size_t n = strlen(k);
	if (n >= 2 && tolower((unsigned char)k[n - 2]) == 'i' && tolower((unsigned char)k[n - 1]) == 'd')
		return n == 2 || k[n - 3] == '_' || k[n - 3] == '-' || islower((unsigned char)k[n - 3]);
	return !strcmp(k, "uuid") || !strcmp(k, "uid");
}

static void found(struct prop_ctx *x, const char *spec)
{
	char buf[1200];
	x->id_spec = xstrdup(spec);
	if (strchr(spec, ' '))
		snprintf(buf, sizeof buf, "run ids: the fields %s together are unique across the runs read", spec);
	else
		snprintf(buf, sizeof buf, "run ids: %s is unique across the runs read", spec);
	x->id_said = xstrdup(buf);
}

/* The fields of the first input of runs that look like ids, alone and with a trial. */
static bool try_fields(struct prop_ctx *x, char **dup)
{
	const struct prop_input *in = NULL;
	for (size_t i = 0; i < x->nin && !in; i++)
		in = x->in[i].nruns ? &x->in[i] : NULL;
	/* One run is named apart by anything: only the usual ids then. */
	for (size_t i = 0; in && x->nruns > 1 && i < in->nfields; i++) {
		const char *p = in->fields[i].path;
		if (!looks_like_id(p) || in->fields[i].nbool || strchr(p, ' ') ||
		    strlen(p) >= RUN_ID_PATH_MAX - 8)
			continue;
		char both[RUN_ID_PATH_MAX];
		snprintf(both, sizeof both, "%s trial", p);
		if (try_spec(x, p, dup) == 1 || try_spec(x, both, NULL) == 1) {
			found(x, try_spec(x, p, NULL) == 1 ? p : both);
			return true;
		}
	}
	return false;
}

void prop_choose_ids(struct prop_ctx *x)
{
	char *dup = NULL, buf[2400];
	if (!x->nruns)
		return;
	for (size_t i = 0; usual_ids[i]; i++)
		if (try_spec(x, usual_ids[i], &dup) == 1) {
			found(x, usual_ids[i]);
			free(dup);
			return;
		}
	if (try_fields(x, &dup)) {
		free(dup);
		return;
	}
	char *dflt = NULL;
	if (try_spec(x, NULL, &dflt) == 0)
		snprintf(buf, sizeof buf, "run ids: no field names every run once, and the default "
		         "ids repeat: %s; kept the default", dflt);
	else if (dup)
		snprintf(buf, sizeof buf, "run ids: no field names every run once (%s); kept the "
		         "default (the record's own id, else FILE:LINE), which names each run apart", dup);
	else
		snprintf(buf, sizeof buf, "run ids: the records carry no id field; kept the default "
		         "(the format's own id, else FILE:LINE)");
	x->id_said = xstrdup(buf);
	free(dflt);
	free(dup);
}
