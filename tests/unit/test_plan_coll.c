/* Unit test: the collectives beyond allreduce (cb_coll.h) and every plan
 * algorithm of each (CB_PLAN_BUILTINS) on the in-memory executor, no
 * MPI: for n in 1..9, 12, 16, 17, roots first and last, counts 0, 1, n-1,
 * n+1 and an odd one (blocks of that many elements a rank for
 * reduce-scatter and all-gather), out of place and in place (nccl-tests'
 * offsets): the exact result, the traffic the executor moved equal to the
 * plan's sum, and that sum equal to each algorithm's closed form (the
 * formulas in its plan's file). The products are factored as in test_plan:
 * every algorithm x n x count x root with one dtype (float and int32 in
 * turn, the op cycling), the cross terms pairwise (allpairs.h); --all the
 * full product (label products). --large: 1000003 elements (rounded down
 * to a multiple of n for the split ones, as nccl-tests does), every dtype
 * with sum and every op on float (a manual run, minutes here).
 * Also: the busbw factors against nccl-tests' doc/PERFORMANCE.md, the
 * buffer sizes and in-place offsets, and the rules that refuse a plan (a
 * split count, a root out of range, a final step where nothing reduces, a
 * round that writes what a peer reads, a plan right only out of place).
 *   test_plan_coll [--all | --large] */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "allpairs.h"
#include "cb_plan_exec.h"
#include "cb_plan_lib.h"

static int large, all;

static const int ns[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 16, 17 };
#define NNS (sizeof(ns) / sizeof(ns[0]))

/* Children of position v in the broadcast's tree (v < 2^k gives to
 * v + 2^k) and in the reduce's (v receives from v + 2^k while 2^k is below
 * v's lowest set bit). */
static int bcast_children(int v, int n)
{
	int c = 0;

	for (int d = 1; d < n; d *= 2)
		c += v < d && v + d < n;
	return c;
}

static int reduce_children(int v, int n)
{
	int c = 0;

	for (int d = 1; d < n && (v == 0 || d < (v & -v)); d *= 2)
		c += v + d < n;
	return c;
}

/* The closed form of algo's traffic for coll (bytes; each plan file's
 * header): 1 and tx, rx set, or 0 for an algorithm it does not know. */
static int closed_form(enum cb_coll coll, const char *algo, int n, size_t count, size_t esz,
		       int root, uint64_t *tx, uint64_t *rx)
{
	uint64_t S = (uint64_t)count * esz, B = (uint64_t)(count / (size_t)n) * esz;
	int ring = !strcmp(algo, "ring") || !strcmp(algo, "direct"), ps = !strcmp(algo, "ps");

	for (int r = 0; r < n; r++) {
		int v = (r - root + n) % n, rt = r == root, m = n - 1;

		if (n == 1 || count == 0)
			tx[r] = rx[r] = 0;
		else if ((coll == CB_COLL_REDUCE_SCATTER || coll == CB_COLL_ALL_GATHER) && ring)
			tx[r] = rx[r] = (uint64_t)m * B;
		else if (coll == CB_COLL_REDUCE_SCATTER && ps)
			rx[r] = rt ? m * S : B, tx[r] = rt ? m * B : S;
		else if (coll == CB_COLL_ALL_GATHER && ps)
			rx[r] = rt ? m * B : S, tx[r] = rt ? m * S : B;
		else if (coll == CB_COLL_ALLTOALL && !strcmp(algo, "direct"))
			tx[r] = rx[r] = (uint64_t)m * B;
		else if (coll == CB_COLL_ALLTOALL && ps)
			tx[r] = rx[r] = rt ? m * S : S;
		else if (coll == CB_COLL_BROADCAST && ps)
			tx[r] = rt ? m * S : 0, rx[r] = rt ? 0 : S;
		else if (coll == CB_COLL_REDUCE && ps)
			rx[r] = rt ? m * S : 0, tx[r] = rt ? 0 : S;
		else if (coll == CB_COLL_BROADCAST && !strcmp(algo, "chain"))
			tx[r] = v < n - 1 ? S : 0, rx[r] = v > 0 ? S : 0;
		else if (coll == CB_COLL_REDUCE && !strcmp(algo, "chain"))
			tx[r] = v > 0 ? S : 0, rx[r] = v < n - 1 ? S : 0;
		else if (coll == CB_COLL_BROADCAST && !strcmp(algo, "binomial"))
			tx[r] = (uint64_t)bcast_children(v, n) * S, rx[r] = v > 0 ? S : 0;
		else if (coll == CB_COLL_REDUCE && !strcmp(algo, "binomial"))
			rx[r] = (uint64_t)reduce_children(v, n) * S, tx[r] = v > 0 ? S : 0;
		else
			return 0;
	}
	return 1;
}

