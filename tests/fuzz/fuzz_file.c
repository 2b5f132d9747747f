/* fuzz_file.c - one scratch file per suffix and process, under $TMPDIR. */
#include "fuzz_file.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct scratch {
	char suffix[32];
	char path[512];
};

static struct scratch files[4];

static void remove_all(void)
{
	for (size_t i = 0; i < sizeof files / sizeof files[0]; i++)
		if (files[i].path[0])
			unlink(files[i].path);
}

const char *fuzz_file_write(const char *suffix, const uint8_t *data, size_t size)
{
	struct scratch *s = NULL;
	for (size_t i = 0; i < sizeof files / sizeof files[0] && !s; i++)
		if (!files[i].path[0] || strcmp(files[i].suffix, suffix) == 0)
			s = &files[i];
	if (!s)
		abort();
	if (!s->path[0]) {
		const char *dir = getenv("TMPDIR");
		snprintf(s->path, sizeof s->path, "%s/tcr-fuzz-%ld%s", dir && *dir ? dir : "/tmp",
		         (long)getpid(), suffix);
		snprintf(s->suffix, sizeof s->suffix, "%s", suffix);
		if (s == &files[0])
			atexit(remove_all);
	}
	FILE *f = fopen(s->path, "wb");
	if (!f || (size && fwrite(data, 1, size, f) != size) || fclose(f) != 0)
		abort();
	return s->path;
}
