/* Unit test: every plan algorithm (cb_plan_lib.h) on the in-memory executor
 * (cb_plan_exec.h), no MPI: for n in 1..9, 12, 16, 17 and counts 0, 1, n-1,
 * n, n+1 and an odd count in slices, out of place and in place: the exact
 * allreduce (as the checker defines it), and the traffic the executor moved
 * equal to the plan's sum; for ps (k = 1, 2, n servers), the ring, one-shot,
 * two-shot, recursive doubling (powers of two) and Rabenseifner (powers of
 * two dividing the count) also equal to their closed forms (docs/output.md
 * "Traffic"; the sources in each plan's file).
 * The products are factored: the schedule does not depend on the dtype and
 * the reduce does not depend on the schedule (test_check: the host reduce of
 * every dtype x op against the reference), so every variant x n x count
 * runs with one dtype (float and int32 in turn, the op cycling), and the
 * cross terms (variant, n, count, dtype, op) are covered pairwise
 * (allpairs.h). --all runs the full product instead (label products, the
 * full run); --large the large count (1000003: float sum at every n, every
 * dtype with sum at n = 2, 3, 8, 17, every op on float at n = 5; label
 * large) and every schedule at 2^31 + 8 one-byte elements (n = 2, 3: built,
 * finished, traffic against the closed forms, no byte moved), --large
 * --all every dtype and op at every n for the 1000003 (hours of CPU for
 * the family: no CI run holds it).
 * Also: the round rules refuse what they must.
 *   test_plan [--all] [--large] */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "allpairs.h"
#include "cb_pattern.h"
#include "cb_plan_exec.h"
#include "cb_plan_lib.h"

/* cb_plan_make of allreduce's plan algorithm named name (CB_ERR_ARG: none). */
static enum cb_status make_named(const char *name, const struct cb_plan_args *a, struct cb_plan *p)
{
	return cb_plan_make(cb_plan_coll_find(CB_COLL_ALLREDUCE, name), a, p);
}


static int large, all;

static const int ns[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 16, 17 };
#define NNS (sizeof(ns) / sizeof(ns[0]))

/* The variants a plan algorithm is tested in: ps with 1, 2 and n servers. */
struct variant {
	const char *algo;
	int servers; /* 0: the default; -1: n */
};

static int variants(struct variant *v, int max)
{
	size_t na;
	const struct cb_plan_algo *a = cb_plan_coll_algos(CB_COLL_ALLREDUCE, &na);
	int k = 0;

	for (size_t i = 0; i < na && k < max; i++) {
		v[k++] = (struct variant){ a[i].name, 0 };
		if (strcmp(a[i].name, "ps") == 0 && k + 2 <= max) {
			v[k++] = (struct variant){ a[i].name, 2 };
			v[k++] = (struct variant){ a[i].name, -1 };
		}
	}
	return k;
}

/* The closed forms of the family's traffic (the sources in each plan's
 * file): 1 and tx, rx set where v has one at n, count; else 0. */
static int closed_family(const struct variant *v, int n, size_t count, size_t esz, uint64_t *tx,
			 uint64_t *rx)
{
	uint64_t S = (uint64_t)count * esz;
	int pof2 = (n & (n - 1)) == 0, l = 0;

	while ((1 << l) < n)
		l++;
	for (int r = 0; r < n; r++) {
		size_t o, c;

		cb_chunk(count, n, r, &o, &c);
		if (strcmp(v->algo, "oneshot") == 0) /* every input to every rank */
			tx[r] = rx[r] = (uint64_t)(n - 1) * S;
		else if (strcmp(v->algo, "twoshot") == 0) /* its chunk from n-1, the rest to them */
			tx[r] = rx[r] = (uint64_t)(n - 1) * c * esz + S - c * esz;
		else if (pof2 && strcmp(v->algo, "rd") == 0) /* S per round */
			tx[r] = rx[r] = (uint64_t)l * S;
		else if (pof2 && count % (size_t)n == 0 && strcmp(v->algo, "rabenseifner") == 0)
			tx[r] = rx[r] = 2 * (uint64_t)(n - 1) * (S / (uint64_t)n); /* the ring's */
		else
			return 0;
	}
	return 1;
}

/* The closed form of the traffic, where the algorithm has one: 1 and tx, rx
 * set; else 0. */
