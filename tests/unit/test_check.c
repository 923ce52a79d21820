/* Unit tests for cb_check: input patterns and the reference (the #wrong
 * count and the poison: test_check_wrong.c). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cb_check.h"

#include "test_check_util.h"

/* Fails on a value not in want; returns how many wanted values occur for
 * the first time (seen[k] counts occurrences of want[k]). */
static int check_values(const void *buf, enum cb_dtype dt, const double *want,
			int nwant, int *seen)
{
	int fresh = 0;

	for (size_t i = 0; i < N; i++) {
		double v = fp_at(buf, i, dt);
		int k = 0;

		while (k < nwant && want[k] != v)
			k++;
		if (k == nwant)
			fail_msg("%s: unexpected input %g", cb_dtype_name(dt), v);
		fresh += !seen[k]++;
	}
	return fresh;
}

static void test_input_patterns_fp(void **state)
{
	unsigned char *buf = buf_a;
	double small[5], mid[201];
	const double prod01[] = { -2, -1, -0.5, 0.5, 1, 2 }, prod2[] = { -1, 1 };

	(void)state;
	for (int k = 0; k < 5; k++)
		small[k] = k - 2;
	for (int k = 0; k < 201; k++)
		mid[k] = k - 100;
	for (size_t d = 0; d < 4; d++) {
		enum cb_dtype dt = fp_dtypes[d];
		int mid_seen[201] = { 0 }, mid_distinct = 0;

		for (int rank = 0; rank < 4; rank++) {
			int seen[4][6] = { { 0 } };

			cb_fill_input(buf, 0, N, dt, CB_SUM, rank, 4);
			assert_int_equal(check_values(buf, dt, small, 5, seen[0]), 5);
			cb_fill_input(buf, 0, N, dt, CB_AVG, rank, 4);
			assert_int_equal(check_values(buf, dt, small, 5, seen[1]), 5);
			cb_fill_input(buf, 0, N, dt, CB_PROD, rank, 4);
			if (rank < 2)
				assert_int_equal(check_values(buf, dt, prod01, 6,
							      seen[2]), 6);
			else
				assert_int_equal(check_values(buf, dt, prod2, 2,
							      seen[3]), 2);
			cb_fill_input(buf, 0, N, dt, CB_MIN, rank, 4);
			mid_distinct += check_values(buf, dt, mid, 201, mid_seen);
			cb_fill_input(buf, 0, N, dt, CB_MAX, rank, 4);
			mid_distinct += check_values(buf, dt, mid, 201, mid_seen);
		}
		assert_int_equal(mid_distinct, 201);	/* -100 .. 100, all */
	}
}

static void test_input_patterns_int(void **state)
{
	unsigned char *buf = buf_a;

	(void)state;
	for (size_t d = 0; d < 6; d++) {
		enum cb_dtype dt = int_dtypes[d];
		uint64_t top = 1ull << (8 * cb_dtype_size(dt) - 1);
		size_t odd = 0, high = 0, low = 0;

		cb_fill_input(buf, 0, N, dt, CB_SUM, 1, 2);
		for (size_t i = 0; i < N; i++) {
			uint64_t v = bits_at(buf, i, dt);

			odd += v & 1;
			high += v >= top + top / 2;	/* top quarter */
			low += v < top / 2;		/* bottom quarter */
		}
		/* the whole range, roughly uniform */
		assert_true(odd > 400 && odd < 600);
		assert_true(high > 200 && low > 200);
		cb_fill_input(buf, 0, N, dt, CB_PROD, 1, 2);
		for (size_t i = 0; i < N; i++)
			assert_true(bits_at(buf, i, dt) & 1);
	}
}

/* Inputs depend on (rank, index, dtype, op) only: not on the message size
 * or where a buffer starts; ranks differ. */
