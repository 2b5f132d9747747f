/* test_reach.c - whether anything listens at a judge's local address. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "judge/reach.h"

/* A listening socket on 127.0.0.1 at a port the kernel picks. */
static int listen_any(int *port)
{
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	assert_true(fd >= 0);
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	assert_int_equal(bind(fd, (struct sockaddr *)&a, sizeof a), 0);
	assert_int_equal(listen(fd, 4), 0);
	socklen_t len = sizeof a;
	assert_int_equal(getsockname(fd, (struct sockaddr *)&a, &len), 0);
	*port = ntohs(a.sin_port);
	return fd;
}

static void test_remote_not_probed(void **state)
{
	(void)state;
	char where[64];
	assert_int_equal(judge_reach_local("https://api.openai.com/v1", 100, where, sizeof where),
	                 REACH_REMOTE);
	assert_string_equal(where, "");
	assert_int_equal(judge_reach_local("http://10.0.0.5:11434/v1", 100, where, sizeof where),
	                 REACH_REMOTE);
	assert_int_equal(judge_reach_local("ftp://localhost/", 100, where, sizeof where),
	                 REACH_REMOTE);
	assert_int_equal(judge_reach_local(NULL, 100, where, sizeof where), REACH_REMOTE);
	assert_int_equal(judge_reach_local("http://", 100, where, sizeof where), REACH_REMOTE);
	assert_int_equal(judge_reach_local("http://[::1", 100, where, sizeof where), REACH_REMOTE);
}

static void test_listening_and_not(void **state)
{
	(void)state;
	int port;
	int fd = listen_any(&port);
	char url[96], where[64], want[64];
	snprintf(url, sizeof url, "http://127.0.0.1:%d/v1", port);
	snprintf(want, sizeof want, "127.0.0.1:%d", port);
	/* 30 s: a guard, whatever the load; a loopback connect is accepted or
	 * refused by the kernel at once. */
	assert_int_equal(judge_reach_local(url, 30000, where, sizeof where), REACH_LISTENING);
	assert_string_equal(where, want);
	snprintf(url, sizeof url, "http://localhost:%d", port);
	assert_int_equal(judge_reach_local(url, 30000, where, sizeof where), REACH_LISTENING);
	close(fd);
	/* The port is free again: nothing listens there now. */
	snprintf(url, sizeof url, "http://127.0.0.1:%d/v1", port);
	assert_int_equal(judge_reach_local(url, 30000, where, sizeof where), REACH_NOTHING);
	assert_string_equal(where, want);
	/* The scheme's own port when none is written. */
	assert_int_equal(judge_reach_local("http://LOCALHOST/v1", 0, where, sizeof where) == REACH_REMOTE, 0);
	assert_string_equal(where, "LOCALHOST:80");
	judge_reach_local("https://[::1]/v1", 0, where, sizeof where);
	assert_string_equal(where, "::1:443");
}

/* A listener whose accept queue is full (backlog 0, filled by connects
 * never accepted): the kernel drops further SYNs, so a connect to it stays
 * in flight until it closes. */
static int listen_full(int *port, int fill[3])
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
		assert_true(fill[i] >= 0);
		connect(fill[i], (struct sockaddr *)&a, sizeof a);
	}
	return fd;
}

/* Polls a probe until it answers: 600 turns of at most 100 ms, a guard
 * against a hang, never a measure. */
static enum judge_reach settle(struct judge_reach_probe *p, int *turns)
{
	enum judge_reach r = REACH_PENDING;
	for (*turns = 0; r == REACH_PENDING && *turns < 600; ++*turns) {
		struct pollfd pf = { .fd = judge_reach_fd(p), .events = POLLOUT };
		int wait = judge_reach_wait_ms(p);
		poll(&pf, 1, wait < 100 ? wait : 100);
		r = judge_reach_step(p);
	}
	return r;
}

/* The probe the screen polls: known at once when it can be, else in flight
 * with a descriptor to poll, answered later. */
static void test_probe_without_waiting(void **state)
{
	(void)state;
	char url[96], where[64];
	struct judge_reach_probe *p = (struct judge_reach_probe *)1;
	assert_int_equal(judge_reach_begin("https://api.openai.com/v1", 300, where, sizeof where, &p),
	                 REACH_REMOTE);
	assert_null(p);
	int port, turns;
	int fd = listen_any(&port);
	snprintf(url, sizeof url, "http://127.0.0.1:%d/v1", port);
	enum judge_reach r = judge_reach_begin(url, 600000, where, sizeof where, &p);
	if (r == REACH_PENDING)
		r = settle(p, &turns);
	judge_reach_free(p);
	assert_int_equal(r, REACH_LISTENING);
	close(fd);
	r = judge_reach_begin(url, 600000, where, sizeof where, &p);
	if (r == REACH_PENDING)
		r = settle(p, &turns);
	judge_reach_free(p);
	assert_int_equal(r, REACH_NOTHING);

	/* A connect the listener holds: pending, looked at as often as one
	 * likes, until the listener is gone and the connect is refused. */
	int fill[3];
	fd = listen_full(&port, fill);
	snprintf(url, sizeof url, "http://127.0.0.1:%d/v1", port);
	assert_int_equal(judge_reach_begin(url, 600000, where, sizeof where, &p), REACH_PENDING);
	assert_non_null(p);
	assert_true(judge_reach_fd(p) >= 0);
	assert_true(judge_reach_wait_ms(p) > 0);
	for (int i = 0; i < 3; i++)
		assert_int_equal(judge_reach_step(p), REACH_PENDING);
	close(fd);
	assert_int_equal(settle(p, &turns), REACH_NOTHING);
	assert_true(turns < 600);
	judge_reach_free(p);
	for (int i = 0; i < 3; i++)
		close(fill[i]);

	/* Held past its time, it counts as nothing listening. */
	fd = listen_full(&port, fill);
	snprintf(url, sizeof url, "http://127.0.0.1:%d/v1", port);
	assert_int_equal(judge_reach_begin(url, 0, where, sizeof where, &p), REACH_PENDING);
	assert_int_equal(judge_reach_wait_ms(p), 0);
	assert_int_equal(judge_reach_step(p), REACH_NOTHING);
	judge_reach_free(p);
	close(fd);
	for (int i = 0; i < 3; i++)
		close(fill[i]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_remote_not_probed),
		cmocka_unit_test(test_listening_and_not),
		cmocka_unit_test(test_probe_without_waiting),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
