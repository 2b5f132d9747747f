/* formats_write.c - `tcreview formats`' writers: a line per record (and
 * what came closest, for a record no format claims), a file's totals and
 * the summary, as text or as JSON objects with fixed keys.
 *
 * Ids, errors and paths come from the inputs: the text writer passes them
 * through textvis so a record's escape codes never reach the terminal;
 * the JSON writer escapes them as JSON. */
#include "cli/formats_report.h"

#include <string.h>

#include "cli/cli.h"
#include "runs/format.h"
#include "util/jsonw.h"
#include "util/strbuf.h"
#include "util/textvis.h"

const char *formats_status_name(enum formats_status st)
{
	static const char *const names[] = { "read", "load-error", "no-format", "not-json" };
	return st < FORMATS_NSTATUS ? names[st] : "?";
}

static const char *plural(size_t n)
{
	return n == 1 ? "" : "s";
}

static void vis(struct strbuf *sb, const char *s)
{
	textvis_append(sb, s, strlen(s), 0);
}

/* ---- text ---------------------------------------------------------------- */

static void text_guess(struct strbuf *sb, const struct formats_guess *g, bool first)
{
	strbuf_addstr(sb, first ? "    closest: " : "             ");
	strbuf_addf(sb, "%s: ", g->format);
	if (g->loaded && (g->msgs || g->calls)) {
		strbuf_addf(sb, "loads %zu message%s, %zu call%s", g->msgs, plural(g->msgs), g->calls,
		            plural(g->calls));
	} else if (g->loaded && g->notes) {
		strbuf_addf(sb, "loads, but knows none of it (%zu note%s)", g->notes, plural(g->notes));
	} else if (g->loaded) {
		strbuf_addstr(sb, "loads, but reads no message");
	} else {
		vis(sb, g->error);
		if (g->msgs || g->calls)
			strbuf_addf(sb, " (after %zu message%s, %zu call%s)", g->msgs, plural(g->msgs),
			            g->calls, plural(g->calls));
	}
	strbuf_addch(sb, '\n');
}

/* The loaders as far as the last guess: the first few by name. */
#define TIES_SHOWN 6

static void text_ties(struct strbuf *sb, const char *ties)
{
	strbuf_addstr(sb, "             (as far: ");
	size_t n = 0;
	const char *t = ties;
	while (*t) {
		size_t len = strcspn(t, ",");
		if (n < TIES_SHOWN)
			strbuf_addf(sb, "%s%.*s", n ? ", " : "", (int)len, t);
		n++;
		t += len;
		t += strspn(t, ", ");
	}
	if (n > TIES_SHOWN)
		strbuf_addf(sb, " and %zu more", n - TIES_SHOWN);
	strbuf_addstr(sb, ")\n");
}

static void text_rec(struct strbuf *sb, const struct formats_rec *fr)
{
	vis(sb, fr->source);
	if (fr->status == FORMATS_NOT_JSON) {
		strbuf_addstr(sb, "  not JSON: ");
		vis(sb, fr->error);
		strbuf_addch(sb, '\n');
		return;
	}
	strbuf_addf(sb, "  %s  ", fr->format ? fr->format : "(no format)");
	/* A run with no id of its own is named by its source, shown already. */
	vis(sb, strcmp(fr->id, fr->source) ? fr->id : "-");
	if (fr->status != FORMATS_NO_FORMAT)
		strbuf_addf(sb, "  messages %zu  calls %zu  results %zu  failed %zu  notes %zu",
		            fr->msgs, fr->calls, fr->results, fr->failed, fr->notes);
	/* A guess is said to be one, so nobody takes it for a loader's reading. */
	if (fr->status == FORMATS_READ && fr->format && !strcmp(fr->format, "shape"))
		strbuf_addstr(sb, "  (read by shape)");
	strbuf_addch(sb, '\n');
	if (fr->status == FORMATS_LOAD_ERROR) {
		strbuf_addstr(sb, "    load error: ");
		vis(sb, fr->error);
		strbuf_addch(sb, '\n');
	}
	if (fr->analysed && fr->shape[0]) {
		strbuf_addstr(sb, "    record:  ");
		vis(sb, fr->shape);
		strbuf_addch(sb, '\n');
	}
	for (size_t i = 0; i < fr->nclosest; i++)
		text_guess(sb, &fr->closest[i], i == 0);
	if (fr->ties[0])
		text_ties(sb, fr->ties);
	/* The best one reading nothing and failing at the top are as good
	 * as none. */
	const struct formats_guess *best = fr->nclosest ? &fr->closest[0] : NULL;
	if (best && !best->depth && !best->msgs && !best->calls)
		strbuf_addstr(sb, "    (no loader read anything of it)\n");
	if (fr->status == FORMATS_NO_FORMAT && fr->analysed && !fr->nclosest)
		strbuf_addstr(sb, "    closest: none (no loader could be tried)\n");
}

