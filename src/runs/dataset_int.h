/* dataset_int.h - what dataset.c shares with containers.c. */
#ifndef TCR_RUNS_DATASET_INT_H
#define TCR_RUNS_DATASET_INT_H

#include "runs/dataset.h"
#include "util/error.h"

/* Bytes readable from offset off of the file's data on: the rest of the
 * file and the padding behind it. */
static inline size_t readable_from(const struct input_file *f, uint64_t off)
{
	return f->map_len > off ? f->map_len - (size_t)off : 0;
}

/* Maps f->size bytes of fd with a zero page after them (f's data,
 * map_len, mapped); 0, or -1 with errno. */
int dataset_map_padded(struct input_file *f, int fd);
/* "PATH: out of memory while mapping the file (N MB)", or errno's words. */
void dataset_map_error(const char *path, size_t size, int e, struct error *err);
/* When declared formats are in use and one claims the file (or is forced),
 * its bytes become the conversion's run-format JSONL: 0, or -1 with the
 * message in err (runs/declared.h). */
struct declared_use;
int dataset_take_declared(const struct declared_use *use, struct input_file *f, struct error *err);
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
