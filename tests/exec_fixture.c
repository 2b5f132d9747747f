/* exec_fixture.c - the exec scorer tests' folder, configuration and run. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <cmocka.h>

#include "exec_fixture.h"
#include "runs/format.h"
#include "util/error.h"

char exec_tmpdir[] = "/tmp/tcr-exec-XXXXXX";

int exec_fixture_setup(void)
{
	if (!mkdtemp(exec_tmpdir))
		return -1;
	char sub[600];
	snprintf(sub, sizeof sub, "%s/checks", exec_tmpdir);
	mkdir(sub, 0755);
	snprintf(sub, sizeof sub, "%s/cache", exec_tmpdir);
	mkdir(sub, 0755);
	/* Answers kept by one test must not reach another, nor the user's
	 * own cache. */
	setenv("TCR_CACHE_DIR", sub, 1);
	return 0;
}

void exec_fixture_cleanup(void)
{
	char cmd[600];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", exec_tmpdir);
	assert_int_equal(system(cmd), 0);
}

void exec_write(const char *name, const char *text, mode_t mode)
{
	char path[512];
	snprintf(path, sizeof path, "%s/%s", exec_tmpdir, name);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	chmod(path, mode);
}

int exec_load(struct config *cfg, const char *entries, struct error *err)
{
	char yaml[4096];
	snprintf(yaml, sizeof yaml, "scorers:\n%s", entries);
	return config_load_string(cfg, NULL, "s.yaml", exec_tmpdir, yaml, strlen(yaml), err);
}

struct run *exec_chat_run(const char *id)
{
	char text[1024];
	snprintf(text, sizeof text,
		"{\"id\":\"%s\",\"task_id\":\"t1\",\"messages\":["
		"{\"role\":\"user\",\"content\":\"Where is order 1042?\"},"
		"{\"role\":\"assistant\",\"content\":null,\"tool_calls\":[{\"id\":\"c1\",\"type\":\"function\","
		"\"function\":{\"name\":\"get_order\",\"arguments\":\"{\\\"order_id\\\":\\\"1042\\\"}\"}}]},"
		"{\"role\":\"tool\",\"tool_call_id\":\"c1\",\"content\":\"shipped\"},"
		"{\"role\":\"assistant\",\"content\":\"It has shipped.\"}]}", id);
	json_t *rec = json_loads(text, 0, NULL);
	assert_non_null(rec);
	/* The line, and so the run id, follows from `id`: runs of different
	 * ids differ, and a run made again is the same run. */
	unsigned line = 1;
	for (const char *p = id; *p; p++)
		line = line * 31 + (unsigned char)*p;
	struct run *r = run_new(rec, "t.jsonl", (int)(line % 100000) + 1, -1);
	json_decref(rec);
	struct error err = {0};
	assert_int_equal(format_load(r, format_find("openai-chat"), &err), 0);
	return r;
}
