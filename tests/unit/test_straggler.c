/* Unit tests: when the table names a straggler (cb_straggler.h). The share
 * test is a one-sided binomial test against chance (1/n per rank, Bonferroni
 * over the n ranks) and the ratio must reach CB_STRAGGLER_RATIO; the table's
 * note follows the test while the CSV keeps every row's figures. */
#define _GNU_SOURCE
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "cb_report.h"
#include "cb_straggler.h"

/* P(X >= c), X ~ Binomial(k, p), against sums of exact terms (Python's
 * math.comb): the tail above and below the mode, and the ends. */
static void test_binom_tail(void **state)
{
	(void)state;
	assert_true(fabs(cb_binom_tail(20, 5, 0.125) - 0.09501116598654122) < 1e-12);
	assert_true(fabs(cb_binom_tail(100, 25, 0.125) / 0.0004782047860608343 - 1) < 1e-9);
	assert_true(fabs(cb_binom_tail(20, 17, 0.5) - 0.0012884140014648438) < 1e-12);
	assert_true(fabs(cb_binom_tail(20, 8, 0.25) - 0.10181185692272265) < 1e-12);
	assert_true(fabs(cb_binom_tail(20, 20, 0.5) - 9.5367431640625e-07) < 1e-15);
	assert_true(fabs(cb_binom_tail(1000, 250, 0.125) / 4.5429525968549355e-27 - 1) < 1e-6);
	/* below the mode: 1 - the lower terms, near 1 */
	assert_true(fabs(cb_binom_tail(20, 2, 0.5) - (1 - 21.0 / 1048576)) < 1e-12);
	assert_true(cb_binom_tail(20, 0, 0.5) == 1);
	assert_true(cb_binom_tail(20, 21, 0.5) == 0);
	/* a large k ends (the sum stops where its terms add nothing) */
	assert_true(cb_binom_tail(1000000000LL, 125000000LL, 0.125) > 0.4);
	assert_true(cb_binom_tail(1000000000LL, 126000000LL, 0.125) < 1e-100);
}

/* Shares at chance, or a ratio within timer noise: no straggler. */
static void test_at_chance(void **state)
{
	(void)state;
	/* 8 ranks, 25% of 20 or of 100 iterations: 2x chance, not evidence */
	assert_false(cb_straggler_named(8, 20, 0.25, 1.5));
	assert_false(cb_straggler_named(8, 100, 0.25, 1.5));
	/* 2 ranks: 50% .. 85% of 20 iterations */
	assert_false(cb_straggler_named(2, 20, 0.5, 1.5));
	assert_false(cb_straggler_named(2, 20, 0.85, 1.5));
	assert_false(cb_straggler_named(4, 20, 0.5, 1.5));
	/* always the slowest but 0.98x-1.02x the others */
	assert_false(cb_straggler_named(2, 100, 1.0, 1.02));
	assert_false(cb_straggler_named(8, 100, 1.0, 0.98));
	assert_false(cb_straggler_named(4, 100, 1.0, CB_STRAGGLER_RATIO - 1e-9));
	/* nothing to judge */
	assert_false(cb_straggler_named(1, 100, 1.0, 2.0));
	assert_false(cb_straggler_named(4, 0, 1.0, 2.0));
	assert_false(cb_straggler_named(4, 100, NAN, 2.0));
	assert_false(cb_straggler_named(4, 100, 1.0, NAN));
}

/* Shares well above chance with a ratio past the threshold: a straggler. */
static void test_well_above(void **state)
{
	(void)state;
	assert_true(cb_straggler_named(2, 20, 1.0, 1.89));
	assert_true(cb_straggler_named(2, 20, 0.9, 1.2)); /* 2 P(X >= 18) = 4e-4 */
	assert_true(cb_straggler_named(8, 1000, 0.25, 1.1)); /* k = 1000: 1e-25 */
	assert_true(cb_straggler_named(4, 50, 1.0, CB_STRAGGLER_RATIO));
	assert_true(cb_straggler_named(8, 100, 0.6, 1.5));
}

/* A summary row: k is iters x repeats. */
static struct cb_summary row(int n, int iters, int repeats, double share, double ratio)
{
	struct cb_summary s;

	cb_schema_clear(&cb_schema_summary, &s);
	strcpy(s.backend, "host");
	strcpy(s.algo, "ring");
	strcpy(s.dtype, "float");
	strcpy(s.op, "sum");
	s.nranks = n;
	s.bytes = 1024;
	s.count = 256;
	s.iters = iters;
	s.warmup_iters = 1;
	s.repeats = repeats;
	s.time_us = s.time_us_median = s.time_us_min = s.time_us_max = 10.0;
	s.algbw = s.busbw = 1.0;
	s.straggler_rank = 3;
	s.straggler_share = share;
	s.straggler_ratio = ratio;
	return s;
}

static void test_row_k(void **state)
{
	struct cb_summary s = row(8, 100, 1, 0.25, 1.5);

	(void)state;
	assert_false(cb_straggler_row_named(&s));
	s.repeats = 10; /* k = 1000 */
	assert_true(cb_straggler_row_named(&s));
	s.straggler_rank = CB_NO_INT;
	assert_false(cb_straggler_row_named(&s));
}

/* The table names the straggler of the row that has one only; the CSV
 * keeps the figures of both rows. */
static void test_table_note(void **state)
{
	char *table_buf = NULL, csv_path[] = "/tmp/cb_test_straggler_XXXXXX", line[4096];
	size_t len = 0;
	FILE *table = open_memstream(&table_buf, &len), *csv;
	struct cb_report *r = NULL;
	struct cb_summary chance = row(8, 20, 1, 0.25, 1.01), real = row(2, 20, 1, 1.0, 1.89);
	int fd = mkstemp(csv_path), rows = 0;

	(void)state;
	assert_true(fd >= 0);
	real.bytes = 2048;
	real.straggler_rank = 0;
	assert_int_equal(cb_report_open(&r, csv_path, NULL, NULL, table), CB_OK);
	assert_int_equal(cb_report_start(r), CB_OK);
	assert_int_equal(cb_report_row(r, &chance, NULL), CB_OK);
	assert_int_equal(cb_report_row(r, &real, NULL), CB_OK);
	assert_int_equal(cb_report_close(r), CB_OK);
	fclose(table);
	assert_null(strstr(table_buf, "rank 3, slowest"));
	assert_non_null(strstr(table_buf, "straggler: rank 0, slowest in 100% of iterations, 1.89x"));
	csv = fdopen(fd, "r");
	assert_non_null(csv);
	while (fgets(line, sizeof(line), csv))
		rows += strstr(line, ",3,0.25,1.01") != NULL || strstr(line, ",0,1,1.89") != NULL;
	assert_int_equal(rows, 2);
	fclose(csv);
	unlink(csv_path);
	free(table_buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_binom_tail),
		cmocka_unit_test(test_at_chance),
		cmocka_unit_test(test_well_above),
		cmocka_unit_test(test_row_k),
		cmocka_unit_test(test_table_note),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
