/* test_judge_examples.c - judge/examples.c: which labelled runs a judge is
 * shown (each pick, the judged run and other splits left out, the same
 * choice every time, k above the candidates) and how they read in its
 * prompt, with the prompts' output unchanged when there are none. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <jansson.h>

#include "config/config.h"
#include "judge/examples.h"
#include "judge/judge.h"
#include "runs/format.h"
#include "runs/run.h"
#include "util/error.h"

/* What the configurations are loaded with (the data folder of the
 * built-in prompts), as a command lends it. */
static struct config_opts test_load;

#define NCANDS 60

static struct config cfg;
static struct run *runs[NCANDS];
static struct judge_example cands[NCANDS];
static char ids[NCANDS][16], ats[NCANDS][24], reasons[NCANDS][48];

#define TOOLS "    tools: [{name: get_order, description: looks an order up}]\n"
#define R15 "    rubric: tool-call-accuracy-1to5\n    model: openai/m\n" TOOLS
static const char yaml_text[] =
	"judges:\n"
	"  - id: s15\n" R15 "    examples: {k: 5, pick: stratified, split: train}\n"
	"  - id: s4\n" R15 "    examples: {k: 4, pick: stratified, split: train}\n"
	"  - id: dis\n" R15 "    examples: {k: 4, pick: disagreements, split: train}\n"
	"  - id: rec\n" R15 "    examples: {k: 3, pick: recent, split: dev}\n"
	"  - id: big\n" R15 "    examples: {k: 20, pick: stratified, split: test}\n"
	"  - id: plain\n" R15
	"  - id: appr\n    rubric: tool-appropriateness\n    model: openai/m\n" TOOLS
	"    examples: {k: 4, pick: stratified, split: train}\n";

static const struct judge_conf *judge_named(const char *id)
{
	for (size_t i = 0; i < cfg.njudges; i++)
		if (strcmp(cfg.judges[i].id, id) == 0)
			return &cfg.judges[i];
	fail_msg("no judge %s", id);
	return NULL;
}

static struct run *run_for(int i)
{
	char text[1024];
	snprintf(text, sizeof text,
	         "{\"id\": \"run-%02d\", \"messages\": ["
	         "{\"role\": \"user\", \"content\": \"Where is order %d?\"},"
	         "{\"role\": \"assistant\", \"content\": null, \"tool_calls\": [{\"id\": \"c%d\","
	         " \"type\": \"function\", \"function\": {\"name\": \"get_order\","
	         " \"arguments\": \"{\\\"order_id\\\": \\\"%d\\\"}\"}}]},"
	         "{\"role\": \"tool\", \"tool_call_id\": \"c%d\", \"content\": \"shipped %d\"},"
	         "{\"role\": \"assistant\", \"content\": \"Order %d has shipped.\"}]}",
	         i, i, i, i, i, i, i);
	json_error_t je;
	json_t *rec = json_loads(text, 0, &je);
	if (!rec)
		fail_msg("bad record: %s", je.text);
	struct run *r = run_new(rec, "t.jsonl", (size_t)i + 1, -1);
	json_decref(rec);
	struct error err = {0};
	if (format_load(r, format_find("openai-chat"), &err) < 0)
		fail_msg("run does not load: %s", err.msg);
	r->id = jv_str(r->doc, jv_get(r->doc, run_root(r), "id"));
	return r;
}

/* Sixty labelled runs: levels 1..5 in turn (pass from 3), a time per run,
 * a reason naming the run. */
