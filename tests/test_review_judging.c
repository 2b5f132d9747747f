/* test_review_judging.c - the screen's judging without a screen
 * (review/judging) against the local fake server (tests/fake_llm): asking
 * puts the cell in pending and the answer lands in the session's judge
 * cell with its status-line note; a run the rubric does not apply to is
 * skipped at once; cancelling ends the requests about the run under the
 * cursor; a reopened session shows the cached verdict once the run is
 * looked at; a judge with examples is shown the session's labelled runs,
 * gathered again when the labels change, and says so when it has none; a
 * session opened with the cache only fills every run's cells as it
 * summarizes them and asks nothing. Talks only to 127.0.0.1. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <cmocka.h>

#include "config/config.h"
#include "judge/judge.h"
#include "review/judging.h"
#include "review/fewshot.h"
#include "review/session.h"
#include "util/strbuf.h"
#include "judge_fixture.h"
#include "test_files.h"
#include "util/error.h"

static const char *argv0;
static struct judge_fixture fx;

/* zh-refund is never answered (an hour), so it is there to cancel, however
 * slow the machine. */
static const char script[] =
	"{\"rules\": ["
	" {\"match\": {\"body_contains\": \"call_zh-refund\"}, \"delay_ms\": 3600000,"
	"  \"content\": {\"score\": 2, \"reason\": \"late\", \"status\": \"completed\"}}"
	"], \"default\": {\"content\": {\"score\": 4, \"reason\": \"fine\", \"status\": \"completed\"}}}";

static int group_setup(void **state)
{
	(void)state;
	setenv("TCR_FAKE_NOW", "2026-01-01T00:00:00Z", 1);
	return judge_fixture_setup(&fx, argv0, "judging", "sk-tcr-judging-test-0001", script);
}

static int group_teardown(void **state)
{
	(void)state;
	return judge_fixture_teardown(&fx);
}

static void open_session(struct review *rv, struct judging *jg)
{
	struct error err = {0};
	char *paths[] = { fx.runs_path };
	char annot[160];
	snprintf(annot, sizeof annot, "%s/annotations.jsonl", fx.dir);
	const char *apaths[] = { annot };
	assert_int_equal(review_open(rv, &fx.cfg, NULL, paths, 1, apaths, 1, "ann", &err), 0);
	int n = 0;
	while (review_step(rv, 0))
		assert_true(++n < 1000);
	struct judging_note note;
	assert_int_equal(judging_open(jg, rv, NULL, &note, &err), 0);
	assert_string_equal(note.text, "");
}

static void close_session(struct review *rv, struct judging *jg)
{
	judging_close(jg);
	review_close(rv);
}

/* Runs the client as the screen's loop would until nothing is pending,
 * for 12000 turns at most (two minutes when idle: a guard against a hang,
 * not a measure); the last note is kept. */
static size_t drive(struct judging *jg, struct judging_note *last)
{
	size_t answered = 0;
	for (int i = 0; i < 12000 && jg->pending; i++) {
		struct pollfd fds[16];
		int timeout;
		int n = judging_pollfds(jg, fds, 16, &timeout);
		if (timeout < 0 || timeout > 10)
			timeout = 10;
		poll(fds, (nfds_t)n, timeout);
		struct judging_note note;
		size_t k = judging_run(jg, &note);
		if (k) {
			answered += k;
			*last = note;
		}
	}
	assert_int_equal(jg->pending, 0);
	return answered;
}

static void move_to_id(struct review *rv, const char *id)
{
	for (size_t i = 0; i < review_view_count(rv); i++) {
		const struct review_entry *e = review_view_entry(rv, i);
		if (e->id && !strcmp(e->id, id)) {
			review_move_to(rv, i);
			return;
		}
	}
	fail_msg("no run %s in the view", id);
}

static size_t current_entry(struct review *rv)
{
	return rv->view[review_cursor(rv)];
}

