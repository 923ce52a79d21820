/* Unit tests: a run's key (cb_hist_key): what it is, not its bytes. The same
 * rows in another order, or read from other spellings of the same numbers,
 * give the same key; another machine, start time or value gives another;
 * a column outside the key does not count. */
#define _GNU_SOURCE
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "cb_hist_key.h"

static void row(struct cb_res_row *r, const char *algo, unsigned long long bytes, double t)
{
	memset(r, 0, sizeof(*r));
	cb_schema_clear(&cb_schema_summary, &r->v);
	strcpy(r->v.backend, "host");
	strcpy(r->v.algo, algo);
	strcpy(r->v.dtype, "float");
	strcpy(r->v.op, "sum");
	strcpy(r->v.transport, "shm");
	r->v.nranks = 2;
	r->v.bytes = bytes;
	r->v.time_us = r->v.time_us_median = t;
	r->v.algbw = r->v.busbw = (double)bytes / t / 1e3;
	r->v.repeats = 5;
	cb_row_status_set(&r->v.status, CB_ROW_OK, "%s", "");
}

static void key_of(const struct cb_res_row *rows, size_t n, const char *machine,
		   const char *time, char key[CB_HIST_KEY_HEX])
{
	assert_int_equal(cb_hist_run_key(machine, time, rows, n, key), CB_OK);
	assert_int_equal(strlen(key), 64);
}

static void test_run_key(void **state)
{
	struct cb_res_row a[2], b[2];
	char k[CB_HIST_KEY_HEX], k2[CB_HIST_KEY_HEX];
	const char *m = "vm (X, 2 CPUs)", *t = "2026-11-30T14:55:35Z";

	(void)state;
	row(&a[0], "ring", 1 << 20, 250.5);
	row(&a[1], "ps", 1 << 20, 700);
	key_of(a, 2, m, t, k);
	/* the same rows in the other order; 250.50 parses to the same double */
	b[0] = a[1];
	b[1] = a[0];
	b[1].v.time_us = 250.50;
	b[1].line = 7;
	key_of(b, 2, m, t, k2);
	assert_string_equal(k, k2);
	/* a column outside the key (the repeats' band) does not count */
	b[1].v.time_us_rep_min = 249;
	key_of(b, 2, m, t, k2);
	assert_string_equal(k, k2);
	/* another value, machine, start time or row set: another run */
	b[1].v.time_us = 250.5000001;
	key_of(b, 2, m, t, k2);
	assert_string_not_equal(k, k2);
	key_of(a, 2, "vm2 (X, 2 CPUs)", t, k2);
	assert_string_not_equal(k, k2);
	key_of(a, 2, m, "2026-11-30T14:55:36Z", k2);
	assert_string_not_equal(k, k2);
	key_of(a, 1, m, t, k2);
	assert_string_not_equal(k, k2);
	cb_row_status_set(&a[0].v.status, CB_ROW_ERROR, "%s", "MPI_ERR_TRUNCATE");
	key_of(a, 2, m, t, k2);
	assert_string_not_equal(k, k2);
	a[0].v.busbw = NAN; /* an empty value is a value too */
	key_of(a, 2, m, t, k);
	assert_string_not_equal(k, k2);
}

static void test_text_key(void **state)
{
	const char *const one[] = { "allreduce_perf -b 1M", "allreduce_perf -b 4M" };
	const char *const two[] = { "allreduce_perf -b 1M -b", "4M" };
	char a[CB_HIST_KEY_HEX], b[CB_HIST_KEY_HEX];

	(void)state;
	assert_int_equal(cb_hist_text_key(one, 2, a), CB_OK);
	assert_int_equal(cb_hist_text_key(two, 2, b), CB_OK);
	assert_string_not_equal(a, b);
	assert_int_equal(cb_hist_text_key(one, 2, b), CB_OK);
	assert_string_equal(a, b);
	/* SHA-256 of the empty string: no launches */
	assert_int_equal(cb_hist_text_key(one, 0, a), CB_OK);
	assert_string_equal(a, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_run_key),
		cmocka_unit_test(test_text_key),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
