/* userdir.c - the user's own folders, and making them. */
#include "util/userdir.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util/strbuf.h"
#include "util/xalloc.h"

char *user_dir(const char *xdg_var, const char *home_sub)
{
	const char *xdg = getenv(xdg_var), *home = getenv("HOME");
	struct strbuf sb = STRBUF_INIT;
	if (xdg && xdg[0] == '/')
		strbuf_addf(&sb, "%s/tcreview", xdg);
	else if (home && *home)
		strbuf_addf(&sb, "%s/%s/tcreview", home, home_sub);
	else
		return NULL;
	return strbuf_detach(&sb);
}

char *user_config_file(const char *leaf)
{
	char *dir = user_dir("XDG_CONFIG_HOME", ".config");
	if (!dir)
		return NULL;
	struct strbuf sb = STRBUF_INIT;
	strbuf_addf(&sb, "%s/%s", dir, leaf);
	free(dir);
	return strbuf_detach(&sb);
}

int make_dirs(const char *dir)
{
	char *path = xstrdup(dir);
	int rc = 0;
	for (char *p = strchr(path + 1, '/');; p = strchr(p + 1, '/')) {
		if (p)
			*p = '\0';
		if (mkdir(path, 0700) < 0 && errno != EEXIST)
			rc = -1;
		if (!p || rc < 0)
			break;
		*p = '/';
	}
	int e = errno;
	free(path);
	errno = e;
	return rc;
}