static void test_input_determinism(void **state)
{
	unsigned char *all = buf_a, *part = buf_b, *other = buf_c;

	(void)state;
	for (int d = 0; d < CB_DTYPE_COUNT; d++) {
		enum cb_dtype dt = (enum cb_dtype)d;
		size_t es = cb_dtype_size(dt), same = 0;

		for (int o = 0; o < CB_OP_COUNT; o++) {
			enum cb_op op = (enum cb_op)o;

			cb_fill_input(all, 0, N, dt, op, 3, 8);
			cb_fill_input(part, 123, 77, dt, op, 3, 8);
			assert_memory_equal(all + 123 * es, part, 77 * es);
			cb_fill_input(part, 0, N, dt, op, 3, 8);
			assert_memory_equal(all, part, N * es);
			cb_fill_input(other, 0, N, dt, op, 4, 8);
			for (size_t i = 0; i < N; i++)
				same += !memcmp(all + i * es, other + i * es, es);
		}
		/* equal by chance: under 1/2 for the narrowest pattern */
		assert_true(same < CB_OP_COUNT * N / 2);
	}
}

/* Reduces nranks inputs of count elements (in, rank-major) into out in one
 * of three orders with cb_reduce_host, then cb_finalize_host. */
static void reduce_in_order(void *out, unsigned char *in, unsigned char *work,
			    int nranks, size_t count, enum cb_dtype dt,
			    enum cb_op op, int order)
{
	size_t bytes = count * cb_dtype_size(dt);

	if (order == 0) {		/* forward, dst aliases a */
		memcpy(out, in, bytes);
		for (int r = 1; r < nranks; r++)
			cb_reduce_host(out, out, in + r * bytes, count, dt, op);
	} else if (order == 1) {	/* reverse, dst aliases b */
		memcpy(out, in + (size_t)(nranks - 1) * bytes, bytes);
		for (int r = nranks - 2; r >= 0; r--)
			cb_reduce_host(out, in + r * bytes, out, count, dt, op);
	} else {			/* pairwise tree */
		memcpy(work, in, nranks * bytes);
		for (int s = 1; s < nranks; s *= 2)
			for (int r = 0; r + s < nranks; r += 2 * s)
				cb_reduce_host(work + r * bytes, work + r * bytes,
					       work + (r + s) * bytes, count, dt, op);
		memcpy(out, work, bytes);
	}
	cb_finalize_host(out, count, dt, op, nranks);
}

/* The reference equals, bit for bit, every reduction order of the inputs,
 * for every dtype x op x world size x count; it does not depend on first. */
static void test_reference_matches_reduction(void **state)
{
	static const int world[] = { 1, 2, 3, 5, 8, 64 };
	static const size_t counts[] = { 0, 1, 7, N };
	unsigned char *in = buf_in, *ref = buf_a, *out = buf_b, *part = buf_c;

	(void)state;
	for (int dt = 0; dt < CB_DTYPE_COUNT; dt++)
	for (int op = 0; op < CB_OP_COUNT; op++)
	for (size_t w = 0; w < 6; w++)
	for (size_t c = 0; c < 4; c++) {
		enum cb_dtype d = (enum cb_dtype)dt;
		enum cb_op o = (enum cb_op)op;
		size_t count = counts[c], bytes = count * cb_dtype_size(d);
		int n = world[w];

		for (int r = 0; r < n; r++)
			cb_fill_input(in + r * bytes, 0, count, d, o, r, n);
		cb_fill_reference(ref, 0, count, d, o, n);
		for (int order = 0; order < 3; order++) {
			reduce_in_order(out, in, buf_work, n, count, d, o, order);
			if (memcmp(out, ref, bytes))
				fail_msg("%s %s n=%d count=%zu order %d: inexact",
					 cb_dtype_name(d), cb_op_name(o), n, count,
					 order);
			assert_int_equal(cb_count_wrong(out, ref, count, d, o, n), 0);
		}
		if (count > 7) {	/* does not depend on where it starts */
			size_t es = cb_dtype_size(d);

			cb_fill_reference(part, 600, 7, d, o, n);
			assert_memory_equal(part, ref + 600 * es, 7 * es);
		}
	}
}

