/* declared.c - an input file read by a declared format: its jq work in a
 * forked child, or its converter, under limits, into an unlinked
 * temporary file of run-format JSONL, and every way that can fail said
 * once, naming the format, its YAML, the input and the record. */
#include "declared_int.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/child.h"
#include "util/jdoc.h"
#include "util/xalloc.h"
#include "util/error.h"

bool declared_in_use(const struct declared_use *use)
{
	return use && use->set && (use->set->n || use->forced);
}

const struct declared_format *declared_find(const struct declared_set *set, const char *name)
{
	for (size_t i = 0; set && i < set->n; i++)
		if (strcmp(set->v[i].name, name) == 0)
			return &set->v[i];
	return NULL;
}

/* An unlinked file of our own: nothing is left behind whatever happens. */
static int temp_file(void)
{
	const char *dir = getenv("TMPDIR");
	if (!dir || !*dir)
		dir = "/tmp";
	int fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (fd >= 0)
		return fd;
	char path[4096];
	snprintf(path, sizeof path, "%s/tcreview-XXXXXX", dir);
	fd = mkostemp(path, O_CLOEXEC);
	if (fd >= 0)
		unlink(path);
	return fd;
}

/* "PATH:LINE: format 'NAME' (YAML:L:C): " or with [INDEX] for a .json
 * element, as every message of a declared format starts. */
static int lead(char *buf, size_t n, const char *path, const struct job_where *w,
                const struct declared_format *f, bool at_run)
{
	char rec[64] = "";
	if (w->line > 0)
		snprintf(rec, sizeof rec, ":%lld", (long long)w->line);
	else if (w->index >= 0)
		snprintf(rec, sizeof rec, "[%lld]", (long long)w->index);
	if (!f)
		return snprintf(buf, n, "%s%s: declared formats: ", path, rec);
	return snprintf(buf, n, "%s%s: format '%s' (%s:%d:%d): ", path, rec, f->name, f->origin,
	                at_run ? f->run_line : f->detect_line, at_run ? f->run_col : f->detect_col);
}

/* Why a child did not end well, or NULL when it exited. */
static const char *ended_how(const struct child_result *res, const struct declared_format *f,
                             const char *who, char *buf, size_t n)
{
	long mb = f ? (long)(f->max_memory >> 20) : (long)(DECLARED_MEM >> 20);
	if (res->exec_errno)
		snprintf(buf, n, "cannot run the converter: %s", strerror(res->exec_errno));
	else if (res->timed_out)
		snprintf(buf, n, "%s ran past its timeout of %ld s (killed)", who,
		         (f ? f->timeout_ms : DECLARED_TIMEOUT_MS) / 1000);
	else if (WIFSIGNALED(res->status) && WTERMSIG(res->status) == SIGXCPU)
		snprintf(buf, n, "%s used more than %ld s of CPU (stopped)", who,
		         f ? f->cpu_s : DECLARED_CPU_S);
	else if (WIFSIGNALED(res->status) && WTERMSIG(res->status) == SIGXFSZ)
		snprintf(buf, n, "%s wrote more than %zu bytes of runs (max_output; stopped)", who,
		         f ? f->max_output : DECLARED_MAX_OUTPUT);
	else if ((WIFSIGNALED(res->status) && WTERMSIG(res->status) == SIGABRT) ||
	         strstr(res->errout ? res->errout : "", "allocate memory"))
		snprintf(buf, n, "%s ran out of memory (its limit is %ld MB; stopped)", who, mb);
	else if (WIFSIGNALED(res->status) && WTERMSIG(res->status) == SIGSEGV && (!f || !f->program))
		/* libjq dies so when an allocation fails under the limit. */
		snprintf(buf, n, "%s crashed (signal %d, %s), as jq does when it runs out of memory "
		         "(its limit is %ld MB)", who, SIGSEGV, strsignal(SIGSEGV), mb);
	else if (WIFSIGNALED(res->status))
		snprintf(buf, n, "%s was killed by signal %d (%s)", who, WTERMSIG(res->status),
		         strsignal(WTERMSIG(res->status)));
	else
		return NULL;
	return buf;
}

/* The sources the child wrote beside its output, one per line. */
static int read_sources(int fd, struct declared_src **src, size_t *nsrc)
{
	struct stat st;
	if (fstat(fd, &st) < 0)
		return -1;
	size_t n = (size_t)st.st_size / sizeof **src;
	*src = xcalloc(n ? n : 1, sizeof **src);
	*nsrc = n;
	if (n && pread(fd, *src, n * sizeof **src, 0) != (ssize_t)(n * sizeof **src))
		return -1;
	return 0;
}

