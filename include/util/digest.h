/* digest.h - SHA-256 of a byte range, as 64 lowercase hex digits (nettle). */
#ifndef TCR_UTIL_DIGEST_H
#define TCR_UTIL_DIGEST_H

#include <stddef.h>

#define SHA256_LEN 32
#define SHA256_HEX_LEN 64

/* Writes 64 hex digits and a NUL into out. */
void sha256_hex(const void *data, size_t n, char out[SHA256_HEX_LEN + 1]);
/* The raw 32 bytes, for callers that keep many digests. */
void sha256_raw(const void *data, size_t n, unsigned char out[SHA256_LEN]);
/* 32 raw bytes as 64 lowercase hex digits and a NUL. */
void sha256_to_hex(const unsigned char raw[SHA256_LEN], char out[SHA256_HEX_LEN + 1]);

#endif