static int is_signed(enum cb_dtype dt)
{
	return dt == CB_INT8 || dt == CB_INT32 || dt == CB_INT64;
}

/* The signed value of w-bit pattern u (u < 2^w). */
static int64_t signed_value(uint64_t u, unsigned w)
{
	uint64_t top = 1ull << (w - 1);

	return u < top ? (int64_t)u : (int64_t)(u - top) - (int64_t)(top - 1) - 1;
}

/* The integer reference of element i, computed here in another way. */
static uint64_t int_expected(void *const *in, int nranks, size_t i,
			     enum cb_dtype dt, enum cb_op op)
{
	unsigned w = 8 * (unsigned)cb_dtype_size(dt);
	uint64_t mask = w == 64 ? ~0ull : (1ull << w) - 1;
	uint64_t acc = bits_at(in[0], i, dt);

	for (int r = 1; r < nranks; r++) {
		uint64_t v = bits_at(in[r], i, dt);
		int less = is_signed(dt) ? signed_value(v, w) < signed_value(acc, w)
					 : v < acc;

		if (op == CB_PROD)
			acc *= v;
		else if (op == CB_MIN || op == CB_MAX)
			acc = (op == CB_MIN) == less ? v : acc;
		else
			acc += v;
	}
	acc &= mask;
	if (op == CB_AVG)
		acc = is_signed(dt) ? (uint64_t)(signed_value(acc, w) / nranks)
				    : acc / (uint64_t)nranks;
	return acc & mask;
}

/* The floating-point reference of element i, in double; avg rounds as
 * the dtype's arithmetic does. */
static double fp_expected(void *const *in, int nranks, size_t i,
			  enum cb_dtype dt, enum cb_op op)
{
	double acc = fp_at(in[0], i, dt);
	float q;

	for (int r = 1; r < nranks; r++) {
		double v = fp_at(in[r], i, dt);

		if (op == CB_PROD)
			acc *= v;
		else if (op == CB_MIN)
			acc = fmin(acc, v);
		else if (op == CB_MAX)
			acc = fmax(acc, v);
		else
			acc += v;
	}
	if (op != CB_AVG)
		return acc;
	if (dt == CB_DOUBLE)
		return acc / nranks;
	q = (float)acc / (float)nranks;		/* the sum is exact in float */
	if (dt == CB_HALF)
		return cb_half_to_float(cb_float_to_half(q));
	return dt == CB_BFLOAT16 ? cb_bf16_to_float(cb_float_to_bf16(q)) : q;
}

static void test_reference_by_hand(void **state)
{
	enum { R = 5, M = 64 };
	void *in[R], *ref = buf_a;

	(void)state;
	for (int r = 0; r < R; r++)
		in[r] = buf_in + r * M * 8;
	for (int d = 0; d < CB_DTYPE_COUNT; d++)
	for (int o = 0; o < CB_OP_COUNT; o++) {
		enum cb_dtype dt = (enum cb_dtype)d;
		enum cb_op op = (enum cb_op)o;

		for (int r = 0; r < R; r++)
			cb_fill_input(in[r], 0, M, dt, op, r, R);
		cb_fill_reference(ref, 0, M, dt, op, R);
		for (size_t i = 0; i < M; i++) {
			if (cb_dtype_is_float(dt))
				assert_true(fp_at(ref, i, dt) ==
					    fp_expected(in, R, i, dt, op));
			else
				assert_int_equal(bits_at(ref, i, dt),
						 int_expected(in, R, i, dt, op));
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_input_patterns_fp),
		cmocka_unit_test(test_input_patterns_int),
		cmocka_unit_test(test_input_determinism),
		cmocka_unit_test(test_reference_matches_reduction),
		cmocka_unit_test(test_reference_by_hand),
	};

	return cmocka_run_group_tests(tests, buffers_alloc, buffers_free);
}
