/* child_key.c - what names a command for the caches of what it answered
 * (exec scorers, format converters), and the folder those caches go in. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/child.h"
#include "util/digest.h"
#include "util/hash.h"
#include "util/readfile.h"
#include "util/strbuf.h"
#include "util/userdir.h"
#include "util/xalloc.h"
#include "util/error.h"

char *child_cache_dir(void)
{
	const char *own = getenv("TCR_CACHE_DIR");
	return own && *own ? xstrdup(own) : user_dir("XDG_CACHE_HOME", ".cache");
}

/* Adds the SHA-256 of a regular file's content, or nothing when the path
 * names none (an argument that is not a file) or one past READ_CAP_SCRIPT. */
static void hash_file(uint64_t *h, const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	struct error err = {0};
	if (read_regular_file(&sb, path, READ_CAP_SCRIPT, &err) == 0) {
		char hex[SHA256_HEX_LEN + 1];
		sha256_hex(sb.buf ? sb.buf : "", sb.len, hex);
		hash_add_str(h, path);
		hash_add_str(h, hex);
	}
	strbuf_release(&sb);
}

void child_command_key(const json_t *command, const char *program, const char *dir,
                    const json_t *env_names, char out[17])
{
	uint64_t h = hash_fnv1a("exec-cache-1", 12, 0);
	hash_add_json(&h, command);
	/* A program named by a path is ours to read (a script); one found on
	 * PATH (python3, node) is the interpreter, named by its path only. */
	const char *prog = json_string_value(json_array_get(command, 0));
	hash_add_str(&h, program);
	if (prog && strchr(prog, '/'))
		hash_file(&h, program);
	for (size_t i = 1; i < json_array_size(command); i++) {
		const char *arg = json_string_value(json_array_get(command, i));
		if (!arg || !*arg)
			continue;
		char *path = NULL;
		if (asprintf(&path, "%s%s%s", arg[0] == '/' ? "" : dir, arg[0] == '/' ? "" : "/", arg) < 0)
			xalloc_die();
		hash_file(&h, path);
		free(path);
	}
	for (size_t i = 0; i < json_array_size(env_names); i++) {
		const char *name = json_string_value(json_array_get(env_names, i));
		const char *val = name ? getenv(name) : NULL;
		hash_add_str(&h, name ? name : "");
		hash_add_str(&h, val ? val : "\x01unset");
	}
	hash_hex(h, out);
}
