/* test_word_inclusion.c - the custom scorer of Mastra's createScorer
 * example, with the documentation's three examples and the JavaScript
 * details it inherits (ASCII words, substring matches, lower-casing). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "config/config.h"
#include "runs/format.h"
#include "util/jsonw.h"
#include "scorers/scorer.h"
#include "util/error.h"

static struct config cfg;

static int setup(void **state)
{
	(void)state;
	static const char yaml[] =
		"scorers:\n"
		"  - id: words\n"
		"    type: word-inclusion\n"
		"  - id: given\n"
		"    type: word-inclusion\n"
		"    input: {from: q}\n"
		"    output: {from: a}\n";
	struct error err = {0};
	assert_int_equal(config_load_string(&cfg, NULL, "t.yaml", ".", yaml, sizeof yaml - 1, &err), 0);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	config_free(&cfg);
	return 0;
}

/* Scores a chat run whose first user message is `query` and final answer `answer`. */
static void score_chat(size_t scorer, const char *query, const char *answer, double want_score,
                       int total, int matched)
{
	json_t *rec = json_pack("{s:[{s:s,s:s},{s:s,s:s},{s:s,s:s}],s:s,s:s}",
	                        "messages", "role", "user", "content", query,
	                        "role", "assistant", "content", "Let me look.",
	                        "role", "assistant", "content", answer,
	                        "q", query, "a", answer);
	assert_non_null(rec);
	struct run *r = run_new(rec, "t.jsonl", 1, -1);
	json_decref(rec);
	struct error err = {0};
	assert_int_equal(format_load(r, format_find("openai-chat"), &err), 0);
	struct verdict v;
	scorer_run(&cfg.scorers[scorer], r, NULL, NULL, &v);
	assert_int_equal(v.status, VERDICT_OK);
	if (v.score != want_score)
		fail_msg("score %.17g, want %.17g for '%s'", v.score, want_score, query);
	assert_int_equal(json_integer_value(json_object_get(v.details, "totalWords")), total);
	assert_int_equal(json_integer_value(json_object_get(v.details, "matchedWords")), matched);
	verdict_clear(&v);
	run_free(r);
}

static void test_docs_examples(void **s)
{
	(void)s;
	score_chat(0, "apple, banana, orange", "My favorite fruits are: apple, banana, and orange.", 1, 3, 3);
	score_chat(0, "programming, python, javascript, java",
	           "I love programming with python for data science projects.", 0.5, 4, 2);
	score_chat(0, "soccer, basketball, tennis",
	           "I enjoy reading books and watching movies in my free time.", 0, 3, 0);
}

static void test_js_details(void **s)
{
	(void)s;
	/* substring, not word, matches: "java" is inside "javascript" */
	score_chat(0, "java", "I write javascript", 1, 1, 1);
	/* distinct words only, case-insensitive */
	score_chat(0, "Apple apple APPLE pear", "an apple", 0.5, 2, 1);
	/* no ASCII words: Japanese and Chinese input score 0 */
	score_chat(0, "注文はどこですか", "注文は発送済みです", 0, 0, 0);
	score_chat(0, "我的订单在哪里", "您的订单已发货", 0, 0, 0);
	/* mixed: only the ASCII words count */
	score_chat(0, "注文 1042 はどこ", "ご注文1042は発送済み", 1, 1, 1);
	/* \w includes digits and underscore; punctuation splits */
	score_chat(0, "order_id: A-17", "order_id a", 2.0 / 3.0, 3, 2);
	/* U+212A KELVIN SIGN lower-cases to an ASCII k in JavaScript */
	score_chat(0, "\xe2\x84\xaam", "km", 1, 1, 1);
	/* U+0130 lower-cases to i + U+0307, which splits the word */
	score_chat(0, "\xc4\xb0stanbul", "i love stanbul", 1, 2, 2);
	/* ... and in the answer, among other characters of the same lead
	 * bytes (U+2014, U+2122, U+0131), which stay as they are: "km" and
	 * "x" are found; "istanbul" (split by the dot) and "em" are not */
	score_chat(0, "km istanbul em x",
	           "\xe2\x80\x94\xe2\x84\xaaM \xc4\xb0STANBUL \xe2\x80\x94" "e\xe2\x84\xa2M \xc4\xb1X",
	           0.5, 4, 2);
}

/* A long request: 300 distinct words, each written three times, of which
 * the answer holds every third. */
static void test_many_words(void **s)
{
	(void)s;
	char query[300 * 3 * 8 + 1] = "", answer[100 * 8 + 1] = "";
	size_t qn = 0, an = 0;
	for (int round = 0; round < 3; round++)
		for (int i = 0; i < 300; i++)
			qn += (size_t)snprintf(query + qn, sizeof query - qn, "w%03d ", i);
	for (int i = 0; i < 300; i += 3)
		an += (size_t)snprintf(answer + an, sizeof answer - an, "W%03d ", i);
	score_chat(0, query, answer, 100.0 / 300.0, 300, 100);
}

static void test_parameters_from_record(void **s)
{
	(void)s;
	score_chat(1, "red green", "red", 0.5, 2, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_docs_examples),
		cmocka_unit_test(test_js_details),
		cmocka_unit_test(test_many_words),
		cmocka_unit_test(test_parameters_from_record),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
