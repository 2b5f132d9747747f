/* test_groups.c - review/groups and review/group_decide: an error's text as
 * its fingerprint (numbers, UUIDs, hex, ids, paths, URLs, e-mails, quoted
 * values, white space, CJK text, a long text cut by columns), the groups'
 * order (count, then fingerprint; runs by id; the example the smallest id)
 * the same for every order of the items, the fingerprints of a session's
 * runs by tools, error and verdicts, and a group labelled and tagged in one
 * write (one line per run, one group id) and taken back by one line; a
 * group cut by a crash in its write stands for nothing. */
#include <locale.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "annot/store.h"
#include "config/config.h"
#include "review/group_decide.h"
#include "review/groups.h"
#include "review/session.h"
#include "review/settle.h"
#include "test_files.h"
#include "util/error.h"
#include "util/xalloc.h"

static void assert_norm(const char *in, const char *want)
{
	char *got = groups_error_text(in);
	if (strcmp(got, want))
		fail_msg("groups_error_text(\"%s\")\n  got  \"%s\"\n  want \"%s\"", in, got, want);
	free(got);
}

static void test_normalize(void **s)
{
	(void)s;
	assert_norm("Error: user 4411 not found", "Error: user <n> not found");
	assert_norm("Error: amount 12.50 exceeds 1,000", "Error: amount <n> exceeds <n>");
	assert_norm("no session 3f2b1c9e-0a4d-4e5f-9b8a-1c2d3e4f5a6b here",
	            "no session <id> here");
	assert_norm("bad pointer 0x7ffd3a2c and digest deadbeef0123",
	            "bad pointer <hex> and digest <hex>");
	assert_norm("Error: reservation HAT136 not found; token dGhpcyBpcz4yMDI0",
	            "Error: reservation <id> not found; token <id>");
	assert_norm("open /home/mia/src/app.py: denied, see ./logs/x.txt.",
	            "open <path>: denied, see <path>.");
	assert_norm("fetch https://api.example.com/v1/users?id=7 failed for mia@example.org",
	            "fetch <url> failed for <url>");
	assert_norm("Error: user 'mia_lee_1' has no \"gold\" card", "Error: user \"<\xe2\x80\xa6>\" has no \"<\xe2\x80\xa6>\" card");
	assert_norm("it doesn't   exist\n\tat\tline 3", "it doesn't exist at line <n>");
	assert_norm("  ", "(an empty error)");
	/* CJK text stays; its numbers go */
	assert_norm("エラー: ユーザー 42 が見つかりません", "エラー: ユーザー <n> が見つかりません");
	assert_norm("错误：文件 /data/数据.csv 不存在", "错误：文件 <path> 不存在");
	/* a long text is cut at GROUPS_ERROR_COLS columns, wide characters counting two */
	char longer[600] = "Error: ";
	for (int i = 0; i < 60; i++)
		strcat(longer, "漢字");
	char *got = groups_error_text(longer);
	assert_true(strlen(got) < strlen(longer));
	assert_non_null(strstr(got, "\xe2\x80\xa6"));       /* ends with … */
	size_t cols = 0;
	for (const unsigned char *p = (const unsigned char *)got; *p; p++)
		if ((*p & 0xc0) != 0x80)
			cols += *p >= 0xe3 && *p < 0xf0 ? 2 : 1;    /* CJK is wide; … and ASCII 1 */
	assert_true(cols <= GROUPS_ERROR_COLS);
	free(got);
}

/* Groups of the same items in three orders: the same ids, counts,
 * fingerprints, runs and examples. */
static void describe(const struct run_groups *gs, const char *const *runs, char *buf, size_t n)
{
	size_t at = 0;
	for (size_t i = 0; i < gs->n; i++) {
		const struct run_group *g = &gs->g[i];
		at += (size_t)snprintf(buf + at, n - at, "%s %zu [%s] ex=%s:", g->id, g->n, g->fingerprint,
		                       g->example);
		for (size_t k = 0; k < g->n; k++)
			at += (size_t)snprintf(buf + at, n - at, " %s", runs[g->entries[k]]);
		at += (size_t)snprintf(buf + at, n - at, "\n");
	}
}

