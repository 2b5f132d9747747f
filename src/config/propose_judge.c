/* propose_judge.c - the judges section for the provider the environment
 * offers: a key variable that is set, else an Ollama server that answers
 * on this machine; commented out, saying what to set, when there is none. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge/probe.h"
#include "propose_int.h"
#include "util/textvis.h"
#include "util/xalloc.h"

#define PROBE_TIMEOUT_MS 700
#define JUDGE_ID JUDGE_PROPOSED_ID

static const char *env(const char *name)
{
	const char *v = getenv(name);
	return v && *v ? v : NULL;
}

/* The judge's lines after "  - id: ...", indented by lead. */
static void judge_lines(struct strbuf *sb, const char *lead, const char *model,
                        const char *extra)
{
	strbuf_addf(sb, "%s  - id: " JUDGE_ID "\n", lead);
	strbuf_addf(sb, "%s    rubric: tool-appropriateness\n", lead);
	strbuf_addf(sb, "%s    model: ", lead);
	prop_yaml_scalar(sb, model);
	strbuf_addf(sb, "\n%s    tools: from-run\n", lead);
	if (extra)
		strbuf_addstr(sb, extra);
}

static void active(struct prop_ctx *x, const char *why, const char *model, const char *extra,
                   const char *said)
{
	struct strbuf sb = STRBUF_INIT;
	strbuf_addf(&sb, "# %s: an LLM judge rates whether each call was the right one (runs\n"
	            "# without tool definitions are skipped). It sends a run to the model only when\n"
	            "# you judge: key j on the screen, or tcreview judge.\njudges:\n", why);
	judge_lines(&sb, "", model, extra);
	x->judge.block = strbuf_detach(&sb);
	x->judge.said = xstrdup(said);
	x->judge.active = true;
}

static bool from_keys(struct prop_ctx *x)
{
	char extra[1024], said[256];
	if (env("OPENAI_API_KEY")) {
		active(x, "OPENAI_API_KEY is set", "openai/gpt-4o-mini", NULL,
		       "judge: openai/gpt-4o-mini (OPENAI_API_KEY is set)");
		return true;
	}
	if (env("ANTHROPIC_API_KEY")) {
		active(x, "ANTHROPIC_API_KEY is set", "anthropic/claude-3-5-haiku-latest", NULL,
		       "judge: anthropic/claude-3-5-haiku-latest (ANTHROPIC_API_KEY is set)");
		return true;
	}
	const char *ep = env("AZURE_OPENAI_ENDPOINT");
	if (env("AZURE_OPENAI_API_KEY") && ep) {
		struct strbuf sb = STRBUF_INIT;
		strbuf_addstr(&sb, "    endpoint: ");
		prop_yaml_scalar(&sb, ep);
		strbuf_addstr(&sb, "\n    api_version: \"2024-10-21\"\n");
		snprintf(extra, sizeof extra, "%s", sb.buf);
		strbuf_release(&sb);
		snprintf(said, sizeof said, "judge: azure/gpt-4o-mini (AZURE_OPENAI_API_KEY is set; "
		         "name your deployment in model)");
		active(x, "AZURE_OPENAI_API_KEY and AZURE_OPENAI_ENDPOINT are set (model: azure/YOUR-DEPLOYMENT)",
		       "azure/gpt-4o-mini", extra, said);
		return true;
	}
	return false;
}

static bool from_ollama(struct prop_ctx *x, struct ollama_probe *p)
{
	if (!x->o->probe_local || judge_probe_ollama(PROBE_TIMEOUT_MS, p) < 0 || !p->nmodels)
		return false;
	char model[300], extra[700] = "", said[1300], why[900];
	snprintf(model, sizeof model, "ollama/%s", p->model);
	if (strcmp(p->base, OLLAMA_PROBE_BASE)) {
		struct strbuf sb = STRBUF_INIT;
		strbuf_addstr(&sb, "    base_url: ");
		char url[600];
		snprintf(url, sizeof url, "%s/v1", p->base);
		prop_yaml_scalar(&sb, url);
		strbuf_addch(&sb, '\n');
		snprintf(extra, sizeof extra, "%s", sb.buf);
		strbuf_release(&sb);
	}
	snprintf(why, sizeof why, "an Ollama server answers at %s with %zu model%s", p->base,
	         p->nmodels, p->nmodels == 1 ? "" : "s");
	snprintf(said, sizeof said, "judge: %s (%s)", model, why);
	active(x, why, model, extra[0] ? extra : NULL, said);
	return true;
}

void prop_judge_commented(struct prop_ctx *x, const char *reason)
{
	struct strbuf sb = STRBUF_INIT, line = STRBUF_INIT;
	/* The reason may quote a message of many lines: one comment line. */
	textvis_append(&line, reason, strlen(reason), 0);
	strbuf_addf(&sb, "# No judge: %s.\n", line.buf);
	strbuf_addstr(&sb,
	        "# To have an LLM judge, set OPENAI_API_KEY (or ANTHROPIC_API_KEY, or\n"
	        "# AZURE_OPENAI_API_KEY with AZURE_OPENAI_ENDPOINT), or start Ollama on this\n"
	        "# machine (ollama serve; ollama pull llama3.2 and model: ollama/llama3.2), then\n"
	        "# run tcreview init again, or uncomment these lines:\n#\n# judges:\n");
	judge_lines(&sb, "# ", "openai/gpt-4o-mini", NULL);
	free(x->judge.block);
	free(x->judge.said);
	x->judge.block = strbuf_detach(&sb);
	char said[1200];
	snprintf(said, sizeof said, "judge: none (%.900s); set OPENAI_API_KEY, ANTHROPIC_API_KEY or "
	         "AZURE_OPENAI_API_KEY with AZURE_OPENAI_ENDPOINT, or start Ollama "
	         "(ollama serve; ollama pull llama3.2)", line.buf);
	strbuf_release(&line);
	x->judge.said = xstrdup(said);
	x->judge.active = false;
}

void prop_find_judge(struct prop_ctx *x)
{
	struct ollama_probe p;
	if (from_keys(x) || from_ollama(x, &p))
		return;
	char reason[900];
	if (x->o->probe_local && p.answered)
		snprintf(reason, sizeof reason, "no key variable is set, and the Ollama server at %s "
		         "has no model (ollama pull llama3.2)", p.base);
	else
		snprintf(reason, sizeof reason, "no key variable is set%s", x->o->probe_local
		         ? " and no Ollama server answers on localhost:11434" : "");
	prop_judge_commented(x, reason);
}
