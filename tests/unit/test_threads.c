/* Unit test: every plan algorithm of every collective on both executors
 * that the rows run, with ranks as threads of this process (thread_world.h):
 * the one-sided executor (the shm and CUDA IPC rows' code) over memory every
 * thread addresses, with the shm backend's flags and waits, and the
 * two-sided executor (the p2p rows') over a fake transport with MPI's or
 * NCCL's rules. For n = 1..9, 12, 16, 17 and counts 0, 1, n-1, n+1 and an
 * odd count (per rank, for reduce-scatter and all-gather: their count is n
 * blocks), out of place and in place: every rank's result element by
 * element (the harness's check, cb_verify), and every rank's tx and rx equal
 * to the plan's sum (cb_plan_traffic). The schedule does not depend on the
 * dtype and the reduce does not depend on the schedule (test_reduce,
 * test_check test the reduces over every dtype x op), so the cross terms
 * are taken pairwise: the dtype alternates float / int32 and the op cycles
 * over the five from case to case; the root alternates first / last, ps's
 * servers 1 / 2 / n, the odd count's slice the backend's unit / 1 KiB / 40
 * B, the two-sided rules MPI / NCCL. The example plan files run on both
 * executors too. An executor addresses elements by their size: --all runs
 * every case once per element size (int8, half, float, double; label
 * products, the full run).
 *   test_threads [--all] */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "cb_algo.h"
#include "cb_algo_plan.h"
#include "cb_coll.h"
#include "cb_pattern.h"
#include "cb_plan_file.h"
#include "thread_world.h"

#ifndef CB_EXAMPLES_DIR
#error "CB_EXAMPLES_DIR: the example plan files' folder"
#endif

static int all;

static const int ns[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 16, 17 };
#define NNS (sizeof(ns) / sizeof(ns[0]))
#define ODD 211 /* a prime: uneven chunks at every n */

/* The bytes each rank moves in c's plan, as its executor builds it. */
static void plan_sum(const struct tw_case *c, uint64_t *tx, uint64_t *rx)
{
	const struct cb_plan_algo *al = c->algo->desc->plan;
	size_t esz = cb_dtype_size(c->dt);
	struct cb_plan_args a = { c->n, c->count, esz, c->root, c->servers,
				  cb_plan_slice_count(c->slice_bytes ? c->slice_bytes
								     : cb_backend_find("host")->desc->pipeline_bytes,
						      !c->slice_bytes, c->algo->two_sided_code,
						      c->count, c->n, esz),
				  NULL, NULL };
	struct cb_plan p;

	assert_int_equal(cb_plan_make(al, &a, &p), CB_OK);
	cb_plan_traffic(&p, esz, tx, rx);
	cb_plan_free(&p);
}

static unsigned long ncases;

/* Runs c; fails the test on a wrong result, a failure, or traffic other
 * than the plan's. */
static void run(const struct tw_case *c)
{
	struct tw_result res;
	uint64_t tx[TW_MAXN], rx[TW_MAXN];
	char what[256];
	int bad = tw_run(c, &res);

	ncases++;
	plan_sum(c, tx, rx);
	for (int r = 0; r < c->n; r++) {
		const struct tw_rank *k = &res.rank[r];

		if (!bad && k->tx == tx[r] && k->rx == rx[r])
			continue;
		tw_describe(c, what, sizeof(what));
		fail_msg("%s, rank %d: status %s, %lld wrong, tx/rx %llu/%llu (the plan: %llu/%llu)%s%s",
			 what, r, cb_status_str(k->st), k->wrong, (unsigned long long)k->tx,
			 (unsigned long long)k->rx, (unsigned long long)tx[r], (unsigned long long)rx[r],
			 res.why[0] ? ": " : "", res.why);
	}
}

/* The counts of the matrix on n ranks (per rank: times n where the
 * collective's count is n blocks). */
static size_t count_of(enum cb_coll coll, int n, int j)
{
	const size_t per[] = { 0, 1, (size_t)n - 1, (size_t)n + 1, ODD };

	return cb_coll_get(coll)->split ? per[j] * (size_t)n : per[j];
}

/* One case of the matrix, its cross terms taken from k. */
static void matrix_case(const struct cb_algo_ops *algo, int n, int j, int ip, unsigned long k,
			enum cb_dtype dt, enum cb_op op)
{
	static const size_t slices[] = { 0, 1024, 40 };
	enum cb_coll coll = algo->desc->coll;
	const struct cb_coll_desc *cd = cb_coll_get(coll);
	int ps = strcmp(algo->desc->name, "ps") == 0;
	struct tw_case c = {
		.algo = algo, .nccl = (int)(k / 3 % 2), .n = n,
		.root = (cd->rooted || ps) && k % 2 ? n - 1 : 0,
		.servers = ps && coll == CB_COLL_ALLREDUCE ? (k % 3 == 0 ? 1 : k % 3 == 1 ? 2 : n) : 1,
		.in_place = ip, .count = count_of(coll, n, j),
		.slice_bytes = j == 4 ? slices[k / 2 % 3] : 0, .dt = dt,
		.op = cd->reduces ? op : CB_SUM,
	};

	run(&c);
}

/* Every plan algorithm of collective coll on the executor chosen by
 * two_sided, over the matrix. */
