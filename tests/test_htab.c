/* test_htab.c - util/htab: finding, inserting, replacing and growing,
 * with keys whose hashes collide. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "util/htab.h"

static bool eq_str(const void *item, const void *key)
{
	return strcmp(item, key) == 0;
}

/* A poor hash on purpose: every key lands in one of four chains. */
static uint64_t weak_hash(const char *s)
{
	return (uint64_t)(strlen(s) % 4);
}

static void test_put_get_grow(void **st)
{
	(void)st;
	struct htab t = HTAB_INIT;
	assert_null(htab_get(&t, 1, eq_str, "a"));
	static char keys[2000][8];
	for (int i = 0; i < 2000; i++) {
		snprintf(keys[i], sizeof keys[i], "k%d", i);
		void **slot = htab_put(&t, weak_hash(keys[i]), eq_str, keys[i]);
		assert_null(*slot);
		*slot = keys[i];
	}
	assert_int_equal(t.nused, 2000);
	assert_true(t.nslots * 3 >= t.nused * 4);
	for (int i = 0; i < 2000; i++) {
		char k[8];
		snprintf(k, sizeof k, "k%d", i);
		assert_ptr_equal(htab_get(&t, weak_hash(k), eq_str, k), keys[i]);
	}
	assert_null(htab_get(&t, weak_hash("nope"), eq_str, "nope"));
	/* Putting a key again finds its slot; the caller may replace the item. */
	static char again[] = "k7";
	void **slot = htab_put(&t, weak_hash("k7"), eq_str, "k7");
	assert_ptr_equal(*slot, keys[7]);
	*slot = again;
	assert_ptr_equal(htab_get(&t, weak_hash("k7"), eq_str, "k7"), again);
	assert_int_equal(t.nused, 2000);
	htab_free(&t);
	assert_null(htab_get(&t, 0, eq_str, "k0"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_put_get_grow),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
