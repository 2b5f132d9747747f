/* review_fixture.c - four runs, two scorers and a judge answered by hand, for the review layer's tests. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "judge/judge.h"
#include "review/settle.h"
#include "review_fixture.h"
#include "test_files.h"
#include "util/error.h"

/* What the configurations are loaded with (the data folder of the
 * built-in prompts), as a command lends it. */
static struct config_opts test_load;

static const char runs[] =
	"{\"id\":\"run-c\",\"model\":\"gpt-x\",\"messages\":["
	"{\"role\":\"user\",\"content\":\"Where is my order 42?\"},"
	"{\"role\":\"assistant\",\"content\":null,\"tool_calls\":[{\"id\":\"c1\",\"type\":\"function\","
	"\"function\":{\"name\":\"get_order\",\"arguments\":\"{\\\"order_id\\\":\\\"42\\\"}\"}}]},"
	"{\"role\":\"tool\",\"tool_call_id\":\"c1\",\"content\":\"{\\\"status\\\":\\\"shipped\\\"}\"},"
	"{\"role\":\"assistant\",\"content\":\"Your order 42 is shipped.\"}]}\n"
	"{\"id\":\"run-a\",\"messages\":["
	"{\"role\":\"user\",\"content\":\"Cancel my order\"},"
	"{\"role\":\"assistant\",\"content\":null,\"tool_calls\":[{\"id\":\"c1\",\"type\":\"function\","
	"\"function\":{\"name\":\"cancel_order\",\"arguments\":\"{\\\"order_id\\\":\\\"7\\\"}\"}}]},"
	"{\"role\":\"tool\",\"tool_call_id\":\"c1\",\"content\":\"ok\"},"
	"{\"role\":\"assistant\",\"content\":\"Cancelled.\"}]}\n"
	"{\"id\":\"run-d\",\"model\":\"gpt-y\",\"messages\":["
	"{\"role\":\"user\",\"content\":\"Refund please\"},"
	"{\"role\":\"assistant\",\"content\":null,\"tool_calls\":[{\"id\":\"c1\",\"type\":\"function\","
	"\"function\":{\"name\":\"get_order\",\"arguments\":\"{\\\"order_id\\\":\\\"ZX-99\\\"}\"}}]},"
	"{\"role\":\"tool\",\"tool_call_id\":\"c1\",\"content\":\"Error: not found\"},"
	"{\"role\":\"assistant\",\"content\":\"Sorry, no.\"}]}\n"
	"{\"id\":\"run-b\",\"messages\":["
	"{\"role\":\"user\",\"content\":\"hello there\"},"
	"{\"role\":\"assistant\",\"content\":\"hello there friend\"}]}\n";

/* The judge points at a port nothing listens on: it is never asked. */
static const char yaml[] =
	"scorers:\n"
	"  - id: lookup\n"
	"    type: tool-call-accuracy\n"
	"    expectedTool: get_order\n"
	"  - id: words\n"
	"    type: word-inclusion\n"
	"judges:\n"
	"  - id: ju\n"
	"    rubric: tool-call-accuracy-1to5\n"
	"    model: openai/judge-model\n"
	"    base_url: http://127.0.0.1:9/v1\n"
	"    tools: [{name: get_order, description: looks an order up}]\n";

int review_fixture_setup(struct review_fixture *fx, const char *name, const char *extra_yaml)
{
	memset(fx, 0, sizeof *fx);
	const char *top = getenv("TCR_SRCDIR");
	test_load.datadir = top && *top ? top : ".";
	setenv("OPENAI_API_KEY", "sk-tcr-review-fixture-0001", 1);
	setenv("TCR_FAKE_NOW", "2026-01-01T00:00:00Z", 1);
	snprintf(fx->dir, sizeof fx->dir, "/tmp/tcr-%s-XXXXXX", name);
	if (!mkdtemp(fx->dir))
		return -1;
	snprintf(fx->runs_path, sizeof fx->runs_path, "%s/runs.jsonl", fx->dir);
	snprintf(fx->annot_path, sizeof fx->annot_path, "%s/annotations.jsonl", fx->dir);
	test_write_file(fx->runs_path, runs);
	char text[2048];
	int n = snprintf(text, sizeof text, "%s%s", yaml, extra_yaml ? extra_yaml : "");
	struct error err = {0};
	if (config_load_string(&fx->cfg, &test_load, "t.yaml", fx->dir, text, (size_t)n, &err) < 0) {
		fprintf(stderr, "%s\n", err.msg);
		return -1;
	}
	return 0;
}

