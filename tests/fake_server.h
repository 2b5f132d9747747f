/* fake_server.h - starting and stopping tests/fake_llm from a C test. */
#ifndef TCR_TESTS_FAKE_SERVER_H
#define TCR_TESTS_FAKE_SERVER_H

#include <stddef.h>
#include <sys/types.h>

struct fake_server {
	pid_t pid;
	int port;
	char log[320];
};

/* Starts fake_llm with a script (JSON text), its files in dir. argv0 is
 * the test's, to find fake_llm beside it ($TCR_FAKE_LLM or
 * $TCR_BUILDDIR/tests/fake_llm first). Fails the test when it does not
 * come up within 60 s. It ends by itself after 900 s, should the test
 * die without stopping it. */
void fake_server_start(struct fake_server *s, const char *argv0, const char *dir,
                       const char *script);
void fake_server_stop(struct fake_server *s);
/* How many requests it has logged. */
size_t fake_server_requests(const struct fake_server *s);

#endif
