/* Unit tests for cb_dtype's host reduce: integer wrap, min/max, floating
 * types, the op's last step (avg), aliasing, NaN and signed zeros. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cb_dtype.h"

/* Reduces arrays A and B (braced lists) of T with cb_reduce_host and
 * compares the result bitwise with WANT. */
#define EXPECT(T, DT, OP, A, B, WANT)					\
	do {								\
		T a_[] = A, b_[] = B, w_[] = WANT;			\
		T o_[sizeof(a_) / sizeof(T)];				\
		cb_reduce_host(o_, a_, b_, sizeof(a_) / sizeof(T), DT, OP); \
		assert_memory_equal(o_, w_, sizeof(o_));		\
	} while (0)
#define L(...) { __VA_ARGS__ }

/* Integer sum and prod wrap as the unsigned type of the same width does. */
static void test_reduce_int_wrap(void **state)
{
	(void)state;
	EXPECT(int8_t, CB_INT8, CB_SUM, L(127, -128, -1, 100),
	       L(1, -1, -1, 100), L(-128, 127, -2, -56));
	EXPECT(int8_t, CB_INT8, CB_PROD, L(127, -128, -1, 100),
	       L(1, -1, -1, 100), L(127, -128, 1, 16));
	EXPECT(uint8_t, CB_UINT8, CB_SUM, L(255, 200, 1), L(1, 100, 2),
	       L(0, 44, 3));
	EXPECT(uint8_t, CB_UINT8, CB_PROD, L(255, 16, 3), L(255, 16, 5),
	       L(1, 0, 15));
	EXPECT(int32_t, CB_INT32, CB_SUM, L(INT32_MAX, INT32_MIN, -5, 7),
	       L(1, -1, 3, -7), L(INT32_MIN, INT32_MAX, -2, 0));
	EXPECT(int32_t, CB_INT32, CB_PROD, L(65536, INT32_MIN, -1, 3),
	       L(65536, -1, -1, -5), L(0, INT32_MIN, 1, -15));
	EXPECT(uint32_t, CB_UINT32, CB_PROD, L(0xffffffffu, 0x10000u),
	       L(0xffffffffu, 0x10001u), L(1, 0x10000u));
	EXPECT(int64_t, CB_INT64, CB_SUM, L(INT64_MAX, INT64_MIN, -3, 0),
	       L(1, -1, 1, 0), L(INT64_MIN, INT64_MAX, -2, 0));
	EXPECT(int64_t, CB_INT64, CB_PROD, L(INT64_MIN, 1LL << 32, 3, -1),
	       L(-1, 1LL << 32, 0x5555555555555556LL, -1),
	       L(INT64_MIN, 0, 2, 1));
	EXPECT(uint64_t, CB_UINT64, CB_SUM, L(UINT64_MAX, 5), L(2, 6), L(1, 11));
}

/* min and max compare as the dtype's signedness says. */
static void test_reduce_int_minmax(void **state)
{
	(void)state;
	EXPECT(int8_t, CB_INT8, CB_MIN, L(-1, 5, -128), L(0, 3, 127),
	       L(-1, 3, -128));
	EXPECT(int8_t, CB_INT8, CB_MAX, L(-1, 5, -128), L(0, 3, 127),
	       L(0, 5, 127));
	EXPECT(uint8_t, CB_UINT8, CB_MIN, L(255, 5, 128), L(0, 3, 127),
	       L(0, 3, 127));
	EXPECT(uint8_t, CB_UINT8, CB_MAX, L(255, 5, 128), L(0, 3, 127),
	       L(255, 5, 128));
	EXPECT(int32_t, CB_INT32, CB_MIN, L(-1, INT32_MAX), L(0, INT32_MIN),
	       L(-1, INT32_MIN));
	EXPECT(uint32_t, CB_UINT32, CB_MAX, L(0xffffffffu, 1), L(0, 2),
	       L(0xffffffffu, 2));
	EXPECT(int64_t, CB_INT64, CB_MAX, L(-1, INT64_MIN), L(0, INT64_MAX),
	       L(0, INT64_MAX));
	EXPECT(uint64_t, CB_UINT64, CB_MIN, L(UINT64_MAX, 1), L(0, 2), L(0, 1));
}