static void check_judge_decision(struct review *rv, size_t entry)
{
	char path[200];
	snprintf(path, sizeof path, "%s/annotations.jsonl", fx.dir);
	char *text = test_slurp(path);
	assert_non_null(text);
	json_error_t je;
	json_t *o = json_loads(text, 0, &je);
	assert_non_null(o);
	assert_int_equal(json_integer_value(json_object_get(o, "v")), 2);
	assert_string_equal(json_string_value(json_object_get(o, "scorer")), "acc");
	assert_string_equal(json_string_value(json_object_get(o, "model")), "openai/judge-model");
	assert_string_equal(json_string_value(json_object_get(o, "prompt_hash")),
	                    fx.cfg.judges[0].prompt_hash);
	assert_int_equal(strlen(fx.cfg.judges[0].prompt_hash), 16);
	char hex[65];
	assert_true(review_entry_hash(&rv->entries[entry], hex));
	assert_string_equal(json_string_value(json_object_get(o, "run_hash")), hex);
	assert_true(json_is_false(json_object_get(o, "blind")));
	const struct decision *d = review_decision(rv, entry, 0);
	assert_non_null(d);
	assert_string_equal(d->model, "openai/judge-model");
	json_decref(o);
	free(text);
}

static void test_ask_and_answer(void **st)
{
	(void)st;
	struct review rv;
	struct judging jg;
	open_session(&rv, &jg);
	move_to_id(&rv, "en-pass");
	size_t entry = current_entry(&rv);
	struct judging_note note;
	assert_true(judging_ask(&jg, -1, &note));
	assert_string_equal(note.text, "asking 1 judge (Esc cancels)");
	assert_false(note.error);
	assert_int_equal(jg.pending, 1);
	assert_int_equal(review_judge_cell(&rv, entry, 0)->state, JUDGE_PENDING);

	/* asking again while it answers asks nothing more */
	assert_true(judging_ask(&jg, 0, &note));
	assert_string_equal(note.text, "nothing to ask");
	assert_int_equal(jg.pending, 1);

	struct judging_note last = { 0 };
	assert_int_equal(drive(&jg, &last), 1);
	assert_string_equal(last.text, "acc answered: 4 (pass)");
	struct judge_cell *c = review_judge_cell(&rv, entry, 0);
	assert_int_equal(c->state, JUDGE_DONE);
	assert_int_equal(c->v.status, VERDICT_OK);
	assert_true(c->v.score == 4);

	/* Accepted, the decision names the judge's model as the YAML wrote
	 * it and its prompt hash, and the record's hash. */
	struct error err = {0};
	assert_int_equal(review_accept(&rv, 0, &err), 0);
	check_judge_decision(&rv, entry);
	close_session(&rv, &jg);

	/* Reopened, the verdict shows once the run is looked at, unasked. */
	size_t asked = fake_server_requests(&fx.srv);
	open_session(&rv, &jg);
	move_to_id(&rv, "en-pass");
	entry = current_entry(&rv);
	assert_true(judging_fill(&jg, entry));
	assert_false(judging_fill(&jg, entry));         /* once per run */
	c = review_judge_cell(&rv, entry, 0);
	assert_int_equal(c->state, JUDGE_DONE);
	assert_true(c->v.score == 4);
	assert_int_equal(fake_server_requests(&fx.srv), asked);
	close_session(&rv, &jg);
}

/* Blind: the answer lands in the cell, but the status line does not say
 * what the row hides until the reviewer labels it. */
static void test_blind_note(void **st)
{
	(void)st;
	struct review rv;
	struct judging jg;
	open_session(&rv, &jg);
	rv.blind = true;
	move_to_id(&rv, "ja-fail");
	size_t entry = current_entry(&rv);
	struct judging_note note, last = { 0 };
	assert_true(judging_ask(&jg, -1, &note));
	assert_int_equal(drive(&jg, &last), 1);
	assert_string_equal(last.text, "acc answered (hidden until you label it: blind)");
	assert_true(review_row_hidden(&rv, entry, 0));
	assert_int_equal(review_judge_cell(&rv, entry, 0)->state, JUDGE_DONE);
	close_session(&rv, &jg);
}

