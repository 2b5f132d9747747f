/* test_annot_analysis.c - the decision kinds of failure analysis in the
 * annotations file: tags on runs and calls, aliases, call labels,
 * corrections, groups taken back by one line, queue weights, the lines as
 * written and read back, bad lines, and the tags: and call_labels: sections. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "annot/store.h"
#include "annot/vocab.h"
#include "conf/conf.h"
#include "util/error.h"

static char dir[256];

static int setup(void **st)
{
	(void)st;
	const char *tmp = getenv("TMPDIR");
	snprintf(dir, sizeof dir, "%s/tcr-annot-fa.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **st)
{
	(void)st;
	char cmd[512];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

static void path_in(char *buf, size_t n, const char *name)
{
	snprintf(buf, n, "%s/%s", dir, name);
	unlink(buf);
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	char *buf = malloc((size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

static void spit(const char *path, const char *data)
{
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	fputs(data, f);
	fclose(f);
}

static struct annot_store *open_at(const char *path)
{
	struct error err;
	struct annot_store *s = annot_open(path, &err);
	if (!s)
		fail_msg("%s", err.msg);
	return s;
}

static void add(struct annot_store *s, const struct decision *d)
{
	struct error err;
	if (annot_append(s, d, &err) != 0)
		fail_msg("%s", err.msg);
}

static struct decision tag(const char *run, long call, const char *code, const char *who,
                           const char *at)
{
	return (struct decision){ .kind = DEC_TAG, .run = run, .call = call, .tag = code,
	                          .reviewer = who, .at = at };
}

/* What a visitor saw, as "kind:tag:call" words joined by spaces. */
struct seen {
	char text[1024];
};

static void see(void *ctx, const struct decision *d)
{
	struct seen *sn = ctx;
	size_t len = strlen(sn->text);
	snprintf(sn->text + len, sizeof sn->text - len, "%s%s:%s:%ld:%s", len ? " " : "",
	         annot_kind_name(d->kind), d->tag ? d->tag : d->label ? d->label : "-", d->call,
	         d->reviewer);
}

static const char *of_run(const struct annot_store *s, const char *run, struct seen *sn)
{
	sn->text[0] = '\0';
	annot_each_of_run(s, run, see, sn);
	return sn->text;
}

/* Tags on a run and on its calls stand together; each is taken back on
 * its own, and reading the file again gives the same. */
static void test_tags_stand_and_retract(void **st)
{
	(void)st;
	char path[300];
	path_in(path, sizeof path, "tags.jsonl");
	struct annot_store *s = open_at(path);
	struct decision d = tag("r1", 0, "wrong tool", "ann", "2026-12-01T10:00:00Z");
	add(s, &d);
	d = tag("r1", 3, "bad args", "ann", "2026-12-01T10:01:00Z");
	d.call_id = "call_7";
	d.tool = "book_reservation";
	add(s, &d);
	d = tag("r1", 3, "loop", "ann", "2026-12-01T10:02:00Z");
	add(s, &d);
	d = tag("r2", 0, "wrong tool", "bob", "2026-12-01T10:03:00Z");
	add(s, &d);
	struct seen sn;
	assert_string_equal(of_run(s, "r1", &sn),
	                    "tag:wrong tool:0:ann tag:bad args:3:ann tag:loop:3:ann");
	/* Taking back the call's "bad args" leaves its "loop" and the run's tag. */
	d = (struct decision){ .kind = DEC_RETRACT, .retracts_set = true, .retracts = DEC_TAG,
	                       .run = "r1", .call = 3, .tag = "bad args", .reviewer = "ann",
	                       .at = "2026-12-01T10:04:00Z" };
	add(s, &d);
	assert_string_equal(of_run(s, "r1", &sn), "tag:wrong tool:0:ann tag:loop:3:ann");
	annot_close(s);

	char *text = slurp(path);
	assert_non_null(strstr(text, "\"decision\":\"tag\",\"score\":null,\"reason\":null,"
	                             "\"reviewer\":\"ann\",\"blind\":false,"
	                             "\"at\":\"2026-12-01T10:01:00Z\",\"config\":null,"
	                             "\"tag\":\"bad args\",\"call\":3,\"call_id\":\"call_7\","
	                             "\"tool\":\"book_reservation\"}"));
	assert_non_null(strstr(text, "\"decision\":\"retract\""));
	assert_non_null(strstr(text, "\"retracts\":\"tag\""));
	free(text);
	s = open_at(path);
	assert_null(annot_warning(s));
	assert_string_equal(of_run(s, "r1", &sn), "tag:wrong tool:0:ann tag:loop:3:ann");
	assert_string_equal(of_run(s, "r2", &sn), "tag:wrong tool:0:bob");
	assert_string_equal(of_run(s, "r3", &sn), "");
	annot_close(s);
}

