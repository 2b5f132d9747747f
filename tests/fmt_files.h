/* fmt_files.h - container formats' fixtures read as tcreview reads them:
 * written to a temporary folder and opened through the dataset, so
 * split, UNIT_FILE and .eval archives are what the tests exercise. */
#ifndef TCR_FMT_FILES_H
#define TCR_FMT_FILES_H

#include "fmt_wild.h"
#include "util/error.h"

static char fmt_dir[256];

static inline int fmt_files_setup(void **state)
{
	(void)state;
	strcpy(fmt_dir, "/tmp/tcr-fmt.XXXXXX");
	return mkdtemp(fmt_dir) ? 0 : -1;
}

static inline int fmt_files_teardown(void **state)
{
	(void)state;
	char cmd[512];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", fmt_dir);
	return system(cmd) == 0 ? 0 : -1;
}

/* The fixture's ' turned into " as fmt_parse does (malloc'd). */
static inline char *fmt_quoted(const char *text)
{
	char *s = strdup(text);
	assert_non_null(s);
	for (char *p = s; *p; p++)
		if (*p == '\'')
			*p = '"';
	return s;
}

/* Writes the fixture (quotes turned) to NAME in the folder; returns its
 * path (malloc'd). */
static inline char *fmt_write(const char *name, const char *text)
{
	char *path;
	assert_true(asprintf(&path, "%s/%s", fmt_dir, name) > 0);
	char *s = fmt_quoted(text);
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(s, 1, strlen(s), f), strlen(s));
	fclose(f);
	free(s);
	return path;
}

/* Opens path (freed) and indexes it; returns the number of runs. */
static inline size_t fmt_open(struct dataset *ds, char *path)
{
	struct error err = {0};
	char *paths[] = { path };
	int rc = dataset_open(ds, paths, 1, &err);
	if (rc != 0)
		fprintf(stderr, "%s\n", err.msg);
	assert_int_equal(rc, 0);
	free(path);
	dataset_index_all(ds);
	return ds->nrecs;
}

/* Run i of the dataset, detected as the dataset detects it, loaded
 * cleanly as `format`. */
static inline struct run *fmt_run_at(struct dataset *ds, size_t i, const char *format)
{
	struct error err = {0};
	assert_true(i < ds->nrecs);
	struct run *r = dataset_load_run(ds, &ds->recs[i], NULL, NULL, &err);
	if (!r)
		fprintf(stderr, "%s\n", err.msg);
	assert_non_null(r);
	if (r->load_error)
		fprintf(stderr, "run %zu: %s\n", i, r->load_error);
	assert_null(r->load_error);
	assert_string_equal(r->format, format);
	return r;
}

/* The number of parts of message mi of each kind. */
static inline size_t fmt_parts_of(const struct run *r, size_t mi, enum part_kind kind)
{
	size_t n = 0;
	const struct run_msg *m = &r->msgs[mi];
	for (size_t p = m->first_part; p < m->first_part + m->nparts; p++)
		n += r->parts[p].kind == kind;
	return n;
}

/* The text of the last message, which must be a note. */
static inline const char *fmt_last_note(const struct run *r)
{
	assert_true(r->nmsgs > 0);
	const struct run_msg *m = &r->msgs[r->nmsgs - 1];
	assert_int_equal(m->role, ROLE_NOTE);
	assert_int_equal(m->nparts, 1);
	return r->parts[m->first_part].text;
}

#endif