static void matrix(enum cb_coll coll, int two_sided)
{
	static const enum cb_dtype by_size[4] = { CB_INT8, CB_HALF, CB_FLOAT, CB_DOUBLE };
	size_t na;
	const struct cb_algo_ops *const *reg = cb_algo_plan_registry_coll(coll, &na);
	unsigned long k = 0;

	assert_true(na >= 2);
	for (size_t i = 0; i < na; i++) {
		const struct cb_algo_ops *algo = two_sided ? reg[i]->two_sided : reg[i];

		if (reg[i]->desc->plan->ranks) /* a plan file's: test_plan_files */
			continue;
		for (size_t m = 0; m < NNS; m++)
			for (int j = 0; j < 5; j++)
				for (int ip = 0; ip < 2; ip++, k++) {
					if (!all) {
						matrix_case(algo, ns[m], j, ip, k,
							    k % 2 ? CB_INT32 : CB_FLOAT,
							    (enum cb_op)(k / 2 % CB_OP_COUNT));
						continue;
					}
					for (int e = 0; e < 4; e++)
						matrix_case(algo, ns[m], j, ip, k, by_size[e],
							    (enum cb_op)(k % CB_OP_COUNT));
				}
	}
}

static void test_one_sided(void **state)
{
	(void)state;
	for (int c = 0; c < CB_COLL_COUNT; c++)
		matrix((enum cb_coll)c, 0);
}

static void test_two_sided(void **state)
{
	(void)state;
	for (int c = 0; c < CB_COLL_COUNT; c++)
		matrix((enum cb_coll)c, 1);
}

/* The example plan files (examples/plans) at their world sizes and roots,
 * of their collectives, on both executors, in both modes. */
static void test_plan_files(void **state)
{
	static const struct { const char *file; int n, root; } ex[] = {
		{ "binomial4.json", 4, 0 }, { "ring3.json", 3, 0 },
		{ "reduce_scatter_ring3.json", 3, 0 }, { "broadcast_chain4.json", 4, 1 },
	};
	char path[1024], err[512];

	(void)state;
	for (size_t i = 0; i < sizeof(ex) / sizeof(ex[0]); i++) {
		struct cb_plan_file *f;
		const struct cb_algo_ops *a;
		size_t blocks;

		snprintf(path, sizeof(path), "%s/%s", CB_EXAMPLES_DIR, ex[i].file);
		if (cb_plan_file_load(path, &f, err, sizeof(err)) != CB_OK ||
		    cb_plan_file_add(f, err, sizeof(err)) != CB_OK)
			fail_msg("%s", err);
		a = cb_algo_find_coll(cb_plan_file_coll(f), cb_plan_file_name(f));
		assert_non_null(a);
		blocks = cb_coll_get(cb_plan_file_coll(f))->split ? (size_t)ex[i].n : 1;
		for (int two = 0; two < 2; two++)
			for (int ip = 0; ip < 2; ip++)
				for (size_t count = 0; count < 3; count++) {
					struct tw_case c = { two ? a->two_sided : a, (int)count % 2, ex[i].n,
							     ex[i].root, 1, ip, count * 1655 * blocks, 0,
							     CB_FLOAT, ip ? CB_AVG : CB_SUM };

					run(&c);
				}
	}
}

/* alltoall's plans for every dtype (its blocks move whole elements of
 * every size), on both executors, in both modes, at n = 3 and 4 with an odd
 * block and the ps root first and last. */
static void test_alltoall_dtypes(void **state)
{
	size_t na;
	const struct cb_algo_ops *const *reg = cb_algo_plan_registry_coll(CB_COLL_ALLTOALL, &na);

	(void)state;
	assert_true(na >= 2);
	for (size_t i = 0; i < na; i++)
		for (int dt = 0; dt < CB_DTYPE_COUNT; dt++)
			for (int k = 0; k < 8; k++) {
				int n = 3 + k % 2, two = k / 2 % 2;
				struct tw_case c = { two ? reg[i]->two_sided : reg[i], dt % 2, n,
						     k / 4 ? n - 1 : 0, 1, k % 2, (size_t)n * ODD, 0,
						     (enum cb_dtype)dt, CB_SUM };

				run(&c);
			}
}

/* The waits are timed as shm's are: over the matrix at n = 2, one-sided,
 * some rank accounted wait time (the odd ranks enter the checked call
 * later than the even ones). */
static void test_wait_accounted(void **state)
{
	const struct cb_algo_ops *ring = cb_algo_find_coll(CB_COLL_ALLREDUCE, "ring");
	uint64_t waited = 0;

	(void)state;
	for (int i = 0; i < 20 && !waited; i++) {
		struct tw_case c = { ring, 0, 2, 0, 1, 0, ODD, 0, CB_FLOAT, CB_SUM };
		struct tw_result res;

		assert_int_equal(tw_run(&c, &res), 0);
		waited = res.rank[0].wait_ns + res.rank[1].wait_ns;
	}
	assert_true(waited > 0);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_wait_accounted),
		cmocka_unit_test(test_one_sided),
		cmocka_unit_test(test_two_sided),
		cmocka_unit_test(test_plan_files),
		cmocka_unit_test(test_alltoall_dtypes),
	};
	int rc;

	all = argc > 1 && strcmp(argv[1], "--all") == 0;
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	fprintf(stderr, "test_threads: %lu cases\n", ncases);
	return rc;
}
