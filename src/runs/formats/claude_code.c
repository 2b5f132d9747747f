/* claude_code.c - Claude Code / Claude Agent SDK sessions: the JSONL file
 * of a session (~/.claude/projects/<project>/<uuid>.jsonl), one event a
 * line, read as the array of its lines (UNIT_FILE).
 *
 * Runs. One run per session: split cuts a file by sessionId, and lines with
 * none (file-history-snapshot, summary, a line that is not JSON) go with
 * the session of the nearest line that has one (the earlier on a tie). A
 * subagent's file (<uuid>/subagents/agent-<id>.jsonl: every line
 * isSidechain with agentId, sessionId the parent's) is a run of its own,
 * named SESSION/agent-AGENT with parent_id SESSION; sidechain lines inside
 * a main file are cut into such runs too, by their agentId, or, written by
 * versions before subagent files with none, into one run
 * SESSION/sidechain. A main session's run is named by its sessionId.
 *
 * Order. Lines are read in file order, except that a line whose parentUuid
 * names a line that comes later (or that waits itself) is read right after
 * that line (cc_order); a line seen twice, same uuid and same bytes, is
 * read once. One assistant turn is written as several lines sharing
 * message.id, one content block each, sometimes with tool results between
 * them: they are one assistant message, its parts (text, thinking, calls)
 * in the order of its lines, read where its first line stands. A loop of
 * parentUuids, and what waits for it, is read at the end in file order.
 *
 * Events. user: text, or tool_result blocks (each a tool message, joined
 * to its call by tool_use_id; is_error marks it failed). assistant: text,
 * thinking, redacted_thinking, tool_use / server_tool_use / mcp_tool_use
 * calls (input as arguments) and the server tools' *_tool_result blocks,
 * set on their call. summary, custom-title, progress (hook and
 * agent_progress lines, whose nested subagent messages belong to the
 * subagent's own file), file-history-snapshot, queue-operation and system
 * lines (local commands, hook summaries, API errors: what Claude Code
 * shows around the conversation, not part of it) are skipped. Anything
 * else is kept as a note naming its line: an unknown event type, a line
 * with no type, a line that is JSON but not an object, a line that was not
 * JSON (null in the array), a user or assistant line whose message is not
 * an object, an unknown block. A note says "line N" when the run is the
 * whole file, else "[i]", the element of the run's array, and its uuid (a
 * session cut out of a file of several is gathered onto one line). Text
 * blocks of bare newlines, which streaming leaves, are dropped. A session
 * is never rejected for a line; a record with no event at all is. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runs/format.h"
#include "runs/loader.h"
#include "util/hash.h"
#include "util/htab.h"
#include "util/xalloc.h"
#include "claude_code.h"
#include "util/error.h"

/* How many elements of an array detection looks at. */
#define CC_SNIFF 16

/* ---- detection ----------------------------------------------------------- */

struct cc_keys {
	jv type, uuid, session, message, leaf, snapshot, operation;
	bool parent;                /* a parentUuid key, null or not */
};

static void cc_keys_read(const struct jdoc *d, jv e, struct cc_keys *k)
{
	*k = (struct cc_keys){ JV_NONE, JV_NONE, JV_NONE, JV_NONE, JV_NONE, JV_NONE, JV_NONE,
	                       false };
	JV_EACH_KEY(d, e, key) {
		jv v = jv_value(key);
		if (jv_streq(d, key, "type"))
			k->type = v;
		else if (jv_streq(d, key, "uuid"))
			k->uuid = v;
		else if (jv_streq(d, key, "sessionId"))
			k->session = v;
		else if (jv_streq(d, key, "message"))
			k->message = v;
		else if (jv_streq(d, key, "leafUuid"))
			k->leaf = v;
		else if (jv_streq(d, key, "snapshot"))
			k->snapshot = v;
		else if (jv_streq(d, key, "operation"))
			k->operation = v;
		else if (jv_streq(d, key, "parentUuid"))
			k->parent = true;
	}
}

/* How sure one line is a Claude Code event: the tree's events carry uuid,
 * parentUuid and sessionId; the metadata lines have keys of their own. */
static int cc_detect_event(const struct jdoc *d, jv e)
{
	if (!jv_is_object(d, e))
		return 0;
	struct cc_keys k;
	cc_keys_read(d, e, &k);
	const char *ty = jv_str(d, k.type);
	if (!ty)
		return 0;
	if (!strcmp(ty, "summary"))
		return jv_is_string(d, k.leaf) ? 70 : 0;
	if (!strcmp(ty, "file-history-snapshot"))
		return jv_is_object(d, k.snapshot) ? 70 : 0;
	if (!strcmp(ty, "queue-operation"))
		return jv_is_string(d, k.operation) && jv_is_string(d, k.session) ? 70 : 0;
	if (!jv_is_string(d, k.uuid) || !k.parent || !jv_is_string(d, k.session))
		return 0;
	if (!strcmp(ty, "user") || !strcmp(ty, "assistant"))
		return 85;
	/* system, progress, and event types of later versions */
	return 75;
}