/* "N records, R read, U not read (A load errors, B no format, C not JSON)" */
static void text_counts(struct strbuf *sb, const struct formats_tally *t)
{
	static const char *const what[] = { NULL, "load error", "no format", "not JSON" };
	size_t read = t->by_status[FORMATS_READ];
	size_t unread = t->records - read;
	strbuf_addf(sb, "%zu record%s, %zu read", t->records, plural(t->records), read);
	if (unread) {
		strbuf_addf(sb, ", %zu not read (", unread);
		const char *sep = "";
		for (int st = FORMATS_LOAD_ERROR; st < FORMATS_NSTATUS; st++) {
			size_t n = t->by_status[st];
			if (!n)
				continue;
			strbuf_addf(sb, "%s%zu %s%s", sep, n, what[st],
			            st == FORMATS_LOAD_ERROR ? plural(n) : "");
			sep = ", ";
		}
		strbuf_addch(sb, ')');
	}
	strbuf_addf(sb, "; %zu call%s, %zu note%s", t->calls, plural(t->calls), t->notes,
	            plural(t->notes));
}

void formats_write_file(FILE *out, const char *path, const struct formats_tally *t)
{
	struct strbuf sb = STRBUF_INIT;
	vis(&sb, path);
	strbuf_addstr(&sb, ": ");
	text_counts(&sb, t);
	strbuf_addch(&sb, '\n');
	fwrite(sb.buf, 1, sb.len, out);
	strbuf_release(&sb);
}

/* The most frequent notes, and how many more. */
static void text_notes(struct strbuf *sb, const struct formats_notes *n)
{
	if (!n || (!n->nkinds && !n->other))
		return;
	strbuf_addstr(sb, "  notes (what the loaders kept without knowing it):\n");
	size_t more = n->other;
	for (size_t i = 0; i < n->nkinds; i++) {
		if (i >= FORMATS_NOTE_KINDS_SHOWN) {
			more += n->kinds[i].count;
			continue;
		}
		strbuf_addf(sb, "  %8zu  ", n->kinds[i].count);
		vis(sb, n->kinds[i].text);
		strbuf_addch(sb, '\n');
	}
	if (more)
		strbuf_addf(sb, "  %8zu  of other kinds\n", more);
}

