/* propose_yaml.c - the proposal written as a commented YAML: what was read,
 * the tools called, the runs' id, the expectations join, the scorers (the
 * generic checks, the verdicts the records carry, the ground truth) and the
 * judge. Whatever found no scorer is said in a comment. */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "propose_int.h"
#include "runs/runs_conf.h"
#include "util/textvis.h"
#include "util/xalloc.h"

static bool plain_byte(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_' || c == '.' || c == '/' || c == '-';
}

/* Words a YAML reader could take for something other than a string. */
static bool reserved(const char *s)
{
	static const char *const words[] = { "y", "n", "yes", "no", "on", "off", "true", "false",
	                                     "null", NULL };
	for (size_t i = 0; words[i]; i++)
		if (!strcasecmp(s, words[i]))
			return true;
	char *end;
	(void)strtod(s, &end);
	return *end == '\0';
}

void prop_yaml_scalar(struct strbuf *sb, const char *s)
{
	bool plain = *s && *s != '-' && *s != '.' && !reserved(s);
	for (const char *p = s; plain && *p; p++)
		plain = plain_byte((unsigned char)*p);
	if (plain) {
		strbuf_addstr(sb, s);
		return;
	}
	strbuf_addch(sb, '"');
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\')
			strbuf_addf(sb, "\\%c", *p);
		else if (*p < 0x20 || *p == 0x7f)
			strbuf_addf(sb, "\\x%02x", *p);
		else
			strbuf_addch(sb, (char)*p);
	}
	strbuf_addch(sb, '"');
}

/* Text from the records, safe inside a comment: one line, controls shown. */
static void comment_text(struct strbuf *sb, const char *s)
{
	textvis_append(sb, s, strlen(s), 0);
}

char *prop_id_of(const char *prefix, const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	strbuf_addstr(&sb, prefix);
	size_t start = sb.len;
	for (const char *p = path; *p; p++) {
		char c = plain_byte((unsigned char)*p) && *p != '/' ? *p : '-';
		bool edge = sb.len == start || sb.buf[sb.len - 1] == '-' || sb.buf[sb.len - 1] == '.';
		if (c == '-' && edge)
			continue;       /* no runs of '-', none after a '.' or first */
		if (c == '.' && sb.len > start && sb.buf[sb.len - 1] == '-')
			sb.len--;       /* nor before one */
		strbuf_addch(&sb, c);
	}
	while (sb.len > start && (sb.buf[sb.len - 1] == '-' || sb.buf[sb.len - 1] == '.'))
		sb.buf[--sb.len] = '\0';
	if (sb.len == start)
		strbuf_addstr(&sb, "field");
	return strbuf_detach(&sb);
}

/* The scorer ids written so far, so that no two are the same. */
struct ids {
	struct strbuf seen;         /* "\nID\n" for each */
};

static void put_id(struct ids *ids, struct strbuf *y, char *id)
{
	struct strbuf try = STRBUF_INIT;
	strbuf_addstr(&try, id);
	for (int n = 2;; n++) {
		struct strbuf key = STRBUF_INIT;
		strbuf_addf(&key, "\n%s\n", try.buf);
		bool taken = ids->seen.buf && strstr(ids->seen.buf, key.buf);
		strbuf_release(&key);
		if (!taken)
			break;
		strbuf_reset(&try);
		strbuf_addf(&try, "%s-%d", id, n);
	}
	strbuf_addf(&ids->seen, "%s%s\n", ids->seen.len ? "" : "\n", try.buf);
	strbuf_addf(y, "  - id: %s\n", try.buf);
	strbuf_release(&try);
	free(id);
}