static int closed_form(const struct variant *v, int n, size_t count, size_t esz, int root,
		       uint64_t *tx, uint64_t *rx)
{
	uint64_t S = (uint64_t)count * esz;

	if (n == 1 || count == 0) {
		memset(tx, 0, (size_t)n * sizeof(*tx));
		memset(rx, 0, (size_t)n * sizeof(*rx));
		return 1;
	}
	if (strcmp(v->algo, "ring") == 0) {
		for (int r = 0; r < n; r++) { /* every chunk but its own and the next */
			size_t o, c0, c1;

			cb_chunk(count, n, r, &o, &c0);
			cb_chunk(count, n, (r + 1) % n, &o, &c1);
			rx[r] = 2 * S - (c0 + c1) * esz;
		}
		for (int r = 0; r < n; r++)
			tx[r] = rx[(r + 1) % n];
		return 1;
	}
	if (strcmp(v->algo, "ps") == 0) {
		int k = v->servers < 0 || v->servers > n ? n : v->servers ? v->servers : 1;

		for (int r = 0; r < n; r++)
			tx[r] = rx[r] = 0;
		for (int j = 0; j < k; j++) { /* server j: n-1 shards in, n-1 out */
			size_t o, c;
			int srv = (root + j) % n;

			cb_chunk(count, k, j, &o, &c);
			for (int r = 0; r < n; r++)
				if (r != srv) {
					tx[r] += c * esz, rx[r] += c * esz;
					tx[srv] += c * esz, rx[srv] += c * esz;
				}
		}
		return 1;
	}
	return closed_family(v, n, count, esz, tx, rx);
}

/* One plan: built, validated in both modes for dt and op, its executed
 * traffic against its sum and its closed form. */
static void check_hosts(const struct variant *v, int n, size_t count, enum cb_dtype dt,
			enum cb_op op, size_t slice, const int *rank_host)
{
	struct cb_plan_args a = { n, count, cb_dtype_size(dt), n > 2 ? 2 : 0,
				  v->servers < 0 || v->servers > n ? n : v->servers, slice, rank_host, NULL };
	uint64_t tx[32], rx[32], ptx[32], prx[32], ctx[32], crx[32];
	struct cb_plan p;
	char err[512] = "";
	enum cb_status st = make_named(v->algo, &a, &p);

	if (st != CB_OK)
		fail_msg("%s (servers %d) n=%d count=%zu: build failed (%d)", v->algo, v->servers, n,
			 count, st);
	for (int ip = 0; ip < 2; ip++) {
		struct cb_plan_report rep = { 0, -1, 0, -1, tx, rx };

		if (cb_plan_finish(&p, ip, err, sizeof(err)) != CB_OK)
			fail_msg("%s n=%d count=%zu: %s", v->algo, n, count, err);
		assert_int_equal(cb_plan_check(&p, dt, op, &rep), CB_OK);
		if (rep.wrong)
			fail_msg("%s (servers %d) n=%d count=%zu %s %s in_place=%d: %zu wrong, first "
				 "rank %d element %zu (round %ld)", v->algo, v->servers, n, count,
				 cb_dtype_name(dt), cb_op_name(op), ip, rep.wrong, rep.rank, rep.offset,
				 rep.round);
		cb_plan_traffic(&p, cb_dtype_size(dt), ptx, prx);
		for (int r = 0; r < n; r++)
			if (tx[r] != ptx[r] || rx[r] != prx[r])
				fail_msg("%s n=%d count=%zu rank %d: moved %llu/%llu, the plan sums %llu/%llu",
					 v->algo, n, count, r, (unsigned long long)tx[r],
					 (unsigned long long)rx[r], (unsigned long long)ptx[r],
					 (unsigned long long)prx[r]);
	}
	if (!rank_host && closed_form(v, n, count, cb_dtype_size(dt), a.root, ctx, crx))
		for (int r = 0; r < n; r++)
			if (ctx[r] != ptx[r] || crx[r] != prx[r])
				fail_msg("%s (servers %d) n=%d count=%zu rank %d: plan %llu/%llu, closed form "
					 "%llu/%llu", v->algo, v->servers, n, count, r,
					 (unsigned long long)ptx[r], (unsigned long long)prx[r],
					 (unsigned long long)ctx[r], (unsigned long long)crx[r]);
	cb_plan_free(&p);
}

static void check_one(const struct variant *v, int n, size_t count, enum cb_dtype dt,
		      enum cb_op op, size_t slice)
{
	check_hosts(v, n, count, dt, op, slice, NULL);
}

