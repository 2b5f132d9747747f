/* digest.c - SHA-256 through nettle, so the run hashes written to the annotations file come from a well-kept implementation. */
#include "util/digest.h"

#include <nettle/sha2.h>

void sha256_raw(const void *data, size_t n, unsigned char out[SHA256_LEN])
{
	struct sha256_ctx ctx;
	sha256_init(&ctx);
	/* nettle takes a size_t length, so one call covers any mapped record. */
	sha256_update(&ctx, n, data);
	sha256_digest(&ctx, SHA256_LEN, out);
}

void sha256_to_hex(const unsigned char raw[SHA256_LEN], char out[SHA256_HEX_LEN + 1])
{
	static const char hex[] = "0123456789abcdef";
	for (size_t i = 0; i < SHA256_LEN; i++) {
		out[2 * i] = hex[raw[i] >> 4];
		out[2 * i + 1] = hex[raw[i] & 15];
	}
	out[SHA256_HEX_LEN] = '\0';
}

void sha256_hex(const void *data, size_t n, char out[SHA256_HEX_LEN + 1])
{
	unsigned char raw[SHA256_LEN];
	sha256_raw(data, n, raw);
	sha256_to_hex(raw, out);
}
