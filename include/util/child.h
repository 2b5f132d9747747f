/* child.h - one child process under limits: a program started without a
 * shell (exec scorers, format converters) or a function of ours run in a
 * fork (a declared format's jq programs), fed on stdin, read on stdout and
 * stderr under a deadline, with CPU, memory and file-size limits. */
#ifndef TCR_UTIL_CHILD_H
#define TCR_UTIL_CHILD_H

#include <jansson.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#define CHILD_ERR_KEEP 16384     /* bytes of stderr kept: its end */

struct child_spec {
	const char *path;       /* the program, resolved (execve takes it as is) */
	char *const *argv;      /* NULL-terminated */
	char *const *envp;      /* NULL-terminated: the cleaned environment */
	const char *cwd;        /* folder the child starts in, or NULL */
	long timeout_ms;
	size_t out_cap;         /* bytes of stdout past which the child is killed */
	/* Optional: zero is unused. */
	bool in_file, out_file; /* stdin is in_fd, stdout out_fd, instead of pipes */
	int in_fd, out_fd;      /* (out_cap is then unused: file_bytes bounds it) */
	long cpu_s;             /* RLIMIT_CPU: SIGXCPU past it */
	size_t mem_bytes;       /* RLIMIT_AS (not under the sanitizers, which reserve much) */
	size_t file_bytes;      /* RLIMIT_FSIZE: SIGXFSZ on a write past it */
	/* Set: the child runs fn(arg) in the fork and exits with what it
	 * returns, instead of execve (path, argv, envp unused). */
	int (*fn)(void *arg);
	void *arg;
};


struct child_result {
	int status;             /* waitpid status, meaningful when reaped */
	bool reaped;
	bool timed_out;
	bool overflow;          /* stdout went past out_cap */
	int exec_errno;         /* the child could not start the program: its errno */
	bool ended;             /* stream: it closed stdout before answering */
	char *out;              /* stdout, NUL-terminated (malloc'd) */
	size_t outlen;
	char *errout;           /* the end of stderr, NUL-terminated (malloc'd) */
	size_t errout_len;
};

/* Runs the child to its end, the deadline or the cap. Returns 0, or -1
 * when no child could be made (errno set). The process group of the child
 * is killed on the deadline or the cap, and the child is always reaped. */
int  child_run(const struct child_spec *sp, const char *in, size_t inlen,
                   struct child_result *res);
void child_result_free(struct child_result *res);
/* ---- the pieces, shared with the exec scorer's stream protocol ---- */

/* A growing NUL-terminated buffer. */
struct child_sink {
	char *buf;
	size_t len, cap;
};
void child_sink_add(struct child_sink *s, const char *p, size_t n);
/* Keeps the end of the text only, once it grows past CHILD_ERR_KEEP. */
void child_sink_keep_end(struct child_sink *s);
/* Reads what a non-blocking fd has, up to a little past cap; false at EOF
 * or an error. */
bool child_sink_drain(int fd, struct child_sink *s, size_t cap);

/* A started child: the write end of its stdin and the read ends of its
 * stdout and stderr, all non-blocking and close-on-exec; exec_errno is the
 * child's execve failure (it has then exited 127). */
struct child_proc {
	pid_t pid;
	int fd[3];
	int exec_errno;
};
/* Forks and execs the child in its own process group. 0, or -1 (errno). */
int child_start(const struct child_spec *sp, struct child_proc *ch);
/* Waits for the child until the deadline (not at all when kill_now), then
 * kills its group and reaps it; sets status, reaped and timed_out. */
void child_reap(pid_t pid, long deadline, bool kill_now, struct child_result *res);
long child_now_ms(void);
/* SIGPIPE blocked on this thread while writing to a child that may not
 * read, then the mask put back with any SIGPIPE raised meanwhile taken. */
void child_sigpipe_block(sigset_t *old);
void child_sigpipe_restore(const sigset_t *old);

/* The last `lines` lines of text (at most `max` bytes), as a new string. */
char *child_tail_lines(const char *text, size_t len, int lines, size_t max);

/* "10s", "500ms", "2m", or a number of seconds, up to 24 h, in ms; -1
 * when v is not such a duration. */
long child_duration_ms(const json_t *v);
/* PATH's first executable regular file named `name` (malloc'd), or NULL. */
char *child_path_search(const char *name);

/* The folder caches go in (malloc'd): $TCR_CACHE_DIR, else
 * $XDG_CACHE_HOME/tcreview, else ~/.cache/tcreview; NULL when none. */
char *child_cache_dir(void);
/* 16 hex digits and a NUL naming a command for a cache: the command line,
 * the content of the program when it is named by a path and of every
 * argument that names a regular file (relative ones against dir), and the
 * values of the variables in env_names. */
void child_command_key(const json_t *command, const char *program, const char *dir,
                       const json_t *env_names, char out[17]);

#endif
