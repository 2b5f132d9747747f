/* child.c - one child process under limits: fork and execve (no shell) or
 * a function in the fork, stdin fed and stdout and stderr read with poll
 * under a deadline, the process group killed and the child reaped
 * whatever happens.
 *
 * Scorers run on several threads at once, so every pipe is made close-on-
 * exec (another thread's child must not inherit our ends, or we would wait
 * for an EOF that never comes), the child does only async-signal-safe
 * calls between fork and execve, and SIGPIPE is blocked in the calling
 * thread while writing (a child that does not read must not kill us). */
#include <errno.h>
#include <stdio.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "util/child.h"
#include "util/xalloc.h"

long child_now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* AddressSanitizer reserves terabytes of address space: RLIMIT_AS would
 * stop it before the child starts, so its builds do without that limit. */
#if defined(__SANITIZE_ADDRESS__)
#define CHILD_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CHILD_ASAN 1
#endif
#endif

static void limit(int what, unsigned long long v)
{
	if (!v)
		return;
	struct rlimit rl = { .rlim_cur = (rlim_t)v, .rlim_max = (rlim_t)v };
	setrlimit(what, &rl);
}

/* The address space the process holds now (/proc/self/statm), 0 when
 * unknown: a function child inherits its parent's mappings (the inputs
 * mapped whole), which its memory limit must not count. */
