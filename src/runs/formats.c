/* formats.c - the table of transcript loaders and detection. */
#include "runs/format.h"
#include "util/error.h"

#include <stdio.h>
#include <string.h>

extern const struct format_ops format_mastra, format_mastra_1x, format_mastra_0x;
extern const struct format_ops format_aisdk5;
extern const struct format_ops format_aisdk_stream;
extern const struct format_ops format_openai_chat;
extern const struct format_ops format_openai_responses;
extern const struct format_ops format_openai_agents;
extern const struct format_ops format_codex;
extern const struct format_ops format_anthropic, format_anthropic_message;
extern const struct format_ops format_chat_response;
extern const struct format_ops format_gemini;
extern const struct format_ops format_google_adk;
extern const struct format_ops format_autogen;
extern const struct format_ops format_openai_agents_js;
extern const struct format_ops format_azure;
extern const struct format_ops format_taubench;
extern const struct format_ops format_tau2;
extern const struct format_ops format_swe_agent, format_mini_swe_agent;
extern const struct format_ops format_langchain;
extern const struct format_ops format_langsmith;
extern const struct format_ops format_inspect;
extern const struct format_ops format_openhands;
extern const struct format_ops format_mastra_tracing;
extern const struct format_ops format_claude_code;
extern const struct format_ops format_otel;
extern const struct format_ops format_langfuse;
extern const struct format_ops format_atif;
extern const struct format_ops format_shape;
extern const struct format_ops format_tcreview;

/* Order matters only for ties in detection: earlier wins. */
const struct format_ops *const format_table[] = {
	&format_tcreview,
	&format_mastra,
	&format_mastra_1x,
	&format_mastra_0x,
	&format_inspect,
	&format_openhands,
	&format_mastra_tracing,
	&format_claude_code,
	&format_otel,
	&format_langfuse,
	&format_atif,
	&format_langsmith,
	&format_langchain,
	&format_tau2,
	&format_taubench,
	&format_swe_agent,
	&format_mini_swe_agent,
	&format_azure,
	&format_anthropic,
	&format_anthropic_message,
	&format_chat_response,
	&format_gemini,
	&format_google_adk,
	&format_autogen,
	&format_openai_agents,
	&format_openai_agents_js,
	&format_codex,
	&format_openai_responses,
	&format_aisdk5,
	&format_aisdk_stream,
	&format_openai_chat,
	&format_shape,           /* never detected: the last resort of format_load */
	NULL,
};

const struct format_ops *format_find(const char *name)
{
	for (size_t i = 0; format_table[i]; i++)
		if (strcmp(format_table[i]->name, name) == 0)
			return format_table[i];
	return NULL;
}

const struct format_ops *format_detect(const struct jdoc *d, jv record)
{
	const struct format_ops *best = NULL;
	int best_score = 0;
	for (size_t i = 0; format_table[i]; i++) {
		int s = format_table[i]->detect(d, record);
		if (s > best_score) {
			best = format_table[i];
			best_score = s;
		}
		/* A record that names its format (tcreview's run format) needs
		 * no other opinion. */
		if (best_score >= FORMAT_DETECT_CERTAIN)
			break;
	}
	return best;
}

/* The formats that claim a record, most confident first (the table's
 * order between equals). Returns how many. */
static size_t format_claims(const struct jdoc *d, jv record, const struct format_ops **out,
                            size_t cap)
{
	int scores[64];
	size_t n = 0;
	for (size_t i = 0; format_table[i] && n < cap; i++) {
		int s = format_table[i]->detect(d, record);
		if (s <= 0)
			continue;
		size_t at = n++;
		while (at > 0 && scores[at - 1] < s) {
			scores[at] = scores[at - 1];
			out[at] = out[at - 1];
			at--;
		}
		scores[at] = s;
		out[at] = format_table[i];
	}
	return n;
}

/* Whether what loader f read from the record is nothing: no message and
 * no call, or no call and no note while the reader by shape finds calls
 * in it (checked only then, so a run with calls costs no second walk).
 * The run is left empty when it read nothing. */
static bool reads_nothing(struct run *r, const struct format_ops *f)
{
	if (r->ncalls > 0 || (r->nmsgs > 0 && r->nnotes > 0))
		return false;
	if (r->nmsgs == 0) {
		run_reset(r);
		return true;
	}
	run_reset(r);
	struct error err = {0};
	bool calls = format_shape.load(r, &err) == 0 && r->ncalls > 0;
	run_reset(r);
	if (calls)
		return true;
	f->load(r, &err);   /* it loaded once: its reading stands */
	return false;
}

int format_load(struct run *r, const struct format_ops *forced, struct error *err)
{
	if (forced) {
		r->format = forced->name;     /* a forced format is never passed on */
		return forced->load(r, err);
	}
	const struct format_ops *claims[64];
	size_t n = format_claims(r->doc, run_root(r), claims, sizeof claims / sizeof claims[0]);
	const struct format_ops *empty_ok = NULL;    /* one that read an empty run, legitimately */
	for (size_t i = 0; i < n; i++) {
		r->format = claims[i]->name;
		if (claims[i]->load(r, err) < 0)
			return -1;
		if (!reads_nothing(r, claims[i]))
			return 0;
		if (!empty_ok)
			empty_ok = claims[i];
	}
	r->format = format_shape.name;
	if (format_shape.load(r, err) == 0)
		return 0;
	run_reset(r);
	if (empty_ok) {
		r->format = empty_ok->name;
		return empty_ok->load(r, err);
	}
	r->format = "unknown";         /* what run_new_doc says: no format read it */
	error_set(err, ERR_FAILED, "not a transcript format tcreview knows, and no conversation found "
	         "by its shape (no agent message or tool call); name its format with --format "
	         "(see tcreview --help formats) or declare it");
	return -1;
}
