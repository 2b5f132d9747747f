/* formats_closest.c - the formats that came closest for a record no format
 * claims: every loader forced on it, ranked by how far it got.
 *
 * Detection said no to every format, so the loaders' own messages are the
 * best account of why: the one that read the most, or whose complaint lies
 * deepest in the record ("messages[2].role: missing" got further than
 * "messages: missing"), names what would have to change. */
#include "cli/formats_report.h"

#include <stdlib.h>
#include <string.h>

#include "runs/format.h"
#include "util/strbuf.h"
#include "util/error.h"


static void try_loader(struct dataset *ds, const struct record_ref *rec,
                       const struct format_ops *f, struct jdoc *d, struct formats_guess *g)
{
	const struct input_file *in = &ds->files[rec->file];
	struct run *r = run_new_doc(d, in->path, in->kind == INPUT_JSONL ? rec->line : 0,
	                            (long)rec->index);
	memset(g, 0, sizeof(*g));
	g->format = f->name;
	struct error e = {0};
	g->loaded = format_load(r, f, &e) == 0;
	if (!g->loaded && snprintf(g->error, sizeof g->error, "%s",
	                           e.msg[0] ? e.msg : "malformed record") < 0)
		g->error[0] = '\0';
	for (size_t i = 0; i < r->nmsgs; i++)
		g->msgs += r->msgs[i].role != ROLE_NOTE;
	g->calls = r->ncalls;
	g->notes = r->nnotes;
	if (!g->loaded) {
		g->depth = e.path_depth;
		g->at = e.path_at;
	}
	run_free(r);
}

/* Loads that read something, then failures that got somewhere, then
 * loads that read nothing, then failures at the record's top. */
static int guess_class(const struct formats_guess *g)
{
	if (g->loaded)
		return g->msgs || g->calls ? 0 : 2;
	return g->msgs || g->calls || g->depth ? 1 : 3;
}

static int cmp_size(size_t a, size_t b)
{
	return a > b ? -1 : a < b;
}

static int cmp_guess(const void *pa, const void *pb)
{
	const struct formats_guess *a = pa, *b = pb;
	int c = guess_class(a) - guess_class(b);
	if (c)
		return c;
	if (a->loaded) {
		c = cmp_size(a->calls, b->calls);
		return c ? c : cmp_size(a->msgs, b->msgs);
	}
	c = cmp_size(a->msgs + a->calls, b->msgs + b->calls);
	if (!c)
		c = cmp_size(a->depth, b->depth);
	if (!c)
		c = cmp_size(a->at, b->at);
	return c;
}

/* Key names are shown up to this many; a record's keys are its own. */
#define SHAPE_KEYS 8
#define SHAPE_KEY_BYTES 40

static void shape_of(const struct jdoc *d, jv v, struct strbuf *sb, bool nested)
{
	static const char *const kinds[] = { "nothing", "null", "false", "true", "a number",
	                                     "a string", "an array", "an object" };
	enum jv_type t = jv_type(d, v);
	if (t == JV_ARRAY) {
		strbuf_addf(sb, "an array of %zu value%s", jv_len(d, v), jv_len(d, v) == 1 ? "" : "s");
		if (jv_len(d, v) && !nested) {
			strbuf_addstr(sb, ", the first ");
			shape_of(d, jv_first(d, v), sb, true);
		}
		return;
	}
	if (t != JV_OBJECT) {
		strbuf_addstr(sb, kinds[t]);
		return;
	}
	const char *type = jv_str(d, jv_get(d, v, "type"));
	strbuf_addstr(sb, "an object");
	if (type)
		strbuf_addf(sb, " of type \"%.*s\"", SHAPE_KEY_BYTES, type);
	strbuf_addstr(sb, " {");
	size_t k = 0;
	JV_EACH_KEY(d, v, key) {
		if (k++ == SHAPE_KEYS) {
			strbuf_addf(sb, ", ... %zu keys", jv_len(d, v));
			break;
		}
		strbuf_addf(sb, "%s%.*s", k > 1 ? ", " : "", SHAPE_KEY_BYTES, jv_str(d, key));
	}
	strbuf_addch(sb, '}');
}

void formats_shape(struct dataset *ds, const struct record_ref *rec, char *buf, size_t len)
{
	struct error err = {0};
	buf[0] = '\0';
	struct jdoc *d = dataset_parse_doc(ds, rec, &err);
	if (!d)
		return;
	struct strbuf sb = STRBUF_INIT;
	shape_of(d, jdoc_root(d), &sb, false);
	snprintf(buf, len, "%s", sb.buf);
	strbuf_release(&sb);
	jdoc_free(d);
}

/* The names of the guesses past the kept ones that got as far as the
 * last kept one: the record stops them all at the same place. */
static void list_ties(const struct formats_guess *all, size_t got, size_t keep, char *ties,
                      size_t tieslen)
{
	struct strbuf sb = STRBUF_INIT;
	for (size_t i = keep; keep && i < got && cmp_guess(&all[keep - 1], &all[i]) == 0; i++)
		strbuf_addf(&sb, "%s%s", sb.len ? ", " : "", all[i].format);
	snprintf(ties, tieslen, "%s", sb.len ? sb.buf : "");
	strbuf_release(&sb);
}

size_t formats_closest(struct dataset *ds, const struct record_ref *rec,
                       struct formats_guess *out, size_t max, char *ties, size_t tieslen)
{
	ties[0] = '\0';
	size_t n = 0;
	while (format_table[n])
		n++;
	struct formats_guess *all = calloc(n ? n : 1, sizeof(*all));
	if (!all)
		return 0;
	size_t got = 0;
	struct error err = {0};
	for (size_t i = 0; i < n; i++) {
		/* The reader by shape was the last resort, and found nothing. */
		if (!strcmp(format_table[i]->name, "shape"))
			continue;
		/* Each loader gets a tape of its own: the run it fills owns it. */
		struct jdoc *d = dataset_parse_doc(ds, rec, &err);
		if (!d)
			break;
		try_loader(ds, rec, format_table[i], d, &all[got++]);
	}
	/* Ties keep the table's order, as detection does. */
	for (size_t i = 1; i < got; i++) {
		struct formats_guess g = all[i];
		size_t j = i;
		while (j > 0 && cmp_guess(&all[j - 1], &g) > 0) {
			all[j] = all[j - 1];
			j--;
		}
		all[j] = g;
	}
	size_t keep = got < max ? got : max;
	memcpy(out, all, keep * sizeof(*out));
	list_ties(all, got, keep, ties, tieslen);
	free(all);
	return keep;
}
