/* Unit tests: statistics, bandwidth formulas (nccl-tests PERFORMANCE.md), imbalance. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#define assert_near(a, b, eps) assert_true(fabs((double)(a) - (double)(b)) <= (eps))

#include "cb_coll.h"
#include "cb_stats.h"

static void test_stats_odd_even(void **state)
{
	const double odd[] = { 5, 1, 3 }, even[] = { 4, 1, 3, 2 };
	struct cb_stats s;

	(void)state;
	assert_int_equal(cb_stats_compute(odd, 3, &s), 0);
	assert_near(s.mean, 3, 1e-12);
	assert_near(s.median, 3, 1e-12);
	assert_near(s.min, 1, 1e-12);
	assert_near(s.max, 5, 1e-12);
	assert_int_equal(cb_stats_compute(even, 4, &s), 0);
	assert_near(s.median, 2.5, 1e-12);
	assert_near(s.mean, 2.5, 1e-12);
	assert_int_equal(cb_stats_compute(even, 0, &s), -1);
}

/* Nearest-rank percentiles and the coefficient of variation: 1..100 has
 * p90 = 90, p99 = 99; ten values p99 = the maximum; {2, 4}: sd 1, cv 1/3. */
static void test_percentiles_cv(void **state)
{
	double x[100], ten[10], two[] = { 4, 2 }, one[] = { 7 };
	struct cb_stats s;

	(void)state;
	for (int i = 0; i < 100; i++)
		x[99 - i] = i + 1;
	for (int i = 0; i < 10; i++)
		ten[i] = i == 3 ? 50 : 1;
	assert_int_equal(cb_stats_compute(x, 100, &s), 0);
	assert_near(s.p90, 90, 0);
	assert_near(s.p99, 99, 0);
	assert_int_equal(cb_stats_compute(ten, 10, &s), 0);
	assert_near(s.p90, 1, 0);
	assert_near(s.p99, 50, 0);
	assert_int_equal(cb_stats_compute(two, 2, &s), 0);
	assert_near(s.cv, 1.0 / 3, 1e-12);
	assert_int_equal(cb_stats_compute(one, 1, &s), 0);
	assert_near(s.cv, 0, 0);
	assert_near(s.p99, 7, 0);
}

/* n = 8, S = 1 GiB, t = 10 ms: algbw 107.374 GB/s, busbw 187.905 GB/s. */
static void test_bandwidth_example(void **state)
{
	double algbw = cb_algbw_GBps((size_t)1 << 30, 10000.0);

	(void)state;
	assert_near(algbw, 107.374, 5e-4);
	assert_near(algbw * cb_coll_busbw_factor(CB_COLL_ALLREDUCE, 8), 187.905, 5e-4);
	assert_near(cb_coll_busbw_factor(CB_COLL_ALLREDUCE, 1), 0, 0);
	assert_near(cb_coll_busbw_factor(CB_COLL_ALLREDUCE, 2), 1, 0);
}

static void test_imbalance(void **state)
{
	/* ps on 4 ranks, S = 100: root 300/300, workers 100/100 -> n/2 = 2 */
	const uint64_t ps_tx[] = { 300, 100, 100, 100 }, ps_rx[] = { 300, 100, 100, 100 };
	const uint64_t ring[] = { 150, 150, 150, 150 }, zero[] = { 0, 0 };

	(void)state;
	assert_near(cb_imbalance(ps_tx, ps_rx, 4), 2.0, 1e-12);
	assert_near(cb_imbalance(ring, ring, 4), 1.0, 1e-12);
	assert_true(isnan(cb_imbalance(zero, zero, 2)));
}

/* nccl-tests' -a: rank 0's, the mean, min or max of the ranks' means */
static void test_over_ranks(void **state)
{
	const double t[] = { 4, 1, 7 };

	(void)state;
	assert_near(cb_stats_over_ranks(t, 3, 0), 4, 0);
	assert_near(cb_stats_over_ranks(t, 3, 1), 4, 1e-12);
	assert_near(cb_stats_over_ranks(t, 3, 2), 1, 0);
	assert_near(cb_stats_over_ranks(t, 3, 3), 7, 0);
	assert_near(cb_stats_over_ranks(t + 2, 1, 1), 7, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stats_odd_even),
		cmocka_unit_test(test_percentiles_cv),
		cmocka_unit_test(test_bandwidth_example),
		cmocka_unit_test(test_imbalance),
		cmocka_unit_test(test_over_ranks),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