static void text_summary(struct strbuf *sb, const struct formats_summary *s)
{
	strbuf_addf(sb, "summary: %zu file%s, ", s->nfiles, plural(s->nfiles));
	text_counts(sb, &s->all);
	strbuf_addch(sb, '\n');
	bool head = false;
	for (size_t i = 0; cli_format_name(s->declared, i); i++) {
		const struct formats_tally *t = &s->format_tally[i];
		if (!t->records)
			continue;
		if (!head)
			strbuf_addf(sb, "  %-26s %8s %8s %8s %8s\n", "format", "read", "errors", "calls",
			            "notes");
		head = true;
		strbuf_addf(sb, "  %-26s %8zu %8zu %8zu %8zu%s\n", cli_format_name(s->declared, i),
		            t->by_status[FORMATS_READ], t->by_status[FORMATS_LOAD_ERROR], t->calls,
		            t->notes, strcmp(cli_format_name(s->declared, i), "shape") ? ""
		            : "  (read by shape: no format claims these records)");
	}
	text_notes(sb, s->notes);
	if (s->not_analysed)
		strbuf_addf(sb, "  closest formats worked out for the first %d records no format "
		            "claims in each file (%d in all); %zu more not analysed\n",
		            FORMATS_ANALYSED_PER_FILE, FORMATS_ANALYSED_MAX, s->not_analysed);
}

/* ---- JSON ---------------------------------------------------------------- */

static void json_key(struct strbuf *sb, const char *key, bool first)
{
	if (!first)
		strbuf_addch(sb, ',');
	jsonw_string(sb, key, strlen(key));
	strbuf_addch(sb, ':');
}

static void json_str(struct strbuf *sb, const char *key, const char *s)
{
	json_key(sb, key, false);
	if (s)
		jsonw_string(sb, s, strlen(s));
	else
		strbuf_addstr(sb, "null");
}

static void json_num(struct strbuf *sb, const char *key, size_t n)
{
	json_key(sb, key, false);
	strbuf_addf(sb, "%zu", n);
}

static void json_guess(struct strbuf *sb, const struct formats_guess *g)
{
	strbuf_addch(sb, '{');
	json_key(sb, "format", true);
	jsonw_string(sb, g->format, strlen(g->format));
	json_key(sb, "loaded", false);
	strbuf_addstr(sb, g->loaded ? "true" : "false");
	json_num(sb, "messages", g->msgs);
	json_num(sb, "calls", g->calls);
	json_num(sb, "notes", g->notes);
	json_str(sb, "error", g->loaded ? NULL : g->error);
	strbuf_addch(sb, '}');
}

static void json_rec(struct strbuf *sb, const struct formats_rec *fr)
{
	strbuf_addch(sb, '{');
	json_key(sb, "type", true);
	strbuf_addstr(sb, "\"record\"");
	json_str(sb, "source", fr->source);
	json_str(sb, "file", fr->file);
	json_key(sb, "line", false);
	if (fr->line > 0)
		strbuf_addf(sb, "%ld", fr->line);
	else
		strbuf_addstr(sb, "null");
	json_key(sb, "index", false);
	if (fr->index >= 0)
		strbuf_addf(sb, "%ld", fr->index);
	else
		strbuf_addstr(sb, "null");
	json_str(sb, "status", formats_status_name(fr->status));
	json_str(sb, "format", fr->format);
	json_str(sb, "id", fr->id);
	json_num(sb, "messages", fr->msgs);
	json_num(sb, "calls", fr->calls);
	json_num(sb, "results", fr->results);
	json_num(sb, "failed", fr->failed);
	json_num(sb, "notes", fr->notes);
	json_str(sb, "error", fr->error);
	json_key(sb, "closest", false);
	if (!fr->analysed) {
		strbuf_addstr(sb, "null");
	} else {
		strbuf_addch(sb, '[');
		for (size_t i = 0; i < fr->nclosest; i++) {
			if (i)
				strbuf_addch(sb, ',');
			json_guess(sb, &fr->closest[i]);
		}
		strbuf_addch(sb, ']');
	}
	json_key(sb, "ties", false);
	if (!fr->analysed) {
		strbuf_addstr(sb, "null");
	} else {
		/* the names, as a list */
		strbuf_addch(sb, '[');
		for (const char *t = fr->ties; *t;) {
			size_t n = strcspn(t, ",");
			jsonw_string(sb, t, n);
			t += n;
			if (*t) {
				strbuf_addch(sb, ',');
				t += strspn(t, ", ");
			}
		}
		strbuf_addch(sb, ']');
	}
	json_str(sb, "shape", fr->analysed ? fr->shape : NULL);
	strbuf_addstr(sb, "}\n");
}