/* A line, or the array of a file's lines: most of its first objects are
 * events (edge cases hold {"silly": "this"}, 42 and lines that are not
 * JSON). */
static int cc_detect(const struct jdoc *d, jv rec)
{
	if (!jv_is_array(d, rec))
		return cc_detect_event(d, rec);
	int objects = 0, events = 0, best = 0;
	JV_EACH(d, rec, e) {
		if (!jv_is_object(d, e))
			continue;
		int s = cc_detect_event(d, e);
		events += s > 0;
		best = s > best ? s : best;
		if (++objects == CC_SNIFF)
			break;
	}
	return events > 0 && events * 2 > objects ? best : 0;
}

/* ---- strings to indexes -------------------------------------------------- */

/* A map from a pair of strings (b may be NULL) to the index of where it was
 * first seen; its entries live in one array sized for every element. */
struct cc_entry {
	const char *a, *b;
	size_t index;
};

struct cc_map {
	struct htab tab;
	struct cc_entry *entries;
	size_t n;
};

static bool cc_entry_eq(const void *item, const void *key)
{
	const struct cc_entry *x = item, *y = key;
	return !strcmp(x->a, y->a) && (x->b == y->b || (x->b && y->b && !strcmp(x->b, y->b)));
}

static uint64_t cc_hash(const char *a, const char *b)
{
	uint64_t h = hash_fnv1a_part(hash_fnv1a(NULL, 0, 0), a);
	return b ? hash_fnv1a_part(h, b) : h;
}

static void cc_map_init(struct cc_map *m, size_t cap)
{
	m->tab = (struct htab)HTAB_INIT;
	m->entries = xcalloc(cap ? cap : 1, sizeof(*m->entries));
	m->n = 0;
}

static void cc_map_free(struct cc_map *m)
{
	htab_free(&m->tab);
	free(m->entries);
}

/* The entry under (a, b), added with index when new (*added says so). */
static struct cc_entry *cc_map_put(struct cc_map *m, const char *a, const char *b, size_t index,
                                   bool *added)
{
	struct cc_entry key = { a, b, index };
	void **slot = htab_put(&m->tab, cc_hash(a, b), cc_entry_eq, &key);
	*added = *slot == NULL;
	if (*added) {
		m->entries[m->n] = key;
		*slot = &m->entries[m->n++];
	}
	return *slot;
}

static const struct cc_entry *cc_map_get(const struct cc_map *m, const char *a, const char *b)
{
	struct cc_entry key = { a, b, 0 };
	return htab_get(&m->tab, cc_hash(a, b), cc_entry_eq, &key);
}

/* ---- split: one run per session ------------------------------------------ */

/* Which run an element belongs to by its own keys: its session, and its
 * agent when it is sidechain work. *session is NULL when it names none. */
static void cc_run_key(const struct jdoc *d, jv e, const char **session, const char **agent)
{
	*session = NULL;
	*agent = NULL;
	if (!jv_is_object(d, e))
		return;
	jv s = jv_get(d, e, "sessionId");
	if (!jv_is_string(d, s) || !jv_strlen(d, s))
		return;
	*session = jv_str(d, s);
	/* Claude Code before subagent files wrote a subagent's lines into the
	 * session's file with no agentId: "" keeps them apart still. */
	if (jv_type(d, jv_get(d, e, "isSidechain")) == JV_TRUE)
		*agent = jv_str_or(d, jv_get(d, e, "agentId"), "");
}

/* Elements that name no session take the group of the nearest one that
 * does, the earlier on a tie. */
static void cc_fill_groups(long *group, size_t n)
{
	long *next = xcalloc(n ? n : 1, sizeof(*next));
	long seen = -1;
	for (size_t i = n; i-- > 0;) {
		if (group[i] >= 0)
			seen = (long)i;
		next[i] = seen;
	}
	long prev = -1;
	for (size_t i = 0; i < n; i++) {
		if (group[i] >= 0) {
			prev = (long)i;
			continue;
		}
		long nx = next[i];
		if (prev >= 0 && (nx < 0 || (long)i - prev <= nx - (long)i))
			group[i] = group[prev];
		else if (nx >= 0)
			group[i] = group[nx];
	}
	free(next);
}

/* Lists each group's elements in file order, groups in the order of their
 * first element, in one pass over linked lists. */