static void test_skipped_at_once(void **st)
{
	(void)st;
	struct review rv;
	struct judging jg;
	open_session(&rv, &jg);
	move_to_id(&rv, "no-task");
	struct judging_note note;
	assert_true(judging_ask(&jg, -1, &note));
	assert_string_equal(note.text, "nothing to ask");
	assert_int_equal(jg.pending, 0);
	struct judge_cell *c = review_judge_cell(&rv, current_entry(&rv), 0);
	assert_int_equal(c->state, JUDGE_DONE);
	assert_int_equal(c->v.status, VERDICT_SKIPPED);
	close_session(&rv, &jg);
}

static void test_cancel(void **st)
{
	(void)st;
	struct review rv;
	struct judging jg;
	open_session(&rv, &jg);
	move_to_id(&rv, "zh-refund");
	size_t entry = current_entry(&rv);
	struct judging_note note;
	assert_true(judging_ask(&jg, -1, &note));
	assert_int_equal(jg.pending, 1);
	/* let the request go out */
	for (int i = 0; i < 20; i++) {
		struct pollfd fds[16];
		int timeout;
		int n = judging_pollfds(&jg, fds, 16, &timeout);
		poll(fds, (nfds_t)n, 10);
		judging_run(&jg, &note);
	}
	assert_int_equal(jg.pending, 1);
	assert_int_equal(judging_cancel(&jg, &note), 1);
	assert_string_equal(note.text, "cancelled 1 judge request");
	assert_int_equal(jg.pending, 0);
	struct judge_cell *c = review_judge_cell(&rv, entry, 0);
	assert_int_equal(c->state, JUDGE_DONE);
	assert_int_equal(c->v.status, VERDICT_ERROR);
	assert_string_equal(c->v.message, "judge: cancelled");
	/* nothing left to cancel */
	assert_int_equal(judging_cancel(&jg, &note), 0);
	assert_string_equal(note.text, "");
	close_session(&rv, &jg);
}

static void test_unreadable_and_no_judges(void **st)
{
	(void)st;
	struct review rv;
	struct judging jg;
	open_session(&rv, &jg);
	/* the broken record is the last one */
	review_move_to(&rv, review_view_count(&rv) - 1);
	struct judging_note note;
	assert_false(judging_ask(&jg, -1, &note));
	assert_true(note.error);
	assert_string_equal(note.text, "this record could not be read; there is nothing to judge");
	close_session(&rv, &jg);

	struct config none = { 0 };
	struct error err = {0};
	char *paths[] = { fx.runs_path };
	assert_int_equal(review_open(&rv, &none, NULL, paths, 1, NULL, 0, "ann", &err), 0);
	assert_int_equal(judging_open(&jg, &rv, NULL, &note, &err), 0);
	assert_null(jg.runner);
	assert_false(judging_ask(&jg, -1, &note));
	assert_string_equal(note.text, "no judge is configured (add judges: to the YAML)");
	close_session(&rv, &jg);
}

/* ---- few-shot examples ------------------------------------------------------ */

/* The fixture's judge with examples from a split holding every run
 * (zh-refund stays out of them: the server answers it late). */