static void header(const struct prop_ctx *x, struct strbuf *y)
{
	strbuf_addstr(y, "# tcreview configuration proposed by tcreview init from what the inputs hold.\n"
	              "# Every scorer below runs on every run; edit freely (man tcreview, CONFIGURATION).\n#\n");
	for (size_t i = 0; i < x->nin; i++) {
		const struct prop_input *in = &x->in[i];
		if (i == 30) {
			strbuf_addf(y, "# ... and %zu more input files\n", x->nin - i);
			break;
		}
		strbuf_addstr(y, "# ");
		comment_text(y, in->path);
		strbuf_addf(y, ": %zu record%s%s", in->nrecs, in->nrecs == 1 ? "" : "s",
		            in->sampled ? " (a sample: the first ones only)" : "");
		for (size_t f = 0; f < in->nformats; f++)
			strbuf_addf(y, "%s%s %zu", f ? ", " : "; ", in->formats[f].name, in->formats[f].n);
		if (in->truth)
			strbuf_addstr(y, "; ground truth joined to the runs");
		else if (in->nunread + in->nbroken)
			strbuf_addf(y, "; %zu not read (tcreview formats FILE says why)", in->nunread + in->nbroken);
		strbuf_addch(y, '\n');
	}
	strbuf_addstr(y, "#\n");
}

static void runs_section(const struct prop_ctx *x, struct strbuf *y)
{
	strbuf_addstr(y, "# ");
	comment_text(y, x->id_said ? x->id_said : "run ids: no runs read");
	strbuf_addch(y, '\n');
	if (!x->id_spec) {
		strbuf_addstr(y, "# runs: {id: PATH} names each run by a field of its record.\n\n");
		return;
	}
	strbuf_addstr(y, "runs:\n  id: ");
	size_t n = run_id_spec_count(x->id_spec);
	char path[RUN_ID_PATH_MAX];
	for (size_t i = 0; i < n; i++) {
		strbuf_addstr(y, n > 1 ? (i ? ", " : "[") : "");
		if (run_id_spec_part(x->id_spec, i, path, sizeof path))
			prop_yaml_scalar(y, path);
	}
	strbuf_addstr(y, n > 1 ? "]\n\n" : "\n\n");
}

static void expectations_section(const struct prop_ctx *x, struct strbuf *y)
{
	const struct prop_join *j = &x->join;
	if (!j->truth) {
		strbuf_addstr(y, "# expectations: no input holds ground truth that joins the runs (give\n"
		              "# tcreview init the file of expected calls beside the runs to have it joined).\n\n");
		return;
	}
	strbuf_addf(y, "# The ground truth: %zu run%s find their expectation (%zu distinct) by ",
	            j->matched, j->matched == 1 ? "" : "s", j->distinct);
	comment_text(y, j->run_path);
	strbuf_addstr(y, " = ");
	comment_text(y, j->exp_path);
	strbuf_addstr(y, ".\n");
	if (j->outside && x->o->allow_outside)
		strbuf_addstr(y, "# The file lies outside this file's folder: `tcreview init` recorded in your\n"
		              "# own allowed-paths file (beside your config.yaml) that this file may read\n"
		              "# it, since you named it; elsewhere, or for a copy, give --allow-path FILE.\n");
	else if (j->outside)
		strbuf_addstr(y, "# The file lies outside this file's folder: tcreview reads it only with\n"
		              "# --allow-path FILE (or move it beside this file and name it relatively).\n");
	strbuf_addstr(y, "expectations:\n  file: ");
	prop_yaml_scalar(y, j->file);
	strbuf_addstr(y, "\n  match: {run: ");
	prop_yaml_scalar(y, j->run_path);
	strbuf_addstr(y, ", expected: ");
	prop_yaml_scalar(y, j->exp_path);
	strbuf_addstr(y, "}\n\n");
}

/* "{from: expected.PATH}" or "{from: PATH}". */
static void from(struct strbuf *y, const struct prop_gt *g)
{
	struct strbuf p = STRBUF_INIT;
	if (g->in_expectation)
		strbuf_addstr(&p, g->path[0] == '[' ? "expected" : "expected.");
	strbuf_addstr(&p, g->path);
	strbuf_addstr(y, "{from: ");
	prop_yaml_scalar(y, p.buf);
	strbuf_addstr(y, "}\n");
	strbuf_release(&p);
}