static void test_reduce_float(void **state)
{
	(void)state;
	/* 2^24 + 1 is a tie in float: to even; 2.5 - 2.5 is +0 */
	EXPECT(float, CB_FLOAT, CB_SUM, L(1.0f, 0x1p24f, -2.5f),
	       L(2.0f, 1.0f, 2.5f), L(3.0f, 0x1p24f, 0.0f));
	EXPECT(float, CB_FLOAT, CB_MIN, L(1.0f, -3.0f, 7.0f),
	       L(2.0f, 1.0f, -7.0f), L(1.0f, -3.0f, -7.0f));
	EXPECT(double, CB_DOUBLE, CB_PROD, L(0.5, -3.0, 1e300),
	       L(4.0, 2.0, 1e300), L(2.0, -6.0, INFINITY));
	EXPECT(double, CB_DOUBLE, CB_MAX, L(1.0, -3.0, 7.0), L(2.0, 1.0, -7.0),
	       L(2.0, 1.0, 7.0));
	/* half: 2048 + 1 and 2050 + 1 are ties (ulp 2): to even; overflow */
	EXPECT(uint16_t, CB_HALF, CB_SUM, L(0x6800, 0x6801, 0x3c00, 0x7bff),
	       L(0x3c00, 0x3c00, 0xbc00, 0x7bff), L(0x6800, 0x6802, 0, 0x7c00));
	/* (1 + 2^-10)^2 = 1 + 2^-9 + 2^-20; 2^-24 * 0.5 is a tie: to 0 */
	EXPECT(uint16_t, CB_HALF, CB_PROD, L(0x3c01, 0xc000, 0x3800, 0x0001),
	       L(0x3c01, 0x3800, 0x3800, 0x3800), L(0x3c02, 0xbc00, 0x3400, 0));
	EXPECT(uint16_t, CB_HALF, CB_MIN, L(0xbc00, 0x3800), L(0x3800, 0xc000),
	       L(0xbc00, 0xc000));
	/* bfloat16: 256 + 1 and 258 + 1 are ties (ulp 2) */
	EXPECT(uint16_t, CB_BFLOAT16, CB_SUM, L(0x4380, 0x4381, 0x3f80),
	       L(0x3f80, 0x3f80, 0x3f80), L(0x4380, 0x4382, 0x4000));
	EXPECT(uint16_t, CB_BFLOAT16, CB_MAX, L(0xbf80, 0x4000),
	       L(0x3f00, 0xc000), L(0x3f00, 0x4000));
}

static void test_finalize(void **state)
{
	int8_t i8[] = { -7, 7, -128, 127 };
	uint8_t u8[] = { 255, 7 };
	int32_t i32[] = { INT32_MAX, -5 };
	int64_t i64[] = { INT64_MIN, -1 };
	uint64_t u64[] = { UINT64_MAX, 2 };
	float f[] = { 1.0f, 2.0f, -1.0f };
	double d[] = { 1.0, -2.0 };
	uint16_t h[] = { 0x3c00, 0x4000 }, b[] = { 0x3f80, 0xc000 };

	(void)state;
	cb_finalize_host(i8, 4, CB_INT8, CB_SUM, 2);	/* not avg: as is */
	assert_true(i8[0] == -7 && i8[3] == 127);
	cb_finalize_host(i8, 4, CB_INT8, CB_AVG, 1);
	assert_true(i8[0] == -7 && i8[3] == 127);
	cb_finalize_host(i8, 4, CB_INT8, CB_AVG, 2);		/* truncation */
	assert_true(i8[0] == -3 && i8[1] == 3 && i8[2] == -64 && i8[3] == 63);
	cb_finalize_host(u8, 2, CB_UINT8, CB_AVG, 2);
	assert_true(u8[0] == 127 && u8[1] == 3);
	/* INT32_MAX + INT32_MAX wraps to -2 */
	cb_reduce_host(i32, i32, i32, 1, CB_INT32, CB_AVG);
	cb_finalize_host(i32, 2, CB_INT32, CB_AVG, 2);
	assert_true(i32[0] == -1 && i32[1] == -2);
	cb_finalize_host(i64, 2, CB_INT64, CB_AVG, 3);
	assert_true(i64[0] == INT64_MIN / 3 && i64[1] == 0);
	cb_finalize_host(u64, 2, CB_UINT64, CB_AVG, 3);
	assert_true(u64[0] == UINT64_MAX / 3 && u64[1] == 0);
	cb_finalize_host(f, 3, CB_FLOAT, CB_AVG, 3);
	assert_true(f[0] == 1.0f / 3.0f && f[1] == 2.0f / 3.0f &&
		    f[2] == -1.0f / 3.0f);
	cb_finalize_host(d, 2, CB_DOUBLE, CB_AVG, 3);
	assert_true(d[0] == 1.0 / 3.0 && d[1] == -2.0 / 3.0);
	cb_finalize_host(h, 2, CB_HALF, CB_AVG, 3);
	assert_true(h[0] == 0x3555 && h[1] == cb_float_to_half(2.0f / 3.0f));
	cb_finalize_host(b, 2, CB_BFLOAT16, CB_AVG, 3);
	assert_true(b[0] == 0x3eab && b[1] == cb_float_to_bf16(-2.0f / 3.0f));
}

