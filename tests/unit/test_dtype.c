/* Unit tests for cb_dtype: names, half/bfloat16 conversions (the host
 * reduce: test_reduce.c). */
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
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
