/* propose_report.c - what a proposal found, for a person: the inputs and
 * their formats, what was not read and where to look, the run ids, the
 * tools, the verdicts, the ground truth, the judge, and the next command. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "propose_int.h"
#include "util/textvis.h"

static void text(struct strbuf *sb, const char *s)
{
	textvis_append(sb, s, strlen(s), 0);
}

/* A word of a command line, quoted for a POSIX shell when it must be. */
static void shell_word(struct strbuf *sb, const char *s)
{
	bool plain = *s != '\0';
	for (const char *p = s; plain && *p; p++)
		plain = strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./:=+,-@%",
		               *p) != NULL;
	if (plain) {
		text(sb, s);
		return;
	}
	strbuf_addch(sb, '\'');
	for (const char *p = s; *p; p++) {
		if (*p == '\'')
			strbuf_addstr(sb, "'\\''");
		else
			textvis_append(sb, p, 1, 0);
	}
	strbuf_addch(sb, '\'');
}

#define INPUTS_SHOWN 30             /* files listed one by one; the rest counted */

/* The program as the user ran it, so that a command printed runs as it is. */
static void prog(const struct prop_ctx *x, struct strbuf *sb)
{
	shell_word(sb, x->o->prog && *x->o->prog ? x->o->prog : "tcreview");
}

static void inputs(const struct prop_ctx *x, struct strbuf *r)
{
	for (size_t i = 0; i < x->nin; i++) {
		const struct prop_input *in = &x->in[i];
		if (i == INPUTS_SHOWN) {
			strbuf_addf(r, "... and %zu more input files\n", x->nin - i);
			break;
		}
		strbuf_addstr(r, "input ");
		text(r, in->path);
		strbuf_addf(r, ": %zu record%s%s", in->nrecs, in->nrecs == 1 ? "" : "s",
		            in->sampled ? " read, a sample (the input holds more)" : "");
		if (in->nruns) {
			strbuf_addf(r, ", %zu run%s:", in->nruns, in->nruns == 1 ? "" : "s");
			for (size_t f = 0; f < in->nformats; f++)
				strbuf_addf(r, "%s %s %zu", f ? "," : "", in->formats[f].name, in->formats[f].n);
		}
		if (in->truth)
			strbuf_addstr(r, "; no format reads them as runs: ground truth, joined to the runs");
		if (in->joins_too)
			strbuf_addstr(r, "; ground truth that joins the runs too, but a configuration reads "
			              "one expectations file: the one that joins best is used");
		strbuf_addch(r, '\n');
		size_t bad = in->nunread + in->nbroken;
		if (bad && !in->truth && !in->joins_too) {
			strbuf_addf(r, "  not read: %zu record%s (%zu no format reads, %zu malformed); first ",
			            bad, bad == 1 ? "" : "s", in->nunread, in->nbroken);
			text(r, in->first_unread);
			strbuf_addstr(r, ": ");
			text(r, in->unread_why);
			strbuf_addstr(r, "\n  see why: ");
			prog(x, r);
			strbuf_addstr(r, " formats ");
			shell_word(r, in->path);
			strbuf_addch(r, '\n');
		}
	}
	if (x->timed_out)
		strbuf_addf(r, "reading stopped after %d s: what follows is from the records read by then\n",
		            PROPOSE_TIME_MS / 1000);
	if (x->files_left)
		strbuf_addf(r, "files not read for want of time: %zu\n", x->files_left);
}

/* Every format with its runs, across the inputs, in the order first met. */
static void formats(const struct prop_ctx *x, struct strbuf *r)
{
	struct strbuf seen = STRBUF_INIT;
	strbuf_addstr(r, "formats:");
	strbuf_addch(&seen, '\n');
	for (size_t i = 0; i < x->nin; i++)
		for (size_t f = 0; f < x->in[i].nformats; f++) {
			const char *name = x->in[i].formats[f].name;
			char key[256];
			snprintf(key, sizeof key, "\n%s\n", name);
			if (strstr(seen.buf, key))
				continue;
			strbuf_addf(&seen, "%s\n", name);
			size_t n = 0;
			for (size_t j = i; j < x->nin; j++)
				for (size_t g = 0; g < x->in[j].nformats; g++)
					n += strcmp(x->in[j].formats[g].name, name) ? 0 : x->in[j].formats[g].n;
			strbuf_addf(r, "%s %s %zu", seen.len > strlen(name) + 2 ? "," : "", name, n);
		}
	strbuf_addch(r, '\n');
	strbuf_release(&seen);
}

static void verdicts(const struct prop_ctx *x, struct strbuf *r)
{
	if (!x->nverdicts) {
		strbuf_addstr(r, "verdicts in the records: none (no reward, score, success, ...)\n");
		return;
	}
	strbuf_addstr(r, "verdicts in the records:\n");
	for (size_t i = 0; i < x->nverdicts; i++) {
		const struct prop_verdict *v = &x->verdicts[i];
		strbuf_addstr(r, "  ");
		text(r, v->path);
		strbuf_addf(r, " (%zu run%s): ", v->nruns, v->nruns == 1 ? "" : "s");
		if (v->proposed) {
			strbuf_addf(r, "record-field, scale %s%s%s", v->scale, v->map ? ", map " : "",
			            v->map ? v->map : "");
		} else {
			strbuf_addstr(r, "not proposed: ");
			text(r, v->note);
		}
		strbuf_addch(r, '\n');
	}
}

