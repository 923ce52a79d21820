// Unit test without a GPU: the element functions of the cuda kernels
// (cb_cuda_elem.cuh, __host__ __device__), compiled here by nvcc for the host,
// against the host reduce (cb_reduce_host, cb_finalize_host) for every
// dtype x op: integer wrap, half/bfloat16 rounding (float arithmetic rounded
// to nearest even), avg's final division, NaN and signed zeros. Results must
// be bit-identical; where the host says NaN, any NaN is accepted (payloads
// are not part of the contract, cb_minmax.h). What this cannot see: device
// code generation (FMA contraction, flush-to-zero flags), which the GPU
// integration tests check end to end.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

extern "C" { // C libraries: cmocka and the host reduce
#include <cmocka.h>

#include "cb_dtype.h"
}

#include "cb_cuda_elem.cuh"

namespace {

constexpr size_t kN = 1 << 15;

// splitmix64: deterministic test values
uint64_t next(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

template <typename T> T from_bits(uint64_t bits)
{
	T v;

	memcpy(&v, &bits, sizeof(T)); // little endian: the low bytes
	return v;
}

// Integer operand `operand` of element i: every pair of edge values (0, 1,
// extremes of each width, so sums and products wrap), then random bits.
template <typename T> T value(size_t i, uint64_t *s, int operand)
{
	static const uint64_t edge[] = { 0, 1, 0xff, 0x80, 0x7f, 0xffffffff, 0x80000000,
					 0x7fffffffffffffffull, 0x8000000000000000ull, 2, 3 };
	const size_t ne = sizeof(edge) / sizeof(edge[0]);

	if (i < ne * ne) // every pair of edge values
		return from_bits<T>(edge[operand ? i % ne : i / ne]);
	return from_bits<T>(next(s));
}

uint64_t fp_edge_bits(size_t k, size_t esz)
{
	// +0, -0, 1, -1, +inf, -inf, qNaN, largest finite, smallest subnormal
	static const uint64_t h[] = { 0, 0x8000, 0x3c00, 0xbc00, 0x7c00, 0xfc00, 0x7e00, 0x7bff, 1 };
	static const uint64_t b[] = { 0, 0x8000, 0x3f80, 0xbf80, 0x7f80, 0xff80, 0x7fc0, 0x7f7f, 1 };
	static const uint64_t f[] = { 0, 0x80000000, 0x3f800000, 0xbf800000, 0x7f800000,
				      0xff800000, 0x7fc00000, 0x7f7fffff, 1 };
	static const uint64_t d[] = { 0, 0x8000000000000000ull, 0x3ff0000000000000ull,
				      0xbff0000000000000ull, 0x7ff0000000000000ull,
				      0xfff0000000000000ull, 0x7ff8000000000000ull,
				      0x7fefffffffffffffull, 1 };
	return esz == 8 ? d[k] : esz == 4 ? f[k] : esz == 3 ? b[k] : h[k];
}

// Floating inputs: edge pairs, then small integers and halves of them (exact
// results and rounding ties), then random bits. esz 3 means bfloat16.
template <typename T> void fill_fp(T *a, T *b, size_t n, size_t esz, uint64_t *s)
{
	const size_t ne = 9;

	for (size_t i = 0; i < n; i++) {
		uint64_t x, y;

		if (i < ne * ne) {
			x = fp_edge_bits(i / ne, esz);
			y = fp_edge_bits(i % ne, esz);
		} else {
			x = next(s);
			y = next(s);
		}
		a[i] = from_bits<T>(x);
		b[i] = from_bits<T>(y);
	}
}

template <typename T> int is_nan_bits(const T *p, enum cb_dtype dt)
{
	uint64_t u = 0;

	memcpy(&u, p, sizeof(T));
	switch (dt) {
	case CB_HALF: return (u & 0x7fff) > 0x7c00;
	case CB_BFLOAT16: return (u & 0x7fff) > 0x7f80;
	case CB_FLOAT: return (u & 0x7fffffff) > 0x7f800000;
	case CB_DOUBLE: return (u & 0x7fffffffffffffffull) > 0x7ff0000000000000ull;
	default: return 0;
	}
}

// Elements where the kernel's function and the host reduce differ.
template <typename T>
size_t mismatches(const T *got, const T *want, size_t n, enum cb_dtype dt, const char *what)
{
	size_t bad = 0;

	for (size_t i = 0; i < n; i++) {
		if (memcmp(&got[i], &want[i], sizeof(T)) == 0)
			continue;
		if (is_nan_bits(&want[i], dt) && is_nan_bits(&got[i], dt))
			continue;
		if (bad++ < 3) {
			uint64_t g = 0, w = 0;

			memcpy(&g, &got[i], sizeof(T));
			memcpy(&w, &want[i], sizeof(T));
			fprintf(stderr, "%s %s: element %zu: kernel %#llx, host %#llx\n",
				cb_dtype_name(dt), what, i, (unsigned long long)g, (unsigned long long)w);
		}
	}
	return bad;
}

template <typename T, int OP> void apply_all(T *out, const T *a, const T *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		out[i] = cb_elem::Combine<T, OP>::run(a[i], b[i]);
}

template <typename T> void apply_op(T *out, const T *a, const T *b, size_t n, int op)
{
	switch (op) {
	case CB_SUM: apply_all<T, CB_SUM>(out, a, b, n); break;
	case CB_PROD: apply_all<T, CB_PROD>(out, a, b, n); break;
	case CB_MIN: apply_all<T, CB_MIN>(out, a, b, n); break;
	case CB_MAX: apply_all<T, CB_MAX>(out, a, b, n); break;
	default: apply_all<T, CB_AVG>(out, a, b, n); break;
	}
}

// Every op on (a, b), then avg's final division for several world sizes.
template <typename T> void check(enum cb_dtype dt, const T *a, const T *b)
{
	static T got[kN], want[kN];
	static const int nranks[] = { 2, 3, 4, 7, 64 };

	for (int op = 0; op < CB_OP_COUNT; op++) {
		apply_op<T>(got, a, b, kN, op);
		cb_reduce_host(want, a, b, kN, dt, (enum cb_op)op);
		assert_int_equal(mismatches(got, want, kN, dt, cb_op_name((enum cb_op)op)), 0);
	}
	for (size_t k = 0; k < sizeof(nranks) / sizeof(nranks[0]); k++) {
		for (size_t i = 0; i < kN; i++)
			got[i] = cb_elem::Combine<T, CB_AVG>::finish(a[i], nranks[k]);
		memcpy(want, a, sizeof(want));
		cb_finalize_host(want, kN, dt, CB_AVG, nranks[k]);
		assert_int_equal(mismatches(got, want, kN, dt, "avg finish"), 0);
	}
}

template <typename T> void check_int(enum cb_dtype dt)
{
	static T a[kN], b[kN];
	uint64_t s = 0x1234 + (uint64_t)dt;

	for (size_t i = 0; i < kN; i++) {
		a[i] = value<T>(i, &s, 0);
		b[i] = value<T>(i, &s, 1);
	}
	check<T>(dt, a, b);
}

template <typename T> void check_fp(enum cb_dtype dt, size_t esz)
{
	static T a[kN], b[kN];
	uint64_t s = 0x4321 + (uint64_t)dt;

	fill_fp<T>(a, b, kN, esz, &s);
	for (size_t i = 81; i < kN / 2; i++) { // small integers and halves: ties
		float x = (float)((int)(next(&s) % 4001) - 2000) / (i % 2 ? 1.0f : 2.0f);
		float y = (float)((int)(next(&s) % 4001) - 2000) / 4.0f;

		if (esz == 2) {
			a[i] = from_bits<T>(cb_float_to_half(x));
			b[i] = from_bits<T>(cb_float_to_half(y));
		} else if (esz == 3) {
			a[i] = from_bits<T>(cb_float_to_bf16(x));
			b[i] = from_bits<T>(cb_float_to_bf16(y));
		} else {
			a[i] = (T)x;
			b[i] = (T)y;
		}
	}
	check<T>(dt, a, b);
}

} // namespace

static void test_int8(void **st) { (void)st; check_int<int8_t>(CB_INT8); }
static void test_uint8(void **st) { (void)st; check_int<uint8_t>(CB_UINT8); }
static void test_int32(void **st) { (void)st; check_int<int32_t>(CB_INT32); }
static void test_uint32(void **st) { (void)st; check_int<uint32_t>(CB_UINT32); }
static void test_int64(void **st) { (void)st; check_int<int64_t>(CB_INT64); }
static void test_uint64(void **st) { (void)st; check_int<uint64_t>(CB_UINT64); }
static void test_half(void **st) { (void)st; check_fp<__half>(CB_HALF, 2); }
static void test_bf16(void **st) { (void)st; check_fp<__nv_bfloat16>(CB_BFLOAT16, 3); }
static void test_float(void **st) { (void)st; check_fp<float>(CB_FLOAT, 4); }
static void test_double(void **st) { (void)st; check_fp<double>(CB_DOUBLE, 8); }

// The conversions the kernels round with, against the host's, over every
// half and bfloat16 value and 2^20 floats near rounding boundaries.
static void test_conversions(void **st)
{
	uint64_t s = 99;

	(void)st;
	for (uint32_t h = 0; h < 0x10000; h++) {
		float x = cb_elem::Widened<__half>::in(from_bits<__half>(h));
		float y = cb_elem::Widened<__nv_bfloat16>::in(from_bits<__nv_bfloat16>(h));
		uint32_t hx, hy;

		if ((h & 0x7fff) <= 0x7c00) { // half: not NaN
			memcpy(&hx, &x, 4);
			float r = cb_half_to_float((uint16_t)h);
			memcpy(&hy, &r, 4);
			assert_int_equal(hx, hy);
		}
		if ((h & 0x7fff) <= 0x7f80) {
			float r = cb_bf16_to_float((uint16_t)h);
			assert_memory_equal(&y, &r, 4);
		}
	}
	for (int i = 0; i < (1 << 20); i++) {
		uint32_t bits = (uint32_t)next(&s);
		float f;
		__half h;
		__nv_bfloat16 b;
		uint16_t hb, bb;

		if (i % 2) /* exactly halfway between two halves / bfloat16s */
			bits = (bits & 0xffffe000u) | 0x1000u;
		memcpy(&f, &bits, 4);
		if (f != f)
			continue;
		h = cb_elem::Widened<__half>::out(f);
		b = cb_elem::Widened<__nv_bfloat16>::out(f);
		memcpy(&hb, &h, 2);
		memcpy(&bb, &b, 2);
		assert_int_equal(hb, cb_float_to_half(f));
		if (i % 2 == 0 || (bits & 0xffff) != 0x1000) /* bf16 ties: own pattern below */
			assert_int_equal(bb, cb_float_to_bf16(f));
		bits = (bits & 0xffff0000u) | 0x8000u; /* halfway between two bfloat16s */
		memcpy(&f, &bits, 4);
		if (f == f) {
			b = cb_elem::Widened<__nv_bfloat16>::out(f);
			memcpy(&bb, &b, 2);
			assert_int_equal(bb, cb_float_to_bf16(f));
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_int8),   cmocka_unit_test(test_uint8),
		cmocka_unit_test(test_int32),  cmocka_unit_test(test_uint32),
		cmocka_unit_test(test_int64),  cmocka_unit_test(test_uint64),
		cmocka_unit_test(test_half),   cmocka_unit_test(test_bf16),
		cmocka_unit_test(test_float),  cmocka_unit_test(test_double),
		cmocka_unit_test(test_conversions),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