/* The counts at n: 0, 1, n-1, n, n+1, and an odd one (16411, in slices of
 * 257 elements: uneven chunks cut into several slices at every n). */
#define NCOUNTS 6

static size_t count_at(int n, int c)
{
	const size_t counts[NCOUNTS] = { 0, 1, (size_t)n - 1, (size_t)n, (size_t)n + 1, 16411 };

	return counts[c];
}

static size_t slice_at(int c)
{
	return c == NCOUNTS - 1 ? 257 : 0;
}

/* Every variant x n x count, in both modes (check_hosts): one dtype a case,
 * float and int32 in turn, the op cycling; with --all every dtype x op. */
static void test_matrix(void **state)
{
	struct variant v[32];
	int nv = variants(v, 32);
	unsigned k = 0;

	(void)state;
	for (int i = 0; i < nv; i++)
		for (size_t j = 0; j < NNS; j++)
			for (int c = 0; c < NCOUNTS; c++, k++) {
				if (!all) {
					check_one(&v[i], ns[j], count_at(ns[j], c), k % 2 ? CB_INT32 : CB_FLOAT,
						  (enum cb_op)(k / 2 % CB_OP_COUNT), slice_at(c));
					continue;
				}
				for (int dt = 0; dt < CB_DTYPE_COUNT; dt++)
					for (int op = 0; op < CB_OP_COUNT; op++)
						check_one(&v[i], ns[j], count_at(ns[j], c), (enum cb_dtype)dt,
							  (enum cb_op)op, slice_at(c));
			}
}

/* The cross terms: every pair of values of (variant, n, count, dtype, op)
 * in some case. */
static void test_pairs(void **state)
{
	struct variant v[32];
	int nv = variants(v, 32), *rows;
	const int size[5] = { nv, (int)NNS, NCOUNTS, CB_DTYPE_COUNT, CB_OP_COUNT };
	size_t nrows;

	(void)state;
	assert_int_equal(allpairs(5, size, &rows, &nrows), 0);
	for (size_t i = 0; i < nrows; i++) {
		const int *r = rows + i * 5;

		check_one(&v[r[0]], ns[r[1]], count_at(ns[r[1]], r[2]), (enum cb_dtype)r[3],
			  (enum cb_op)r[4], slice_at(r[2]));
	}
	free(rows);
}

/* Ranks on several hosts (the rank_host a run records): hosts of equal
 * and unequal size, in blocks and interleaved, for every variant and count;
 * a dtype (float, int32, half) and op a case in turn, every one with --all. */
static void test_hosts(void **state)
{
	static const int l2x2[] = { 0, 0, 1, 1 }, l121[] = { 0, 1, 1, 2 }, lx[] = { 0, 1, 0, 1 },
			 l3x3[] = { 0, 0, 0, 1, 1, 1, 2, 2, 2 }, l5[] = { 0, 0, 0, 1, 1 },
			 l8[] = { 0, 0, 0, 0, 1, 1, 1, 1 };
	static const struct { int n; const int *rh; } lay[] = {
		{ 4, l2x2 }, { 4, l121 }, { 4, lx }, { 9, l3x3 }, { 5, l5 }, { 8, l8 },
	};
	static const enum cb_dtype dts[] = { CB_FLOAT, CB_INT32, CB_HALF };
	struct variant v[32];
	int nv = variants(v, 32);
	unsigned k = 0;

	(void)state;
	for (int i = 0; i < nv; i++)
		for (size_t l = 0; l < sizeof(lay) / sizeof(lay[0]); l++) {
			size_t counts[] = { 0, 1, (size_t)lay[l].n + 1, 1031 };

			for (size_t c = 0; c < 4; c++, k++)
				for (size_t d = 0; d < 3; d++)
					for (int op = 0; op < CB_OP_COUNT; op++)
						if (all || (d == k % 3 && op == (int)(k / 3 % CB_OP_COUNT)))
							check_hosts(&v[i], lay[l].n, counts[c], dts[d],
								    (enum cb_op)op, c == 3 ? 64 : 0, lay[l].rh);
		}
}

/* What STAGE the exchanges need: recursive doubling on 2 and 4 ranks keeps
 * one buffer's worth a rank (count elements), Rabenseifner on 2 none; the
 * 2^31-element run has room for no more. */