static char **env_make(const struct declared_format *f)
{
	static const char *const base[] = { "PATH", "HOME", "LANG" };
	char **env = xcalloc(f->nenv + 4, sizeof *env);
	size_t k = 0;
	for (size_t i = 0; i < 3 + f->nenv; i++) {
		const char *name = i < 3 ? base[i] : f->env[i - 3];
		const char *val = getenv(name);
		if (val && asprintf(&env[k++], "%s=%s", name, val) < 0)
			xalloc_die();
	}
	return env;
}

/* Every line the converter wrote must be a run: a JSON object with a
 * tcreview_run member. Returns 0, or -1 with the line's number and why. */
static int check_runs(int fd, char *why, size_t whylen, long *bad_line)
{
	struct stat st;
	if (fstat(fd, &st) < 0 || st.st_size == 0)
		return 0;
	size_t size = (size_t)st.st_size;
	char *map = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (map == MAP_FAILED)
		return 0;       /* the loader reports what it cannot read */
	int rc = 0;
	long line = 0;
	for (size_t off = 0; off < size && rc == 0;) {
		const char *nl = memchr(map + off, '\n', size - off);
		size_t end = nl ? (size_t)(nl - map) : size;
		line++;
		if (end > off) {
			struct jdoc_error jerr;
			/* A copy: the mapping's padding past the file's last page is not ours. */
			char *copy = xmalloc(end - off + JDOC_PADDING);
			memcpy(copy, map + off, end - off);
			memset(copy + (end - off), 0, JDOC_PADDING);
			struct jdoc *d = jdoc_parse(copy, end - off, end - off + JDOC_PADDING, &jerr);
			if (!d) {
				snprintf(why, whylen, "not JSON: %s (column %d)", jerr.text, jerr.column);
				rc = -1;
			} else if (!jv_is_object(d, jdoc_root(d)) ||
			           jv_get(d, jdoc_root(d), "tcreview_run") == JV_NONE) {
				snprintf(why, whylen, "not a run ({\"tcreview_run\": 1, ...})");
				rc = -1;
			}
			jdoc_free(d);
			free(copy);
		}
		off = end + 1;
	}
	munmap(map, size);
	*bad_line = line;
	return rc;
}

/* The converter of format f on the file's bytes, its output into out. */
static int converter_run(const char *path, const char *data, size_t size,
                         const struct declared_format *f, int out, struct error *err)
{
	char **env = env_make(f);
	struct child_spec sp = {
		.path = f->program, .argv = f->convert, .envp = env, .cwd = f->dir,
		.timeout_ms = f->timeout_ms, .out_file = true, .out_fd = out,
		.cpu_s = f->cpu_s, .mem_bytes = f->max_memory, .file_bytes = f->max_output,
	};
	struct child_result res;
	struct job_where none = { .index = -1 };
	char head[1200], why[400];
	lead(head, sizeof head, path, &none, f, true);
	int rc = child_run(&sp, data, size, &res);
	for (size_t i = 0; env[i]; i++)
		free(env[i]);
	free(env);
	if (rc < 0) {
		error_set(err, ERR_FAILED, "%scannot start the converter: %s", head, strerror(errno));
		return -1;
	}
	char *tail = child_tail_lines(res.errout, res.errout_len, 3, 600);
	const char *how = ended_how(&res, f, "the converter", why, sizeof why);
	long bad = 0;
	struct stat st;
	rc = -1;
	/* Python and others ignore SIGXFSZ: their write fails and they exit. */
	if (!how && fstat(out, &st) == 0 && (size_t)st.st_size >= f->max_output)
		how = ended_how(&(struct child_result){ .reaped = true, .status = SIGXFSZ }, f,
		                "the converter", why, sizeof why);
	if (how)
		error_set(err, ERR_FAILED, "%s%s%s%s", head, how, *tail ? "; stderr: " : "", tail);
	else if (WEXITSTATUS(res.status) != 0)
		error_set(err, ERR_FAILED, "%sthe converter exited with status %d%s%s", head,
		         WEXITSTATUS(res.status), *tail ? "; stderr: " : "", tail);
	else if (check_runs(out, why, sizeof why, &bad) < 0)
		error_set(err, ERR_FAILED, "%sline %ld of the converter's output is %s", head, bad, why);
	else
		rc = 0;
	free(tail);
	child_result_free(&res);
	return rc;
}

