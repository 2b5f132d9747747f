/* folder_walk.c - input folders walked by device and inode: each folder and file once. */
#include "runs/folder_walk.h"

#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util/hash.h"
#include "util/strbuf.h"
#include "util/xalloc.h"
#include "util/error.h"

/* Deeper than this is not followed: no real tree of transcripts is, and
 * it bounds the recursion whatever the folders hold. */
#define WALK_DEPTH_MAX 64

struct file_id {
	dev_t dev;
	ino_t ino;
};

static uint64_t id_hash(const struct file_id *id)
{
	uint64_t both[2] = { (uint64_t)id->dev, (uint64_t)id->ino };
	return hash_fnv1a(both, sizeof both, HASH_FNV_SEED);
}

static bool id_eq(const void *item, const void *key)
{
	const struct file_id *x = item, *y = key;
	return x->dev == y->dev && x->ino == y->ino;
}

/* Takes st's file for the walk: false when it was taken before. */
static bool take(struct folder_walk *w, const struct stat *st)
{
	struct file_id key = { st->st_dev, st->st_ino };
	void **slot = htab_put(&w->seen, id_hash(&key), id_eq, &key);
	if (*slot)
		return false;
	struct file_id *id = xcalloc(1, sizeof *id);
	*id = key;
	*slot = id;
	return true;
}

static void add_path(struct folder_walk *w, char *p)
{
	if (w->npaths == w->cap) {
		w->cap = w->cap ? w->cap * 2 : 16;
		w->paths = xrealloc(w->paths, w->cap * sizeof(*w->paths));
	}
	w->paths[w->npaths++] = p;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void folder_walk_init(struct folder_walk *w, bool (*wanted)(const char *name), FILE *warn)
{
	memset(w, 0, sizeof(*w));
	w->seen = (struct htab)HTAB_INIT;
	w->wanted = wanted;
	w->warn = warn;
}

/* The names in dir, each as "dir/name", sorted; NULL with err set when dir
 * cannot be opened. */
static char **list_dir(const char *dir, size_t *n, struct error *err)
{
	DIR *d = opendir(dir);
	if (!d) {
		error_set(err, ERR_FAILED, "%s: %s", dir, strerror(errno));
		return NULL;
	}
	char **v = NULL;
	size_t cap = 0;
	*n = 0;
	size_t dlen = strlen(dir);
	bool slash = dlen > 0 && dir[dlen - 1] == '/';
	struct dirent *de;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		if (*n == cap) {
			cap = cap ? cap * 2 : 16;
			v = xrealloc(v, cap * sizeof(*v));
		}
		struct strbuf sb = STRBUF_INIT;
		strbuf_add(&sb, dir, dlen);
		if (!slash)
			strbuf_addch(&sb, '/');
		strbuf_addstr(&sb, de->d_name);
		v[(*n)++] = strbuf_detach(&sb);
	}
	closedir(d);
	if (*n)
		qsort(v, *n, sizeof(*v), cmp_str);
	else
		v = xrealloc(v, sizeof(*v));     /* never NULL on success */
	return v;
}

/* Walks dir, already taken; via_link says whether its path went through a
 * link, which is all that can bring a walk back to a folder. */
static int walk(struct folder_walk *w, const char *dir, int depth, bool via_link,
                struct error *err)
{
	if (depth > WALK_DEPTH_MAX)
		return 0;
	size_t n;
	char **names = list_dir(dir, &n, err);
	if (!names)
		return -1;
	int rc = 0;
	for (size_t i = 0; i < n; i++) {
		char *path = names[i];
		struct stat st;
		bool link = false;
		if (rc == 0 && lstat(path, &st) == 0 && (!S_ISLNK(st.st_mode) ||
		                                         (link = true, stat(path, &st) == 0))) {
			const char *base = strrchr(path, '/') + 1;
			if (S_ISDIR(st.st_mode)) {
				if (take(w, &st)) {
					rc = walk(w, path, depth + 1, via_link || link, err);
				} else {
					w->loops++;
					if (w->warn)
						fprintf(w->warn, "tcreview: %s: %s; skipped\n", path,
						        via_link || link ? "a link back to a folder already read"
						                         : "a folder already read");
				}
			} else if (S_ISREG(st.st_mode) && w->wanted(base) && take(w, &st)) {
				add_path(w, path);
				path = NULL;
			}
		}
		free(path);
	}
	free(names);
	return rc;
}

int folder_walk_dir(struct folder_walk *w, const char *dir, struct error *err)
{
	struct stat st;
	if (stat(dir, &st) < 0) {
		error_set(err, ERR_FAILED, "%s: %s", dir, strerror(errno));
		return -1;
	}
	if (!take(w, &st)) {
		w->loops++;
		if (w->warn)
			fprintf(w->warn, "tcreview: %s: a folder already read; skipped\n", dir);
		return 0;
	}
	struct stat lst;
	bool link = lstat(dir, &lst) == 0 && S_ISLNK(lst.st_mode);
	return walk(w, dir, 0, link, err);
}

void folder_walk_free(struct folder_walk *w)
{
	for (size_t i = 0; i < w->seen.nslots; i++)
		free(w->seen.slots[i].item);
	htab_free(&w->seen);
	for (size_t i = 0; i < w->npaths; i++)
		free(w->paths[i]);
	free(w->paths);
	memset(w, 0, sizeof(*w));
}