static void examples_config(struct config *c)
{
	struct strbuf sb = STRBUF_INIT;
	strbuf_addf(&sb,
		"judges:\n"
		"  - id: fs\n"
		"    rubric: tool-call-accuracy-1to5\n"
		"    model: openai/judge-model\n"
		"    base_url: http://127.0.0.1:%d/v1\n"
		"    max_retries: 0\n"
		"    tools: [{name: get_order, description: looks an order up},"
		" {name: track_parcel, description: tracks a parcel},"
		" {name: refund_order, description: refunds an order}]\n"
		"    examples: {k: 2, pick: recent, split: train, splits: \"train=1\"}\n", fx.srv.port);
	struct error err = {0};
	if (config_load_string(c, &fx.load, "t.yaml", fx.dir, sb.buf, sb.len, &err) < 0)
		fail_msg("%s", err.msg);
	strbuf_release(&sb);
}

static void label_on(struct annot_store *s, const char *run, const char *reviewer, double score,
                     const char *reason, const char *at)
{
	struct decision d = {
		.kind = DEC_OVERRIDE, .run = run, .source = "runs.jsonl", .scorer = "fs",
		.scorer_type = "tool-call-accuracy-1to5", .has_machine_score = true,
		.machine_score = 3, .has_machine_passed = true, .machine_passed = true,
		.has_score = true, .score = score, .reason = reason, .reviewer = reviewer, .at = at,
		.config = "0123456789abcdef", .model = "openai/judge-model",
		.prompt_hash = "fedcba9876543210",
	};
	struct error err = {0};
	if (annot_append(s, &d, &err) != 0)
		fail_msg("append: %s", err.msg);
}

static void open_with(struct review *rv, struct judging *jg, const struct config *c,
                      const char *annot)
{
	struct error err = {0};
	char *paths[] = { fx.runs_path };
	const char *apaths[] = { annot };
	assert_int_equal(review_open(rv, c, NULL, paths, 1, apaths, 1, "ann", &err), 0);
	int n = 0;
	while (review_step(rv, 0))
		assert_true(++n < 1000);
	struct judging_note note;
	assert_int_equal(judging_open(jg, rv, NULL, &note, &err), 0);
}

/* The user message of the last request the server logged. */
static char *last_user_message(void)
{
	char *log = test_slurp(fx.srv.log);
	assert_non_null(log);
	char *last = log, *p;
	while ((p = strchr(last, '\n')) && p[1])
		last = p + 1;
	json_error_t je;
	json_t *line = json_loads(last, JSON_DISABLE_EOF_CHECK, &je);
	free(log);
	assert_non_null(line);
	json_t *msgs = json_object_get(json_object_get(line, "body"), "messages");
	char *user = NULL;
	size_t i;
	json_t *m;
	json_array_foreach(msgs, i, m)
		if (!strcmp(json_string_value(json_object_get(m, "role")), "user"))
			user = strdup(json_string_value(json_object_get(m, "content")));
	json_decref(line);
	assert_non_null(user);
	return user;
}

static char *asked_examples(struct review *rv, struct judging *jg, struct judging_note *note)
{
	move_to_id(rv, "en-pass");
	size_t entry = current_entry(rv);
	assert_true(judging_ask(jg, -1, note));
	struct judging_note last = { 0 };
	assert_int_equal(drive(jg, &last), 1);
	struct judge_cell *c = review_judge_cell(rv, entry, 0);
	assert_int_equal(c->v.status, VERDICT_OK);
	return json_dumps(json_object_get(c->v.details, "examples"), JSON_COMPACT);
}