static int group_setup(void **state)
{
	(void)state;
	const char *src = getenv("TCR_SRCDIR");
	test_load.datadir = src && *src ? src : ".";
	struct error err = {0};
	if (config_load_string(&cfg, &test_load, "t.yaml", ".", yaml_text, sizeof yaml_text - 1, &err) < 0) {
		fprintf(stderr, "%s\n", err.msg);
		return -1;
	}
	for (int i = 0; i < NCANDS; i++) {
		runs[i] = run_for(i);
		snprintf(ids[i], sizeof ids[i], "run-%02d", i);
		/* Not in id order, so that recent is not the id order. */
		snprintf(ats[i], sizeof ats[i], "2026-01-%02dT10:00:00Z", 1 + (i * 7) % 28);
		snprintf(reasons[i], sizeof reasons[i], "reason of run %02d", i);
		double score = 1 + i % 5;
		cands[i] = (struct judge_example){
			.run_id = ids[i], .run = runs[i], .score = score, .passed = score >= 3,
			.reason = reasons[i], .at = ats[i],
		};
	}
	return 0;
}

static int group_teardown(void **state)
{
	(void)state;
	for (int i = 0; i < NCANDS; i++)
		run_free(runs[i]);
	config_free(&cfg);
	test_load.datadir = NULL;
	return 0;
}

static size_t pick(const char *judge, const char *judged, const struct judge_example *list, size_t n,
                   judge_verdict_fn verdict, void *vctx, const struct judge_example **out)
{
	return judge_examples_pick(judge_named(judge), judged, list, n, verdict, vctx, out);
}

static size_t in_split(const struct judge_conf *j, const char *name)
{
	size_t n = 0;
	for (int i = 0; i < NCANDS; i++)
		n += strcmp(split_of(&j->examples.spec, ids[i]), name) == 0;
	return n;
}

static void test_pick_names(void **state)
{
	(void)state;
	assert_int_equal(judge_pick_find("disagreements"), PICK_DISAGREEMENTS);
	assert_int_equal(judge_pick_find("stratified"), PICK_STRATIFIED);
	assert_int_equal(judge_pick_find("recent"), PICK_RECENT);
	assert_int_equal(judge_pick_find("Recent"), -1);
	assert_int_equal(judge_pick_find(NULL), -1);
	assert_string_equal(judge_pick_name(PICK_RECENT), "recent");
	assert_int_equal(judge_named("plain")->examples.k, 0);
}

/* Never the run judged, never a run of another split, never a run that
 * is not loaded; and so never any of them among the chosen. */
static void test_allowed(void **state)
{
	(void)state;
	const struct judge_conf *j = judge_named("s15");
	size_t train = in_split(j, "train");
	assert_true(train > 20 && train < NCANDS);     /* both kinds are there */
	for (int i = 0; i < NCANDS; i++) {
		bool in_train = strcmp(split_of(&j->examples.spec, ids[i]), "train") == 0;
		assert_int_equal(judge_example_allowed(j, "someone-else", &cands[i]), in_train);
		assert_false(judge_example_allowed(j, ids[i], &cands[i]));
	}
	struct judge_example unloaded = cands[0];
	unloaded.run = NULL;
	assert_false(judge_example_allowed(j, "x", &unloaded));

	for (int i = 0; i < NCANDS; i++) {
		const struct judge_example *out[JUDGE_EXAMPLES_MAX];
		size_t n = pick("s15", ids[i], cands, NCANDS, NULL, NULL, out);
		assert_int_equal(n, 5);
		for (size_t k = 0; k < n; k++) {
			assert_string_not_equal(out[k]->run_id, ids[i]);
			assert_string_equal(split_of(&j->examples.spec, out[k]->run_id), "train");
		}
	}
}

/* 1..5: one example of each level for k = 5; four different levels for
 * k = 4, and which level is left out depends on the run judged. */
