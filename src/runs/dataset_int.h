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
/* Records from this size on that the sniffing parsed are kept for their
 * load: parsing 100 MB twice costs more than holding it in between. */
#define KEEP_DOC_MIN ((uint64_t)1 << 20)
/* Keeps d, the parse of file fi's line at off, for dataset_take_doc
 * (replacing and freeing one kept before). */
void dataset_keep_doc(struct dataset *ds, uint32_t fi, uint64_t off, struct jdoc *d);
/* Lists the records of file fi's parsed document d into f->doc_recs. */
void container_list(struct dataset *ds, size_t fi, const struct jdoc *d);

#endif