#ifndef CHILD_ASAN
static unsigned long long vm_now(void)
{
	char buf[64];
	int fd = open("/proc/self/statm", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	ssize_t n = read(fd, buf, sizeof buf - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	return strtoull(buf, NULL, 10) * (unsigned long long)sysconf(_SC_PAGESIZE);
}
#endif

/* Between fork and execve: only async-signal-safe calls. A function child
 * (sp->fn) is ours and runs with what fork gave it. */
static void child(const struct child_spec *sp, int in, int out, int err, int report,
                  const sigset_t *mask)
{
	struct sigaction dfl;
	memset(&dfl, 0, sizeof dfl);
	dfl.sa_handler = SIG_DFL;
	sigaction(SIGPIPE, &dfl, NULL);
	sigprocmask(SIG_SETMASK, mask, NULL);
	setpgid(0, 0);
	if (dup2(in, 0) < 0 || dup2(out, 1) < 0 || dup2(err, 2) < 0)
		goto fail;
	if (sp->cwd && chdir(sp->cwd) < 0)
		goto fail;
	limit(RLIMIT_CPU, (unsigned long long)sp->cpu_s);
	limit(RLIMIT_FSIZE, sp->file_bytes);
#ifndef CHILD_ASAN
	if (sp->mem_bytes)
		limit(RLIMIT_AS, sp->mem_bytes + (sp->fn ? vm_now() : 0));
#endif
	if (sp->fn) {
		close(report);
		_exit(sp->fn(sp->arg));
	}
	execve(sp->path, sp->argv, sp->envp);
fail:;
	int e = errno;
	ssize_t w = write(report, &e, sizeof e);
	(void)w;
	_exit(127);
}

void child_sink_add(struct child_sink *s, const char *p, size_t n)
{
	if (s->len + n + 1 > s->cap) {
		size_t cap = s->cap ? s->cap : 4096;
		while (s->len + n + 1 > cap)
			cap *= 2;
		char *b = xrealloc(s->buf, cap);
		s->buf = b;
		s->cap = cap;
	}
	memcpy(s->buf + s->len, p, n);
	s->len += n;
	s->buf[s->len] = '\0';
}

/* Keeps the end of stderr only: halves the buffer when it grows past ERR_KEEP. */
void child_sink_keep_end(struct child_sink *s)
{
	if (s->len <= CHILD_ERR_KEEP)
		return;
	size_t drop = s->len - CHILD_ERR_KEEP / 2;
	memmove(s->buf, s->buf + drop, s->len - drop + 1);
	s->len -= drop;
}

/* Reads what is there, up to a little past cap (a child writing without
 * pause would otherwise keep us here); returns false at EOF or an error. */
bool child_sink_drain(int fd, struct child_sink *s, size_t cap)
{
	char buf[65536];
	while (s->len <= cap) {
		ssize_t n = read(fd, buf, sizeof buf);
		if (n > 0) {
			child_sink_add(s, buf, (size_t)n);
			if ((size_t)n < sizeof buf)
				return true;
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		return n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK);
	}
	return true;
}

struct io {
	int fd[3];              /* stdin write end, stdout and stderr read ends; -1 when closed */
	const char *in;
	size_t inlen, inoff;
	struct child_sink out, err;
};

static void io_close(struct io *io, int i)
{
	if (io->fd[i] >= 0)
		close(io->fd[i]);
	io->fd[i] = -1;
}

static void io_write(struct io *io)
{
	while (io->inoff < io->inlen) {
		ssize_t n = write(io->fd[0], io->in + io->inoff, io->inlen - io->inoff);
		if (n > 0) {
			io->inoff += (size_t)n;
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return;
		break;                  /* EPIPE: the child does not read; fine */
	}
	io_close(io, 0);
}

/* Moves data until both output pipes close, the deadline or the cap.
 * Returns 0, 1 on the deadline, 2 on the cap. */
static int io_loop(struct io *io, long deadline, size_t cap)
{
	while (io->fd[1] >= 0 || io->fd[2] >= 0) {
		struct pollfd pf[3];
		for (int i = 0; i < 3; i++) {
			pf[i].fd = io->fd[i];
			pf[i].events = i == 0 ? POLLOUT : POLLIN;
			pf[i].revents = 0;
		}
		long left = deadline - child_now_ms();
		if (left <= 0)
			return 1;
		int n = poll(pf, 3, (int)(left > 60000 ? 60000 : left));
		if (n < 0 && errno != EINTR)
			return 1;
		if (n <= 0)
			continue;
		if (pf[0].revents)
			io_write(io);
		if (pf[1].revents && !child_sink_drain(io->fd[1], &io->out, cap))
			io_close(io, 1);
		if (pf[2].revents && !child_sink_drain(io->fd[2], &io->err, CHILD_ERR_KEEP))
			io_close(io, 2);
		child_sink_keep_end(&io->err);
		if (io->out.len > cap)
			return 2;
	}
	return 0;
}

void child_reap(pid_t pid, long deadline, bool kill_now, struct child_result *res)
{
	int st = 0;
	while (!kill_now) {
		pid_t w = waitpid(pid, &st, WNOHANG);
		if (w == pid) {
			res->status = st;
			res->reaped = true;
			return;
		}
		if (w < 0 && errno != EINTR)
			return;
		if (child_now_ms() >= deadline) {
			res->timed_out = true;
			break;
		}
		struct timespec ts = { 0, 1000000 };
		nanosleep(&ts, NULL);
	}
	kill(-pid, SIGKILL);
	kill(pid, SIGKILL);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	res->status = st;
	res->reaped = true;
}

static int pipes_make(int p[4][2])
{
	for (int i = 0; i < 4; i++)
		p[i][0] = p[i][1] = -1;
	for (int i = 0; i < 4; i++)
		if (pipe2(p[i], O_CLOEXEC) < 0)
			return -1;
	return 0;
}

static void pipes_close(int p[4][2])
{
	for (int i = 0; i < 4; i++)
		for (int j = 0; j < 2; j++)
			if (p[i][j] >= 0)
				close(p[i][j]);
}

/* Whether the child reported an execve failure on the report pipe. */
static int exec_errno_read(int fd)
{
	int e = 0;
	ssize_t n;
	while ((n = read(fd, &e, sizeof e)) < 0 && errno == EINTR)
		;
	return n == (ssize_t)sizeof e ? e : 0;
}

static void io_finish(struct io *io, struct child_result *res)
{
	for (int i = 0; i < 3; i++)
		io_close(io, i);
	res->out = io->out.buf ? io->out.buf : calloc(1, 1);
	res->outlen = io->out.len;
	res->errout = io->err.buf ? io->err.buf : calloc(1, 1);
	res->errout_len = io->err.len;
}

void child_sigpipe_block(sigset_t *old)
{
	sigset_t pipe_set;
	sigemptyset(&pipe_set);
	sigaddset(&pipe_set, SIGPIPE);
	pthread_sigmask(SIG_BLOCK, &pipe_set, old);
}

void child_sigpipe_restore(const sigset_t *old)
{
	/* A SIGPIPE our writes raised is pending on this thread: take it. */
	sigset_t pend, pipe_set;
	sigemptyset(&pipe_set);
	sigaddset(&pipe_set, SIGPIPE);
	struct timespec zero = { 0, 0 };
	if (sigpending(&pend) == 0 && sigismember(&pend, SIGPIPE) && !sigismember(old, SIGPIPE))
		sigtimedwait(&pipe_set, NULL, &zero);
	pthread_sigmask(SIG_SETMASK, old, NULL);
}

int child_start(const struct child_spec *sp, struct child_proc *ch)
{
	memset(ch, 0, sizeof *ch);
	int p[4][2];            /* stdin, stdout, stderr, exec report */
	if (pipes_make(p) < 0) {
		int e = errno;
		pipes_close(p);
		errno = e;
		return -1;
	}
	sigset_t old;
	child_sigpipe_block(&old);
	pid_t pid = fork();
	if (pid < 0) {
		int e = errno;
		pipes_close(p);
		pthread_sigmask(SIG_SETMASK, &old, NULL);
		errno = e;
		return -1;
	}
	if (pid == 0)
		child(sp, sp->in_file ? sp->in_fd : p[0][0], sp->out_file ? sp->out_fd : p[1][1],
		      p[2][1], p[3][1], &old);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	setpgid(pid, pid);      /* both sides: no race with a kill of the group */
	close(p[0][0]); close(p[1][1]); close(p[2][1]); close(p[3][1]);
	/* A file given in place of a pipe: our end of that pipe is not used. */
	if (sp->in_file) {
		close(p[0][1]);
		p[0][1] = -1;
	}
	if (sp->out_file) {
		close(p[1][0]);
		p[1][0] = -1;
	}
	ch->pid = pid;
	ch->exec_errno = exec_errno_read(p[3][0]);
	close(p[3][0]);
	ch->fd[0] = p[0][1];
	ch->fd[1] = p[1][0];
	ch->fd[2] = p[2][0];
	for (int i = 0; i < 3; i++)
		if (ch->fd[i] >= 0)
			fcntl(ch->fd[i], F_SETFL, fcntl(ch->fd[i], F_GETFL) | O_NONBLOCK);
	return 0;
}

int child_run(const struct child_spec *sp, const char *in, size_t inlen,
                  struct child_result *res)
{
	memset(res, 0, sizeof *res);
	long deadline = child_now_ms() + sp->timeout_ms;
	struct child_proc ch;
	if (child_start(sp, &ch) < 0)
		return -1;
	sigset_t old;
	child_sigpipe_block(&old);
	pid_t pid = ch.pid;
	res->exec_errno = ch.exec_errno;
	struct io io = { .fd = { ch.fd[0], ch.fd[1], ch.fd[2] }, .in = in, .inlen = inlen };
	if (res->exec_errno)
		io_close(&io, 0);
	int why = io_loop(&io, deadline, sp->out_cap);
	res->timed_out = why == 1;
	res->overflow = why == 2;
	io_finish(&io, res);
	child_reap(pid, deadline, why != 0, res);
	child_sigpipe_restore(&old);
	return 0;
}

void child_result_free(struct child_result *res)
{
	free(res->out);
	free(res->errout);
	memset(res, 0, sizeof *res);
}

char *child_tail_lines(const char *text, size_t len, int lines, size_t max)
{
	while (len && (text[len - 1] == '\n' || text[len - 1] == '\r'))
		len--;
	size_t start = len;
	int seen = 0;
	while (start > 0 && len - start < max) {
		if (text[start - 1] == '\n' && ++seen == lines)
			break;
		start--;
	}
	char *s = xmalloc(len - start + 1);
	memcpy(s, text + start, len - start);
	s[len - start] = '\0';
	return s;
}

/* "10s", "500ms", "2m", or a number of seconds; -1 when not a duration. */
long child_duration_ms(const json_t *v)
{
	if (json_is_number(v)) {
		double s = json_number_value(v);
		return s > 0 && s <= 86400 ? (long)(s * 1000 + 0.5) : -1;
	}
	const char *t = json_string_value(v);
	if (!t)
		return -1;
	char *end;
	errno = 0;
	double n = strtod(t, &end);
	if (end == t || errno || !(n > 0))
		return -1;
	double mul = strcmp(end, "ms") == 0 ? 1 : strcmp(end, "s") == 0 || !*end ? 1000
	           : strcmp(end, "m") == 0 ? 60000 : -1;
	if (mul < 0 || n * mul > 86400000.0)
		return -1;
	return (long)(n * mul + 0.5);
}

/* PATH's first executable regular file named `name` (malloc'd), or NULL. */
char *child_path_search(const char *name)
{
	const char *path = getenv("PATH");
	if (!path)
		path = "/usr/local/bin:/usr/bin:/bin";
	for (const char *p = path;; p++) {
		const char *colon = strchr(p, ':');
		size_t n = colon ? (size_t)(colon - p) : strlen(p);
		char *cand;
		if (asprintf(&cand, "%.*s/%s", (int)n, n ? p : ".", name) < 0)
			xalloc_die();
		struct stat st;
		if (stat(cand, &st) == 0 && S_ISREG(st.st_mode) && access(cand, X_OK) == 0)
			return cand;
		free(cand);
		if (!colon)
			return NULL;
		p = colon;
	}
}
