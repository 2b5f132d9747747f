/* test_review_tags.c - review/tags and annot/tagcount: a tag on a run and
 * on a call (its id and tool kept), the same tag twice writing nothing, a
 * code typed in another spelling written as the one in use, the prompt's
 * completions (prefix first, then substring, defined tags first, a
 * description matching, what a code counts under), taking the latest tag
 * back, aliases (a merge into a defined tag) changing the counts and taken
 * back, and the tag filter. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "annot/tagcount.h"
#include "review/session.h"
#include "review/tags.h"
#include "review_fixture.h"
#include "test_files.h"
#include "util/error.h"

static struct review_fixture fx;

static const char tags_yaml[] =
	"tags:\n"
	"  - id: wrong-tool\n"
	"    description: Called a tool that does not fit\n"
	"    key: w\n"
	"    absorbs: [bad tool]\n"
	"  - id: policy-breach\n"
	"    description: Acted against the policy\n";

static int group_setup(void **state)
{
	(void)state;
	return review_fixture_setup(&fx, "tags", tags_yaml);
}

static int group_teardown(void **state)
{
	(void)state;
	return review_fixture_teardown(&fx);
}

/* ann's session with run-c tagged "lookup err" on the run and "bad tool"
 * on its call, run-a "LOOKUP  err" (written as "lookup err"). */
static void tagged(struct review *rv)
{
	struct error err = {0};
	rfx_reset(&fx);
	rfx_open(&fx, rv, "ann");
	rfx_go(rv, "run-c");
	assert_int_equal(review_tag(rv, 0, "lookup err", &err), 0);
	assert_int_equal(review_tag(rv, 1, "bad tool", &err), 0);
	rfx_go(rv, "run-a");
	assert_int_equal(review_tag(rv, 0, "LOOKUP  err", &err), 0);
}

static void tag_run_and_call(void **state)
{
	(void)state;
	struct review rv;
	struct error err = {0};
	tagged(&rv);
	assert_int_equal(rfx_lines_with(&fx, "\"decision\":\"tag\""), 3);
	assert_int_equal(rfx_lines_with(&fx, "\"call\":1,\"call_id\":\"c1\",\"tool\":\"get_order\""), 1);
	assert_int_equal(rfx_lines_with(&fx, "LOOKUP"), 0);
	/* the same (run, call, tag) again: said, nothing written */
	rfx_go(&rv, "run-c");
	assert_int_equal(review_tag(&rv, 0, "Lookup Err", &err), 1);
	assert_int_equal(review_tag(&rv, 1, "bad tool", &err), 1);
	assert_int_equal(rfx_lines_with(&fx, "\"decision\":\"tag\""), 3);
	/* a tag on the call is not on the run, and the other way round */
	const struct decision *d[8];
	assert_int_equal(review_tags_on(&rv, "run-c", 0, d, 8), 1);
	assert_string_equal(d[0]->tag, "lookup err");
	assert_int_equal(review_tags_on(&rv, "run-c", 1, d, 8), 1);
	assert_string_equal(d[0]->tag, "bad tool");
	assert_int_equal(review_tags_on(&rv, "run-c", -1, d, 8), 2);
	/* refused: no such call, an empty tag */
	assert_int_equal(review_tag(&rv, 7, "slow", &err), -1);
	assert_non_null(strstr(err.msg, "no call 7"));
	assert_int_equal(review_tag(&rv, 0, "   ", &err), -1);
	assert_int_equal(rfx_lines_with(&fx, "\"decision\":\"tag\""), 3);
	review_close(&rv);
}

static void completions(void **state)
{
	(void)state;
	struct review rv;
	tagged(&rv);
	struct tag_cand c[16];
	size_t n = review_tag_candidates(&rv, "", c, 16);
	assert_int_equal(n, 4);
	assert_string_equal(c[0].name, "wrong-tool");
	assert_true(c[0].defined);
	assert_int_equal(c[0].key, 'w');
	assert_string_equal(c[1].name, "policy-breach");
	assert_string_equal(c[2].name, "lookup err");
	assert_false(c[2].defined);
	assert_string_equal(c[3].name, "bad tool");
	assert_string_equal(c[3].hint, "wrong-tool");      /* absorbed */
	/* "l": what starts with it, then what holds it (a description too) */
	n = review_tag_candidates(&rv, "L", c, 16);
	assert_int_equal(n, 4);
	assert_string_equal(c[0].name, "lookup err");
	assert_string_equal(c[1].name, "wrong-tool");       /* "Called ..." */
	assert_string_equal(c[2].name, "policy-breach");
	assert_string_equal(c[3].name, "bad tool");
	n = review_tag_candidates(&rv, "pol", c, 16);
	assert_int_equal(n, 1);
	assert_string_equal(c[0].name, "policy-breach");
	/* a space first (to get past a tag's key) completes as without it */
	n = review_tag_candidates(&rv, " pol", c, 16);
	assert_int_equal(n, 1);
	assert_string_equal(c[0].name, "policy-breach");
	assert_int_equal(review_tag_candidates(&rv, "zzz", c, 16), 0);
	assert_string_equal(review_tag_spelling(&rv, "WRONG-tool"), "wrong-tool");
	assert_string_equal(review_tag_spelling(&rv, "new code"), "new code");
	review_close(&rv);
}