static void test_stratified_levels(void **state)
{
	(void)state;
	const struct judge_example *out[JUDGE_EXAMPLES_MAX];
	size_t n = pick("s15", "judged-a", cands, NCANDS, NULL, NULL, out);
	assert_int_equal(n, 5);
	int seen[6] = { 0 };
	for (size_t k = 0; k < n; k++)
		seen[(int)out[k]->score]++;
	for (int level = 1; level <= 5; level++)
		assert_int_equal(seen[level], 1);

	int missing[6] = { 0 };
	char judged[32];
	for (int t = 0; t < 40; t++) {
		snprintf(judged, sizeof judged, "judged-%d", t);
		n = pick("s4", judged, cands, NCANDS, NULL, NULL, out);
		assert_int_equal(n, 4);
		int lv[6] = { 0 };
		for (size_t k = 0; k < n; k++)
			lv[(int)out[k]->score]++;
		int absent = 0;
		for (int level = 1; level <= 5; level++) {
			assert_true(lv[level] <= 1);
			if (!lv[level])
				absent = level;
		}
		missing[absent]++;
	}
	int levels_left_out = 0;
	for (int level = 1; level <= 5; level++)
		levels_left_out += missing[level] > 0;
	assert_true(levels_left_out >= 2);
}

/* Other scales count fail and pass: k = 4 gives two of each. */
static void test_stratified_pass_fail(void **state)
{
	(void)state;
	/* On tool-appropriateness (0..1) the labels are fractions; pass from 0.5. */
	struct judge_example unit[NCANDS];
	for (int i = 0; i < NCANDS; i++) {
		unit[i] = cands[i];
		unit[i].score = (i % 4) / 3.0;
		unit[i].passed = unit[i].score >= 0.5;
	}
	const struct judge_example *out[JUDGE_EXAMPLES_MAX];
	for (int t = 0; t < 10; t++) {
		char judged[32];
		snprintf(judged, sizeof judged, "j%d", t);
		size_t n = pick("appr", judged, unit, NCANDS, NULL, NULL, out);
		assert_int_equal(n, 4);
		int passes = 0;
		for (size_t k = 0; k < n; k++)
			passes += out[k]->passed;
		assert_int_equal(passes, 2);
	}
}

/* The judge "says" pass for every even run and fail for every odd one. */
static int even_passes(void *ctx, const struct judge_example *c)
{
	int *asked = ctx;
	++*asked;
	int i = atoi(c->run_id + 4);
	if (i % 10 == 9)
		return -1;              /* never judged */
	return i % 2 == 0;
}

static bool disagrees(const struct judge_example *c)
{
	int i = atoi(c->run_id + 4);
	return i % 10 != 9 && (i % 2 == 0) != c->passed;
}

/* The judge's mistakes first; when there are fewer than k, the rest is
 * stratified; without verdicts, the choice is stratified. */
static void test_disagreements(void **state)
{
	(void)state;
	const struct judge_example *out[JUDGE_EXAMPLES_MAX], *again[JUDGE_EXAMPLES_MAX];
	int asked = 0;
	size_t n = pick("dis", "judged-a", cands, NCANDS, even_passes, &asked, out);
	assert_int_equal(n, 4);
	assert_true(asked > 0);
	for (size_t k = 0; k < n; k++)
		assert_true(disagrees(out[k]));

	/* Two disagreements only: they come first, then two more by level. */
	struct judge_example few[NCANDS];
	size_t nfew = 0, ndis = 0;
	for (int i = 0; i < NCANDS; i++) {
		if (strcmp(split_of(&judge_named("dis")->examples.spec, ids[i]), "train"))
			continue;
		if (disagrees(&cands[i]) && ndis++ >= 2)
			continue;
		few[nfew++] = cands[i];
	}
	assert_int_equal(ndis > 2, true);
	n = pick("dis", "judged-a", few, nfew, even_passes, &asked, out);
	assert_int_equal(n, 4);
	assert_true(disagrees(out[0]) && disagrees(out[1]));
	assert_false(disagrees(out[2]) || disagrees(out[3]));
	assert_true(out[2]->score != out[3]->score);

	n = pick("dis", "judged-a", cands, NCANDS, NULL, NULL, out);
	size_t m = pick("s4", "judged-a", cands, NCANDS, NULL, NULL, again);
	assert_int_equal(n, m);
	for (size_t k = 0; k < n; k++)
		assert_ptr_equal(out[k], again[k]);
}

