/* Unit tests for cb_dtype: names, half/bfloat16 conversions, host reduce. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cb_dtype.h"

static void test_names(void **state)
{
	static const char *const names[] = { "int8", "uint8", "int32", "uint32",
		"int64", "uint64", "half", "bfloat16", "float", "double" };
	static const size_t sizes[] = { 1, 1, 4, 4, 8, 8, 2, 2, 4, 8 };
	static const char *const ops[] = { "sum", "prod", "min", "max", "avg" };
	enum cb_dtype dt = CB_DOUBLE;
	enum cb_op op = CB_AVG;

	(void)state;
	for (int i = 0; i < CB_DTYPE_COUNT; i++) {
		assert_string_equal(cb_dtype_name((enum cb_dtype)i), names[i]);
		assert_int_equal(cb_dtype_parse(names[i], &dt), 0);
		assert_int_equal(dt, i);
		assert_int_equal(cb_dtype_size(dt), sizes[i]);
		assert_int_equal(cb_dtype_is_float(dt), i >= CB_HALF);
	}
	for (int i = 0; i < CB_OP_COUNT; i++) {
		assert_string_equal(cb_op_name((enum cb_op)i), ops[i]);
		assert_int_equal(cb_op_parse(ops[i], &op), 0);
		assert_int_equal(op, i);
	}
	dt = CB_INT32;
	op = CB_MIN;
	assert_int_equal(cb_dtype_parse("fp16", &dt), -1);
	assert_int_equal(cb_dtype_parse("", &dt), -1);
	assert_int_equal(cb_dtype_parse("Float", &dt), -1);
	assert_int_equal(cb_op_parse("mean", &op), -1);
	assert_int_equal(dt, CB_INT32);		/* untouched on failure */
	assert_int_equal(op, CB_MIN);
}

/* Exact value of a finite half/bfloat16 pattern, from its fields. */
static double small_float_value(uint16_t x, int mbits, int bias)
{
	int e = (x & 0x7fff) >> mbits, m = x & ((1 << mbits) - 1);
	double v = e ? ldexp((1 << mbits) + m, e - bias - mbits) :
		       ldexp(m, 1 - bias - mbits);

	return x & 0x8000 ? -v : v;
}

/* Every pattern: to_float is exact and from_float(to_float(x)) == x; NaNs
 * stay NaN (quiet, same sign). */
static void roundtrip_all(float (*to_f)(uint16_t), uint16_t (*from_f)(float),
			  int mbits, int bias, uint16_t quiet)
{
	uint16_t exp_mask = (uint16_t)(0x7fff & ~((1 << mbits) - 1));

	for (uint32_t i = 0; i <= 0xffff; i++) {
		uint16_t x = (uint16_t)i, back;
		float f = to_f(x);

		back = from_f(f);
		if ((x & exp_mask) == exp_mask && (x & ~exp_mask & 0x7fff)) {
			assert_true(isnan(f));
			assert_true((back & exp_mask) == exp_mask);
			assert_true(back & quiet);
			assert_int_equal(back & 0x8000, x & 0x8000);
			assert_int_equal(!!signbit(f), !!(x & 0x8000));
			continue;
		}
		assert_int_equal(back, x);
		assert_int_equal(!!signbit(f), !!(x & 0x8000));
		if ((x & exp_mask) == exp_mask)
			assert_true(isinf(f));
		else
			assert_true((double)f == small_float_value(x, mbits, bias));
	}
}

static void test_half_roundtrip(void **state)
{
	(void)state;
	roundtrip_all(cb_half_to_float, cb_float_to_half, 10, 15, 0x0200);
}

static void test_bf16_roundtrip(void **state)
{
	(void)state;
	roundtrip_all(cb_bf16_to_float, cb_float_to_bf16, 7, 127, 0x0040);
}

/* Independent oracle: x rounded to nearest-even in a format with p
 * significand bits, normal exponents >= emin and largest finite maxf. */
