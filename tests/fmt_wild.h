/* fmt_wild.h - reads one of the shared wild samples (a whole JSON file,
 * .traj included) through the dataset, as tcreview reads it. */
#ifndef TCR_FMT_WILD_H
#define TCR_FMT_WILD_H

#include "fmt_test.h"
#include "runs/dataset.h"
#include "util/error.h"

/* Loads the first run of wild/REL into *dsp (close it after freeing the
 * run), checking that the file holds `runs` runs and the first has `calls`
 * calls and is claimed by `format` alone; NULL (skip) without the folder. */
static inline struct run *fmt_wild_run(struct dataset *dsp, const char *rel, const char *format,
                                       size_t runs, size_t calls)
{
	struct error err = {0};
	char path[512];
	snprintf(path, sizeof(path), "fixtures/real/wild/%s", rel);
	char full[4096];
	if (!fmt_shared_path(full, sizeof(full), path))
		return NULL;
	char *paths[] = { full };
	assert_int_equal(dataset_open(dsp, paths, 1, &err), 0);
	dataset_index_all(dsp);
	assert_int_equal(dsp->nrecs, runs);
	struct run *r = dataset_load_run(dsp, &dsp->recs[0], NULL, NULL, &err);
	assert_non_null(r);
	if (r->load_error)
		fprintf(stderr, "%s: %s\n", rel, r->load_error);
	assert_null(r->load_error);
	assert_string_equal(r->format, format);
	/* and no other format claims it at all */
	for (size_t i = 0; format_table[i]; i++) {
		if (!strcmp(format_table[i]->name, format))
			continue;
		int score = format_table[i]->detect(r->doc, run_root(r));
		if (score != 0)
			fprintf(stderr, "%s claims %s (%d)\n", format_table[i]->name, rel, score);
		assert_int_equal(score, 0);
	}
	if (r->ncalls != calls)
		fprintf(stderr, "%s: %zu calls, README says %zu\n", rel, r->ncalls, calls);
	assert_int_equal(r->ncalls, calls);
	return r;
}

#endif