/* One plan: built, checked in both modes for dt and op, its executed
 * traffic against its sum and that sum against the closed form. */
static void check_one(enum cb_coll coll, const struct cb_plan_algo *al, int n, size_t count,
		      int root, enum cb_dtype dt, enum cb_op op, size_t slice)
{
	struct cb_plan_args a = { n, count, cb_dtype_size(dt), root, 0, slice, NULL, NULL };
	uint64_t tx[32], rx[32], ptx[32], prx[32], ctx[32], crx[32];
	struct cb_plan p;
	char err[512] = "";
	const char *cn = cb_coll_get(coll)->name;

	if (cb_plan_make(al, &a, &p) != CB_OK)
		fail_msg("%s %s n=%d count=%zu root %d: build failed", cn, al->name, n, count, root);
	assert_int_equal(p.coll, coll);
	for (int ip = 0; ip < 2; ip++) {
		struct cb_plan_report rep = { 0, -1, 0, -1, tx, rx };

		if (cb_plan_finish(&p, ip, err, sizeof(err)) != CB_OK)
			fail_msg("%s %s n=%d count=%zu in_place=%d: %s", cn, al->name, n, count, ip, err);
		assert_int_equal(cb_plan_check(&p, dt, op, &rep), CB_OK);
		if (rep.wrong)
			fail_msg("%s %s n=%d count=%zu root %d %s %s in_place=%d: %zu wrong, first rank "
				 "%d element %zu (round %ld)", cn, al->name, n, count, root,
				 cb_dtype_name(dt), cb_op_name(op), ip, rep.wrong, rep.rank, rep.offset,
				 rep.round);
		cb_plan_traffic(&p, cb_dtype_size(dt), ptx, prx);
		for (int r = 0; r < n; r++)
			if (tx[r] != ptx[r] || rx[r] != prx[r])
				fail_msg("%s %s n=%d count=%zu rank %d: moved %llu/%llu, the plan sums "
					 "%llu/%llu", cn, al->name, n, count, r, (unsigned long long)tx[r],
					 (unsigned long long)rx[r], (unsigned long long)ptx[r],
					 (unsigned long long)prx[r]);
	}
	if (!closed_form(coll, al->name, n, count, cb_dtype_size(dt), root, ctx, crx))
		fail_msg("%s %s: no closed form in this test", cn, al->name);
	for (int r = 0; r < n; r++)
		if (ctx[r] != ptx[r] || crx[r] != prx[r])
			fail_msg("%s %s n=%d count=%zu root %d rank %d: plan %llu/%llu, closed form "
				 "%llu/%llu", cn, al->name, n, count, root, r, (unsigned long long)ptx[r],
				 (unsigned long long)prx[r], (unsigned long long)ctx[r],
				 (unsigned long long)crx[r]);
	cb_plan_free(&p);
}

/* The counts of the matrix for coll on n ranks: 0, 1, n-1, n+1 and an odd
 * one (a prime: uneven chunks at every n) per rank, times n for the split
 * collectives (their count is n blocks); the large one (--large), 1000003
 * (rounded down to a multiple of n for those). */
#define NCOUNTS 5

static size_t count_at(enum cb_coll coll, int n, int c)
{
	size_t per[NCOUNTS + 1] = { 0, 1, (size_t)n - 1, (size_t)n + 1, 1031, 1000003 };
	int split = cb_coll_get(coll)->split;

	if (c == NCOUNTS)
		return split ? per[c] / (size_t)n * (size_t)n : per[c];
	return split ? per[c] * (size_t)n : per[c];
}

