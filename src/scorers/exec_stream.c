/* exec_stream.c - the exec scorer's stream protocol: a child that lives
 * across runs, reads one JSON line per run on stdin and answers with one
 * line on stdout.
 *
 * Runs are scored on several threads, so the children form a pool: a run
 * takes an idle child of its scorer (or starts one), asks it, and gives it
 * back; there are never more children than runs being scored at once. A
 * child that times out, overflows, dies or answers before it has read its
 * run is killed and not given back, so one bad run costs one restart and
 * the next run finds a fresh child. */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "exec_stream.h"
#include "util/xalloc.h"

struct session {
	const void *owner;
	struct child_proc ch;
	struct child_sink out;       /* stdout not yet taken as an answer */
	struct child_sink err;       /* stderr since the current run was sent */
	struct session *next;       /* in the idle list */
};

static pthread_mutex_t idle_lock = PTHREAD_MUTEX_INITIALIZER;
static struct session *idle_list;

static struct session *take_idle(const void *owner)
{
	pthread_mutex_lock(&idle_lock);
	struct session **pp = &idle_list, *s = NULL;
	for (; *pp; pp = &(*pp)->next)
		if ((*pp)->owner == owner) {
			s = *pp;
			*pp = s->next;
			s->next = NULL;
			break;
		}
	pthread_mutex_unlock(&idle_lock);
	return s;
}

static void give_back(struct session *s)
{
	pthread_mutex_lock(&idle_lock);
	s->next = idle_list;
	idle_list = s;
	pthread_mutex_unlock(&idle_lock);
}

