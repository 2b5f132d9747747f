/* store_subjects.c - what the annotations store holds beyond verdicts: what stands on a run, the aliases of codes, groups taken back at once, group ids. */
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "store_int.h"
#include "util/clock.h"
#include "util/hash.h"

static bool group_eq(const void *item, const void *key)
{
	return strcmp(((const struct group_rec *)item)->group, key) == 0;
}

void store_group_add(struct annot_store *s, struct slot *sl, const struct decision *d)
{
	void **item = htab_put(&s->groups, hash_fnv1a_part(HASH_FNV_SEED, d->group), group_eq,
	                       d->group);
	struct group_rec *g = *item;
	if (!g) {
		g = arena_alloc(&s->arena, sizeof *g);
		*g = (struct group_rec){ .group = d->group };
		*item = g;
	}
	struct group_member *m = arena_alloc(&s->arena, sizeof *m);
	*m = (struct group_member){ .sl = sl, .d = d, .next = g->first };
	g->first = m;
}

/* One line takes back every decision of the group its file still has on
 * top; a decision made over since (or taken back alone) stays as it is. */
void store_group_retract(struct annot_store *s, const char *group, unsigned file)
{
	struct group_rec *g = htab_get(&s->groups, hash_fnv1a_part(HASH_FNV_SEED, group),
	                               group_eq, group);
	for (struct group_member *m = g ? g->first : NULL; m; m = m->next) {
		struct stack_node **top = &m->sl->top[file];
		if (m->d->file == file && *top && (*top)->d == m->d)
			*top = (*top)->next;
	}
}

/* A code as aliases know it: ASCII case folded, runs of white space one
 * space, none at the ends (as vocab_code_eq compares), so that an alias
 * written for "lookup err" holds for "Lookup  Err" too. */
void store_code_norm(struct strbuf *sb, const char *code)
{
	strbuf_reset(sb);
	bool space = false;
	for (const unsigned char *p = (const unsigned char *)code; *p; p++) {
		if (*p == ' ' || (*p >= '\t' && *p <= '\r')) {
			space = sb->len > 0;
			continue;
		}
		if (space)
			strbuf_addch(sb, ' ');
		space = false;
		strbuf_addch(sb, (char)(*p >= 'A' && *p <= 'Z' ? *p - 'A' + 'a' : *p));
	}
	if (!sb->buf)
		strbuf_addstr(sb, "");
}

void annot_each_of_run(const struct annot_store *s, const char *run,
                       void (*fn)(void *ctx, const struct decision *d), void *ctx)
{
	if (!run)
		return;
	const struct run_slots *rs = htab_get(&s->runs, hash_fnv1a_part(HASH_FNV_SEED, run),
	                                      store_run_eq, run);
	for (const struct slot *sl = rs ? rs->first : NULL; sl; sl = sl->run_next) {
		const struct decision *d = store_slot_current(s, sl);
		if (d)
			fn(ctx, d);
	}
}

void annot_each_standing(const struct annot_store *s,
                         void (*fn)(void *ctx, const struct decision *d), void *ctx)
{
	for (const struct slot *sl = s->first; sl; sl = sl->next) {
		const struct decision *d = store_slot_current(s, sl);
		if (d)
			fn(ctx, d);
	}
}

/* Renames are few and short chains; this bound only stops a cycle. */
#define ALIAS_DEPTH 64

const char *annot_tag_resolve(const struct annot_store *s, const char *code)
{
	const struct slot *seen[ALIAS_DEPTH];
	size_t nseen = 0;
	struct strbuf norm = STRBUF_INIT;
	while (code && nseen < ALIAS_DEPTH) {
		store_code_norm(&norm, code);
		struct slot k = { .kind = SLOT_ALIAS, .subject = norm.buf };
		const struct slot *sl = store_slot_find(s, &k);
		const struct decision *d = sl ? store_slot_current(s, sl) : NULL;
		if (!d)
			break;
		bool cycle = false;
		for (size_t i = 0; i < nseen; i++)
			cycle |= seen[i] == sl;
		if (cycle)
			break;              /* a cycle closes here: stop at it */
		seen[nseen++] = sl;
		code = d->tag_to;
	}
	strbuf_release(&norm);
	return code;
}

size_t annot_group_standing(const struct annot_store *s, const char *group)
{
	if (!group)
		return 0;
	const struct group_rec *g = htab_get(&s->groups, hash_fnv1a_part(HASH_FNV_SEED, group),
	                                     group_eq, group);
	size_t n = 0;
	for (const struct group_member *m = g ? g->first : NULL; m; m = m->next) {
		const struct stack_node *top = m->sl->top[m->d->file];
		n += top && top->d == m->d;
	}
	return n;
}

void annot_group_id(char out[40])
{
	static unsigned counter;
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	char iso[24];
	now_iso(iso);
	uint64_t h = hash_fnv1a(&ts, sizeof ts, HASH_FNV_SEED);
	pid_t pid = getpid();
	h = hash_fnv1a(&pid, sizeof pid, h);
	unsigned c = counter++;
	h = hash_fnv1a(&c, sizeof c, h);
	/* The time first, so that ids sort as the groups were made. */
	snprintf(out, 40, "g-%.4s%.2s%.2s%.2s%.2s%.2s-%08x", iso, iso + 5, iso + 8, iso + 11,
	         iso + 14, iso + 17, (unsigned)(h ^ (h >> 32)));
}

const struct decision *annot_preference(const struct annot_store *s, const char *run,
                                        const char *other, const char *reviewer)
{
	if (!run || !other || !reviewer)
		return NULL;
	struct slot k = { .run = run, .subject = other, .reviewer = reviewer,
	                  .kind = SLOT_PREFER };
	const struct slot *sl = store_slot_find(s, &k);
	return sl ? store_slot_current(s, sl) : NULL;
}