static void untag(void **state)
{
	(void)state;
	struct review rv;
	struct error err = {0};
	char code[64];
	tagged(&rv);
	rfx_go(&rv, "run-c");
	assert_true(review_tag_is_latest(&rv, ROW_LOOKUP));
	/* on the call: its tag */
	assert_int_equal(review_untag(&rv, 1, code, sizeof code, &err), 0);
	assert_string_equal(code, "bad tool");
	const struct decision *d[8];
	assert_int_equal(review_tags_on(&rv, "run-c", 1, d, 8), 0);
	assert_int_equal(rfx_lines_with(&fx, "\"decision\":\"retract\""), 1);
	assert_int_equal(rfx_lines_with(&fx, "\"retracts\":\"tag\""), 1);
	/* on the run: the latest left */
	assert_int_equal(review_untag(&rv, -1, code, sizeof code, &err), 0);
	assert_string_equal(code, "lookup err");
	assert_int_equal(review_untag(&rv, -1, code, sizeof code, &err), -1);
	assert_int_equal(err.kind, ERR_NOTHING_TO_RETRACT);
	assert_false(review_tag_is_latest(&rv, ROW_LOOKUP));
	/* another reviewer's tag is not this one's to take back */
	review_close(&rv);
	rfx_open(&fx, &rv, "bob");
	rfx_go(&rv, "run-a");
	assert_null(review_latest_tag(&rv, -1));
	assert_int_equal(review_untag(&rv, -1, code, sizeof code, &err), -1);
	review_close(&rv);
}

static const struct tag_row *row(const struct tag_table *tt, const char *name)
{
	const struct tag_row *r = tag_table_find(tt, name);
	if (!r)
		fail_msg("no row %s", name);
	return r;
}

static void aliases(void **state)
{
	(void)state;
	struct review rv;
	struct error err = {0};
	tagged(&rv);
	struct tag_table tt;
	tag_table_build(&tt, &fx.cfg.vocab, rv.annot);
	assert_int_equal(tt.n, 4);
	assert_int_equal(row(&tt, "wrong-tool")->runs, 1);
	assert_int_equal(row(&tt, "wrong-tool")->calls, 1);
	assert_int_equal(row(&tt, "policy-breach")->runs, 0);
	assert_int_equal(row(&tt, "lookup err")->runs, 2);
	assert_null(row(&tt, "lookup err")->under);
	tag_table_free(&tt);

	const char *codes[] = { "lookup err" };
	assert_int_equal(review_tag_alias(&rv, codes, 1, "Policy-Breach", &err), 0);
	assert_int_equal(rfx_lines_with(&fx, "\"tag_to\":\"policy-breach\""), 1);
	tag_table_build(&tt, &fx.cfg.vocab, rv.annot);
	assert_int_equal(row(&tt, "policy-breach")->runs, 2);
	assert_string_equal(row(&tt, "lookup err")->under, "policy-breach");
	assert_int_equal(row(&tt, "lookup err")->runs, 2);
	tag_table_free(&tt);
	/* merged already: nothing to write */
	assert_int_equal(review_tag_alias(&rv, codes, 1, "policy-breach", &err), -1);

	review_set_tag_filter(&rv, "policy-breach");
	assert_string_equal(rfx_view(&rv), "run-c,run-a");
	assert_string_equal(review_filter_label(&rv), "tag policy-breach");
	review_set_tag_filter(&rv, "wrong-tool");
	assert_string_equal(rfx_view(&rv), "run-c");

	assert_int_equal(review_tag_unalias(&rv, "lookup err", &err), 0);
	tag_table_build(&tt, &fx.cfg.vocab, rv.annot);
	assert_int_equal(row(&tt, "policy-breach")->runs, 0);
	tag_table_free(&tt);
	assert_int_equal(review_tag_unalias(&rv, "lookup err", &err), -1);
	review_close(&rv);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(tag_run_and_call),
		cmocka_unit_test(completions),
		cmocka_unit_test(untag),
		cmocka_unit_test(aliases),
	};
	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