static void truth(const struct prop_ctx *x, struct strbuf *r)
{
	static const char *const what[] = {
		[GT_TOOL_NAMES] = "tool names: tool-call-accuracy (expectedToolOrder)",
		[GT_CALLS] = "calls with arguments: trajectory-match (superset)",
		[GT_KEYED] = "{TOOL: {ARG: [values]}}: no scorer reads it, none proposed",
		[GT_FIRST_TOOL] = "a tool name: tool-call-accuracy (expectedTool)",
		[GT_EMPTY] = "empty in every record: nothing proposed",
	};
	const struct prop_join *j = &x->join;
	if (j->truth) {
		strbuf_addstr(r, "join: runs' ");
		text(r, j->run_path);
		strbuf_addstr(r, " = ");
		text(r, j->exp_path);
		strbuf_addstr(r, " of ");
		text(r, j->truth->path);
		strbuf_addf(r, " (%zu of %zu runs, %zu expectations)\n", j->matched, x->nruns, j->distinct);
	}
	if (!x->ngts)
		strbuf_addstr(r, "ground truth: none found (expected_tools, expected_actions, "
		              "info.task.actions, ...)\n");
	for (size_t i = 0; i < x->ngts; i++) {
		const struct prop_gt *g = &x->gts[i];
		strbuf_addstr(r, g->in_expectation ? "ground truth: expected." : "ground truth: ");
		text(r, g->path);
		if (g->same_as >= 0) {
			strbuf_addstr(r, " (the same calls as ");
			text(r, x->gts[g->same_as].path);
			strbuf_addf(r, " in all %zu runs both reach: not proposed twice; the record's own "
			            "is kept, as it needs no join)\n", g->same_runs);
			continue;
		}
		strbuf_addf(r, " (%s)\n", what[g->kind]);
	}
}

/* Whether out is ./tcreview.yaml, which every command reads unasked. */
static bool is_default_config(const char *out)
{
	const char *base = strrchr(out, '/');
	if (strcmp(base ? base + 1 : out, "tcreview.yaml"))
		return false;
	if (!base)
		return true;
	char here[PATH_MAX], dir[PATH_MAX];
	char *d = strndup(out, (size_t)(base - out) + (base == out));
	bool same = d && realpath(d, dir) && getcwd(here, sizeof here) && !strcmp(dir, here);
	free(d);
	return same;
}

/* The given input g as the next command names it: as given, or, when it
 * is a folder that holds the ground truth too, its files of runs. */
static void next_inputs(const struct prop_ctx *x, size_t g, struct strbuf *cmd)
{
	bool truth = false, runs = false;
	for (size_t i = 0; i < x->nin; i++)
		if (x->in[i].origin == g) {
			truth = truth || x->in[i].truth;
			runs = runs || x->in[i].nruns;
		}
	for (size_t i = 0; truth && i < x->nin; i++)
		if (x->in[i].origin == g && x->in[i].nruns) {
			strbuf_addch(cmd, ' ');
			shell_word(cmd, x->in[i].path);
		}
	if (runs && !truth) {
		strbuf_addch(cmd, ' ');
		shell_word(cmd, x->given[g]);
	}
}

static void next(const struct prop_ctx *x, struct strbuf *r)
{
	struct strbuf cmd = STRBUF_INIT;
	bool ask = x->join.truth && x->join.outside && !x->o->allow_outside;
	prog(x, &cmd);
	if (x->o->out_path && !is_default_config(x->o->out_path)) {
		strbuf_addstr(&cmd, " -c ");
		shell_word(&cmd, x->o->out_path);
	}
	if (ask) {
		strbuf_addstr(&cmd, " --allow-path ");
		shell_word(&cmd, x->join.allow_dir);
	}
	for (size_t g = 0; g < x->ngiven; g++)
		next_inputs(x, g, &cmd);
	if (ask)
		strbuf_addstr(r, "the expectations file lies outside the configuration's folder: it is read "
		              "only with --allow-path, as below (or write the configuration beside it "
		              "with -o)\n");
	else if (x->join.truth && x->join.outside)
		strbuf_addstr(r, "the expectations file lies outside the configuration's folder: you named "
		              "it, so this configuration may read it (recorded in your allowed-paths "
		              "file; other configurations still may not)\n");
	strbuf_addf(r, "next: %s\n", cmd.buf);
	strbuf_release(&cmd);
}

void prop_write_report(const struct prop_ctx *x, struct strbuf *r)
{
	inputs(x, r);
	strbuf_addf(r, "runs read: %zu\n", x->nruns);
	formats(x, r);
	strbuf_addstr(r, x->id_said ? x->id_said : "run ids: no runs");
	strbuf_addch(r, '\n');
	prop_tools_line(x, r);
	verdicts(x, r);
	truth(x, r);
	strbuf_addstr(r, "checks for every run: tool-errors, unanswered-calls\n");
	text(r, x->judge.said ? x->judge.said : "judge: none");
	strbuf_addch(r, '\n');
	next(x, r);
}