static void fd_close(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

/* Kills the child (after a grace until `deadline` when not kill_now),
 * reaps it and frees the session; the status goes to res when given. */
static void session_end(struct session *s, long deadline, bool kill_now, struct child_result *res)
{
	struct child_result local;
	memset(&local, 0, sizeof local);
	for (int i = 0; i < 3; i++)
		fd_close(&s->ch.fd[i]);
	child_reap(s->ch.pid, deadline, kill_now, res ? res : &local);
	free(s->out.buf);
	free(s->err.buf);
	free(s);
}

/* Throws away what the child wrote since its last answer: it belongs to no
 * run (an answer of more than one line, or chatter after it). */
static void discard_pending(struct session *s)
{
	child_sink_drain(s->ch.fd[1], &s->out, CHILD_ERR_KEEP);
	child_sink_drain(s->ch.fd[2], &s->err, CHILD_ERR_KEEP);
	s->out.len = 0;
	s->err.len = 0;
}

enum ask_end { ASK_ANSWER, ASK_EOF, ASK_TIMEOUT, ASK_OVERFLOW };

/* Writes the line and reads until a newline arrives on stdout, the child
 * closes it, the deadline or the cap; stderr is kept meanwhile. */
static enum ask_end converse(struct session *s, const char *line, size_t len, size_t *offp,
                             bool *brokenp, long deadline, size_t cap)
{
	size_t off = *offp;
	bool broken = *brokenp;     /* it stopped reading */
	int *fd = s->ch.fd;
	enum ask_end end = ASK_ANSWER;
	for (;;) {
		if (memchr(s->out.buf ? s->out.buf : "", '\n', s->out.len))
			break;
		if (s->out.len > cap) {
			end = ASK_OVERFLOW;
			break;
		}
		if (fd[1] < 0) {
			end = ASK_EOF;
			break;
		}
		struct pollfd pf[3] = {
			{ .fd = off < len && !broken ? fd[0] : -1, .events = POLLOUT },
			{ .fd = fd[1], .events = POLLIN },
			{ .fd = fd[2], .events = POLLIN },
		};
		long left = deadline - child_now_ms();
		int n = left > 0 ? poll(pf, 3, (int)(left > 60000 ? 60000 : left)) : -1;
		if (left <= 0 || (n < 0 && errno != EINTR)) {
			end = ASK_TIMEOUT;
			break;
		}
		if (n <= 0)
			continue;
		if (pf[0].revents & (POLLOUT | POLLERR | POLLHUP)) {
			ssize_t w = write(fd[0], line + off, len - off);
			if (w > 0)
				off += (size_t)w;
			else if (w < 0 && errno != EINTR && errno != EAGAIN && errno != EWOULDBLOCK)
				broken = true;  /* EPIPE: its answer, or its end, tells why */
		}
		if (pf[2].revents && !child_sink_drain(fd[2], &s->err, CHILD_ERR_KEEP))
			fd_close(&fd[2]);
		child_sink_keep_end(&s->err);
		if (pf[1].revents && !child_sink_drain(fd[1], &s->out, cap))
			fd_close(&fd[1]);
	}
	*offp = off;
	*brokenp = broken;
	return end;
}

/* Whether an answer names another run than the one asked about: a line
 * left over from an earlier run (a script that answered twice). Answers
 * need not carry "id"; those that do are paired with certainty. */
static bool stale(const struct child_result *res, const char *run_id)
{
	json_t *o = json_loadb(res->out, res->outlen, 0, NULL);
	const char *id = json_string_value(json_object_get(o, "id"));
	bool other = id && run_id && strcmp(id, run_id) != 0;
	json_decref(o);
	return other;
}

/* The first line of what the child wrote, without its newline, as res->out.
 * What came after it stays: when a stale line and the answer arrive in one
 * read, the answer is the next line (discard_pending drops the rest before
 * the next run is sent). */
static void take_answer(struct session *s, struct child_result *res)
{
	char *nl = memchr(s->out.buf, '\n', s->out.len);
	size_t used = (size_t)(nl - s->out.buf) + 1, n = used - 1;
	if (n && s->out.buf[n - 1] == '\r')
		n--;
	res->out = xrealloc(NULL, n + 1);
	memcpy(res->out, s->out.buf, n);
	res->out[n] = '\0';
	res->outlen = n;
	memmove(s->out.buf, s->out.buf + used, s->out.len - used);
	s->out.len -= used;
}

static void copy_err(const struct session *s, struct child_result *res)
{
	res->errout = xrealloc(NULL, s->err.len + 1);
	memcpy(res->errout, s->err.buf ? s->err.buf : "", s->err.len);
	res->errout[s->err.len] = '\0';
	res->errout_len = s->err.len;
}

int exec_stream_ask(const void *owner, const struct child_spec *sp, const char *line, size_t len,
                    const char *run_id, struct child_result *res)
{
	memset(res, 0, sizeof *res);
	long deadline = child_now_ms() + sp->timeout_ms;
	struct session *s = take_idle(owner);
	if (!s) {
		s = xcalloc(1, sizeof *s);
		s->owner = owner;
		if (child_start(sp, &s->ch) < 0) {
			int e = errno;
			free(s);
			errno = e;
			return -1;
		}
	}
	if (s->ch.exec_errno) {
		res->exec_errno = s->ch.exec_errno;
		copy_err(s, res);
		res->out = calloc(1, 1);
		session_end(s, deadline, false, res);
		return 0;
	}
	discard_pending(s);
	char *msg = xrealloc(NULL, len + 1);
	memcpy(msg, line, len);
	msg[len] = '\n';
	sigset_t old;
	child_sigpipe_block(&old);
	size_t off = 0;
	bool broken = false;
	enum ask_end end;
	for (;;) {
		end = converse(s, msg, len + 1, &off, &broken, deadline, sp->out_cap);
		if (end != ASK_ANSWER)
			break;
		take_answer(s, res);
		if (!stale(res, run_id))
			break;
		free(res->out);
		res->out = NULL;
	}
	child_sigpipe_restore(&old);
	free(msg);
	bool sent_all = off == len + 1 && !broken;
	copy_err(s, res);
	if (end == ASK_ANSWER) {
		/* Answered before reading all of its run: what it has not read
		 * would be taken for the next run, so this child goes. */
		if (sent_all)
			give_back(s);
		else
			session_end(s, deadline, true, NULL);
		return 0;
	}
	res->out = calloc(1, 1);
	res->timed_out = end == ASK_TIMEOUT;
	res->overflow = end == ASK_OVERFLOW;
	res->ended = end == ASK_EOF;
	/* On EOF the child is ending: its exit status is worth the wait. */
	session_end(s, deadline, end != ASK_EOF, res);
	if (end == ASK_EOF && res->timed_out) {
		res->timed_out = false;
		res->ended = true;
	}
	return 0;
}

void exec_stream_close(const void *owner)
{
	struct session *mine = NULL;
	pthread_mutex_lock(&idle_lock);
	for (struct session **pp = &idle_list; *pp;) {
		struct session *s = *pp;
		if (s->owner == owner) {
			*pp = s->next;
			s->next = mine;
			mine = s;
		} else
			pp = &s->next;
	}
	pthread_mutex_unlock(&idle_lock);
	/* Every child sees EOF at once, then each has a moment to finish. */
	for (struct session *s = mine; s; s = s->next)
		fd_close(&s->ch.fd[0]);
	long deadline = child_now_ms() + EXEC_STREAM_GRACE_MS;
	while (mine) {
		struct session *next = mine->next;
		session_end(mine, deadline, false, NULL);
		mine = next;
	}
}