int review_fixture_teardown(struct review_fixture *fx)
{
	config_free(&fx->cfg);
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", fx->dir);
	test_load.datadir = NULL;
	return system(cmd) == 0 ? 0 : -1;
}

void rfx_reset(struct review_fixture *fx)
{
	unlink(fx->annot_path);
}

void rfx_open(struct review_fixture *fx, struct review *rv, const char *reviewer)
{
	struct error err = {0};
	char *paths[] = { fx->runs_path };
	const char *apaths[] = { fx->annot_path };
	if (review_open(rv, &fx->cfg, NULL, paths, 1, apaths, 1, reviewer, &err) < 0)
		fail_msg("review_open: %s", err.msg);
	int n = 0;
	while (review_step(rv, 0))
		assert_true(++n < 1000);
	review_settle(rv);
}

size_t rfx_entry(struct review *rv, const char *id)
{
	for (size_t i = 0; i < rv->nentries; i++)
		if (rv->entries[i].id && strcmp(rv->entries[i].id, id) == 0)
			return i;
	fail_msg("no entry %s", id);
	return 0;
}

const char *rfx_cur(struct review *rv)
{
	if (review_view_count(rv) == 0)
		return "";
	return review_view_entry(rv, review_cursor(rv))->id;
}

void rfx_go(struct review *rv, const char *id)
{
	size_t n = review_view_count(rv);
	for (size_t i = 0; i < n; i++)
		if (strcmp(review_view_entry(rv, i)->id, id) == 0) {
			review_move_to(rv, i);
			review_settle(rv);
			return;
		}
	fail_msg("%s is not in view", id);
}

const char *rfx_view(struct review *rv)
{
	static char buf[256];
	buf[0] = '\0';
	for (size_t i = 0; i < review_view_count(rv); i++) {
		if (i)
			strcat(buf, ",");
		strcat(buf, review_view_entry(rv, i)->id);
	}
	return buf;
}

void rfx_judge(struct review *rv, const char *id, double score, const char *reason)
{
	struct verdict v = { 0 };
	verdict_ok(&v, rv->cfg->judges[0].threshold, score, json_pack("{s:s}", "reason", reason));
	review_judge_done(rv, rfx_entry(rv, id), 0, &v);
	verdict_clear(&v);
	review_settle(rv);
}

void rfx_judge_error(struct review *rv, const char *id, const char *why)
{
	struct verdict v = { 0 };
	verdict_error(&v, "%s", why);
	review_judge_done(rv, rfx_entry(rv, id), 0, &v);
	verdict_clear(&v);
	review_settle(rv);
}

void rfx_label(struct review *rv, const char *id, size_t row, double score)
{
	rfx_go(rv, id);
	struct error err = {0};
	bool accepted;
	if (review_label(rv, row, score, &accepted, &err) < 0)
		fail_msg("label %s row %zu: %s", id, row, err);
	review_settle(rv);
}

size_t rfx_lines_with(struct review_fixture *fx, const char *needle)
{
	char *text = test_slurp(fx->annot_path);
	size_t n = 0;
	for (char *p = text; p && *p;) {
		char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		char line[4096];
		snprintf(line, sizeof line, "%.*s", (int)len, p);
		n += strstr(line, needle) != NULL;
		p += len + (nl ? 1 : 0);
	}
	free(text);
	return n;
}
