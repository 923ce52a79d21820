/* Unit tests for cb_check: the #wrong count (exact, and avg's tolerance)
 * and the poison that makes unwritten elements count. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "test_check_util.h"

/* A changed element counts once: the lowest bit for exact comparisons,
 * a change of 1.0 for avg on floating dtypes. */
static void test_count_wrong_flip(void **state)
{
	unsigned char *ref = buf_a, *out = buf_b;

	(void)state;
	for (int d = 0; d < CB_DTYPE_COUNT; d++)
	for (int o = 0; o < CB_OP_COUNT; o++) {
		enum cb_dtype dt = (enum cb_dtype)d;
		enum cb_op op = (enum cb_op)o;
		size_t es = cb_dtype_size(dt);
		int tolerant = op == CB_AVG && cb_dtype_is_float(dt);
		const size_t at[3] = { 0, 17, N - 1 };

		cb_fill_reference(ref, 0, N, dt, op, 3);
		memcpy(out, ref, N * es);
		assert_int_equal(cb_count_wrong(out, ref, N, dt, op, 3), 0);
		for (size_t k = 0; k < 3; k++) {
			if (tolerant)
				fp_set(out, at[k], dt, fp_at(ref, at[k], dt) + 1.0);
			else
				out[at[k] * es] ^= 1;
			assert_int_equal(cb_count_wrong(out, ref, N, dt, op, 3),
					 k + 1);
		}
		assert_int_equal(cb_count_wrong(out, ref, N - 1, dt, op, 3), 2);
		assert_int_equal(cb_count_wrong(out, ref, 0, dt, op, 3), 0);
	}
}

static void test_poison(void **state)
{
	unsigned char *ref = buf_a, *out = buf_b;

	(void)state;
	for (int d = 0; d < CB_DTYPE_COUNT; d++) {
		enum cb_dtype dt = (enum cb_dtype)d;
		size_t es = cb_dtype_size(dt);
		unsigned char want = cb_dtype_is_float(dt) ? 0xff : 0xa5;

		memset(out, 0, N * 8);
		cb_fill_poison(out, N - 1, dt);
		for (size_t b = 0; b < (N - 1) * es; b++)
			assert_int_equal(out[b], want);
		assert_int_equal(out[(N - 1) * es], 0);	/* count respected */
		for (int o = 0; o < CB_OP_COUNT; o++) {
			enum cb_op op = (enum cb_op)o;
			size_t wrong, expect = 0;

			cb_fill_reference(ref, 0, N, dt, op, 4);
			cb_fill_poison(out, N, dt);
			wrong = cb_count_wrong(out, ref, N, dt, op, 4);
			for (size_t i = 0; i < N; i++)
				expect += memcmp(out + i * es, ref + i * es, es) != 0;
			if (cb_dtype_is_float(dt))
				assert_int_equal(wrong, N);	/* NaN: all */
			else
				assert_int_equal(wrong, expect);
			assert_true(wrong > N - N / 50);
			/* an unwritten span in a correct buffer */
			memcpy(out, ref, N * es);
			cb_fill_poison(out + 100 * es, 200, dt);
			assert_true(cb_count_wrong(out, ref, N, dt, op, 4) >
				    (cb_dtype_is_float(dt) ? 199u : 190u));
		}
	}
}

/* Moves element i of buf one ulp away from zero (for 16-bit floats: up the
 * bit patterns; references are never -0, so never from -0 to NaN). */
static void ulp_up(void *buf, size_t i, enum cb_dtype dt)
{
	float *f = buf;
	double *d = buf;

	switch (dt) {
	case CB_HALF: case CB_BFLOAT16: ((uint16_t *)buf)[i]++; break;
	case CB_FLOAT: f[i] = nextafterf(f[i], copysignf(INFINITY, f[i])); break;
	default: d[i] = nextafter(d[i], copysign(INFINITY, d[i])); break;
	}
}

static void test_avg_tolerance(void **state)
{
	static const int world[] = { 1, 3, 8, 64 };
	static const double eps[] = { 0x1p-10, 0x1p-7, 0x1p-23, 0x1p-52 };
	unsigned char *ref = buf_a, *out = buf_b;

	(void)state;
	for (size_t d = 0; d < 4; d++)
	for (size_t w = 0; w < 4; w++) {
		enum cb_dtype dt = fp_dtypes[d];
		int n = world[w];
		double tol = 2.0 * n * eps[d];

		cb_fill_reference(ref, 0, N, dt, CB_AVG, n);
		memcpy(out, ref, N * cb_dtype_size(dt));
		for (size_t i = 0; i < N; i++)
			ulp_up(out, i, dt);
		assert_int_equal(cb_count_wrong(out, ref, N, dt, CB_AVG, n), 0);
		/* the same one-ulp error is wrong for an exact op */
		assert_int_equal(cb_count_wrong(out, ref, N, dt, CB_SUM, n), N);
		for (size_t i = 0; i < N; i++) {	/* 4x the tolerance off */
			double off = (i & 1 ? 4 : -4) * tol;

			fp_set(out, i, dt, fp_at(ref, i, dt) + off);
		}
		assert_int_equal(cb_count_wrong(out, ref, N, dt, CB_AVG, n), N);
		/* NaN never matches, not even an identical NaN */
		cb_fill_poison(out, N, dt);
		assert_int_equal(cb_count_wrong(out, ref, N, dt, CB_AVG, n), N);
		assert_int_equal(cb_count_wrong(out, out, N, dt, CB_AVG, n), N);
		assert_int_equal(cb_count_wrong(out, out, N, dt, CB_MAX, n), N);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_count_wrong_flip),
		cmocka_unit_test(test_poison),
		cmocka_unit_test(test_avg_tolerance),
	};

	return cmocka_run_group_tests(tests, buffers_alloc, buffers_free);
}