static void gt_scorer(const struct prop_ctx *x, struct strbuf *y, const struct prop_gt *g,
                      struct ids *ids)
{
	const char *where = g->in_expectation ? "the expectation's" : "the record's";
	strbuf_addf(y, "  # %s ", where);
	comment_text(y, g->path);
	if (g->same_as >= 0) {
		strbuf_addstr(y, ": the same calls as the record's ");
		comment_text(y, x->gts[g->same_as].path);
		strbuf_addf(y, " in all %zu runs\n  # both reach, so one trajectory-match is proposed: on the "
		            "record's own, which\n  # needs no join (it checks a run the join misses too).\n",
		            g->same_runs);
		return;
	}
	switch (g->kind) {
	case GT_TOOL_NAMES:
		strbuf_addf(y, " (tool names, in %zu record%s): every one called, in this order\n",
		             g->nrecs, g->nrecs == 1 ? "" : "s");
		break;
	case GT_FIRST_TOOL:
		strbuf_addstr(y, " (one tool name): called at least once\n");
		break;
	case GT_CALLS:
		strbuf_addf(y, " (calls with arguments, in %zu record%s): every expected call made,\n"
		            "  # with the arguments it names (extra calls allowed; mode: strict for exactly these)\n",
		            g->nrecs, g->nrecs == 1 ? "" : "s");
		break;
	case GT_KEYED:
		strbuf_addstr(y, " holds calls as {TOOL: {ARG: [allowed values]}} (BFCL):\n"
		              "  # no scorer reads that shape as written; none proposed\n");
		return;
	case GT_EMPTY:
		strbuf_addstr(y, " is an empty list in every record read: nothing to check\n");
		return;
	}
	const char *pre = g->kind == GT_CALLS ? "trajectory:" : g->kind == GT_FIRST_TOOL
	                  ? "first-tool:" : "tool-order:";
	put_id(ids, y, prop_id_of(pre, g->path));
	if (g->kind == GT_CALLS) {
		strbuf_addstr(y, "    type: trajectory-match\n    reference: ");
		from(y, g);
		strbuf_addstr(y, "    mode: superset\n    args: superset\n");
	} else {
		strbuf_addf(y, "    type: tool-call-accuracy\n    %s: ",
		            g->kind == GT_FIRST_TOOL ? "expectedTool" : "expectedToolOrder");
		from(y, g);
	}
}

static void verdict_scorer(struct strbuf *y, const struct prop_verdict *v, struct ids *ids)
{
	strbuf_addstr(y, "  # the record's own verdict at ");
	comment_text(y, v->path);
	strbuf_addf(y, " (in %zu record%s)", v->nruns, v->nruns == 1 ? "" : "s");
	if (v->note) {
		strbuf_addstr(y, ": ");
		comment_text(y, v->note);
	}
	strbuf_addch(y, '\n');
	if (!v->proposed)
		return;
	put_id(ids, y, prop_id_of("", v->path));
	strbuf_addstr(y, "    type: record-field\n    path: ");
	prop_yaml_scalar(y, v->path);
	strbuf_addf(y, "\n    scale: %s\n", v->scale);
	if (v->map)
		strbuf_addf(y, "    map: %s\n", v->map);
}

static void scorers_section(const struct prop_ctx *x, struct strbuf *y)
{
	struct ids ids = { STRBUF_INIT };
	strbuf_addstr(&ids.seen, "\ntool-errors\nunanswered-calls\n" JUDGE_PROPOSED_ID "\n");
	strbuf_addstr(y, "scorers:\n"
	              "  # Generic checks, for any run: calls whose result is an error, and calls\n"
	              "  # that never got a result.\n"
	              "  - id: tool-errors\n    type: tool-errors\n"
	              "  - id: unanswered-calls\n    type: unanswered-calls\n");
	if (!x->nverdicts)
		strbuf_addstr(y, "  # The records carry no verdict of their own (reward, score, success, ...).\n");
	for (size_t i = 0; i < x->nverdicts; i++)
		verdict_scorer(y, &x->verdicts[i], &ids);
	if (!x->ngts)
		strbuf_addstr(y, "  # No ground truth (expected tools or calls) in the records or a joined file.\n");
	for (size_t i = 0; i < x->ngts; i++)
		if (!x->gts[i].in_expectation || x->join.truth)
			gt_scorer(x, y, &x->gts[i], &ids);
	strbuf_addch(y, '\n');
	strbuf_release(&ids.seen);
}

void prop_write_yaml(const struct prop_ctx *x, struct strbuf *y)
{
	header(x, y);
	prop_tools_table(x, y);
	strbuf_addch(y, '\n');
	runs_section(x, y);
	expectations_section(x, y);
	scorers_section(x, y);
	strbuf_addstr(y, x->judge.block ? x->judge.block : "");
}