static void test_examples(void **st)
{
	(void)st;
	struct config c;
	examples_config(&c);
	struct error err = {0};
	char annot[160];
	snprintf(annot, sizeof annot, "%s/labelled.jsonl", fx.dir);
	unlink(annot);
	struct annot_store *s = annot_open(annot, &err);
	assert_non_null(s);
	label_on(s, "ja-fail", "ann", 2, "tracked a parcel number nobody gave", "2026-01-02T09:00:00Z");
	label_on(s, "esc-codes", "bob", 5, "straight to the order", "2026-01-03T09:00:00Z");
	annot_close(s);

	struct review rv;
	struct judging jg;
	open_with(&rv, &jg, &c, annot);
	struct judging_note note;
	char *ids = asked_examples(&rv, &jg, &note);
	assert_string_equal(note.text, "asking 1 judge (Esc cancels)");
	assert_string_equal(ids, "[\"esc-codes\",\"ja-fail\"]");
	free(ids);
	char *user = last_user_message();
	const char *e1 = strstr(user, "--- Example 1 of 2 ---");
	assert_non_null(e1);
	assert_non_null(strstr(e1, "The reviewer's grade: 5 (on 1..5; a pass)\n"
	                           "The reviewer's reason: straight to the order\n"));
	assert_non_null(strstr(e1, "The reviewer's grade: 2 (on 1..5; a fail)\n"
	                           "The reviewer's reason: tracked a parcel number nobody gave\n"));
	free(user);

	/* A new label, saved in the session's store: gathered again, and the
	 * judge is shown the latest two. */
	label_on(rv.annot, "no-task", "ann", 1, "did nothing at all", "2026-01-04T09:00:00Z");
	ids = asked_examples(&rv, &jg, &note);
	assert_string_equal(ids, "[\"no-task\",\"esc-codes\"]");
	free(ids);
	user = last_user_message();
	assert_non_null(strstr(user, "did nothing at all"));
	assert_null(strstr(user, "nobody gave"));
	free(user);
	assert_false(judging_shots_update(&jg));        /* nothing changed since */
	close_session(&rv, &jg);

	/* No labels: asked all the same, and the note says why there are none. */
	unlink(annot);
	open_with(&rv, &jg, &c, annot);
	ids = asked_examples(&rv, &jg, &note);
	assert_string_equal(note.text, "asking 1 judge (Esc cancels); fs has no labelled run in split "
	                    "train to show as an example");
	assert_string_equal(ids, "[]");
	free(ids);
	close_session(&rv, &jg);
	config_free(&c);
}

/* A session opened with the cache only (as `tcreview stats` opens it):
 * every run it summarizes gets its cached verdict, no run need be looked
 * at, nothing is asked, and a missing cache file is not created. */
static void test_cache_fills_every_run(void **st)
{
	(void)st;
	struct review rv;
	struct judging jg;
	open_session(&rv, &jg);
	move_to_id(&rv, "en-pass");
	struct judging_note note, last = { 0 };
	assert_true(judging_ask(&jg, -1, &note));
	assert_int_equal(drive(&jg, &last), 1);
	close_session(&rv, &jg);

	size_t asked = fake_server_requests(&fx.srv);
	struct error err = {0};
	char *paths[] = { fx.runs_path };
	char annot[160];
	snprintf(annot, sizeof annot, "%s/annotations.jsonl", fx.dir);
	const char *apaths[] = { annot };
	assert_int_equal(review_open(&rv, &fx.cfg, NULL, paths, 1, apaths, 1, "ann", &err), 0);
	assert_int_equal(judging_open_cached(&jg, &rv, &note, &err), 0);
	assert_string_equal(note.text, "");
	assert_false(judging_can_ask(&jg));
	int n = 0;
	while (review_step(&rv, 0))
		assert_true(++n < 1000);
	size_t done = 0;
	for (size_t i = 0; i < rv.nentries; i++) {
		const struct review_entry *e = &rv.entries[i];
		assert_true(e->summarized);
		if (e->id && !strcmp(e->id, "en-pass")) {
			assert_non_null(e->jcells);
			assert_int_equal(e->jcells[0].state, JUDGE_DONE);
			assert_true(e->jcells[0].v.score == 4);
		}
		if (e->jcells && e->jcells[0].state == JUDGE_DONE)
			done++;
	}
	assert_true(done >= 1);
	move_to_id(&rv, "zh-refund");
	assert_false(judging_ask(&jg, -1, &note));
	assert_true(note.error);
	assert_string_equal(note.text, "judges are not asked here (cached verdicts only)");
	assert_int_equal(fake_server_requests(&fx.srv), asked);
	close_session(&rv, &jg);
	assert_null(rv.judge_fill);

	/* No cache beside these runs: none is made. */
	char other[160], cache[192];
	snprintf(other, sizeof other, "%s/fresh.jsonl", fx.dir);
	snprintf(cache, sizeof cache, "%s.judgements.jsonl", other);
	test_copy_file(fx.runs_path, other);
	paths[0] = other;
	assert_int_equal(review_open(&rv, &fx.cfg, NULL, paths, 1, apaths, 1, "ann", &err), 0);
	assert_int_equal(judging_open_cached(&jg, &rv, &note, &err), 0);
	assert_non_null(jg.runner);
	assert_null(rv.judge_fill);
	while (review_step(&rv, 0))
		;
	assert_int_equal(access(cache, F_OK), -1);
	close_session(&rv, &jg);
}

