/* fuzz_dataset.c - every loader through the format table: the input read
 * as a transcript file (JSONL or JSON, by its first byte), indexed, and
 * each record loaded by detection or by the format the second byte names;
 * the value past the table names a format declared in jq (runs/declared.h),
 * which converts the file in its child as it is opened. The reader by shape
 * is in the table, and detection falls back to it for every record no
 * format claims; 0xff forces it whatever the table's length, so the corpus
 * has seeds for it that new formats do not move. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "fuzz_file.h"
#include <string.h>

#include "conf/conf.h"
#include "runs/dataset.h"
#include "runs/declared.h"
#include "runs/format.h"
#include "runs/run.h"
#include "util/error.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static size_t formats_count(void)
{
	size_t n = 0;
	while (format_table[n])
		n++;
	return n;
}

/* A format of made-up steps whose programs end on any input (no recursion,
 * no range over the input's numbers), so that each file is read through
 * the child in the time of a parse. */
static const char declared_yaml[] =
	"- name: fuzz-steps\n"
	"  detect: 'type == \"object\" and has(\"steps\")'\n"
	"  run: '{tcreview_run: 1, id: (.id? // \"x\" | tostring), messages: [(.steps? // [])[]? | "
	"objects | {role: (.who? // \"user\" | tostring), parts: [{type: \"text\", "
	"text: (.say? // \"\" | tostring)}]}]}'\n"
	"  timeout: 60s\n";

static struct declared_set *declared(void)
{
	static struct declared_set set;
	static int ready;
	if (!ready) {
		struct conf cf;
		struct error err = {0};
		ready = 1;
		if (conf_parse(&cf, "fuzz.yaml", ".", declared_yaml, strlen(declared_yaml), &err) == 0)
			declared_conf_read(&cf, cf.root, "configuration", &set);
		conf_free(&cf);
	}
	return &set;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 2)
		return 0;
	static const char *const suffixes[] = { ".jsonl", ".json" };
	size_t nformats = formats_count();
	size_t pick = data[1] % (nformats + 2);
	if (data[1] == 0xff)
		pick = 0;
	const struct format_ops *forced = pick && pick <= nformats ? format_table[pick - 1] : NULL;
	if (data[1] == 0xff)
		forced = format_find("shape");
	struct declared_set *set = declared();
	const struct declared_use use = {
		pick > nformats ? set : NULL, pick > nformats && set->n ? &set->v[0] : NULL,
	};
	const struct dataset_opts in = { .declared = &use };
	char *path = (char *)fuzz_file_write(suffixes[data[0] & 1], data + 2, size - 2);
	struct dataset ds;
	struct error err = {0};
	if (dataset_open_with(&ds, &in, &path, 1, &err) != 0) {
		/* The declared format's child reports a sanitizer's finding on its
		 * stderr, which comes back inside the message: a finding here too. */
		if (strstr(err.msg, "Sanitizer"))
			abort();
		return 0;
	}
	ds.forced = forced;
	dataset_index_all(&ds);
	for (size_t i = 0; i < ds.nrecs && i < 64; i++) {
		struct run *r = dataset_load_run(&ds, &ds.recs[i], forced, NULL, &err);
		if (r)
			run_free(r);
	}
	dataset_close(&ds);
	return 0;
}
