/* propose_tools.c - the tools the runs call, with their calls and the runs
 * calling them, and their table as a YAML comment aligned by display width. */
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "propose_int.h"
#include "runs/run.h"
#include "util/hash.h"
#include "util/textvis.h"
#include "util/wtext.h"
#include "util/xalloc.h"

#define TOOLS_SHOWN 40          /* rows of the table; the rest are counted */

static bool tool_is(const void *item, const void *key)
{
	return strcmp(((const struct prop_tool *)item)->name, key) == 0;
}

void prop_tools_add(struct prop_ctx *x, const struct run *r)
{
	for (size_t i = 0; i < r->ncalls; i++) {
		const char *name = r->calls[i].name ? r->calls[i].name : "";
		uint64_t h = hash_fnv1a(name, strlen(name), 0);
		void **slot = htab_put(&x->tool_index, h, tool_is, name);
		struct prop_tool *t = *slot;
		if (!t) {
			t = xcalloc(1, sizeof *t);
			t->name = xstrdup(name);
			*slot = t;
			x->ntools++;
		}
		t->calls++;
		if (t->last_run != x->nruns) {
			t->last_run = x->nruns;
			t->runs++;
		}
	}
}

/* The tools in the table's order: most calls first, then by name. */
static int by_calls(const void *a, const void *b)
{
	const struct prop_tool *x = *(const struct prop_tool *const *)a;
	const struct prop_tool *y = *(const struct prop_tool *const *)b;
	if (x->calls != y->calls)
		return x->calls > y->calls ? -1 : 1;
	return strcmp(x->name, y->name);
}

static struct prop_tool **sorted(const struct prop_ctx *x)
{
	struct prop_tool **v = xcalloc(x->ntools ? x->ntools : 1, sizeof *v);
	size_t n = 0;
	for (size_t i = 0; i < x->tool_index.nslots; i++)
		if (x->tool_index.slots[i].item)
			v[n++] = x->tool_index.slots[i].item;
	qsort(v, n, sizeof *v, by_calls);
	return v;
}

/* A name as a comment may hold it (controls made visible), and its width. */
static char *shown(const char *name, size_t *width)
{
	struct strbuf sb = STRBUF_INIT;
	textvis_append(&sb, *name ? name : "(no name)", *name ? strlen(name) : 9, 0);
	size_t n;
	wchar_t *w = wtext_decode(sb.buf, sb.len, 0, &n);
	*width = wtext_width(w, n);
	free(w);
	return strbuf_detach(&sb);
}

static void pad(struct strbuf *sb, size_t n)
{
	while (n--)
		strbuf_addch(sb, ' ');
}

void prop_tools_table(const struct prop_ctx *x, struct strbuf *yaml)
{
	if (!x->ntools) {
		strbuf_addstr(yaml, "# Tools called: none in the runs read.\n");
		return;
	}
	struct prop_tool **v = sorted(x);
	size_t n = x->ntools < TOOLS_SHOWN ? x->ntools : TOOLS_SHOWN;
	char **names = xcalloc(n, sizeof *names);
	size_t *widths = xcalloc(n, sizeof *widths), col = 4;
	for (size_t i = 0; i < n; i++) {
		names[i] = shown(v[i]->name, &widths[i]);
		col = widths[i] > col ? widths[i] : col;
	}
	strbuf_addf(yaml, "# Tools called in the %zu run%s read (%zu tool%s):\n#\n", x->nruns,
	            x->nruns == 1 ? "" : "s", x->ntools, x->ntools == 1 ? "" : "s");
	strbuf_addstr(yaml, "#   tool");
	pad(yaml, col - 4);
	strbuf_addstr(yaml, "    calls   runs\n");
	for (size_t i = 0; i < n; i++) {
		strbuf_addf(yaml, "#   %s", names[i]);
		pad(yaml, col - widths[i]);
		strbuf_addf(yaml, "  %7zu  %5zu\n", v[i]->calls, v[i]->runs);
		free(names[i]);
	}
	if (x->ntools > n)
		strbuf_addf(yaml, "#   ... and %zu more\n", x->ntools - n);
	strbuf_addstr(yaml, "#\n");
	free(names);
	free(widths);
	free(v);
}

void prop_tools_line(const struct prop_ctx *x, struct strbuf *out)
{
	struct prop_tool **v = sorted(x);
	size_t n = x->ntools < 8 ? x->ntools : 8;
	strbuf_addf(out, "tools called: %zu", x->ntools);
	for (size_t i = 0; i < n; i++) {
		size_t w;
		char *name = shown(v[i]->name, &w);
		strbuf_addf(out, "%s%s %zu in %zu run%s", i ? ", " : " (", name, v[i]->calls,
		            v[i]->runs, v[i]->runs == 1 ? "" : "s");
		free(name);
	}
	strbuf_addstr(out, x->ntools > n ? ", ...)\n" : n ? ")\n" : "\n");
	free(v);
}

void prop_tools_free(struct prop_ctx *x)
{
	for (size_t i = 0; i < x->tool_index.nslots; i++) {
		struct prop_tool *t = x->tool_index.slots[i].item;
		if (t) {
			free(t->name);
			free(t);
		}
	}
	htab_free(&x->tool_index);
	x->ntools = 0;
}