static void test_order(void **s)
{
	(void)s;
	static const char *const runs[] = { "r5", "r2", "r9", "r1", "r7", "r3", "r4" };
	static const char *const fps[] = { "b", "a", "b", "c", "a", "b", "c" };
	size_t order[3][7] = { { 0, 1, 2, 3, 4, 5, 6 }, { 6, 5, 4, 3, 2, 1, 0 }, { 3, 0, 6, 2, 5, 1, 4 } };
	char first[1024] = "", got[1024];
	for (int o = 0; o < 3; o++) {
		struct group_item items[7];
		for (size_t k = 0; k < 7; k++) {
			size_t e = order[o][k];
			items[k] = (struct group_item){ xstrdup(fps[e]), runs[e], e };
		}
		struct run_groups gs;
		groups_from_items(&gs, GROUP_BY_TOOLS, items, 7);
		assert_int_equal(gs.n, 3);
		assert_int_equal(gs.nruns, 7);
		describe(&gs, runs, got, sizeof got);
		if (!o) {
			strcpy(first, got);
			/* three b's first; a and c tie at two and go bytewise */
			assert_string_equal(gs.g[0].fingerprint, "b");
			assert_string_equal(gs.g[0].example, "r3");
			assert_string_equal(gs.g[1].fingerprint, "a");
			assert_string_equal(gs.g[2].fingerprint, "c");
			assert_string_equal(gs.g[2].example, "r1");
			assert_int_equal(gs.g[0].id[0], 'g');
			assert_int_equal(strlen(gs.g[0].id), 9);
			assert_ptr_equal(groups_of_entry(&gs, 4), &gs.g[1]);
			assert_null(groups_of_entry(&gs, 99));
		} else {
			assert_string_equal(got, first);
		}
		groups_free(&gs);
	}
	/* the id is a hash of how and what: another grouping, another id */
	struct group_item a = { xstrdup("x"), "r", 0 }, b = { xstrdup("x"), "r", 0 };
	struct run_groups ga, gb;
	groups_from_items(&ga, GROUP_BY_TOOLS, &a, 1);
	groups_from_items(&gb, GROUP_BY_ERROR, &b, 1);
	assert_string_not_equal(ga.g[0].id, gb.g[0].id);
	groups_free(&ga);
	groups_free(&gb);
}

/* ---- a session ------------------------------------------------------------ */

static char dir[64];
static char runs_path[128], annots_file[160];
static struct config cfg;

#define CALL(r, i, name, result) \
	"{\"role\":\"assistant\",\"content\":null,\"tool_calls\":[{\"id\":\"" r #i "\",\"type\":\"function\"," \
	"\"function\":{\"name\":\"" name "\",\"arguments\":\"{}\"}}]}," \
	"{\"role\":\"tool\",\"tool_call_id\":\"" r #i "\",\"content\":\"" result "\"},"
#define RUN(id, calls) "{\"id\":\"" id "\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}," \
	calls "{\"role\":\"assistant\",\"content\":\"done\"}]}\n"

static const char runs[] =
	RUN("r4", CALL("r4", 0, "get_user", "mia") CALL("r4", 1, "book", "Error: flight HAT001 is full"))
	RUN("r2", CALL("r2", 0, "get_user", "Error: user 17 not found"))
	RUN("r3", CALL("r3", 0, "get_user", "ok") CALL("r3", 1, "book", "Error: flight HAT202 is full"))
	RUN("r1", "")
	RUN("r5", CALL("r5", 0, "get_user", "ok") CALL("r5", 1, "get_user", "ok") CALL("r5", 2, "book", "ok"));

static const char yaml[] =
	"scorers:\n"
	"  - id: errors\n"
	"    type: tool-errors\n";