/* The screen's J with a judge with examples: a J that cannot gather them
 * at once (a budget of one entry) is answered with what it waits for, the
 * loop gathers, and the request about the run J was pressed on goes out
 * afterwards, wherever the cursor went, with the examples judging_ask
 * shows. */
static void test_request_waits_for_examples(void **st)
{
	(void)st;
	struct config c;
	examples_config(&c);
	struct error err = {0};
	char annot[160];
	snprintf(annot, sizeof annot, "%s/labelled-wait.jsonl", fx.dir);
	unlink(annot);
	struct annot_store *s = annot_open(annot, &err);
	assert_non_null(s);
	label_on(s, "ja-fail", "ann", 2, "tracked a parcel number nobody gave", "2026-01-02T09:00:00Z");
	label_on(s, "esc-codes", "bob", 5, "straight to the order", "2026-01-03T09:00:00Z");
	annot_close(s);

	struct review rv;
	struct judging jg;
	open_with(&rv, &jg, &c, annot);
	jg.key_gather_ms = 0;
	move_to_id(&rv, "en-pass");
	size_t entry = current_entry(&rv);
	struct judging_note note;
	assert_false(judging_request(&jg, -1, &note));
	assert_true(note.progress);
	assert_non_null(strstr(note.text, "gathering examples"));
	assert_true(judging_working(&jg));
	assert_int_equal(jg.pending, 0);
	assert_int_equal(review_judge_cell(&rv, entry, 0)->state, JUDGE_NONE);
	/* the same J again is not asked twice */
	assert_false(judging_request(&jg, -1, &note));
	assert_true(note.progress);

	review_move(&rv, 1);
	assert_true(current_entry(&rv) != entry);
	int turns = 0;
	bool sent = false;
	while (judging_working(&jg) && turns < 1000) {
		turns++;
		if (judging_work(&jg, 0, &note))
			sent = true;
	}
	assert_false(judging_working(&jg));
	assert_true(sent);
	assert_true(turns > 1);                 /* one entry a turn: it took several */
	assert_string_equal(note.text, "asking 1 judge (Esc cancels)");
	assert_false(note.progress);
	assert_int_equal(jg.pending, 1);
	assert_int_equal(review_judge_cell(&rv, entry, 0)->state, JUDGE_PENDING);
	struct judging_note last = { 0 };
	assert_int_equal(drive(&jg, &last), 1);
	struct judge_cell *cell = review_judge_cell(&rv, entry, 0);
	assert_int_equal(cell->v.status, VERDICT_OK);
	char *ids = json_dumps(json_object_get(cell->v.details, "examples"), JSON_COMPACT);
	assert_string_equal(ids, "[\"esc-codes\",\"ja-fail\"]");
	free(ids);
	close_session(&rv, &jg);
	config_free(&c);
}

/* A listener on 127.0.0.1 whose accept queue is full: a connect to it is
 * held until it closes. */