/* The latest labels, newest first, from the dev split. */
static void test_recent(void **state)
{
	(void)state;
	const struct judge_conf *j = judge_named("rec");
	const struct judge_example *out[JUDGE_EXAMPLES_MAX];
	size_t n = pick("rec", "judged-a", cands, NCANDS, NULL, NULL, out);
	assert_int_equal(n, 3);
	const char *newest_left = "";
	for (int i = 0; i < NCANDS; i++) {
		bool shown = false;
		for (size_t k = 0; k < n; k++)
			shown |= out[k] == &cands[i];
		if (!shown && judge_example_allowed(j, "judged-a", &cands[i]) &&
		    strcmp(ats[i], newest_left) > 0)
			newest_left = ats[i];
	}
	for (size_t k = 0; k < n; k++) {
		assert_string_equal(split_of(&j->examples.spec, out[k]->run_id), "dev");
		assert_true(strcmp(out[k]->at, newest_left) >= 0);
		if (k)
			assert_true(strcmp(out[k - 1]->at, out[k]->at) >= 0);
	}
}

/* The same run gets the same examples whatever the order of the
 * candidates; other runs get other ones. */
static void test_deterministic(void **state)
{
	(void)state;
	struct judge_example rev[NCANDS];
	for (int i = 0; i < NCANDS; i++)
		rev[i] = cands[NCANDS - 1 - i];
	static const char *const judges[] = { "s15", "s4", "dis", "rec", "big", "appr" };
	size_t differ = 0;
	for (size_t t = 0; t < sizeof judges / sizeof *judges; t++) {
		const struct judge_example *a[JUDGE_EXAMPLES_MAX], *b[JUDGE_EXAMPLES_MAX];
		const struct judge_example *c[JUDGE_EXAMPLES_MAX];
		int asked = 0;
		size_t na = pick(judges[t], "judged-a", cands, NCANDS, even_passes, &asked, a);
		size_t nb = pick(judges[t], "judged-a", rev, NCANDS, even_passes, &asked, b);
		assert_int_equal(na, nb);
		for (size_t k = 0; k < na; k++)
			assert_string_equal(a[k]->run_id, b[k]->run_id);
		size_t nc = pick(judges[t], "judged-b", cands, NCANDS, even_passes, &asked, c);
		bool same = nc == na;
		for (size_t k = 0; same && k < na; k++)
			same = a[k] == c[k];
		differ += !same;
	}
	assert_true(differ >= 3);
}

/* k above the candidates: all of them, once each. */
static void test_k_above_candidates(void **state)
{
	(void)state;
	const struct judge_conf *j = judge_named("big");
	size_t test = in_split(j, "test");
	assert_true(test < 20);
	const struct judge_example *out[JUDGE_EXAMPLES_MAX];
	size_t n = pick("big", "judged-a", cands, NCANDS, NULL, NULL, out);
	assert_int_equal(n, test);
	for (size_t a = 0; a < n; a++)
		for (size_t b = a + 1; b < n; b++)
			assert_ptr_not_equal(out[a], out[b]);
	/* The judged run is one of them: one fewer. */
	n = pick("big", out[0]->run_id, cands, NCANDS, NULL, NULL, out);
	assert_int_equal(n, test - 1);
	/* A run labelled twice (two entries) is shown once. */
	struct judge_example twice[2] = { cands[0], cands[0] };
	twice[1].score = 5;
	const struct judge_conf *s = judge_named("s15");
	const char *sp = split_of(&s->examples.spec, ids[0]);
	n = pick(strcmp(sp, "train") == 0 ? "s15" : strcmp(sp, "dev") == 0 ? "rec" : "big", "x",
	         twice, 2, NULL, NULL, out);
	assert_int_equal(n, 1);
	assert_int_equal(pick("s15", "x", cands, 0, NULL, NULL, out), 0);
	assert_int_equal(pick("plain", "x", cands, NCANDS, NULL, NULL, out), 0);
}