/* Every (collective, algorithm) of the others, in order: *m of them. */
static int coll_algos(enum cb_coll *coll, const struct cb_plan_algo **al, int max)
{
	int m = 0;

	for (int c = 1; c < CB_COLL_COUNT; c++) {
		size_t na;
		const struct cb_plan_algo *a = cb_plan_coll_algos((enum cb_coll)c, &na);

		assert_true(na >= 2);
		for (size_t i = 0; i < na && m < max; i++, m++)
			coll[m] = (enum cb_coll)c, al[m] = &a[i];
	}
	return m;
}

/* One case: root 0 or n-1 (rooted and ps-style ones), the op only where
 * the collective reduces. */
static void check_case(enum cb_coll coll, const struct cb_plan_algo *al, int n, int c, int last,
		       enum cb_dtype dt, enum cb_op op)
{
	check_one(coll, al, n, count_at(coll, n, c), last ? n - 1 : 0, dt,
		  cb_coll_get(coll)->reduces ? op : CB_SUM, 0);
}

/* Every algorithm x n x count x root, in both modes (check_one): one dtype
 * a case, float and int32 in turn, the op cycling; --all every dtype x op. */
static void test_matrix(void **state)
{
	enum cb_coll coll[32];
	const struct cb_plan_algo *al[32];
	int m = coll_algos(coll, al, 32);
	unsigned k = 0;

	(void)state;
	for (int i = 0; i < m; i++)
		for (size_t j = 0; j < NNS; j++)
			for (int c = 0; c < NCOUNTS; c++)
				for (int last = 0; last < (ns[j] > 1 ? 2 : 1); last++, k++) {
					if (!all) {
						check_case(coll[i], al[i], ns[j], c, last,
							   k % 2 ? CB_INT32 : CB_FLOAT,
							   (enum cb_op)(k / 2 % CB_OP_COUNT));
						continue;
					}
					for (int dt = 0; dt < CB_DTYPE_COUNT; dt++)
						for (int op = 0; op < CB_OP_COUNT; op++)
							check_case(coll[i], al[i], ns[j], c, last,
								   (enum cb_dtype)dt, (enum cb_op)op);
				}
}

/* The cross terms: every pair of values of (algorithm, n, count, root,
 * dtype, op) in some case. */
static void test_pairs(void **state)
{
	enum cb_coll coll[32];
	const struct cb_plan_algo *al[32];
	int m = coll_algos(coll, al, 32), *rows;
	const int size[6] = { m, (int)NNS, NCOUNTS, 2, CB_DTYPE_COUNT, CB_OP_COUNT };
	size_t nrows;

	(void)state;
	assert_int_equal(allpairs(6, size, &rows, &nrows), 0);
	for (size_t i = 0; i < nrows; i++) {
		const int *r = rows + i * 6;

		check_case(coll[r[0]], al[r[0]], ns[r[1]], r[2], r[3] && ns[r[1]] > 1,
			   (enum cb_dtype)r[4], (enum cb_op)r[5]);
	}
	free(rows);
}

/* --large: the large count, every dtype with sum, every op on float, root 0. */
static void test_large(void **state)
{
	enum cb_coll coll[32];
	const struct cb_plan_algo *al[32];
	int m = coll_algos(coll, al, 32);

	(void)state;
	for (int i = 0; i < m; i++)
		for (size_t j = 0; j < NNS; j++)
			for (int dt = 0; dt < CB_DTYPE_COUNT; dt++)
				for (int op = 0; op < CB_OP_COUNT; op++)
					if ((op == CB_SUM || dt == CB_FLOAT) &&
					    (op == CB_SUM || cb_coll_get(coll[i])->reduces))
						check_case(coll[i], al[i], ns[j], NCOUNTS, 0,
							   (enum cb_dtype)dt, (enum cb_op)op);
}

/* Slices: an odd block in slices of 257 elements, and one of a single
 * element, for every algorithm at n = 2, 3, 5 (float sum). */