static double round_oracle(double x, int p, int emin, double maxf)
{
	int e;
	double ulp, r;

	if (x == 0 || isinf(x))
		return x;
	frexp(fabs(x), &e);
	e = e - 1 < emin ? emin : e - 1;	/* exponent of the leading bit */
	ulp = ldexp(1.0, e - (p - 1));
	r = nearbyint(fabs(x) / ulp) * ulp;
	if (r > maxf)
		r = INFINITY;
	return copysign(r, x);
}

struct fmt {
	float (*to_f)(uint16_t);
	uint16_t (*from_f)(float);
	int p, emin;
	double maxf, above_max;	/* largest finite, the next power of two */
	uint16_t max_finite;
};

static const struct fmt half_fmt = { cb_half_to_float, cb_float_to_half, 11,
				     -14, 65504.0, 0x1p16, 0x7bff };
static const struct fmt bf16_fmt = { cb_bf16_to_float, cb_float_to_bf16, 8,
				     -126, 0x1.fep127, 0x1p128, 0x7f7f };

static void check_oracle(const struct fmt *f, float x)
{
	double want = round_oracle(x, f->p, f->emin, f->maxf);
	float got = f->to_f(f->from_f(x));

	if ((double)got != want || !!signbit(got) != !!signbit(want))
		fail_msg("%a: got %a, want %a", (double)x, (double)got, want);
}

/* Floats sampled over the whole bit space, every halfway point between
 * neighbouring values and the floats either side of it, both signs. */
static void rounding_vs_oracle(const struct fmt *f)
{
	for (uint64_t u = 0; u <= 0xffffffffu; u += 4093) {
		uint32_t b = (uint32_t)u;
		float x;

		memcpy(&x, &b, sizeof(x));
		if (!isnan(x))
			check_oracle(f, x);
	}
	for (uint16_t h = 0; h <= f->max_finite; h++) {
		double lo = f->to_f(h), hi = h == f->max_finite ?
			f->above_max : f->to_f((uint16_t)(h + 1));
		float mid = (float)((lo + hi) / 2);

		assert_true((double)mid == (lo + hi) / 2);	/* exact */
		for (int s = -1; s <= 1; s += 2) {
			check_oracle(f, (float)s * mid);
			check_oracle(f, (float)s * nextafterf(mid, 0));
			check_oracle(f, (float)s * nextafterf(mid, INFINITY));
		}
	}
}

static void test_half_rounding(void **state)
{
	(void)state;
	rounding_vs_oracle(&half_fmt);
}

static void test_bf16_rounding(void **state)
{
	(void)state;
	rounding_vs_oracle(&bf16_fmt);
}

static void test_half_cases(void **state)
{
	(void)state;
	assert_int_equal(cb_float_to_half(1.0f), 0x3c00);
	assert_int_equal(cb_float_to_half(-2.0f), 0xc000);
	assert_int_equal(cb_float_to_half(0.0f), 0x0000);
	assert_int_equal(cb_float_to_half(-0.0f), 0x8000);
	assert_int_equal(cb_float_to_half(65504.0f), 0x7bff);	/* max finite */
	assert_int_equal(cb_float_to_half(65519.0f), 0x7bff);
	assert_int_equal(cb_float_to_half(65520.0f), 0x7c00);	/* tie -> inf */
	assert_int_equal(cb_float_to_half(1e6f), 0x7c00);
	assert_int_equal(cb_float_to_half(-1e6f), 0xfc00);
	assert_int_equal(cb_float_to_half(INFINITY), 0x7c00);
	assert_int_equal(cb_float_to_half(-INFINITY), 0xfc00);
	assert_int_equal(cb_float_to_half(0x1p-14f), 0x0400);	/* min normal */
	assert_int_equal(cb_float_to_half(0x1p-24f), 0x0001);	/* min denormal */
	assert_int_equal(cb_float_to_half(0x1p-25f), 0x0000);	/* tie -> 0 */
	assert_int_equal(cb_float_to_half(-0x1p-25f), 0x8000);
	assert_int_equal(cb_float_to_half(0x1.000002p-25f), 0x0001);
	assert_int_equal(cb_float_to_half(0x3p-25f), 0x0002);	/* tie -> even */
	assert_int_equal(cb_float_to_half(0x1p-149f), 0x0000);	/* float denormal */
	assert_int_equal(cb_float_to_half(0x1.ffcp-15f), 0x0400);	/* carry */
	assert_int_equal(cb_float_to_half(1.0f + 0x1p-11f), 0x3c00); /* tie -> even */
	assert_int_equal(cb_float_to_half(1.0f + 0x3p-11f), 0x3c02);
	assert_int_equal(cb_float_to_half(1.0f / 3.0f), 0x3555);
	assert_true(isnan(cb_half_to_float(cb_float_to_half(NAN))));
	assert_int_equal(cb_float_to_half(NAN) & 0x7e00, 0x7e00);
	assert_true(cb_half_to_float(0x7bff) == 65504.0f);
	assert_true(cb_half_to_float(0x0001) == 0x1p-24f);
	assert_true(cb_half_to_float(0x03ff) == 0x3ffp-24f);
	assert_true(signbit(cb_half_to_float(0x8000)));
}