/* Aliases rename and merge codes for the whole file; a chain is
 * followed, a cycle stops, a retract brings the old name back. */
static void test_aliases(void **st)
{
	(void)st;
	char path[300];
	path_in(path, sizeof path, "alias.jsonl");
	struct annot_store *s = open_at(path);
	struct decision a = { .kind = DEC_TAG_ALIAS, .tag = "wrong tool", .tag_to = "tool-choice",
	                      .reviewer = "ann", .at = "2026-12-01T11:00:00Z" };
	add(s, &a);
	assert_string_equal(annot_tag_resolve(s, "wrong tool"), "tool-choice");
	assert_string_equal(annot_tag_resolve(s, "other"), "other");
	/* Every spelling of the code: case and runs of spaces aside. */
	assert_string_equal(annot_tag_resolve(s, "  Wrong\t TOOL "), "tool-choice");
	a.tag = "tool-choice";
	a.tag_to = "wrong-tool";
	a.reviewer = "bob";     /* whoever wrote it, an alias is the file's */
	add(s, &a);
	assert_string_equal(annot_tag_resolve(s, "wrong tool"), "wrong-tool");
	a.tag = "wrong-tool";
	a.tag_to = "wrong tool";    /* a cycle: stops where it closes */
	add(s, &a);
	assert_string_equal(annot_tag_resolve(s, "wrong tool"), "wrong tool");
	struct decision r = { .kind = DEC_RETRACT, .retracts_set = true, .retracts = DEC_TAG_ALIAS,
	                      .tag = "wrong-tool", .reviewer = "ann" };
	add(s, &r);
	assert_string_equal(annot_tag_resolve(s, "wrong tool"), "wrong-tool");
	annot_close(s);
	char *text = slurp(path);
	assert_non_null(strstr(text, "\"run\":null"));
	assert_non_null(strstr(text, "\"tag\":\"wrong tool\",\"tag_to\":\"tool-choice\""));
	free(text);
	s = open_at(path);
	assert_null(annot_warning(s));
	assert_string_equal(annot_tag_resolve(s, "wrong tool"), "wrong-tool");
	annot_close(s);
}

/* A call's label and its corrections each stand on their own subject:
 * a label does not take back a correction, an insertion not a
 * replacement; the answer is the run's. */