static void test_slices(void **state)
{
	(void)state;
	for (int coll = 1; coll < CB_COLL_COUNT; coll++) {
		size_t na;
		const struct cb_plan_algo *al = cb_plan_coll_algos((enum cb_coll)coll, &na);

		for (size_t i = 0; i < na; i++)
			for (int n = 2; n <= 5; n += n == 3 ? 2 : 1) {
				size_t count = cb_coll_get((enum cb_coll)coll)->split ? 16411 * (size_t)n
											   : 16411;

				check_one((enum cb_coll)coll, &al[i], n, count, 1, CB_FLOAT, CB_SUM, 257);
				check_one((enum cb_coll)coll, &al[i], n, count / 100, 0, CB_INT8, CB_MAX, 1);
			}
	}
}

/* Buffer sizes, in-place offsets and busbw factors (nccl-tests
 * doc/PERFORMANCE.md: allreduce 2(n-1)/n, reduce_scatter and all_gather
 * (n-1)/n, broadcast and reduce 1). */
static void test_sizes(void **state)
{
	int inside;

	(void)state;
	assert_int_equal(cb_coll_send_count(CB_COLL_REDUCE_SCATTER, 4, 400), 400);
	assert_int_equal(cb_coll_recv_count(CB_COLL_REDUCE_SCATTER, 4, 400), 100);
	assert_int_equal(cb_coll_send_count(CB_COLL_ALL_GATHER, 4, 400), 100);
	assert_int_equal(cb_coll_recv_count(CB_COLL_ALL_GATHER, 4, 400), 400);
	assert_int_equal(cb_coll_send_count(CB_COLL_BROADCAST, 4, 400), 400);
	assert_int_equal(cb_coll_inplace_offset(CB_COLL_ALL_GATHER, 4, 400, 3, &inside), 300);
	assert_int_equal(inside, 1);
	assert_int_equal(cb_coll_inplace_offset(CB_COLL_REDUCE_SCATTER, 4, 400, 2, &inside), 200);
	assert_int_equal(inside, 0);
	assert_int_equal(cb_coll_inplace_offset(CB_COLL_REDUCE, 4, 400, 2, &inside), 0);
	assert_true(cb_coll_busbw_factor(CB_COLL_ALLREDUCE, 4) == 1.5);
	assert_true(cb_coll_busbw_factor(CB_COLL_REDUCE_SCATTER, 4) == 0.75);
	assert_true(cb_coll_busbw_factor(CB_COLL_ALL_GATHER, 8) == 0.875);
	assert_true(cb_coll_busbw_factor(CB_COLL_BROADCAST, 8) == 1.0);
	assert_true(cb_coll_busbw_factor(CB_COLL_REDUCE, 3) == 1.0);
	for (int c = 0; c < CB_COLL_COUNT; c++) /* nccl-tests: the rooted ones 1 whatever n */
		assert_true(cb_coll_busbw_factor((enum cb_coll)c, 1) ==
			    (cb_coll_get((enum cb_coll)c)->rooted ? 1.0 : 0.0));
	assert_int_equal(cb_coll_find("all_gather"), CB_COLL_ALL_GATHER);
	assert_int_equal(cb_coll_find("allgather"), -1);
	assert_string_equal(cb_coll_get(CB_COLL_REDUCE_SCATTER)->perf_name, "reduce_scatter_perf");
	assert_null(cb_coll_get(CB_COLL_COUNT));
}