static int listen_held(int *port, int fill[3])
{
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	assert_true(fd >= 0);
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	assert_int_equal(bind(fd, (struct sockaddr *)&a, sizeof a), 0);
	assert_int_equal(listen(fd, 0), 0);
	socklen_t len = sizeof a;
	assert_int_equal(getsockname(fd, (struct sockaddr *)&a, &len), 0);
	*port = ntohs(a.sin_port);
	for (int i = 0; i < 3; i++) {
		fill[i] = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
		connect(fill[i], (struct sockaddr *)&a, sizeof a);
	}
	return fd;
}

/* The screen's J with a local judge whose connect hangs: answered at once,
 * the probe's descriptor is among the loop's, Esc drops the J, and asked
 * again the answer comes once the listener is gone: not reached. */
static void test_request_waits_for_probe(void **st)
{
	(void)st;
	int port, fill[3];
	int lfd = listen_held(&port, fill);
	struct strbuf sb = STRBUF_INIT;
	strbuf_addf(&sb, "judges:\n  - id: held\n    rubric: tool-appropriateness\n"
	            "    model: ollama/llama3.2\n    base_url: http://127.0.0.1:%d/v1\n", port);
	struct config c;
	struct error err = {0};
	if (config_load_string(&c, &fx.load, "t.yaml", fx.dir, sb.buf, sb.len, &err) < 0)
		fail_msg("%s", err.msg);
	strbuf_release(&sb);
	char annot[160];
	snprintf(annot, sizeof annot, "%s/held.jsonl", fx.dir);
	unlink(annot);
	setenv("TCR_REACH_TIMEOUT_MS", "600000", 1);
	struct review rv;
	struct judging jg;
	open_with(&rv, &jg, &c, annot);
	move_to_id(&rv, "en-pass");
	size_t entry = current_entry(&rv);
	struct judging_note note;
	assert_false(judging_request(&jg, -1, &note));
	assert_string_equal(note.text, "probing 1 local judge\u2026 (Esc cancels)");
	assert_true(judging_working(&jg));
	struct pollfd fds[4];
	int timeout;
	assert_int_equal(judging_pollfds(&jg, fds, 4, &timeout), 1);
	assert_int_equal(fds[0].events, POLLOUT);
	assert_true(timeout > 0);
	assert_int_equal(judging_cancel(&jg, &note), 1);
	assert_false(judging_working(&jg));

	assert_false(judging_request(&jg, -1, &note));
	assert_false(judging_work(&jg, 0, &note));
	assert_true(note.progress);
	close(lfd);
	/* The refusal comes with the connect's next try: 600 turns of at most
	 * 100 ms, a guard against a hang. */
	int turns = 0;
	while (judging_working(&jg) && turns++ < 600) {
		int n = judging_pollfds(&jg, fds, 4, &timeout);
		poll(fds, (nfds_t)n, timeout < 0 || timeout > 100 ? 100 : timeout);
		judging_work(&jg, 0, &note);
	}
	assert_false(judging_working(&jg));
	assert_string_equal(note.text, "held could not be reached (its row says why)");
	assert_true(note.error);
	assert_int_equal(review_judge_cell(&rv, entry, 0)->state, JUDGE_UNREACHED);
	unsetenv("TCR_REACH_TIMEOUT_MS");
	for (int i = 0; i < 3; i++)
		close(fill[i]);
	close_session(&rv, &jg);
	config_free(&c);
}

int main(int argc, char **argv)
{
	(void)argc;
	argv0 = argv[0];
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ask_and_answer),
		cmocka_unit_test(test_blind_note),
		cmocka_unit_test(test_skipped_at_once),
		cmocka_unit_test(test_cancel),
		cmocka_unit_test(test_unreadable_and_no_judges),
		cmocka_unit_test(test_examples),
		cmocka_unit_test(test_cache_fills_every_run),
		cmocka_unit_test(test_request_waits_for_examples),
		cmocka_unit_test(test_request_waits_for_probe),
	};
	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