static void test_call_labels_and_corrections(void **st)
{
	(void)st;
	char path[300];
	path_in(path, sizeof path, "calls.jsonl");
	struct annot_store *s = open_at(path);
	struct decision d = { .kind = DEC_CALL_LABEL, .run = "r1", .call = 2, .has_score = true,
	                      .score = 0, .label = "wrong", .reviewer = "ann" };
	add(s, &d);
	d.score = 1;
	d.label = "correct";      /* a second label stands over the first */
	add(s, &d);
	struct decision c = { .kind = DEC_CORRECT, .run = "r1", .call = 2,
	                      .correction = CORR_REPLACE, .reviewer = "ann",
	                      .expected = "{ \"name\": \"search\", \"arguments\": {\"q\": \"東京\"} }" };
	add(s, &c);
	c.correction = CORR_INSERT;
	c.expected = "[{\"name\":\"think\"},{\"name\":\"ask\",\"arguments\":null}]";
	add(s, &c);
	c.correction = CORR_ANSWER;
	c.call = 0;
	c.expected = "\"Your flight is booked.\"";
	add(s, &c);
	struct seen sn;
	assert_string_equal(of_run(s, "r1", &sn),
	                    "call-label:correct:2:ann correct:-:2:ann correct:-:2:ann correct:-:0:ann");
	/* Taking back the label leaves the first label standing under it. */
	d = (struct decision){ .kind = DEC_RETRACT, .retracts_set = true, .retracts = DEC_CALL_LABEL,
	                       .run = "r1", .call = 2, .reviewer = "ann" };
	add(s, &d);
	assert_string_equal(of_run(s, "r1", &sn),
	                    "call-label:wrong:2:ann correct:-:2:ann correct:-:2:ann correct:-:0:ann");
	/* Taking back a removal is the call's fix slot: the replacement goes. */
	d = (struct decision){ .kind = DEC_RETRACT, .retracts_set = true, .retracts = DEC_CORRECT,
	                       .correction = CORR_REMOVE, .run = "r1", .call = 2, .reviewer = "ann" };
	add(s, &d);
	assert_string_equal(of_run(s, "r1", &sn),
	                    "call-label:wrong:2:ann correct:-:2:ann correct:-:0:ann");
	annot_close(s);
	char *text = slurp(path);
	/* `expected` is written as the JSON value, compact, UTF-8 kept. */
	assert_non_null(strstr(text, "\"correction\":\"replace\",\"expected\":{\"name\":\"search\","
	                             "\"arguments\":{\"q\":\"東京\"}}"));
	assert_non_null(strstr(text, "\"correction\":\"answer\",\"expected\":\"Your flight is booked.\""));
	free(text);
	s = open_at(path);
	assert_null(annot_warning(s));
	assert_string_equal(of_run(s, "r1", &sn),
	                    "call-label:wrong:2:ann correct:-:2:ann correct:-:0:ann");
	annot_close(s);
}