/* What must be refused. */
static void test_refusals(void **state)
{
	struct cb_plan_args a = { 4, 402, 4, 0, 0, 0, NULL, NULL };
	struct cb_plan p;
	char err[512] = "";

	(void)state;
	/* a split collective's count that n does not divide; a root out of range */
	assert_int_equal(cb_plan_make(cb_plan_coll_find(CB_COLL_ALL_GATHER, "ring"), &a, &p),
			 CB_ERR_ARG);
	a.count = 400, a.root = 4;
	assert_int_equal(cb_plan_make(cb_plan_coll_find(CB_COLL_REDUCE, "chain"), &a, &p),
			 CB_ERR_ARG);
	assert_null(cb_plan_coll_find(CB_COLL_REDUCE, "twoshot"));
	assert_non_null(cb_plan_coll_find(CB_COLL_ALLREDUCE, "twoshot"));

	/* a final step in a collective that does not reduce */
	assert_int_equal(cb_plan_init_coll(&p, "t", CB_COLL_BROADCAST, 2, 8, 0), CB_OK);
	assert_int_equal(cb_plan_copy(&p, 1, cb_pref(1, CB_PLAN_RECV, 0), cb_pref(0, CB_PLAN_SEND, 0),
				      8, 1), CB_OK);
	assert_int_equal(cb_plan_finish(&p, 0, err, sizeof(err)), CB_ERR_ARG);
	assert_non_null(strstr(err, "does not reduce"));
	cb_plan_free(&p);

	/* in place an all-gather's own copy while the peer reads that SEND: the
	 * same range; out of place two ranges */
	assert_int_equal(cb_plan_init_coll(&p, "t", CB_COLL_ALL_GATHER, 2, 8, 0), CB_OK);
	for (int r = 0; r < 2; r++) {
		assert_int_equal(cb_plan_copy(&p, r, cb_pref(r, CB_PLAN_RECV, 4 * (size_t)(1 - r)),
					      cb_pref(1 - r, CB_PLAN_SEND, 0), 4, 0), CB_OK);
		assert_int_equal(cb_plan_copy(&p, r, cb_pref(r, CB_PLAN_RECV, 4 * (size_t)r),
					      cb_pref(r, CB_PLAN_SEND, 0), 4, 0), CB_OK);
	}
	assert_int_equal(cb_plan_finish(&p, 0, err, sizeof(err)), CB_OK);
	assert_int_equal(cb_plan_finish(&p, 1, err, sizeof(err)), CB_ERR_ARG);
	assert_non_null(strstr(err, "also touches"));
	cb_plan_free(&p);

	/* a reduce-scatter that writes its result before reading its own block
	 * again: right out of place, wrong in place (RECV is that block) */
	assert_int_equal(cb_plan_init_coll(&p, "t", CB_COLL_REDUCE_SCATTER, 2, 8, 0), CB_OK);
	for (int r = 0; r < 2; r++)
		assert_int_equal(cb_plan_reduce(&p, r, cb_pref(r, CB_PLAN_RECV, 0),
						cb_pref(1 - r, CB_PLAN_SEND, 4 * (size_t)r),
						cb_pref(r, CB_PLAN_SEND, 4 * (size_t)r), 4, 1), CB_OK);
	assert_int_equal(cb_plan_round(&p), CB_OK);
	for (int r = 0; r < 2; r++) /* once more: the second reads the first's output in place */
		assert_int_equal(cb_plan_reduce(&p, r, cb_pref(r, CB_PLAN_RECV, 0),
						cb_pref(1 - r, CB_PLAN_SEND, 4 * (size_t)r),
						cb_pref(r, CB_PLAN_SEND, 4 * (size_t)r), 4, 1), CB_OK);
	assert_int_equal(cb_plan_validate(&p, CB_INT32, CB_SUM, 1u, err, sizeof(err)), CB_OK);
	assert_int_equal(cb_plan_validate(&p, CB_INT32, CB_SUM, 2u, err, sizeof(err)), CB_ERR_ARG);
	assert_non_null(strstr(err, "in place"));
	cb_plan_free(&p);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest small[] = {
		cmocka_unit_test(test_sizes),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_slices),
		cmocka_unit_test(test_matrix),
		cmocka_unit_test(test_pairs),
	};
	const struct CMUnitTest big[] = { cmocka_unit_test(test_large) };

	large = argc > 1 && strcmp(argv[1], "--large") == 0;
	all = argc > 1 && strcmp(argv[1], "--all") == 0;
	if (argc > 2 || (argc > 1 && !large && !all)) {
		fprintf(stderr, "usage: test_plan_coll [--all | --large]\n");
		return 2;
	}
	if (large)
		return cmocka_run_group_tests(big, NULL, NULL);
	return cmocka_run_group_tests(small, NULL, NULL);
}
