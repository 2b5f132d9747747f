/* runstat.c - runs a command and reports its wall time and peak memory.
 *
 *   runstat [-o FILE] COMMAND [ARG]...
 *
 * Forks, execs COMMAND (searched in PATH), waits with wait4 and writes one
 * line, "wall=SECONDS user=SECONDS sys=SECONDS maxrss_kb=KB status=N", to
 * FILE (truncated) or, without -o, to standard error. The child keeps our
 * standard input, output and error, so its output goes wherever the caller
 * redirected ours. The exit status is the child's: its exit code, 128+N
 * when killed by signal N, 127 when it could not be run. */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double tv(struct timeval t)
{
	return (double)t.tv_sec + (double)t.tv_usec / 1e6;
}

int main(int argc, char **argv)
{
	const char *outpath = NULL;
	int i = 1;
	if (i + 1 < argc && strcmp(argv[i], "-o") == 0) {
		outpath = argv[i + 1];
		i += 2;
	}
	if (i < argc && strcmp(argv[i], "--") == 0)
		i++;
	if (i >= argc) {
		fputs("usage: runstat [-o FILE] COMMAND [ARG]...\n", stderr);
		return 2;
	}
	FILE *out = stderr;
	if (outpath && !(out = fopen(outpath, "w"))) {
		fprintf(stderr, "runstat: %s: %s\n", outpath, strerror(errno));
		return 2;
	}
	fflush(NULL);
	double t0 = now();
	pid_t pid = fork();
	if (pid < 0) {
		fprintf(stderr, "runstat: fork: %s\n", strerror(errno));
		return 2;
	}
	if (pid == 0) {
		if (out != stderr)
			fclose(out);
		execvp(argv[i], argv + i);
		fprintf(stderr, "runstat: %s: %s\n", argv[i], strerror(errno));
		_exit(127);
	}
	int status;
	struct rusage ru;
	pid_t w;
	while ((w = wait4(pid, &status, 0, &ru)) < 0 && errno == EINTR)
		;
	double wall = now() - t0;
	if (w < 0) {
		fprintf(stderr, "runstat: wait4: %s\n", strerror(errno));
		return 2;
	}
	int rc = WIFEXITED(status) ? WEXITSTATUS(status)
	       : WIFSIGNALED(status) ? 128 + WTERMSIG(status) : 2;
	fprintf(out, "wall=%.6f user=%.6f sys=%.6f maxrss_kb=%ld status=%d\n",
	        wall, tv(ru.ru_utime), tv(ru.ru_stime), ru.ru_maxrss, rc);
	if (WIFSIGNALED(status))
		fprintf(stderr, "runstat: %s: killed by signal %d (%s)\n", argv[i],
		        WTERMSIG(status), strsignal(WTERMSIG(status)));
	if (out != stderr && fclose(out) != 0) {
		fprintf(stderr, "runstat: %s: %s\n", outpath, strerror(errno));
		return 2;
	}
	return rc;
}