static void cc_emit_groups(const jv *elems, const long *group, size_t n, size_t ngroups,
                           struct doc_groups *out)
{
	long *head = xcalloc(ngroups, sizeof(*head)), *tail = xcalloc(ngroups, sizeof(*tail));
	long *link = xcalloc(n, sizeof(*link));
	for (size_t g = 0; g < ngroups; g++)
		head[g] = tail[g] = -1;
	for (size_t i = 0; i < n; i++) {
		long g = group[i];
		link[i] = -1;
		if (tail[g] >= 0)
			link[tail[g]] = (long)i;
		else
			head[g] = (long)i;
		tail[g] = (long)i;
	}
	for (size_t g = 0; g < ngroups; g++) {
		doc_group_begin(out);
		for (long i = head[g]; i >= 0; i = link[i])
			doc_group_add(out, elems[i]);
	}
	free(head);
	free(tail);
	free(link);
}

static void cc_split(const struct jdoc *d, jv root, struct doc_groups *out)
{
	size_t n = jv_len(d, root);
	if (!jv_is_array(d, root) || n == 0) {
		doc_group_begin(out);
		doc_group_add(out, root);
		return;
	}
	jv *elems = xcalloc(n, sizeof(*elems));
	long *group = xcalloc(n, sizeof(*group));
	struct cc_map runs;
	cc_map_init(&runs, n);
	size_t i = 0;
	JV_EACH(d, root, e) {
		const char *session, *agent;
		cc_run_key(d, e, &session, &agent);
		elems[i] = e;
		group[i] = -1;
		if (session) {
			bool added;
			group[i] = (long)cc_map_put(&runs, session, agent, runs.n, &added)->index;
		}
		i++;
	}
	if (runs.n <= 1) {
		/* one session: the whole document, nothing copied */
		doc_group_begin(out);
		doc_group_add(out, root);
	} else {
		cc_fill_groups(group, n);
		cc_emit_groups(elems, group, n, runs.n, out);
	}
	cc_map_free(&runs);
	free(elems);
	free(group);
}

/* ---- the events in reading order ----------------------------------------- */

static bool cc_same_bytes(const struct jdoc *d, jv a, jv b)
{
	size_t la, lb;
	const char *ra = jv_raw(d, a, &la), *rb = jv_raw(d, b, &lb);
	return ra && rb && la == lb && !memcmp(ra, rb, la);
}

/* Places ev[i] and, depth first in file order, every line waiting for it. */
static void cc_place(struct cc_session *s, size_t i, size_t *stack)
{
	size_t top = 0;
	s->ev[i].done = true;
	s->order[s->norder++] = i;
	stack[top++] = i;
	while (top) {
		struct cc_event *t = &s->ev[stack[top - 1]];
		long c = t->first_wait;
		if (c < 0) {
			top--;
			continue;
		}
		t->first_wait = s->ev[c].waiting;
		if (s->ev[c].done)
			continue;
		s->ev[c].done = true;
		s->order[s->norder++] = (size_t)c;
		stack[top++] = (size_t)c;
	}
}

/* Links each line to the line its parentUuid names (the first of that
 * uuid); a line whose parent is not yet placed waits for it. Lines left
 * waiting at the end (a loop of parents) are placed in file order. */
static void cc_order(const struct jdoc *d, struct cc_session *s)
{
	struct cc_map uuids;
	cc_map_init(&uuids, s->n);
	long *tail = xcalloc(s->n ? s->n : 1, sizeof(*tail));
	for (size_t i = 0; i < s->n; i++) {
		struct cc_event *e = &s->ev[i];
		e->first_wait = e->waiting = tail[i] = -1;
		if (!e->uuid)
			continue;
		bool added;
		struct cc_entry *u = cc_map_put(&uuids, e->uuid, NULL, i, &added);
		e->twin = !added && cc_same_bytes(d, s->ev[u->index].v, e->v);
	}
	size_t *stack = xcalloc(s->n ? s->n : 1, sizeof(*stack));
	s->order = xcalloc(s->n ? s->n : 1, sizeof(*s->order));
	s->norder = 0;
	for (size_t i = 0; i < s->n; i++) {
		struct cc_event *e = &s->ev[i];
		const struct cc_entry *p = e->parent ? cc_map_get(&uuids, e->parent, NULL) : NULL;
		if (!p || p->index == i || s->ev[p->index].done) {
			if (!e->done)
				cc_place(s, i, stack);
			continue;
		}
		long pi = (long)p->index;
		if (tail[pi] >= 0)
			s->ev[tail[pi]].waiting = (long)i;
		else
			s->ev[pi].first_wait = (long)i;
		tail[pi] = (long)i;
	}
	for (size_t i = 0; i < s->n; i++)
		if (!s->ev[i].done)
			cc_place(s, i, stack);
	free(stack);
	free(tail);
	cc_map_free(&uuids);
}

static const char *cc_field_str(const struct jdoc *d, jv e, const char *key)
{
	jv v = jv_get(d, e, key);
	return jv_strlen(d, v) ? jv_str(d, v) : NULL;
}

