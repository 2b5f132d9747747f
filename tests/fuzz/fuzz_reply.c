/* fuzz_reply.c - judge replies of every provider and rubric: the input is
 * a byte choosing the judge and how to read the rest (an HTTP body for the
 * provider to unwrap, or the model's text itself), then the replies to the
 * job's prompts, one per step, separated by "\n===\n". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config/config.h"
#include "judge/judge.h"
#include "judge/provider.h"
#include "runs/format.h"
#include "runs/run.h"
#include "util/error.h"

/* What the configurations are loaded with (the data folder of the
 * built-in prompts), as a command lends it. */
static struct config_opts test_load;

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char yaml_text[] =
	"judges:\n"
	"  - {id: a, rubric: tool-appropriateness, model: openai/gpt-4o-mini}\n"
	"  - {id: b, rubric: tool-appropriateness, model: anthropic/claude-sonnet}\n"
	"  - id: c\n"
	"    rubric: tool-call-accuracy-1to5\n"
	"    model: azure/my-deployment\n"
	"    endpoint: https://example.openai.azure.com\n"
	"    api_version: \"2024-10-21\"\n"
	"  - {id: d, rubric: tool-call-accuracy-1to5, model: ollama/llama3}\n"
	"  - {id: e, rubric: custom, model: ollama/llama3, prompt_file: p.txt, scale: {min: 1, max: 5, pass: 4}}\n"
	"  - {id: f, rubric: custom, model: anthropic/claude-sonnet, prompt_file: p.txt, scale: {min: 0, max: 1, pass: 0.5}}\n";

static const char prompt_text[] =
	"=== system\nRate from {{min}} to {{max}}.\n=== user\n{{input}}\n{{output}}\n{{tool_calls}}\n";

static const char run_text[] =
	"{\"id\":\"r\",\"messages\":[{\"role\":\"user\",\"content\":\"Weather in Paris?\"},"
	"{\"role\":\"assistant\",\"content\":null,\"tool_calls\":[{\"id\":\"c1\",\"type\":\"function\","
	"\"function\":{\"name\":\"weather\",\"arguments\":\"{\\\"city\\\":\\\"Paris\\\"}\"}}]},"
	"{\"role\":\"tool\",\"tool_call_id\":\"c1\",\"content\":\"sunny\"},"
	"{\"role\":\"assistant\",\"content\":\"It is sunny.\"}],"
	"\"tools\":[{\"type\":\"function\",\"function\":{\"name\":\"weather\",\"description\":\"Weather now\"}}]}";

static struct config cfg;
static struct run *run;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	const char *src = getenv("TCREVIEW_DATADIR");
	test_load.datadir = src && *src ? src : ".";
	setenv("OPENAI_API_KEY", "fuzz-not-a-key", 1);
	setenv("ANTHROPIC_API_KEY", "fuzz-not-a-key", 1);
	setenv("AZURE_OPENAI_API_KEY", "fuzz-not-a-key", 1);
	static char dir[512];
	const char *tmp = getenv("TMPDIR");
	snprintf(dir, sizeof dir, "%s/tcr-fuzz-reply-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir))
		abort();
	char path[600];
	snprintf(path, sizeof path, "%s/p.txt", dir);
	FILE *f = fopen(path, "w");
	if (!f || fputs(prompt_text, f) < 0 || fclose(f) != 0)
		abort();
	struct error err = {0};
	if (config_load_string(&cfg, &test_load, "fuzz.yaml", dir, yaml_text, sizeof yaml_text - 1, &err) != 0) {
		fprintf(stderr, "fuzz_reply: %s\n", err.msg);
		abort();
	}
	unlink(path);
	rmdir(dir);
	json_t *rec = json_loads(run_text, 0, NULL);
	run = run_new(rec, "fuzz.jsonl", 1, -1);
	json_decref(rec);
	if (format_load(run, format_find("openai-chat"), &err) != 0)
		abort();
	return 0;
}

/* The next piece of the input, up to the separator (a copy, NUL-ended). */
static char *next_piece(const uint8_t **p, const uint8_t *end, size_t *len)
{
	static const char sep[] = "\n===\n";
	const uint8_t *q = *p;
	while (q < end && !(end - q >= 5 && memcmp(q, sep, 5) == 0))
		q++;
	*len = (size_t)(q - *p);
	char *s = malloc(*len + 1);
	if (!s)
		abort();
	memcpy(s, *p, *len);
	s[*len] = '\0';
	*p = q < end ? q + 5 : end;
	return s;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1 || cfg.njudges == 0)
		return 0;
	const struct judge_conf *j = &cfg.judges[(data[0] >> 1) % cfg.njudges];
	bool as_body = data[0] & 1;
	const uint8_t *p = data + 1, *end = data + size;
	struct judge_job *job = judge_job_new(j, run, NULL);
	struct judge_prompt prompt;
	for (int step = 0; step < 8 && !judge_job_done(job) && judge_job_next_prompt(job, &prompt); step++) {
		size_t len;
		char *piece = next_piece(&p, end, &len);
		struct judge_reply rep = { .http_status = 200, .prompt_tokens = -1, .completion_tokens = -1 };
		char *text = NULL;
		struct error err = {0};
		if (!as_body)
			rep.text = piece;
		else if (provider_reply(j, 200, piece, len, &text, &rep, &err) == 0)
			rep.text = text;
		else
			rep.error = err.msg;
		judge_job_take_reply(job, &rep);
		free(text);
		free(piece);
	}
	if (judge_job_done(job)) {
		struct verdict v;
		judge_job_verdict(job, &v);
		verdict_clear(&v);
	}
	judge_job_free(job);
	return 0;
}