static void test_stage(void **state)
{
	static const struct { const char *algo; int n; size_t most; } c[] = {
		{ "rd", 2, 1 }, { "rd", 4, 1 }, { "rabenseifner", 2, 0 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct cb_plan_args a = { c[i].n, 1000, 4, 0, 1, 0, NULL, NULL };
		struct cb_plan p;

		assert_int_equal(make_named(c[i].algo, &a, &p), CB_OK);
		for (int r = 0; r < c[i].n; r++)
			if (p.stage_count[r] > c[i].most * 1000)
				fail_msg("%s n=%d: rank %d needs %zu STAGE elements, at most %zu", c[i].algo,
					 c[i].n, r, p.stage_count[r], c[i].most * 1000);
		cb_plan_free(&p);
	}
}

/* One schedule under two names (cb_plan_same): Rabenseifner and dbtree at
 * 2 ranks (rank 0 reduces the first half, rank 1 the second, then each
 * copies the other's), hier and twoshot on one host; not the ring at 2
 * ranks (its mirror image: rank 0 reduces the second half), not the ring
 * and recursive doubling, not a sliced dbtree and Rabenseifner; and a plan
 * with one step's range moved differs from its original. */
static void test_same(void **state)
{
	static const struct { const char *x, *y; int n; size_t count, slice; int same; } c[] = {
		{ "rabenseifner", "dbtree", 2, 1001, 0, 1 }, { "dbtree", "rabenseifner", 2, 8, 0, 1 },
		{ "hier", "twoshot", 4, 1003, 0, 1 },        { "hier", "twoshot", 8, 16, 0, 1 },
		{ "ring", "rabenseifner", 2, 1000, 0, 0 },   { "ring", "rd", 2, 1000, 0, 0 },
		{ "ring", "rabenseifner", 3, 999, 0, 0 },    { "dbtree", "rabenseifner", 2, 1000, 100, 0 },
		{ "twoshot", "oneshot", 4, 1000, 0, 0 },
	};
	struct cb_plan p, q;

	(void)state;
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct cb_plan_args a = { c[i].n, c[i].count, 4, 0, 1, c[i].slice, NULL, NULL };

		assert_int_equal(make_named(c[i].x, &a, &p), CB_OK);
		assert_int_equal(make_named(c[i].y, &a, &q), CB_OK);
		if (cb_plan_same(&p, &q) != c[i].same || cb_plan_same(&q, &p) != c[i].same)
			fail_msg("%s and %s at n=%d, count %zu, slice %zu: want same %d", c[i].x, c[i].y,
				 c[i].n, c[i].count, c[i].slice, c[i].same);
		assert_int_equal(cb_plan_same(&p, &p), 1);
		cb_plan_free(&q);
		if (c[i].same && p.nsteps) { /* one range moved: another schedule */
			assert_int_equal(make_named(c[i].x, &a, &q), CB_OK);
			q.steps[q.nsteps - 1].dst.off ^= 1;
			assert_int_equal(cb_plan_same(&p, &q), 0);
			cb_plan_free(&q);
		}
		cb_plan_free(&p);
	}
}

/* What a step reads that another exec rank wrote in the call (cb_plan.fresh),
 * count 1000, out of place: none in recursive doubling at 2 ranks and
 * one-shot (inputs only); the ring at 4 ranks reads its left's partial at
 * reduce-scatter steps 1 and 2 and its result at the 3 all-gather steps,
 * 250 elements each (5 x 250 x 4 ranks); two-shot at 4 ranks reads its
 * peers' results (3 x 250 a rank), its reduce-scatter only inputs and its
 * own STAGE. */
static void test_fresh(void **state)
{
	static const struct { const char *algo; int n; size_t total, round0; } c[] = {
		{ "rd", 2, 0, 0 }, { "oneshot", 4, 0, 0 }, { "ring", 4, 5000, 0 },
		{ "ring", 2, 1000, 0 }, { "twoshot", 4, 3000, 0 },
	};
	char err[256];

	(void)state;
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct cb_plan_args a = { c[i].n, 1000, 4, 0, 1, 0, NULL, NULL };
		struct cb_plan p;
		size_t total = 0, round0 = 0;

		assert_int_equal(make_named(c[i].algo, &a, &p), CB_OK);
		assert_int_equal(cb_plan_finish(&p, 0, err, sizeof(err)), CB_OK);
		for (size_t k = 0; k < p.nsteps; k++) {
			total += p.fresh[k];
			round0 += k < p.round_first[1] ? p.fresh[k] : 0;
		}
		if (total != c[i].total || round0 != c[i].round0)
			fail_msg("%s n=%d: %zu fresh elements (%zu in round 0), want %zu (%zu)",
				 c[i].algo, c[i].n, total, round0, c[i].total, c[i].round0);
		cb_plan_free(&p);
	}
}

