/* fuzz_file.h - the fuzz targets whose readers take a path: the input
 * written to a file of this process, rewritten for each input. */
#ifndef TCR_TESTS_FUZZ_FILE_H
#define TCR_TESTS_FUZZ_FILE_H

#include <stddef.h>
#include <stdint.h>

/* Writes data to this process's file ending in `suffix` (".jsonl") and
 * returns its path (static storage); aborts when it cannot. */
const char *fuzz_file_write(const char *suffix, const uint8_t *data, size_t size);

#endif