/* The counts every tally has, after a first key. */
static void json_tally(struct strbuf *sb, const struct formats_tally *t)
{
	json_num(sb, "records", t->records);
	json_num(sb, "read", t->by_status[FORMATS_READ]);
	json_num(sb, "unread", t->records - t->by_status[FORMATS_READ]);
	json_num(sb, "load_errors", t->by_status[FORMATS_LOAD_ERROR]);
	json_num(sb, "no_format", t->by_status[FORMATS_NO_FORMAT]);
	json_num(sb, "not_json", t->by_status[FORMATS_NOT_JSON]);
	json_num(sb, "calls", t->calls);
	json_num(sb, "notes", t->notes);
}

static void json_summary(struct strbuf *sb, const struct formats_summary *s)
{
	strbuf_addch(sb, '{');
	json_key(sb, "type", true);
	strbuf_addstr(sb, "\"summary\"");
	json_num(sb, "files", s->nfiles);
	json_tally(sb, &s->all);
	json_num(sb, "not_analysed", s->not_analysed);
	json_key(sb, "formats", false);
	strbuf_addch(sb, '{');
	bool first = true;
	for (size_t i = 0; cli_format_name(s->declared, i); i++) {
		const struct formats_tally *t = &s->format_tally[i];
		if (!t->records)
			continue;
		json_key(sb, cli_format_name(s->declared, i), first);
		first = false;
		strbuf_addch(sb, '{');
		json_key(sb, "read", true);
		strbuf_addf(sb, "%zu", t->by_status[FORMATS_READ]);
		json_num(sb, "load_errors", t->by_status[FORMATS_LOAD_ERROR]);
		json_num(sb, "calls", t->calls);
		json_num(sb, "notes", t->notes);
		strbuf_addch(sb, '}');
	}
	strbuf_addch(sb, '}');
	json_key(sb, "note_kinds", false);
	strbuf_addch(sb, '[');
	for (size_t i = 0; s->notes && i < s->notes->nkinds; i++) {
		const struct formats_note_kind *k = &s->notes->kinds[i];
		strbuf_addstr(sb, i ? ",{" : "{");
		json_key(sb, "note", true);
		jsonw_string(sb, k->text, strlen(k->text));
		json_num(sb, "count", k->count);
		strbuf_addch(sb, '}');
	}
	strbuf_addch(sb, ']');
	json_num(sb, "other_notes", s->notes ? s->notes->other : 0);
	json_key(sb, "per_file", false);
	strbuf_addch(sb, '[');
	for (size_t f = 0; f < s->nfiles; f++) {
		if (f)
			strbuf_addch(sb, ',');
		strbuf_addch(sb, '{');
		json_key(sb, "file", true);
		jsonw_string(sb, s->files[f].path, strlen(s->files[f].path));
		json_tally(sb, &s->file_tally[f]);
		strbuf_addch(sb, '}');
	}
	strbuf_addstr(sb, "]}\n");
}

/* ---- entry points ---------------------------------------------------------- */

void formats_write_rec(FILE *out, const struct formats_rec *fr, bool json)
{
	struct strbuf sb = STRBUF_INIT;
	if (json)
		json_rec(&sb, fr);
	else
		text_rec(&sb, fr);
	fwrite(sb.buf, 1, sb.len, out);
	strbuf_release(&sb);
}

void formats_write_summary(FILE *out, const struct formats_summary *s, bool json)
{
	struct strbuf sb = STRBUF_INIT;
	if (json)
		json_summary(&sb, s);
	else
		text_summary(&sb, s);
	fwrite(sb.buf, 1, sb.len, out);
	strbuf_release(&sb);
}