/* dst == a, dst == b, dst == a == b and odd offsets give the same bits as
 * separate buffers, for every dtype x op (vectorised loops and their tails). */
static void test_reduce_alias(void **state)
{
	enum { N = 1003 };
	/* allocated: no declared type, so cb_reduce_host may store any dtype */
	unsigned char *a = malloc(5 * 8 * (N + 1)), *b = a + 8 * (N + 1);
	unsigned char *x = b + 8 * (N + 1), *ref = x + 8 * (N + 1);
	unsigned char *ref2 = ref + 8 * (N + 1);

	(void)state;
	assert_non_null(a);
	for (int dt = 0; dt < CB_DTYPE_COUNT; dt++) {
		size_t es = cb_dtype_size((enum cb_dtype)dt);
		unsigned char *pa = a + es, *pb = b;

		for (size_t i = 0; i < N * es; i++) {
			/* top byte 0x3a..0x3e (little-endian): finite, no NaN
			 * in any float dtype; other bytes vary */
			int top = i % es == es - 1;

			pa[i] = (unsigned char)(top ? 0x3c + i % 3 : i * 7);
			pb[i] = (unsigned char)(top ? 0x3e - i % 5 : i * 13);
		}
		for (int op = 0; op < CB_OP_COUNT; op++) {
			enum cb_dtype d = (enum cb_dtype)dt;
			enum cb_op o = (enum cb_op)op;

			cb_reduce_host(ref, pa, pb, N, d, o);
			cb_reduce_host(ref2, pa, pa, N, d, o);
			memcpy(x, pa, N * es);
			cb_reduce_host(x, x, pb, N, d, o);
			assert_memory_equal(x, ref, N * es);
			memcpy(x, pb, N * es);
			cb_reduce_host(x, pa, x, N, d, o);
			assert_memory_equal(x, ref, N * es);
			memcpy(x, pa, N * es);
			cb_reduce_host(x, x, x, N, d, o);
			assert_memory_equal(x, ref2, N * es);
		}
	}
	free(a);
}

/* min/max on floating dtypes (cb_minmax.h): a NaN loses to a number, two
 * NaNs give a NaN, -0 < +0, in either operand order; the result keeps the
 * chosen operand's bits (16-bit types too). */
static void test_reduce_minmax_nan_zero(void **state)
{
	/* pairs (a, b) and the expected min, max; NAN expected = any NaN */
	static const float pairs[][4] = {
		{ NAN, 1.0f, 1.0f, 1.0f },   { 1.0f, NAN, 1.0f, 1.0f },
		{ NAN, -2.0f, -2.0f, -2.0f }, { NAN, NAN, NAN, NAN },
		{ -0.0f, 0.0f, -0.0f, 0.0f }, { 0.0f, -0.0f, -0.0f, 0.0f },
		{ -0.0f, -0.0f, -0.0f, -0.0f }, { INFINITY, NAN, INFINITY, INFINITY },
		{ -INFINITY, 3.0f, -INFINITY, 3.0f }, { 2.0f, -1.0f, -1.0f, 2.0f },
	};
	(void)state;
	for (size_t i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++) {
		for (int o = 0; o < 2; o++) {
			enum cb_op op = o ? CB_MAX : CB_MIN;
			float want = pairs[i][2 + o], f;
			double d, da = pairs[i][0], db = pairs[i][1];
			uint16_t ha = cb_float_to_half(pairs[i][0]), hb = cb_float_to_half(pairs[i][1]);
			uint16_t ba = cb_float_to_bf16(pairs[i][0]), bb = cb_float_to_bf16(pairs[i][1]);
			uint16_t h, b;

			cb_reduce_host(&f, &pairs[i][0], &pairs[i][1], 1, CB_FLOAT, op);
			cb_reduce_host(&d, &da, &db, 1, CB_DOUBLE, op);
			cb_reduce_host(&h, &ha, &hb, 1, CB_HALF, op);
			cb_reduce_host(&b, &ba, &bb, 1, CB_BFLOAT16, op);
			if (isnan(want)) {
				assert_true(isnan(f) && isnan(d));
				assert_true(isnan(cb_half_to_float(h)) && isnan(cb_bf16_to_float(b)));
				continue;
			}
			assert_memory_equal(&f, &want, sizeof(f)); /* bits: -0 is not +0 */
			assert_true(d == (double)want && !signbit(d) == !signbit(want));
			assert_int_equal(h, cb_float_to_half(want));
			assert_int_equal(b, cb_float_to_bf16(want));
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reduce_int_wrap),
		cmocka_unit_test(test_reduce_int_minmax),
		cmocka_unit_test(test_reduce_float),
		cmocka_unit_test(test_finalize),
		cmocka_unit_test(test_reduce_alias),
		cmocka_unit_test(test_reduce_minmax_nan_zero),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
