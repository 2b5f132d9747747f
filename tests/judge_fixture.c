/* judge_fixture.c - the runs, the local test server and a one-judge configuration the judging tests share. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>

#include "judge/judge.h"
#include "judge_fixture.h"
#include "test_files.h"
#include "util/error.h"

int judge_fixture_setup(struct judge_fixture *fx, const char *argv0, const char *name,
                        const char *key, const char *script)
{
	const char *top = getenv("TCR_SRCDIR");
	fx->load = (struct config_opts){ .datadir = top && *top ? top : "." };
	test_local_only();
	unsetenv("OPENAI_BASE_URL");
	setenv("OPENAI_API_KEY", key, 1);
	snprintf(fx->dir, sizeof fx->dir, "/tmp/tcr-%s-XXXXXX", name);
	if (!mkdtemp(fx->dir))
		return -1;
	char src[512];
	snprintf(src, sizeof src, "%s/tests/data/screen-runs.jsonl", top && *top ? top : ".");
	snprintf(fx->runs_path, sizeof fx->runs_path, "%s/runs.jsonl", fx->dir);
	test_copy_file(src, fx->runs_path);
	fake_server_start(&fx->srv, argv0, fx->dir, script);
	char yaml[1024];
	int n = snprintf(yaml, sizeof yaml,
		"judges:\n"
		"  - id: acc\n"
		"    rubric: tool-call-accuracy-1to5\n"
		"    model: openai/judge-model\n"
		"    base_url: http://127.0.0.1:%d/v1\n"
		"    max_retries: 0\n"
		"    tools: [{name: get_order, description: looks an order up},"
		" {name: track_parcel, description: tracks a parcel},"
		" {name: refund_order, description: refunds an order}]\n", fx->srv.port);
	struct error err = {0};
	if (config_load_string(&fx->cfg, &fx->load, "t.yaml", fx->dir, yaml, (size_t)n, &err) < 0) {
		fprintf(stderr, "%s\n", err.msg);
		return -1;
	}
	return 0;
}

int judge_fixture_teardown(struct judge_fixture *fx)
{
	fake_server_stop(&fx->srv);
	config_free(&fx->cfg);
	char cmd[256];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", fx->dir);
	if (system(cmd) != 0)
		return -1;

	return 0;
}
