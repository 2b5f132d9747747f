/* allowed_paths.c - the user's record of the files outside a configuration's folder it may read. */
#include "config/allowed_paths.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/readfile.h"
#include "util/strbuf.h"
#include "util/userdir.h"
#include "util/xalloc.h"
#include "util/error.h"

#define LEAF "allowed-paths"
#define FILE_MAX ((size_t)4 << 20)

static const char header[] =
	"# Files outside a configuration's folder that it may read, one a line: the\n"
	"# configuration, a tab, the file (both absolute). `tcreview init` adds the\n"
	"# ground-truth file you named to it; delete a line to take it back.\n";

char *config_allowed_paths_file(void)
{
	return user_config_file(LEAF);
}

/* The file's text in sb; 1 read, 0 absent, -1 with err. */
static int read_record(const char *path, struct strbuf *sb, struct error *err)
{
	struct stat st;
	if (stat(path, &st) < 0 && errno == ENOENT)
		return 0;
	return read_regular_file(sb, path, FILE_MAX, err) < 0 ? -1 : 1;
}

/* Calls fn for each allowance of the text; stops at a line that is none
 * (-1 with "FILE:LINE: ..." in err) or when fn returns true (1). */
static int each_line(const char *file, const struct strbuf *sb,
                     bool (*fn)(void *ctx, const char *conf, size_t nconf, const char *path,
                                size_t npath),
                     void *ctx, struct error *err)
{
	const char *p = sb->buf ? sb->buf : "", *end = p + sb->len;
	for (size_t line = 1; p < end; line++) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *e = nl ? nl : end;
		if (e > p && e[-1] == '\r')
			e--;
		const char *tab = memchr(p, '\t', (size_t)(e - p));
		if (e > p && *p != '#') {
			if (!tab || *p != '/' || tab + 1 >= e || tab[1] != '/') {
				error_set(err, ERR_FAILED, "%s:%zu: expected a configuration's path, a tab and a "
				        "file's path, both absolute", file, line);
				return -1;
			}
			if (fn(ctx, p, (size_t)(tab - p), tab + 1, (size_t)(e - tab - 1)))
				return 1;
		}
		p = nl ? nl + 1 : end;
	}
	return 0;
}

struct collect {
	const char *conf;
	char ***paths;
	size_t *n;
};

static bool collect(void *ctx, const char *conf, size_t nconf, const char *path, size_t npath)
{
	struct collect *c = ctx;
	if (strlen(c->conf) == nconf && !strncmp(c->conf, conf, nconf)) {
		*c->paths = xrealloc(*c->paths, (*c->n + 1) * sizeof **c->paths);
		(*c->paths)[(*c->n)++] = xstrndup(path, npath);
	}
	return false;
}

int config_allowed_for(const char *config_path, char ***paths, size_t *n, struct error *err)
{
	char *file = config_allowed_paths_file();
	char *conf = realpath(config_path, NULL);
	struct strbuf sb = STRBUF_INIT;
	int rc = 0;
	if (file && conf && (rc = read_record(file, &sb, err)) > 0) {
		struct collect c = { conf, paths, n };
		rc = each_line(file, &sb, collect, &c, err);
	}
	strbuf_release(&sb);
	free(conf);
	free(file);
	return rc < 0 ? -1 : 0;
}

struct find {
	const char *conf, *path;
};

static bool found(void *ctx, const char *conf, size_t nconf, const char *path, size_t npath)
{
	const struct find *f = ctx;
	return strlen(f->conf) == nconf && !strncmp(f->conf, conf, nconf) &&
	       strlen(f->path) == npath && !strncmp(f->path, path, npath);
}

/* Appends text to the file (made 0600 with the header when new). */
static int append(const char *file, bool fresh, const char *text, struct error *err)
{
	char *dir = xstrndup(file, (size_t)(strrchr(file, '/') - file));
	int rc = make_dirs(dir);
	if (rc < 0)
		error_set(err, ERR_FAILED, "%s: %s", dir, strerror(errno));
	free(dir);
	int fd = rc < 0 ? -1 : open_regular(file, O_WRONLY | O_APPEND | O_CREAT, 0600, err);
	if (fd < 0)
		return -1;
	struct strbuf sb = STRBUF_INIT;
	if (fresh)
		strbuf_addstr(&sb, header);
	strbuf_addstr(&sb, text);
	bool ok = write(fd, sb.buf, sb.len) == (ssize_t)sb.len;
	if (!ok)
		error_set(err, ERR_FAILED, "%s: %s", file, strerror(errno));
	if (close(fd) < 0 && ok) {
		error_set(err, ERR_FAILED, "%s: %s", file, strerror(errno));
		ok = false;
	}
	strbuf_release(&sb);
	return ok ? 0 : -1;
}

int config_allow_record(const char *config_path, const char *file_path, struct error *err)
{
	char *file = config_allowed_paths_file();
	if (!file) {
		error_set(err, ERR_FAILED, "neither XDG_CONFIG_HOME nor HOME is set: nowhere to record it");
		return -1;
	}
	char *conf = realpath(config_path, NULL), *path = realpath(file_path, NULL);
	struct strbuf sb = STRBUF_INIT;
	int rc = -1;
	if (!conf || !path)
		error_set(err, ERR_FAILED, "%s: %s", conf ? file_path : config_path, strerror(errno));
	else if (strpbrk(conf, "\t\n\r") || strpbrk(path, "\t\n\r"))
		error_set(err, ERR_FAILED, "%s: a path holding a tab or a line break cannot be recorded",
		        strpbrk(conf, "\t\n\r") ? conf : path);
	else if ((rc = read_record(file, &sb, err)) >= 0) {
		bool fresh = rc == 0;
		struct find f = { conf, path };
		rc = fresh ? 0 : each_line(file, &sb, found, &f, err);
		if (rc == 0) {
			struct strbuf line = STRBUF_INIT;
			if (sb.len && sb.buf[sb.len - 1] != '\n')
				strbuf_addch(&line, '\n');     /* a hand-edited last line */
			strbuf_addf(&line, "%s\t%s\n", conf, path);
			rc = append(file, fresh, line.buf, err);
			strbuf_release(&line);
		} else if (rc == 1) {
			rc = 0;         /* there already */
		}
	}
	strbuf_release(&sb);
	free(conf);
	free(path);
	free(file);
	return rc;
}
