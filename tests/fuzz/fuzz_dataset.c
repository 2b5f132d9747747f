/* fuzz_dataset.c - every loader through the format table: the input read
 * as a transcript file (JSONL or JSON, by its first byte), indexed, and
 * each record loaded by detection or by the format the second byte names.
 * The reader by shape is in the table, and detection falls back to it for
 * every record no format claims; 0xff forces it whatever the table's
 * length, so the corpus has seeds for it that new formats do not move. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "fuzz_file.h"
#include "runs/dataset.h"
#include "runs/format.h"
#include "runs/run.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static size_t formats_count(void)
{
	size_t n = 0;
	while (format_table[n])
		n++;
	return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 2)
		return 0;
	static const char *const suffixes[] = { ".jsonl", ".json" };
	size_t nformats = formats_count();
	const struct format_ops *forced = data[1] % (nformats + 1) ? format_table[data[1] % (nformats + 1) - 1] : NULL;
	if (data[1] == 0xff)
		forced = format_find("shape");
	char *path = (char *)fuzz_file_write(suffixes[data[0] & 1], data + 2, size - 2);
	struct dataset ds;
	char err[512];
	if (dataset_open(&ds, &path, 1, err, sizeof err) != 0)
		return 0;
	ds.forced = forced;
	dataset_index_all(&ds);
	for (size_t i = 0; i < ds.nrecs && i < 64; i++) {
		struct run *r = dataset_load_run(&ds, &ds.recs[i], forced, NULL, err, sizeof err);
		if (r)
			run_free(r);
	}
	dataset_close(&ds);
	return 0;
}
