/* fuzz_config.c - the YAML configuration: scorers, judges, expectations,
 * runs, compare, read from the input as a file's text would be. */
#include <stddef.h>
#include <stdint.h>

#include "config/config.h"
#include "util/error.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct config cfg;
	struct error err = {0};
	/* A folder with nothing in it: files the configuration names are
	 * looked for there and not found. */
	if (config_load_string(&cfg, NULL, "fuzz.yaml", "/nonexistent-fuzz-dir", (const char *)data, size,
	                       &err) == 0)
		config_free(&cfg);
	return 0;
}