/* 1000003 elements (--large): float sum at every n, every dtype with sum
 * at n = 2, 3, 8, 17 and every op on float at n = 5; with --all too, every
 * dtype and op at every n. */
static int large_case(size_t j, int dt, int op)
{
	int n = ns[j];

	if (all || (dt == CB_FLOAT && op == CB_SUM))
		return 1;
	return (op == CB_SUM && (n == 2 || n == 3 || n == 8 || n == 17)) ||
	       (dt == CB_FLOAT && n == 5);
}

static void test_large(void **state)
{
	struct variant v[32];
	int nv = variants(v, 32);

	(void)state;
	for (int i = 0; i < nv; i++)
		for (size_t j = 0; j < NNS; j++)
			for (int dt = 0; dt < CB_DTYPE_COUNT; dt++)
				for (int op = 0; op < CB_OP_COUNT; op++)
					if (large_case(j, dt, op))
						check_one(&v[i], ns[j], 1000003, (enum cb_dtype)dt,
							  (enum cb_op)op, 65536);
}

/* --large: every variant's schedule at 2^31 + 8 elements of one byte (past
 * INT_MAX, in the host backend's 256 KiB slices), n = 2 and 3: built and
 * finished in both modes (every step inside its buffers, the waits
 * derived), its traffic equal to its closed form where it has one. No byte
 * moves: large_int8_2g moves them for ps, the ring and one-shot through
 * the same executor. */
static void test_huge_schedules(void **state)
{
	struct variant v[32];
	int nv = variants(v, 32);
	const size_t count = ((size_t)1 << 31) + 8;
	uint64_t ptx[3], prx[3], ctx[3], crx[3];
	char err[512] = "";

	(void)state;
	for (int i = 0; i < nv; i++)
		for (int n = 2; n <= 3; n++) {
			struct cb_plan_args a = { n, count, 1, 0, v[i].servers < 0 ? n : v[i].servers,
						  (size_t)256 << 10, NULL, NULL };
			struct cb_plan p;

			if (make_named(v[i].algo, &a, &p) != CB_OK)
				fail_msg("%s n=%d count=%zu: build failed", v[i].algo, n, count);
			for (int ip = 0; ip < 2; ip++)
				if (cb_plan_finish(&p, ip, err, sizeof(err)) != CB_OK)
					fail_msg("%s n=%d count=%zu: %s", v[i].algo, n, count, err);
			cb_plan_traffic(&p, 1, ptx, prx);
			if (closed_form(&v[i], n, count, 1, 0, ctx, crx))
				for (int r = 0; r < n; r++)
					if (ctx[r] != ptx[r] || crx[r] != prx[r])
						fail_msg("%s (servers %d) n=%d count=%zu rank %d: plan %llu/%llu, "
							 "closed form %llu/%llu", v[i].algo, v[i].servers, n, count,
							 r, (unsigned long long)ptx[r], (unsigned long long)prx[r],
							 (unsigned long long)ctx[r], (unsigned long long)crx[r]);
			cb_plan_free(&p);
		}
}

int main(int argc, char **argv)
{
	const struct CMUnitTest small[] = {
		cmocka_unit_test(test_matrix),
		cmocka_unit_test(test_pairs),
		cmocka_unit_test(test_hosts),
		cmocka_unit_test(test_stage),
		cmocka_unit_test(test_same),
		cmocka_unit_test(test_fresh),
	};
	const struct CMUnitTest big[] = { cmocka_unit_test(test_huge_schedules),
					  cmocka_unit_test(test_large) };

	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--large") == 0)
			large = 1;
		else if (strcmp(argv[i], "--all") == 0)
			all = 1;
		else {
			fprintf(stderr, "usage: test_plan [--all] [--large]\n");
			return 2;
		}
	}
	if (large)
		return cmocka_run_group_tests(big, NULL, NULL);
	return cmocka_run_group_tests(small, NULL, NULL);
}