static float f_from_bits(uint32_t b)
{
	float f;

	memcpy(&f, &b, sizeof(f));
	return f;
}

static void test_bf16_cases(void **state)
{
	(void)state;
	assert_int_equal(cb_float_to_bf16(1.0f), 0x3f80);
	assert_int_equal(cb_float_to_bf16(-0.0f), 0x8000);
	assert_int_equal(cb_float_to_bf16(1.0f + 0x1p-8f), 0x3f80);	/* tie */
	assert_int_equal(cb_float_to_bf16(1.0f + 0x3p-8f), 0x3f82);	/* tie */
	assert_int_equal(cb_float_to_bf16(f_from_bits(0x3f808001)), 0x3f81);
	assert_int_equal(cb_float_to_bf16(f_from_bits(0x3f807fff)), 0x3f80);
	assert_int_equal(cb_float_to_bf16(1.0f / 3.0f), 0x3eab);
	assert_int_equal(cb_float_to_bf16(0x1.fep127f), 0x7f7f);	/* max */
	assert_int_equal(cb_float_to_bf16(0x1.fefffep127f), 0x7f7f);
	assert_int_equal(cb_float_to_bf16(0x1.ffp127f), 0x7f80);	/* tie: inf */
	assert_int_equal(cb_float_to_bf16(-0x1.fffffep127f), 0xff80);
	assert_int_equal(cb_float_to_bf16(INFINITY), 0x7f80);
	assert_int_equal(cb_float_to_bf16(0x1p-133f), 0x0001);	/* min denormal */
	assert_int_equal(cb_float_to_bf16(0x1p-134f), 0x0000);	/* tie -> 0 */
	assert_int_equal(cb_float_to_bf16(0x3p-134f), 0x0002);	/* tie: even */
	assert_int_equal(cb_float_to_bf16(f_from_bits(0x007fffff)), 0x0080);
	assert_int_equal(cb_float_to_bf16(f_from_bits(0x00008000)), 0x0000);
	assert_int_equal(cb_float_to_bf16(f_from_bits(0x00018000)), 0x0002);
	assert_true(isnan(cb_bf16_to_float(cb_float_to_bf16(NAN))));
	assert_true(isnan(cb_bf16_to_float(cb_float_to_bf16(-NAN))));
	assert_int_equal(cb_float_to_bf16(-NAN) & 0x8000, 0x8000);
	assert_true(cb_bf16_to_float(0x7f7f) == 0x1.fep127f);
}

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
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_half_roundtrip),
		cmocka_unit_test(test_bf16_roundtrip),
		cmocka_unit_test(test_half_rounding),
		cmocka_unit_test(test_bf16_rounding),
		cmocka_unit_test(test_half_cases),
		cmocka_unit_test(test_bf16_cases),
		cmocka_unit_test(test_reduce_int_wrap),
		cmocka_unit_test(test_reduce_int_minmax),
		cmocka_unit_test(test_reduce_float),
		cmocka_unit_test(test_finalize),
		cmocka_unit_test(test_reduce_alias),
		cmocka_unit_test(test_reduce_minmax_nan_zero),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
