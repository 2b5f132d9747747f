/* test_digest.c - util/digest: SHA-256 against the FIPS 180-2 examples
 * (appendix B of FIPS PUB 180-2: "abc" and the 448-bit message; the empty
 * string's digest is the standard one quoted by NIST's examples). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "util/digest.h"

static void check(const char *msg, size_t n, const char *want)
{
	char hex[SHA256_HEX_LEN + 1];
	sha256_hex(msg, n, hex);
	assert_string_equal(hex, want);
	assert_int_equal(strlen(hex), SHA256_HEX_LEN);
}

static void test_empty(void **st)
{
	(void)st;
	check("", 0, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
	/* A NULL pointer with no bytes is the empty message too. */
	check(NULL, 0, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

static void test_abc(void **st)
{
	(void)st;
	check("abc", 3, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

static void test_448_bits(void **st)
{
	(void)st;
	const char *m = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
	assert_int_equal(strlen(m) * 8, 448);
	check(m, strlen(m), "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

/* The raw form and its hex agree with the one-call form; only the bytes
 * given count (the NUL after "abc" is not hashed). */
static void test_raw_and_hex(void **st)
{
	(void)st;
	unsigned char raw[SHA256_LEN];
	sha256_raw("abcd", 3, raw);
	assert_int_equal(raw[0], 0xba);
	assert_int_equal(raw[31], 0xad);
	char hex[SHA256_HEX_LEN + 1];
	sha256_to_hex(raw, hex);
	assert_string_equal(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

/* A million 'a's (the third FIPS 180-2 example) in one call. */
static void test_million_a(void **st)
{
	(void)st;
	size_t n = 1000000;
	char *m = malloc(n);
	assert_non_null(m);
	memset(m, 'a', n);
	check(m, n, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
	free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_abc),
		cmocka_unit_test(test_448_bits),
		cmocka_unit_test(test_raw_and_hex),
		cmocka_unit_test(test_million_a),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