/* The jq child's end, as a message when it failed. */
static int job_result(const char *path, const struct child_result *res,
                      const struct job_where *w, const struct declared_set *set,
                      struct error *err)
{
	const struct declared_format *f = w->format >= 0 ? &set->v[w->format] : NULL;
	char head[1200], why[400];
	lead(head, sizeof head, path, w, f, w->phase == PHASE_RUN);
	const char *who = w->phase == PHASE_RUN ? "its run program" : "its detect program";
	const char *how = ended_how(res, f, who, why, sizeof why);
	if (how) {
		error_set(err, ERR_FAILED, "%s%s", head, how);
		return -1;
	}
	int code = WIFEXITED(res->status) ? WEXITSTATUS(res->status) : JOB_ERROR;
	if (code == JOB_ERROR) {
		char *tail = child_tail_lines(res->errout, res->errout_len, 3, 800);
		error_set(err, ERR_FAILED, "%s%s", head, *tail ? tail : "failed");
		free(tail);
		return -1;
	}
	return code;
}

int declared_convert(const struct declared_use *use, const char *path, const char *data,
                     size_t size, bool json, int *fd, struct declared_src **src, size_t *nsrc,
                     const struct declared_format **by, struct error *err)
{
	*fd = -1;
	*src = NULL;
	*nsrc = 0;
	*by = NULL;
	if (!declared_in_use(use))
		return 0;
	const struct declared_set *set = use->set;
	int out = temp_file(), map = temp_file();
	struct job_where *w = mmap(NULL, sizeof *w, PROT_READ | PROT_WRITE,
	                           MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (out < 0 || map < 0 || w == MAP_FAILED) {
		error_set(err, ERR_FAILED, "%s: cannot make a temporary file for its conversion: %s", path,
		         strerror(errno));
		goto fail;
	}
	*w = (struct job_where){ .format = -1, .index = -1 };
	size_t max_out = 0, max_mem = 0;
	long cpu = 0, timeout = 0;
	for (size_t i = 0; i < set->n; i++) {
		const struct declared_format *f = &set->v[i];
		max_out = f->max_output > max_out ? f->max_output : max_out;
		max_mem = f->max_memory > max_mem ? f->max_memory : max_mem;
		cpu = f->cpu_s > cpu ? f->cpu_s : cpu;
		timeout = f->timeout_ms > timeout ? f->timeout_ms : timeout;
	}
	struct job job = {
		.data = data, .size = size, .json = json, .set = set, .map_fd = map, .where = w,
		.forced = use->forced ? (int)(use->forced - set->v) : -1,
	};
	struct child_spec sp = {
		.timeout_ms = timeout, .out_file = true, .out_fd = out, .cpu_s = cpu,
		.mem_bytes = max_mem, .file_bytes = max_out, .fn = declared_job_main, .arg = &job,
	};
	struct child_result res;
	if (child_run(&sp, NULL, 0, &res) < 0) {
		error_set(err, ERR_FAILED, "%s: cannot start the conversion: %s", path, strerror(errno));
		goto fail;
	}
	int code = job_result(path, &res, w, set, err);
	child_result_free(&res);
	if (code <= JOB_NONE)
		goto none;
	const struct declared_format *f = &set->v[code - JOB_CLAIMED];
	if (f->run && read_sources(map, src, nsrc) < 0) {
		error_set(err, ERR_FAILED, "%s: cannot read back its conversion: %s", path, strerror(errno));
		code = -1;
		goto none;
	}
	char sha[65];
	int kept = !f->run && f->cache ? declared_cache_get(f, data, size, sha) : -1;
	if (kept >= 0) {
		close(out);
		out = kept;
	} else if (!f->run && converter_run(path, data, size, f, out, err) < 0) {
		code = -1;
		goto none;
	} else if (!f->run && f->cache) {
		declared_cache_put(f, sha, out);
	}
	close(map);
	munmap(w, sizeof *w);
	*fd = out;
	*by = f;
	return 1;
none:
	free(*src);
	*src = NULL;
	*nsrc = 0;
	close(out);
	close(map);
	munmap(w, sizeof *w);
	return code < 0 ? -1 : 0;
fail:
	if (out >= 0)
		close(out);
	if (map >= 0)
		close(map);
	if (w != MAP_FAILED)
		munmap(w, sizeof *w);
	return -1;
}