static void test_render(void **state)
{
	(void)state;
	const struct judge_conf *j = judge_named("s15");
	char *none = judge_examples_render(j, NULL, 0);
	assert_string_equal(none, "");
	free(none);

	struct judge_example multi = cands[8];
	multi.reason = "first line\nsecond line";
	struct judge_example silent = cands[11];
	silent.reason = NULL;
	const struct judge_example *ex[] = { &cands[7], &multi, &silent };
	char *text = judge_examples_render(j, ex, 3);
	assert_non_null(strstr(text, "First, 3 runs a human reviewer has already graded"));
	const char *e1 = strstr(text, "--- Example 1 of 3 ---\n");
	const char *e2 = strstr(text, "--- Example 2 of 3 ---\n");
	const char *e3 = strstr(text, "--- Example 3 of 3 ---\n");
	assert_non_null(e1);
	assert_true(e1 < e2 && e2 < e3);
	assert_non_null(strstr(e1, "The user's request:\n<<<\nWhere is order 7?\n>>>\n"));
	assert_non_null(strstr(e1, "\"name\":\"get_order\",\"arguments\":{\"order_id\":\"7\"},"
	                           "\"result\":\"shipped 7\""));
	assert_non_null(strstr(e1, "The final answer:\n<<<\nOrder 7 has shipped.\n>>>\n"));
	assert_non_null(strstr(e1, "The reviewer's grade: 3 (on 1..5; a pass)\n"
	                           "The reviewer's reason: reason of run 07\n"));
	assert_non_null(strstr(e2, "The reviewer's grade: 4 (on 1..5; a pass)\n"
	                           "The reviewer's reason: first line\n  second line\n"));
	assert_non_null(strstr(e3, "The reviewer's grade: 2 (on 1..5; a fail)\n"
	                           "The reviewer gave no reason.\n"));
	size_t len = strlen(text);
	assert_true(len > 2 && text[len - 1] == '\n' && text[len - 2] == '\n');
	free(text);

	json_t *list = judge_examples_ids(ex, 3);
	char *s = json_dumps(list, JSON_COMPACT);
	assert_string_equal(s, "[\"run-07\",\"run-08\",\"run-11\"]");
	free(s);
	json_decref(list);
}

/* A run of 40 calls with long results: its example shows whole calls up
 * to a budget and says how many more there were. */
static void test_render_long(void **state)
{
	(void)state;
	char result[401];
	memset(result, 'x', 400);
	result[400] = '\0';
	json_t *msgs = json_array();
	json_array_append_new(msgs, json_pack("{s:s,s:s}", "role", "user", "content", "Do it all."));
	for (int i = 0; i < 40; i++) {
		char id[16], args[32];
		snprintf(id, sizeof id, "c%d", i);
		snprintf(args, sizeof args, "{\"order_id\": \"%d\"}", i);
		json_array_append_new(msgs, json_pack("{s:s,s:n,s:[{s:s,s:s,s:{s:s,s:s}}]}", "role",
		                                      "assistant", "content", "tool_calls", "id", id,
		                                      "type", "function", "function", "name",
		                                      "get_order", "arguments", args));
		json_array_append_new(msgs, json_pack("{s:s,s:s,s:s}", "role", "tool", "tool_call_id",
		                                      id, "content", result));
	}
	json_array_append_new(msgs, json_pack("{s:s,s:s}", "role", "assistant", "content", "Done."));
	json_t *rec = json_pack("{s:s,s:o}", "id", "long", "messages", msgs);
	struct run *r = run_new(rec, "t.jsonl", 1, -1);
	json_decref(rec);
	struct error err = {0};
	assert_int_equal(format_load(r, format_find("openai-chat"), &err), 0);
	struct judge_example e = { .run_id = "long", .run = r, .score = 1, .passed = false,
	                           .reason = "far too many calls", .at = "2026-01-01T00:00:00Z" };
	const struct judge_example *ex[] = { &e };
	char *text = judge_examples_render(judge_named("s15"), ex, 1);
	assert_true(strlen(text) < 10000);
	const char *more = strstr(text, " more calls, not shown)\n]\n");
	assert_non_null(more);
	int shown = 0;
	for (const char *p = text; (p = strstr(p, "\"name\":\"get_order\"")); p++)
		shown++;
	while (more > text && more[-1] >= '0' && more[-1] <= '9')
		more--;
	assert_true(shown > 5);
	assert_int_equal(shown + atoi(more), 40);
	assert_non_null(strstr(text, "\"order_id\":\"0\""));
	assert_non_null(strstr(text, "The final answer:\n<<<\nDone.\n>>>"));
	assert_non_null(strstr(text, "The reviewer's reason: far too many calls\n"));
	free(text);
	run_free(r);
}

