/* declared_input.c - an input a declared format claims, read as the run-format
 * JSONL its conversion wrote (runs/declared.h), mapped in place of its bytes.
 *
 * The screen's inputs are converted when indexing reaches them, on a
 * thread of their own (the conversion's child processes are waited for
 * there), so that the first screen is drawn before a long conversion ends
 * and keys are answered while it runs. A conversion that fails then
 * becomes the file's one record that does not load, saying why, as a
 * .json file that does not parse does. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dataset_int.h"
#include "runs/declared.h"
#include "util/xalloc.h"

/* Process-wide, like the walk's warnings: set by the screen's command. */
static bool defer;

void dataset_defer_declared(bool on)
{
	defer = on;
}

bool dataset_declared_deferred(void)
{
	return defer;
}

/* A conversion to run, or running, on its thread. */
struct declared_pending {
	bool started, joined;
	pthread_t thread;
	int done[2];                /* the thread writes a byte to done[1] as it ends */
	char *path;                 /* what it reads (the file's own, borrowed) */
	const char *data;
	size_t size;
	bool json;
	int rc, fd;                 /* what declared_convert gave */
	struct declared_src *src;
	size_t nsrc;
	const struct declared_format *by;
	char err[1024];
};

/* The converted text becomes the file's bytes. */
static int adopt(struct input_file *f, int fd, const struct declared_format *by, char *err,
                 size_t errlen)
{
	struct stat st;
	dataset_release_data(f);
	f->size = fstat(fd, &st) == 0 ? (size_t)st.st_size : 0;
	if (f->size > 0 && dataset_map_padded(f, fd) < 0) {
		dataset_map_error(f->path, f->size, errno, err, errlen);
		close(fd);
		return -1;
	}
	close(fd);
	f->kind = INPUT_JSONL;
	f->sniffed = true;
	f->container = format_find("tcreview");
	f->declared = by->name;
	return 0;
}

/* A file a declared format claims is read as the run-format JSONL its
 * conversion wrote, mapped in place of the input's bytes. */
int dataset_take_declared(struct input_file *f, char *err, size_t errlen)
{
	if (defer) {
		f->pending = xcalloc(1, sizeof *f->pending);
		f->pending->fd = -1;
		f->pending->done[0] = f->pending->done[1] = -1;
		return 0;
	}
	int fd;
	const struct declared_format *by;
	int rc = declared_convert(f->path, f->data, f->size, f->kind == INPUT_JSON, &fd, &f->src,
	                          &f->nsrc, &by, err, errlen);
	if (rc <= 0)
		return rc;
	return adopt(f, fd, by, err, errlen);
}

static void *convert_thread(void *arg)
{
	struct declared_pending *p = arg;
	p->rc = declared_convert(p->path, p->data, p->size, p->json, &p->fd, &p->src, &p->nsrc,
	                         &p->by, p->err, sizeof p->err);
	char one = 1;
	while (write(p->done[1], &one, 1) < 0 && errno == EINTR)
		;
	return NULL;
}

/* A failed conversion as the file's one record that does not load:
 * "PATH:LINE: why" is said as PATH, LINE and why. */
static void as_error(struct input_file *f, const char *err)
{
	size_t n = strlen(f->path);
	const char *why = err;
	int line = 1;
	if (!strncmp(err, f->path, n) && err[n] == ':') {
		char *end;
		long l = strtol(err + n + 1, &end, 10);
		if (end > err + n + 1 && *end == ':' && l > 0) {
			line = (int)l;
			why = end + 1;
		} else {
			why = err + n + 1;
		}
		why += *why == ' ';
	}
	dataset_release_data(f);
	f->size = 0;
	f->kind = INPUT_JSON;
	f->doc_error = xstrdup(why);
	f->doc_error_line = line;
}

static void pending_free(struct declared_pending *p)
{
	if (!p)
		return;
	if (p->started && !p->joined)
		pthread_join(p->thread, NULL);
	if (p->fd >= 0)
		close(p->fd);
	free(p->src);
	for (int i = 0; i < 2; i++)
		if (p->done[i] >= 0)
			close(p->done[i]);
	free(p);
}

void dataset_declared_drop(struct input_file *f)
{
	pending_free(f->pending);
	f->pending = NULL;
}

/* Starts the thread; false when it cannot be (the conversion then runs here). */
static bool pending_start(struct input_file *f)
{
	struct declared_pending *p = f->pending;
	p->path = f->path;
	p->data = f->data;
	p->size = f->size;
	p->json = f->kind == INPUT_JSON;
	if (pipe2(p->done, O_CLOEXEC) < 0) {
		p->done[0] = p->done[1] = -1;
		return false;
	}
	if (pthread_create(&p->thread, NULL, convert_thread, p) != 0)
		return false;
	p->started = true;
	return true;
}

int dataset_declared_settle(struct dataset *ds, size_t fi, int wait_ms)
{
	struct input_file *f = &ds->files[fi];
	struct declared_pending *p = f->pending;
	if (!p)
		return 1;
	if (!p->started && !pending_start(f))
		convert_thread(p);
	else if (p->started) {
		struct pollfd pf = { .fd = p->done[0], .events = POLLIN };
		if (poll(&pf, 1, wait_ms) != 1)
			return 0;
		pthread_join(p->thread, NULL);
		p->joined = true;
	}
	size_t before = f->size;
	if (p->rc < 0) {
		as_error(f, p->err);
	} else if (p->rc > 0) {
		f->src = p->src;
		f->nsrc = p->nsrc;
		p->src = NULL;
		int fd = p->fd;
		p->fd = -1;
		char err[1024];
		if (adopt(f, fd, p->by, err, sizeof err) < 0)
			as_error(f, err);
	}
	ds->bytes_total = ds->bytes_total - before + f->size;
	dataset_declared_drop(f);
	return 1;
}
