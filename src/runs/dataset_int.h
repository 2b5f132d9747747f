/* dataset_int.h - what dataset.c shares with containers.c. */
#ifndef TCR_RUNS_DATASET_INT_H
#define TCR_RUNS_DATASET_INT_H

#include "runs/dataset.h"

/* Bytes readable from offset off of the file's data on: the rest of the
 * file and the padding behind it. */
static inline size_t readable_from(const struct input_file *f, uint64_t off)
{
	return f->map_len > off ? f->map_len - (size_t)off : 0;
}

/* Unmaps or frees the file's bytes (it then points at an empty buffer). */
void dataset_release_data(struct input_file *f);
/* Finds the next non-blank line at or after *off; fills rec. */
bool dataset_next_line(const struct input_file *f, uint64_t *off, uint32_t *line,
                       struct record_ref *rec);
/* A JSONL file a UNIT_FILE format claims becomes the document of its lines. */
void dataset_sniff_events(struct dataset *ds, size_t fi);
/* Lists the records of file fi's parsed document d into f->doc_recs. */
void container_list(struct dataset *ds, size_t fi, const struct jdoc *d);

#endif
