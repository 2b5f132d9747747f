/* fake_server.c - starting and stopping tests/fake_llm from a C test. */
#include "fake_server.h"
#include "test_files.h"

#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

static const char *fake_llm_path(const char *argv0, char *buf, size_t n)
{
	const char *p = getenv("TCR_FAKE_LLM");
	if (p && *p)
		return p;
	p = getenv("TCR_BUILDDIR");
	if (p && *p) {
		snprintf(buf, n, "%s/tests/fake_llm", p);
		return buf;
	}
	const char *slash = strrchr(argv0, '/');
	if (slash)
		snprintf(buf, n, "%.*s/fake_llm", (int)(slash - argv0), argv0);
	else
		snprintf(buf, n, "./fake_llm");
	return buf;
}

static void spawn(struct fake_server *s, const char *fake, const char *dir, const char *spath,
                  const char *ppath)
{
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		/* Its chatter ("listening on ...") would clutter the test log. */
		char epath[320];
		snprintf(epath, sizeof epath, "%s/server.err", dir);
		int efd = open(epath, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (efd >= 0)
			dup2(efd, 2);
		execl(fake, fake, "--script", spath, "--log", s->log, "--port-file", ppath,
		      "--max-seconds", "900", (char *)NULL);
		_exit(127);
	}
	s->pid = pid;
}

void fake_server_start(struct fake_server *s, const char *argv0, const char *dir,
                       const char *script)
{
	char bin[512], spath[320], ppath[320];
	const char *fake = fake_llm_path(argv0, bin, sizeof bin);
	if (access(fake, X_OK) != 0)
		fail_msg("%s is not there (make check builds it)", fake);
	snprintf(spath, sizeof spath, "%s/script.json", dir);
	snprintf(ppath, sizeof ppath, "%s/port", dir);
	snprintf(s->log, sizeof s->log, "%s/server.log", dir);
	unlink(ppath);
	unlink(s->log);
	FILE *f = fopen(spath, "w");
	assert_non_null(f);
	fputs(script, f);
	assert_int_equal(fclose(f), 0);
	spawn(s, fake, dir, spath, ppath);
	for (int i = 0; i < 1200; i++) {        /* 60 s at most: a guard, not a measure */
		char *p = test_slurp(ppath);
		s->port = p ? atoi(p) : 0;
		free(p);
		if (s->port > 0)
			return;
		if (waitpid(s->pid, NULL, WNOHANG) == s->pid) {
			s->pid = 0;
			char epath[320];
			snprintf(epath, sizeof epath, "%s/server.err", dir);
			char *e = test_slurp(epath);
			print_error("%s", e ? e : "");
			free(e);
			fail_msg("fake_llm ended before it wrote its port");
		}
		usleep(50000);
	}
	fail_msg("fake_llm wrote no port in 60 s");
}

void fake_server_stop(struct fake_server *s)
{
	if (s->pid <= 0)
		return;
	kill(s->pid, SIGTERM);
	for (int i = 0; i < 100; i++) {         /* 2 s, then no more asking */
		if (waitpid(s->pid, NULL, WNOHANG) == s->pid) {
			s->pid = 0;
			return;
		}
		usleep(20000);
	}
	kill(s->pid, SIGKILL);
	waitpid(s->pid, NULL, 0);
	s->pid = 0;
}

size_t fake_server_requests(const struct fake_server *s)
{
	char *text = test_slurp(s->log);
	size_t n = 0;
	for (const char *p = text; p && *p; p++)
		n += *p == '\n';
	free(text);
	return n;
}
