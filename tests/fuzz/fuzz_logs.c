/* fuzz_logs.c - the annotations reader and the judge cache reader on a
 * file holding the input (the first byte says which). */
#include <stddef.h>
#include <stdint.h>

#include "annot/store.h"
#include "fuzz_file.h"
#include "judge/cache.h"
#include "util/error.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	struct error err = {0};
	if (data[0] & 1) {
		const char *path = fuzz_file_write(".judgements.jsonl", data + 1, size - 1);
		struct judge_cache *c = judge_cache_open(path, &err);
		if (c) {
			(void)judge_cache_warning(c);
			judge_cache_close(c);
		}
	} else {
		const char *path = fuzz_file_write(".annotations.jsonl", data + 1, size - 1);
		struct annot_store *s = annot_open_readonly(&path, 1, &err);
		if (s) {
			(void)annot_warning(s);
			annot_close(s);
		}
	}
	return 0;
}