static const char *user_text(struct judge_job *job)
{
	struct judge_prompt p;
	assert_true(judge_job_next_prompt(job, &p));
	return p.user;
}

/* The built-in prompts: the examples block before the run judged; with
 * none, the very text a judge without examples is sent. */
static void test_in_prompts(void **state)
{
	(void)state;
	const struct judge_example *ex[] = { &cands[3] };
	static const char *const pairs[][2] = { { "s15", "The conversation:" },
	                                        { "appr", "The user's request:" } };
	for (size_t t = 0; t < 2; t++) {
		const struct judge_conf *j = judge_named(pairs[t][0]);
		char *text = judge_examples_render(j, ex, 1);
		json_t *list = judge_examples_ids(ex, 1);
		struct judge_job *with = judge_job_new_with(j, runs[20], NULL, text, list);
		struct judge_job *without = judge_job_new_with(j, runs[20], NULL, NULL, NULL);
		struct judge_job *plain = judge_job_new(judge_named("plain"), runs[20], NULL);
		const char *u = user_text(with);
		assert_true(strncmp(u, text, strlen(text)) == 0);
		assert_true(strncmp(u + strlen(text), pairs[t][1], strlen(pairs[t][1])) == 0);
		const char *w = user_text(without);
		assert_true(strncmp(w, pairs[t][1], strlen(pairs[t][1])) == 0);
		assert_string_equal(u + strlen(text), w);
		if (t == 0) {
			assert_string_equal(w, user_text(plain));
			/* The ids shown go into the verdict's details. */
			struct judge_reply r = { .text = "{\"reason\": \"ok\", \"score\": 4, "
			                         "\"status\": \"completed\", \"properties\": null}",
			                         .http_status = 200, .prompt_tokens = -1,
			                         .completion_tokens = -1 };
			judge_job_take_reply(with, &r);
			struct verdict v;
			judge_job_verdict(with, &v);
			assert_int_equal(v.status, VERDICT_OK);
			assert_true(json_equal(json_object_get(v.details, "examples"), list));
			verdict_clear(&v);
			judge_job_take_reply(plain, &r);
			judge_job_verdict(plain, &v);
			assert_null(json_object_get(v.details, "examples"));
			verdict_clear(&v);
		}
		judge_job_free(plain);
		judge_job_free(without);
		judge_job_free(with);
		json_decref(list);
		free(text);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pick_names),
		cmocka_unit_test(test_allowed),
		cmocka_unit_test(test_stratified_levels),
		cmocka_unit_test(test_stratified_pass_fail),
		cmocka_unit_test(test_disagreements),
		cmocka_unit_test(test_recent),
		cmocka_unit_test(test_deterministic),
		cmocka_unit_test(test_k_above_candidates),
		cmocka_unit_test(test_render),
		cmocka_unit_test(test_render_long),
		cmocka_unit_test(test_in_prompts),
	};
	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
