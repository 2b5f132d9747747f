/* declared_input.c - an input a declared format claims, read as the run-format
 * JSONL its conversion wrote (runs/declared.h), mapped in place of its bytes. */
#include <errno.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dataset_int.h"
#include "runs/declared.h"
#include "util/error.h"

/* A file a declared format claims is read as the run-format JSONL its
 * conversion wrote, mapped in place of the input's bytes. */
int dataset_take_declared(const struct declared_use *use, struct input_file *f, struct error *err)
{
	int fd;
	const struct declared_format *by;
	int rc = declared_convert(use, f->path, f->data, f->size, f->kind == INPUT_JSON, &fd, &f->src,
	                          &f->nsrc, &by, err);
	if (rc <= 0)
		return rc;
	struct stat st;
	dataset_release_data(f);
	f->size = fstat(fd, &st) == 0 ? (size_t)st.st_size : 0;
	if (f->size > 0 && dataset_map_padded(f, fd) < 0) {
		dataset_map_error(f->path, f->size, errno, err);
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
