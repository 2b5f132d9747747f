/* test_reach.c - whether anything listens at a judge's local address. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <arpa/inet.h>
#include <netinet/in.h>
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_remote_not_probed),
		cmocka_unit_test(test_listening_and_not),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
