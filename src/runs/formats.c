/* formats.c - the table of transcript loaders and detection. */
#include "runs/format.h"

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
	&format_openai_agents,
	&format_codex,
	&format_openai_responses,
	&format_aisdk5,
	&format_aisdk_stream,
	&format_openai_chat,
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

int format_load(struct run *r, const struct format_ops *forced, char *err, size_t errlen)
{
	const struct format_ops *f = forced ? forced : format_detect(r->doc, run_root(r));
	if (!f) {
		snprintf(err, errlen, "not a transcript format tcreview knows "
		         "(try --format; see tcreview --help formats)");
		return -1;
	}
	r->format = f->name;
	return f->load(r, err, errlen);
}
