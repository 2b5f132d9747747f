/* exec_proc.h - one child process of the exec scorer: started without a
 * shell, fed on stdin, read on stdout and stderr under a deadline. */
#ifndef TCR_SCORERS_EXEC_PROC_H
#define TCR_SCORERS_EXEC_PROC_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#define EXEC_ERR_KEEP 16384     /* bytes of stderr kept: its end */

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
	bool ended;             /* stream: it closed stdout before answering */
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
/* ---- the pieces, shared with the stream protocol (exec_stream.c) ---- */

/* A growing NUL-terminated buffer. */
struct exec_sink {
	char *buf;
	size_t len, cap;
};
void exec_sink_add(struct exec_sink *s, const char *p, size_t n);
/* Keeps the end of the text only, once it grows past EXEC_ERR_KEEP. */
void exec_sink_keep_end(struct exec_sink *s);
/* Reads what a non-blocking fd has, up to a little past cap; false at EOF
 * or an error. */
bool exec_sink_drain(int fd, struct exec_sink *s, size_t cap);

/* A started child: the write end of its stdin and the read ends of its
 * stdout and stderr, all non-blocking and close-on-exec; exec_errno is the
 * child's execve failure (it has then exited 127). */
struct exec_child {
	pid_t pid;
	int fd[3];
	int exec_errno;
};
/* Forks and execs the child in its own process group. 0, or -1 (errno). */
int exec_child_start(const struct exec_spec *sp, struct exec_child *ch);
/* Waits for the child until the deadline (not at all when kill_now), then
 * kills its group and reaps it; sets status, reaped and timed_out. */
void exec_reap(pid_t pid, long deadline, bool kill_now, struct exec_result *res);
long exec_now_ms(void);
/* SIGPIPE blocked on this thread while writing to a child that may not
 * read, then the mask put back with any SIGPIPE raised meanwhile taken. */
void exec_sigpipe_block(sigset_t *old);
void exec_sigpipe_restore(const sigset_t *old);

/* The last `lines` lines of text (at most `max` bytes), as a new string. */
char *exec_tail_lines(const char *text, size_t len, int lines, size_t max);

#endif
