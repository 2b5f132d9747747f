#include "fmt_wild.h"
static void test_todo(void **state) { (void)state; }
int main(void) { const struct CMUnitTest tests[] = { cmocka_unit_test(test_todo) }; return cmocka_run_group_tests(tests, NULL, NULL); }
