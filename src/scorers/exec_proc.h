/* exec_proc.h - one child process of the exec scorer: started without a
 * shell, fed on stdin, read on stdout and stderr under a deadline. */
#ifndef TCR_SCORERS_EXEC_PROC_H
#define TCR_SCORERS_EXEC_PROC_H

#include <stdbool.h>
#include <stddef.h>

struct exec_spec {
	const char *path;       /* the program, resolved (execve takes it as is) */
	char *const *argv;      /* NULL-terminated */
	char *const *envp;      /* NULL-terminated: the cleaned environment */
	const char *cwd;        /* folder the child starts in, or NULL */
	long timeout_ms;
	size_t out_cap;         /* bytes of stdout past which the child is killed */
};

struct exec_result {
	int status;             /* waitpid status, meaningful when reaped */
	bool reaped;
	bool timed_out;
	bool overflow;          /* stdout went past out_cap */
	int exec_errno;         /* the child could not start the program: its errno */
	char *out;              /* stdout, NUL-terminated (malloc'd) */
	size_t outlen;
	char *err;              /* the end of stderr, NUL-terminated (malloc'd) */
	size_t errlen;
};

/* Runs the child to its end, the deadline or the cap. Returns 0, or -1
 * when no child could be made (errno set). The process group of the child
 * is killed on the deadline or the cap, and the child is always reaped. */
int  exec_proc_run(const struct exec_spec *sp, const char *in, size_t inlen,
                   struct exec_result *res);
void exec_result_free(struct exec_result *res);
/* The last `lines` lines of text (at most `max` bytes), as a new string. */
char *exec_tail_lines(const char *text, size_t len, int lines, size_t max);

#endif
