/* Unit test: the pairwise selection (allpairs.h): every pair of values of
 * every two factors occurs in some row, for the shapes the plan tests use
 * and a few others; the rows stay near the lower bound (the product of the
 * two largest sizes); the same sizes give the same rows; sizes out of
 * range are refused. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "allpairs.h"

/* Fails unless rows cover every pair of k factors of size[]. */
static void covers(int k, const int *size, const int *rows, size_t nrows)
{
	for (int f = 0; f < k; f++)
		for (int g = f + 1; g < k; g++)
			for (int a = 0; a < size[f]; a++)
				for (int b = 0; b < size[g]; b++) {
					size_t i = 0;

					while (i < nrows && (rows[i * k + f] != a || rows[i * k + g] != b))
						i++;
					if (i == nrows)
						fail_msg("factors %d=%d and %d=%d never together", f, a, g, b);
				}
	for (size_t i = 0; i < nrows * (size_t)k; i++)
		assert_true(rows[i] >= 0 && rows[i] < size[i % (size_t)k]);
}

static void test_cover(void **state)
{
	static const int shapes[][AP_MAXF + 1] = {
		/* k, sizes */
		{ 5, 10, 12, 6, 10, 5 }, { 6, 12, 12, 5, 2, 10, 5 }, { 2, 3, 4 },
		{ 3, 1, 1, 1 },          { 8, 2, 2, 2, 2, 2, 2, 2, 2 }, { 4, 32, 2, 32, 3 },
	};

	(void)state;
	for (size_t s = 0; s < sizeof(shapes) / sizeof(shapes[0]); s++) {
		int k = shapes[s][0], *rows, *again, hi = 0, hi2 = 0;
		const int *size = &shapes[s][1];
		size_t nrows, n2;

		assert_int_equal(allpairs(k, size, &rows, &nrows), 0);
		covers(k, size, rows, nrows);
		for (int f = 0; f < k; f++) /* the two largest sizes */
			if (size[f] > hi)
				hi2 = hi, hi = size[f];
			else if (size[f] > hi2)
				hi2 = size[f];
		assert_true(nrows >= (size_t)(hi * hi2));
		fprintf(stderr, "shape %zu: %zu rows, bound %d\n", s, nrows, hi * hi2);
		if (nrows > (size_t)(hi * hi2) * 2)
			fail_msg("shape %zu: %zu rows for a bound of %d", s, nrows, hi * hi2);
		assert_int_equal(allpairs(k, size, &again, &n2), 0);
		assert_int_equal(n2, nrows);
		assert_memory_equal(again, rows, nrows * (size_t)k * sizeof(int));
		free(rows);
		free(again);
	}
}

static void test_refused(void **state)
{
	const int ok[3] = { 2, 2, 2 }, zero[2] = { 2, 0 }, big[2] = { 2, AP_MAXV + 1 };
	int *rows = NULL;
	size_t n = 0;

	(void)state;
	assert_int_equal(allpairs(1, ok, &rows, &n), -1);
	assert_int_equal(allpairs(AP_MAXF + 1, ok, &rows, &n), -1);
	assert_int_equal(allpairs(2, zero, &rows, &n), -1);
	assert_int_equal(allpairs(2, big, &rows, &n), -1);
	assert_null(rows);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cover),
		cmocka_unit_test(test_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