/* The message.id of an assistant line, NULL for any other line. */
static const char *cc_assistant_id(const struct jdoc *d, jv e)
{
	if (!jv_streq(d, jv_get(d, e, "type"), "assistant"))
		return NULL;
	return cc_field_str(d, jv_get(d, e, "message"), "id");
}

/* Chains the lines of one assistant message in reading order. */
static void cc_link_messages(const struct jdoc *d, struct cc_session *s)
{
	struct cc_map ids;
	cc_map_init(&ids, s->n);
	long *last = xcalloc(s->n ? s->n : 1, sizeof(*last));
	for (size_t k = 0; k < s->norder; k++) {
		size_t i = s->order[k];
		s->ev[i].same_msg = -1;
		const char *id = s->ev[i].twin ? NULL : cc_assistant_id(d, s->ev[i].v);
		if (!id)
			continue;
		bool added;
		struct cc_entry *m = cc_map_put(&ids, id, NULL, k, &added);
		if (added) {
			last[k] = (long)i;
			continue;
		}
		s->ev[last[m->index]].same_msg = (long)i;
		last[m->index] = (long)i;
		s->ev[i].continued = true;
	}
	free(last);
	cc_map_free(&ids);
}

/* The file line of every element: the dataset writes each line of the file
 * as an element starting on its own line of the document, so it is one
 * more than the newlines before it. Only a run that is the whole file
 * knows them: a session gathered out of a file of several, like a record
 * built in memory, is one line, and its notes say "[i]" instead. */
static void cc_lines(const struct run *r, struct cc_session *s)
{
	const struct jdoc *d = r->doc;
	if (r->array_index >= 0 || !jv_is_array(d, run_root(r)) ||
	    !memchr(d->src, '\n', d->src_len))
		return;
	size_t line = 1, counted = 0;
	for (size_t i = 0; i < s->n; i++) {
		size_t at = d->nodes[s->ev[i].v].src;
		for (const char *p = d->src + counted, *end = d->src + at;
		     (p = memchr(p, '\n', (size_t)(end - p))); p++)
			line++;
		counted = at;
		s->ev[i].line = line;
	}
}

static void cc_session_read(struct run *r, struct cc_session *s)
{
	const struct jdoc *d = r->doc;
	jv root = run_root(r);
	bool one = !jv_is_array(d, root);
	s->n = one ? 1 : jv_len(d, root);
	s->ev = xcalloc(s->n ? s->n : 1, sizeof(*s->ev));
	size_t i = 0;
	for (jv e = one ? root : jv_first(d, root); e != JV_NONE;
	     e = one ? JV_NONE : jv_next(d, root, e)) {
		s->ev[i].v = e;
		if (jv_is_object(d, e)) {
			s->ev[i].uuid = cc_field_str(d, e, "uuid");
			s->ev[i].parent = cc_field_str(d, e, "parentUuid");
		}
		i++;
	}
	cc_order(d, s);
	cc_link_messages(d, s);
	cc_lines(r, s);
}

static void cc_session_free(struct cc_session *s)
{
	free(s->ev);
	free(s->order);
}

/* ---- loading ------------------------------------------------------------- */

static int cc_load(struct run *r, struct error *err)
{
	const struct jdoc *d = r->doc;
	jv root = run_root(r);
	if (!jv_is_array(d, root) && !jv_is_object(d, root)) {
		error_at(err, ERR_FAILED, "a claude-code record must be the array of a session's "
		         "events or one event");
		return -1;
	}
	/* A record with no event in it is not a session: a list of numbers,
	 * an object of something else. */
	bool typed = false;
	for (jv e = jv_is_array(d, root) ? jv_first(d, root) : root; e != JV_NONE && !typed;
	     e = jv_is_array(d, root) ? jv_next(d, root, e) : JV_NONE)
		typed = jv_is_string(d, jv_get(d, e, "type"));
	if (!typed) {
		error_at(err, jv_is_array(d, root) ? ERR_FAILED : ERR_MISSING,
		         jv_is_array(d, root) ? "no Claude Code event (an object with a "
		         "type) in the session" : "type: missing or not a string");
		return -1;
	}
	struct cc_session s;
	cc_session_read(r, &s);
	for (size_t k = 0; k < s.norder; k++)
		cc_load_event(r, &s, s.order[k]);
	cc_name_run(r, &s);
	cc_session_free(&s);
	run_join_results(r);
	return 0;
}

const struct format_ops format_claude_code = {
	.name = "claude-code",
	.summary = "Claude Code / Agent SDK session JSONL (one event a line; one run per session, "
	           "subagents linked to their parent)",
	.detect = cc_detect,
	.unit = UNIT_FILE,
	.split = cc_split,
	.load = cc_load,
};