static int setup(void **s)
{
	(void)s;
	setlocale(LC_CTYPE, "C.UTF-8");
	strcpy(dir, "/tmp/tcr-groups.XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	snprintf(runs_path, sizeof runs_path, "%s/runs.jsonl", dir);
	snprintf(annots_file, sizeof annots_file, "%s/annot.jsonl", dir);
	test_write_file(runs_path, runs);
	struct error err = {0};
	if (config_load_string(&cfg, NULL, "t.yaml", dir, yaml, sizeof yaml - 1, &err) < 0) {
		fprintf(stderr, "%s\n", err.msg);
		return -1;
	}
	return 0;
}

static int teardown(void **s)
{
	(void)s;
	config_free(&cfg);
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

static void open_session(struct review *rv)
{
	struct error err = {0};
	const char *annots[] = { annots_file };
	char *paths[] = { runs_path };
	if (review_open(rv, &cfg, NULL, paths, 1, annots, 1, "ann", &err) < 0)
		fail_msg("review_open: %s", err.msg);
	for (int i = 0; review_step(rv, 0); i++)
		assert_true(i < 1000);
	review_settle(rv);
	assert_int_equal(rv->nentries, 5);
}

static const struct run_group *group_with(const struct run_groups *gs, const char *fp)
{
	for (size_t i = 0; i < gs->n; i++)
		if (!strcmp(gs->g[i].fingerprint, fp))
			return &gs->g[i];
	fail_msg("no group \"%s\"", fp);
	return NULL;
}

static void test_fingerprints(void **s)
{
	(void)s;
	struct review rv;
	open_session(&rv);
	struct run_groups gs;
	groups_build(&gs, &rv, GROUP_BY_TOOLS, NULL, 0);
	assert_int_equal(gs.n, 4);
	const struct run_group *g = group_with(&gs, "get_user \xe2\x86\x92 book");
	assert_int_equal(g->n, 2);
	assert_string_equal(g->example, "r3");
	assert_ptr_equal(gs.g, g);          /* the largest first */
	group_with(&gs, "get_user \xc3\x97" "2 \xe2\x86\x92 book");
	group_with(&gs, GROUPS_NO_CALLS);
	groups_free(&gs);

	groups_build(&gs, &rv, GROUP_BY_ERROR, NULL, 0);
	assert_int_equal(gs.n, 3);
	g = group_with(&gs, "Error: flight <id> is full");
	assert_int_equal(g->n, 2);
	assert_int_equal(group_with(&gs, GROUPS_NO_ERROR)->n, 2);
	group_with(&gs, "Error: user <n> not found");
	groups_free(&gs);

	groups_build(&gs, &rv, GROUP_BY_VERDICTS, NULL, 0);
	assert_int_equal(gs.n, 2);
	assert_int_equal(group_with(&gs, "errors \xe2\x9c\x97")->n, 3);
	assert_int_equal(group_with(&gs, "errors \xe2\x9c\x93")->n, 2);
	groups_free(&gs);
	review_close(&rv);
}

/* Every line of the file that holds `needle`. */
static size_t lines_with(const char *needle)
{
	char *text = test_slurp(annots_file);
	size_t n = 0;
	for (char *line = text ? strtok(text, "\n") : NULL; line; line = strtok(NULL, "\n"))
		n += strstr(line, needle) != NULL;
	free(text);
	return n;
}

static void test_group_label_and_retract(void **s)
{
	(void)s;
	unlink(annots_file);
	struct review rv;
	open_session(&rv);
	struct run_groups gs;
	groups_build(&gs, &rv, GROUP_BY_VERDICTS, NULL, 0);
	const struct run_group *g = group_with(&gs, "errors \xe2\x9c\x97");
	struct group_outcome out;
	struct error err = {0};
	assert_int_equal(review_group_label(&rv, 0, false, 1, g->entries, g->n, &out, &err), 0);
	assert_int_equal(out.written, 3);
	assert_int_equal(out.skipped, 0);
	assert_int_equal(lines_with(out.group), 3);
	assert_int_equal(lines_with("\"decision\":\"override\""), 3);
	for (size_t k = 0; k < g->n; k++) {
		const struct decision *d = annot_current(rv.annot, rv.entries[g->entries[k]].id, "errors", "ann");
		assert_non_null(d);
		assert_string_equal(d->group, out.group);
		assert_true(d->run_hash != NULL);
	}
	size_t standing;
	const char *grp = review_group_of_row(&rv, g->entries[1], 0, &standing);
	assert_non_null(grp);
	assert_int_equal(standing, 3);
	char id[40];
	snprintf(id, sizeof id, "%s", grp);
	/* one of them decided again alone stays when the group is taken back */
	assert_int_equal(review_group_retract(&rv, id, &err), 0);
	assert_int_equal(lines_with("\"retracts\":\"group\""), 1);
	for (size_t k = 0; k < g->n; k++)
		assert_null(annot_current(rv.annot, rv.entries[g->entries[k]].id, "errors", "ann"));
	assert_int_equal(annot_group_standing(rv.annot, id), 0);
	assert_int_equal(review_group_retract(&rv, id, &err), -1);
	assert_int_equal(err.kind, ERR_NOTHING_TO_RETRACT);

	/* accept takes each run's own score; a tag goes on every run */
	assert_int_equal(review_group_label(&rv, 0, true, 0, g->entries, g->n, &out, &err), 0);
	assert_int_equal(lines_with("\"decision\":\"accept\""), 3);
	size_t all[5] = { 0, 1, 2, 3, 4 };
	assert_int_equal(review_group_tag(&rv, "wrong flight", all, 5, &out, &err), 0);
	assert_int_equal(out.written, 5);
	assert_int_equal(lines_with("\"tag\":\"wrong flight\""), 5);
	assert_int_equal(annot_group_standing(rv.annot, out.group), 5);
	/* a code typed in another spelling is written in the one in use */
	size_t two[2] = { 0, 1 };
	assert_int_equal(review_group_tag(&rv, "Wrong  FLIGHT", two, 2, &out, &err), 0);
	assert_int_equal(lines_with("\"tag\":\"wrong flight\""), 7);
	assert_int_equal(lines_with("FLIGHT"), 0);
	/* a row that does not exist, an empty code */
	assert_int_equal(review_group_label(&rv, 7, false, 1, all, 5, &out, &err), -1);
	assert_int_equal(review_group_tag(&rv, "", all, 5, &out, &err), -1);
	groups_free(&gs);
	review_close(&rv);

	/* read again, the file says the same */
	open_session(&rv);
	assert_int_equal(annot_count(rv.annot), 3 + 1 + 3 + 5 + 2);
	review_close(&rv);
}

/* A group cut by a crash in its one write (its first lines, then a torn
 * one) stands for nothing; read on after the torn line, it still does not,
 * and what follows stands. The same group whole stands whole. */
static void test_cut_group(void **s)
{
	(void)s;
	unlink(annots_file);
	struct error err = {0};
	struct annot_store *st = annot_open(annots_file, &err);
	assert_non_null(st);
	char group[40];
	annot_group_id(group);
	struct decision ds[3];
	const char *runs_of[] = { "r1", "r2", "r3" };
	for (int i = 0; i < 3; i++)
		ds[i] = (struct decision){ .kind = DEC_TAG, .run = runs_of[i], .tag = "late", .reviewer = "ann",
		                           .group = group, .at = "2026-01-01T00:00:00Z" };
	assert_int_equal(annot_append_many(st, ds, 3, &err), 0);
	annot_close(st);
	char *whole = test_slurp(annots_file);
	assert_non_null(strstr(whole, "\"group_lines\":3"));
	st = annot_open(annots_file, &err);
	assert_int_equal(annot_group_standing(st, group), 3);
	annot_close(st);

	/* the first two lines and half of the third */
	char *third = strchr(strchr(whole, '\n') + 1, '\n') + 1;
	size_t cut = (size_t)(third - whole) + 20;
	char path[200];
	snprintf(path, sizeof path, "%s.cut", annots_file);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fwrite(whole, 1, cut, f);
	fclose(f);
	st = annot_open(path, &err);
	assert_non_null(st);
	assert_int_equal(annot_group_standing(st, group), 0);
	assert_int_equal(annot_count(st), 0);
	assert_non_null(annot_warning(st));             /* the torn line is reported */
	annot_close(st);

	/* a later line ends the torn one; the cut group still stands for nothing */
	f = fopen(path, "a");
	fputs("\n{\"v\":2,\"run\":\"r9\",\"decision\":\"note\",\"reason\":\"after\",\"reviewer\":\"ann\",\"at\":\"2026-01-02T00:00:00Z\"}\n", f);
	fclose(f);
	st = annot_open(path, &err);
	assert_int_equal(annot_group_standing(st, group), 0);
	assert_int_equal(annot_count(st), 1);
	assert_non_null(annot_note(st, "r9", "ann"));
	annot_close(st);
	unlink(path);
	free(whole);
}

int main(void)
{
	setlocale(LC_CTYPE, "C.UTF-8");
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_normalize),
		cmocka_unit_test(test_order),
		cmocka_unit_test(test_fingerprints),
		cmocka_unit_test(test_group_label_and_retract),
		cmocka_unit_test(test_cut_group),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