/* What is refused when written, with the reason, and nothing recorded. */
static void test_refused(void **st)
{
	(void)st;
	char path[300];
	path_in(path, sizeof path, "refused.jsonl");
	struct annot_store *s = open_at(path);
	static const struct {
		struct decision d;
		const char *why;
	} cases[] = {
		{ { .kind = DEC_TAG, .run = "r", .reviewer = "a" }, "a tag needs \"tag\"" },
		{ { .kind = DEC_TAG, .tag = "x", .reviewer = "a" }, "a decision needs a run and a reviewer" },
		{ { .kind = DEC_TAG_ALIAS, .tag = "x", .reviewer = "a" }, "a tag-alias needs \"tag_to\"" },
		{ { .kind = DEC_CALL_LABEL, .run = "r", .reviewer = "a", .has_score = true },
		  "a call-label needs \"call\"" },
		{ { .kind = DEC_CALL_LABEL, .run = "r", .call = 1, .reviewer = "a" },
		  "a call-label needs \"score\"" },
		{ { .kind = DEC_CORRECT, .run = "r", .call = 1, .reviewer = "a" },
		  "a correction needs \"correction\"" },
		{ { .kind = DEC_CORRECT, .run = "r", .call = 1, .correction = CORR_REPLACE,
		    .reviewer = "a", .expected = "{\"name\": 3}" },
		  "\"expected\" is not a call ({\"name\": ..., \"arguments\": {...}})" },
		{ { .kind = DEC_CORRECT, .run = "r", .call = 1, .correction = CORR_REPLACE,
		    .reviewer = "a", .expected = "{\"name\": \"f\", \"arguments\": [1]}" },
		  "the expected call's \"arguments\" is not an object" },
		{ { .kind = DEC_CORRECT, .run = "r", .call = 1, .correction = CORR_INSERT,
		    .reviewer = "a", .expected = "[]" }, "an insertion names no call" },
		{ { .kind = DEC_CORRECT, .run = "r", .call = 1, .correction = CORR_REPLACE,
		    .reviewer = "a", .expected = "{not json" }, "\"expected\" is not JSON" },
		{ { .kind = DEC_CORRECT, .run = "r", .call = 1, .correction = CORR_ANSWER,
		    .reviewer = "a", .expected = "\"x\"" }, "an answer has no \"call\"" },
		{ { .kind = DEC_CORRECT, .run = "r", .correction = CORR_ANSWER,
		    .reviewer = "a", .expected = "42" }, "an answer's \"expected\" is not a string" },
		{ { .kind = DEC_CORRECT, .run = "r", .correction = CORR_REMOVE, .reviewer = "a" },
		  "a call correction needs \"call\"" },
		{ { .kind = DEC_RETRACT, .retracts_group = true, .reviewer = "a" },
		  "a retract of a group needs \"group\"" },
		{ { .kind = DEC_ACCEPT, .run = "r", .scorer = "s", .reviewer = "a", .has_weight = true,
		    .weight = 0.5 }, "\"weight\" is not a number of 1 or more" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		struct error err;
		assert_int_equal(annot_append(s, &cases[i].d, &err), -1);
		const char *m = strstr(err.msg, ": ");
		assert_non_null(m);
		if (strcmp(m + 2, cases[i].why) != 0)
			fail_msg("case %zu: \"%s\", wanted \"%s\"", i, m + 2, cases[i].why);
	}
	assert_int_equal(annot_count(s), 0);
	/* One bad decision among several refuses them all. */
	struct decision many[2] = { tag("r", 0, "ok", "a", NULL), { .kind = DEC_TAG, .run = "r",
	                                                             .reviewer = "a" } };
	struct error err;
	assert_int_equal(annot_append_many(s, many, 2, &err), -1);
	assert_int_equal(annot_count(s), 0);
	annot_close(s);
	assert_int_equal(access(path, F_OK), -1);     /* nothing was ever written */
}

/* Lines another program or a person wrote: what is unusable is skipped
 * with the reason, the rest read. */
static void test_bad_lines(void **st)
{
	(void)st;
	char path[300];
	path_in(path, sizeof path, "bad.jsonl");
	spit(path,
	     "{\"decision\":\"tag\",\"run\":\"r\",\"reviewer\":\"a\",\"tag\":\"ok\"}\n"
	     "{\"decision\":\"tag\",\"run\":\"r\",\"reviewer\":\"a\",\"tag\":\"x\",\"call\":1.5}\n"
	     "{\"decision\":\"tag\",\"run\":\"r\",\"reviewer\":\"a\",\"tag\":\"x\",\"call\":-1}\n"
	     "{\"decision\":\"correct\",\"run\":\"r\",\"reviewer\":\"a\",\"call\":1,\"correction\":\"swap\"}\n"
	     "{\"decision\":\"retract\",\"run\":\"r\",\"reviewer\":\"a\",\"retracts\":\"accept\"}\n"
	     "{\"decision\":\"call-label\",\"run\":\"r\",\"reviewer\":\"a\",\"call\":2,\"score\":1,\"weight\":\"big\"}\n"
	     "{\"decision\":\"tag-alias\",\"reviewer\":\"a\",\"tag\":\"ok\"}\n"
	     "{\"decision\":\"tag-alias\",\"reviewer\":\"a\",\"tag\":\"ok\",\"tag_to\":\"fine\",\"future\":1}\n");
	struct annot_store *s = open_at(path);
	const char *w = annot_warning(s);
	assert_non_null(w);
	static const char *const why[] = {
		":2: skipped: \"call\" is not a call number (1, 2, ...)",
		":3: skipped: \"call\" is not a call number (1, 2, ...)",
		":4: skipped: \"correction\" is \"swap\", not replace, remove, insert or answer",
		":5: skipped: \"retracts\" is \"accept\", not a kind that can be taken back",
		":6: skipped: \"weight\" is not a number",
		":7: skipped: a tag-alias needs \"tag_to\"",
	};
	for (size_t i = 0; i < sizeof why / sizeof *why; i++)
		if (!strstr(w, why[i]))
			fail_msg("no \"%s\" in:\n%s", why[i], w);
	assert_int_equal(annot_count(s), 2);
	assert_string_equal(annot_tag_resolve(s, "ok"), "fine");
	annot_close(s);
}

/* A group's lines are written together; one retract line takes back all
 * of them that still stand, not what was decided over them since. */
static void test_groups(void **st)
{
	(void)st;
	char path[300];
	path_in(path, sizeof path, "group.jsonl");
	struct annot_store *s = open_at(path);
	char gid[40], gid2[40];
	annot_group_id(gid);
	annot_group_id(gid2);
	assert_true(strncmp(gid, "g-", 2) == 0);
	assert_string_not_equal(gid, gid2);
	struct decision ds[3];
	const char *runs[] = { "r1", "r2", "r3" };
	for (int i = 0; i < 3; i++)
		ds[i] = (struct decision){ .kind = DEC_OVERRIDE, .run = runs[i], .scorer = "actions",
		                           .has_score = true, .score = 0, .reviewer = "ann",
		                           .group = gid, .reason = "same failure" };
	struct error err;
	assert_int_equal(annot_append_many(s, ds, 3, &err), 0);
	assert_int_equal(annot_group_standing(s, gid), 3);
	/* r2 is decided over alone: the group's retract must not touch it. */
	struct decision over = { .kind = DEC_ACCEPT, .run = "r2", .scorer = "actions",
	                         .has_score = true, .score = 1, .reviewer = "ann" };
	add(s, &over);
	assert_int_equal(annot_group_standing(s, gid), 2);
	struct decision tg[2] = { tag("r1", 0, "loop", "ann", NULL), tag("r3", 0, "loop", "ann", NULL) };
	tg[0].group = tg[1].group = gid2;
	assert_int_equal(annot_append_many(s, tg, 2, &err), 0);
	struct decision r = { .kind = DEC_RETRACT, .retracts_group = true, .group = gid,
	                      .reviewer = "ann" };
	add(s, &r);
	assert_int_equal(annot_group_standing(s, gid), 0);
	assert_int_equal(annot_group_standing(s, gid2), 2);
	assert_null(annot_current(s, "r1", "actions", "ann"));
	assert_non_null(annot_current(s, "r2", "actions", "ann"));
	assert_true(annot_current(s, "r2", "actions", "ann")->score == 1);
	assert_null(annot_current(s, "r3", "actions", "ann"));
	annot_close(s);

	char *text = slurp(path);
	size_t lines = 0;
	for (const char *p = text; (p = strchr(p, '\n')); p++)
		lines++;
	assert_int_equal(lines, 7);     /* 3 + 1 + 2 + the one retract */
	free(text);
	s = open_at(path);
	assert_null(annot_warning(s));
	assert_int_equal(annot_group_standing(s, gid), 0);
	assert_int_equal(annot_group_standing(s, gid2), 2);
	assert_null(annot_current(s, "r1", "actions", "ann"));
	assert_true(annot_current(s, "r2", "actions", "ann")->score == 1);
	struct seen sn;
	assert_string_equal(of_run(s, "r3", &sn), "tag:loop:0:ann");
	annot_close(s);
}

/* A queue's weight and name are kept on the decision and read back. */
static void test_weights(void **st)
{
	(void)st;
	char path[300];
	path_in(path, sizeof path, "weights.jsonl");
	struct annot_store *s = open_at(path);
	struct decision d = { .kind = DEC_ACCEPT, .run = "r1", .scorer = "s", .has_score = true,
	                      .score = 1, .reviewer = "ann", .has_weight = true, .weight = 4.5,
	                      .queue = "uncertain" };
	add(s, &d);
	annot_close(s);
	char *text = slurp(path);
	assert_non_null(strstr(text, ",\"weight\":4.5,\"queue\":\"uncertain\"}"));
	free(text);
	s = open_at(path);
	const struct decision *back = annot_current(s, "r1", "s", "ann");
	assert_non_null(back);
	assert_true(back->has_weight);
	assert_true(back->weight == 4.5);
	assert_string_equal(back->queue, "uncertain");
	annot_close(s);
}

/* A verdict line without the new fields is written exactly as before. */
static void test_verdict_line_unchanged(void **st)
{
	(void)st;
	char path[300];
	path_in(path, sizeof path, "v.jsonl");
	struct annot_store *s = open_at(path);
	struct decision d = { .kind = DEC_ACCEPT, .run = "r1", .scorer = "s", .has_score = true,
	                      .score = 1, .reviewer = "ann", .at = "2026-12-01T09:00:00Z" };
	add(s, &d);
	annot_close(s);
	char *text = slurp(path);
	assert_string_equal(text,
	                    "{\"v\":2,\"run\":\"r1\",\"source\":null,\"run_hash\":null,\"scorer\":\"s\","
	                    "\"scorer_type\":null,\"model\":null,\"prompt_hash\":null,"
	                    "\"machine_score\":null,\"machine_passed\":null,\"decision\":\"accept\","
	                    "\"score\":1,\"reason\":null,\"reviewer\":\"ann\",\"blind\":false,"
	                    "\"at\":\"2026-12-01T09:00:00Z\",\"config\":null}\n");
	free(text);
}

/* ---- tags: and call_labels: -------------------------------------------- */

static int load_vocab(const char *yaml, struct vocab *vo, char *msg, size_t msglen)
{
	struct conf cf;
	struct error err;
	memset(vo, 0, sizeof *vo);
	msg[0] = '\0';
	if (conf_parse(&cf, "t.yaml", ".", yaml, strlen(yaml), &err)) {
		snprintf(msg, msglen, "%.500s", err.msg);
		return -1;
	}
	int rc = 0;
	const struct conf_node *root = cf.root;
	for (size_t i = 0; rc == 0 && i + 1 < root->nkids; i += 2) {
		if (conf_key_is(root->kids[i], "tags"))
			rc = vocab_tags_read(&cf, root->kids[i + 1], vo);
		else
			rc = vocab_call_labels_read(&cf, root->kids[i + 1], vo);
	}
	if (rc)
		snprintf(msg, msglen, "%.500s", cf.err->msg);
	conf_free(&cf);
	return rc;
}

static void test_vocab(void **st)
{
	(void)st;
	struct vocab vo;
	char msg[512];
	assert_int_equal(load_vocab("tags:\n"
	                            "  - id: wrong-tool\n"
	                            "    description: Called a tool that does not fit\n"
	                            "    key: w\n"
	                            "    absorbs: [wrong tool, \"Bad  Tool\"]\n"
	                            "  - {id: loop}\n", &vo, msg, sizeof msg), 0);
	assert_int_equal(vo.ntags, 2);
	assert_string_equal(vocab_tag_name(&vo, NULL, "  BAD tool "), "wrong-tool");
	assert_string_equal(vocab_tag_name(&vo, NULL, "WRONG-TOOL"), "wrong-tool");
	assert_string_equal(vocab_tag_name(&vo, NULL, "slow"), "slow");
	assert_ptr_equal(vocab_tag_by_key(&vo, 'w'), &vo.tags[0]);
	assert_null(vocab_tag_by_key(&vo, 'x'));
	/* Defaults: three labels, right from 1. */
	size_t n;
	const struct call_label_def *l = vocab_labels(&vo, &n);
	assert_int_equal(n, 3);
	assert_string_equal(l[1].id, "partly");
	assert_string_equal(vocab_label_of_digit(&vo, 3)->id, "wrong");
	assert_null(vocab_label_of_digit(&vo, 4));
	assert_true(vocab_pass(&vo) == 1);
	vocab_free(&vo);

	/* An alias in the annotations file, then absorbs. */
	char path[300];
	path_in(path, sizeof path, "vocab.jsonl");
	struct annot_store *s = open_at(path);
	struct decision a = { .kind = DEC_TAG_ALIAS, .tag = "picked wrong api", .tag_to = "wrong tool",
	                      .reviewer = "ann" };
	add(s, &a);
	assert_int_equal(load_vocab("tags: [{id: wrong-tool, absorbs: [wrong tool]}]\n", &vo, msg,
	                            sizeof msg), 0);
	assert_string_equal(vocab_tag_name(&vo, s, "picked wrong api"), "wrong-tool");
	vocab_free(&vo);
	annot_close(s);

	assert_int_equal(load_vocab("call_labels: {labels: [{id: good, value: 2}, {id: meh, value: 1},"
	                            " {id: bad, value: 0}], pass: 1}\n", &vo, msg, sizeof msg), 0);
	assert_true(vocab_pass(&vo) == 1);
	assert_string_equal(vocab_label_of_value(&vo, 1)->id, "meh");
	vocab_free(&vo);
	assert_int_equal(load_vocab("call_labels: [{id: good, value: 2}, {id: bad, value: 0}]\n", &vo,
	                            msg, sizeof msg), 0);
	assert_true(vocab_pass(&vo) == 2);
	vocab_free(&vo);

	static const struct {
		const char *yaml, *msg;
	} bad[] = {
		{ "tags: [{id: a, absorbs: [x]}, {id: b, absorbs: [X]}]\n",
		  "t.yaml:1:31: 'X' is absorbed by tag 'a' (line 1) already" },
		{ "tags: [{id: a}, {id: A}]\n", "t.yaml:1:17: tag 'A' is already defined (or absorbed by 'a') at line 1" },
		{ "tags: [{id: a, key: ww}]\n", "t.yaml:1:21: a tag's 'key' is one printable character (the tag prompt picks the tag by it)" },
		{ "tags: [{id: a, key: w}, {id: b, key: w}]\n", "t.yaml:1:25: key 'w' is tag 'a''s already" },
		{ "tags: [{id: has space}]\n", "t.yaml:1:8: tag id 'has space' may hold only letters, digits and _ . : -" },
		{ "tags: [{description: x}]\n", "t.yaml:1:8: a tag needs 'id'" },
		{ "tags: [{id: a, colour: red}]\n", "t.yaml:1:16: unknown key 'colour' for a tag" },
		{ "call_labels: []\n", "t.yaml:1:14: call_labels has 0 labels; give 1 to 9 (the digits 1-9 pick them)" },
		{ "call_labels: [{id: a, value: 1}, {id: b, value: 1}]\n",
		  "t.yaml:1:34: call label 'b' repeats the value of 'a'" },
		{ "call_labels: [{id: a}]\n", "t.yaml:1:15: a call label needs 'value' (a number: 1 right ... 0 wrong)" },
		{ "call_labels: {pass: 1}\n", "t.yaml:1:14: call_labels needs 'labels'" },
	};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		assert_int_equal(load_vocab(bad[i].yaml, &vo, msg, sizeof msg), -1);
		if (strncmp(msg, bad[i].msg, strlen(bad[i].msg)) != 0)
			fail_msg("case %zu: \"%s\", wanted \"%s\"", i, msg, bad[i].msg);
		vocab_free(&vo);
	}
}

/* A preference stands on its pair (base first) and reviewer, is replaced
 * by a later one and taken back on its own; what it needs is refused with
 * its reason, written and read. */
static void test_preferences(void **st)
{
	(void)st;
	char path[300];
	path_in(path, sizeof path, "prefer.jsonl");
	struct annot_store *s = open_at(path);
	static const char hash[] = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
	struct decision d = { .kind = DEC_PREFER, .run = "t1#0", .other = "t1#1", .other_hash = hash,
	                      .prefer = PREF_CAND, .task = "t1", .reviewer = "ann" };
	add(s, &d);
	d.reviewer = "bob";
	d.prefer = PREF_BOTH_BAD;
	add(s, &d);
	d.reviewer = "ann";
	d.prefer = PREF_TIE;      /* over ann's first */
	add(s, &d);
	/* The pair the other way round is another subject. */
	struct decision r = { .kind = DEC_PREFER, .run = "t1#1", .other = "t1#0",
	                      .prefer = PREF_BASE, .reviewer = "ann" };
	add(s, &r);
	const struct decision *got = annot_preference(s, "t1#0", "t1#1", "ann");
	assert_non_null(got);
	assert_int_equal(got->prefer, PREF_TIE);
	assert_string_equal(got->task, "t1");
	assert_string_equal(got->other_hash, hash);
	assert_int_equal(annot_preference(s, "t1#0", "t1#1", "bob")->prefer, PREF_BOTH_BAD);
	assert_int_equal(annot_preference(s, "t1#1", "t1#0", "ann")->prefer, PREF_BASE);
	assert_null(annot_preference(s, "t1#0", "t1#2", "ann"));
	struct decision back = { .kind = DEC_RETRACT, .retracts_set = true, .retracts = DEC_PREFER,
	                         .run = "t1#0", .other = "t1#1", .reviewer = "ann" };
	add(s, &back);
	assert_int_equal(annot_preference(s, "t1#0", "t1#1", "ann")->prefer, PREF_CAND);
	static const struct {
		struct decision d;
		const char *why;
	} bad[] = {
		{ { .kind = DEC_PREFER, .run = "a", .prefer = PREF_TIE, .reviewer = "x" },
		  "a preference needs \"other\" (the run compared with)" },
		{ { .kind = DEC_PREFER, .run = "a", .other = "a", .prefer = PREF_TIE, .reviewer = "x" },
		  "a preference compares a run with another, not itself" },
		{ { .kind = DEC_PREFER, .run = "a", .other = "b", .reviewer = "x" },
		  "a preference needs \"prefer\" (base, cand, tie or both-bad)" },
		{ { .kind = DEC_PREFER, .run = "a", .other = "b", .other_hash = "abc",
		    .prefer = PREF_TIE, .reviewer = "x" }, "other_hash is not 64 lowercase hex digits" },
	};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		struct error err;
		assert_int_equal(annot_append(s, &bad[i].d, &err), -1);
		const char *m = strstr(err.msg, ": ");
		assert_non_null(m);
		if (strcmp(m + 2, bad[i].why) != 0)
			fail_msg("case %zu: \"%s\", wanted \"%s\"", i, m + 2, bad[i].why);
	}
	annot_close(s);
	char *text = slurp(path);
	assert_non_null(strstr(text, "\"decision\":\"prefer\""));
	assert_non_null(strstr(text, "\"other\":\"t1#1\",\"other_hash\":\"aaaa"));
	assert_non_null(strstr(text, "\"prefer\":\"both-bad\",\"task\":\"t1\""));
	assert_non_null(strstr(text, "\"retracts\":\"prefer\""));
	free(text);
	/* Read again: the same standing preferences. */
	s = open_at(path);
	assert_null(annot_warning(s));
	assert_int_equal(annot_preference(s, "t1#0", "t1#1", "ann")->prefer, PREF_CAND);
	assert_int_equal(annot_preference(s, "t1#0", "t1#1", "bob")->prefer, PREF_BOTH_BAD);
	annot_close(s);
	/* A line another program wrote with an unknown preference is skipped. */
	path_in(path, sizeof path, "prefer-bad.jsonl");
	spit(path, "{\"decision\":\"prefer\",\"run\":\"a\",\"other\":\"b\",\"reviewer\":\"x\","
	           "\"prefer\":\"left\"}\n"
	           "{\"decision\":\"prefer\",\"run\":\"a\",\"reviewer\":\"x\",\"prefer\":\"tie\"}\n");
	s = open_at(path);
	assert_non_null(strstr(annot_warning(s),
	                       ":1: skipped: \"prefer\" is \"left\", not base, cand, tie or both-bad"));
	assert_non_null(strstr(annot_warning(s),
	                       ":2: skipped: a preference needs \"other\" (the run compared with)"));
	assert_int_equal(annot_count(s), 0);
	annot_close(s);
	assert_string_equal(annot_preference_name(PREF_BOTH_BAD), "both-bad");
	assert_null(annot_preference_name(PREF_NONE));
	enum preference pr;
	assert_true(annot_preference_from_name("cand", &pr));
	assert_int_equal(pr, PREF_CAND);
	assert_false(annot_preference_from_name("Cand", &pr));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tags_stand_and_retract),
		cmocka_unit_test(test_aliases),
		cmocka_unit_test(test_call_labels_and_corrections),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_bad_lines),
		cmocka_unit_test(test_groups),
		cmocka_unit_test(test_weights),
		cmocka_unit_test(test_verdict_line_unchanged),
		cmocka_unit_test(test_vocab),
		cmocka_unit_test(test_preferences),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
