/* Unit test: the two-sided executor (collectives/runtime/exec/cb_algo_plan_p2p.c) of ps
 * and the ring on n ranks in one process, one thread per rank
 * (thread_world.h), over a fake p2p transport that keeps the rules of each
 * real one (cb_p2p.h), no MPI, no GPU:
 *   nccl mode: a round is a group run to completion at round_end (a GPU
 *              stream runs one group after the other), round_wait does
 *              nothing;
 *   mpi mode:  round_end returns at once, round_wait waits for the oldest
 *              round's operations;
 * in both, a send completes only when its receive is posted (rendezvous, the
 * strictest), its bytes are read then (a buffer changed before that shows
 * as a wrong result), and a send must meet a receive of its size (messages
 * between two ranks match in order). A rank posts only the plan rounds it
 * has messages in (cb_p2p.h); a schedule NCCL's groups would deadlock on
 * shows as a timed-out wait, a failure. Here the pipelining of the two
 * (the next round's messages before this round's own work) under every
 * slice: one element, a few, 1 KiB and the backend's, and a long message in
 * many slices; results checked element by element, tx/rx against docs/output.md
 * section 1's formulas. Every other plan and collective on this executor:
 * test_threads. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "cb_algo.h"
#include "thread_world.h"

/* docs/output.md, "Traffic", uneven chunks included (as tests/mpi/check_results.c). */
static void expected(const struct tw_case *c, int r, uint64_t *tx, uint64_t *rx)
{
	uint64_t n = (uint64_t)c->n, esz = cb_dtype_size(c->dt), S = c->count * esz;

	*tx = *rx = 0;
	if (c->n == 1 || c->count == 0)
		return;
	if (strcmp(c->algo->desc->name, "ps") == 0) {
		*tx = *rx = r == c->root ? (n - 1) * S : S;
		return;
	}
#define CHUNK(k) ((c->count / n + ((uint64_t)(k) < c->count % n)) * esz)
	*rx = 2 * S - CHUNK(r) - CHUNK((r + 1) % c->n);
	*tx = 2 * S - CHUNK((r + 1) % c->n) - CHUNK((r + 2) % c->n);
#undef CHUNK
}

static void run_case(const struct tw_case *c)
{
	struct tw_result res;
	char what[256];
	int bad = tw_run(c, &res);

	for (int r = 0; r < c->n; r++) {
		uint64_t tx, rx;

		expected(c, r, &tx, &rx);
		if (!bad && res.rank[r].tx == tx && res.rank[r].rx == rx)
			continue;
		tw_describe(c, what, sizeof(what));
		fail_msg("%s, rank %d: status %s, %lld wrong, tx/rx %llu/%llu (expected %llu/%llu)%s%s",
			 what, r, cb_status_str(res.rank[r].st), res.rank[r].wrong,
			 (unsigned long long)res.rank[r].tx, (unsigned long long)res.rank[r].rx,
			 (unsigned long long)tx, (unsigned long long)rx, res.why[0] ? ": " : "", res.why);
	}
}

/* Every world size, count shape (0, 1, n-1, n+1, many), slice (one element,
 * a few, 1 KiB, the default), in place or not, ps with its root first or
 * last, each dtype/op in turn; over both transports' rules. */
static void sweep(const char *algo)
{
	static const int ns[] = { 1, 2, 3, 4, 5, 8 };
	static const size_t slices[] = { 1, 40, 1024, 0 };
	static const enum cb_dtype dts[] = { CB_FLOAT, CB_INT32, CB_DOUBLE, CB_INT8, CB_HALF };
	static const enum cb_op ops[] = { CB_SUM, CB_PROD, CB_AVG, CB_MAX, CB_MIN };
	int k = 0;

	for (int nccl = 0; nccl < 2; nccl++)
		for (size_t i = 0; i < sizeof(ns) / sizeof(ns[0]); i++)
			for (size_t s = 0; s < sizeof(slices) / sizeof(slices[0]); s++)
				for (int ip = 0; ip < 2; ip++) {
					const size_t counts[] = { 0, 1, (size_t)ns[i] - 1, (size_t)ns[i] + 1,
								  1003 };

					for (size_t j = 0; j < 5; j++, k++) {
						struct tw_case c = {
							cb_algo_find_coll(CB_COLL_ALLREDUCE, algo)->two_sided, nccl, ns[i],
							k % 2 ? ns[i] - 1 : 0, 1, ip, counts[j], slices[s],
							dts[k % 5], ops[k / 5 % 5] };

						run_case(&c);
					}
				}
}

static void test_ring(void **state)
{
	(void)state;
	sweep("ring");
}

static void test_ps(void **state)
{
	(void)state;
	sweep("ps");
}

/* A long message in many slices, ps's root in the middle. */
static void test_many_slices(void **state)
{
	(void)state;
	for (int nccl = 0; nccl < 2; nccl++) {
		struct tw_case c = { cb_algo_find_coll(CB_COLL_ALLREDUCE, "ps")->two_sided, nccl, 5, 2, 1, 0, 16411, 1024,
				     CB_FLOAT, CB_SUM };

		run_case(&c);
		c.algo = cb_algo_find_coll(CB_COLL_ALLREDUCE, "ring")->two_sided;
		run_case(&c);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ring),
		cmocka_unit_test(test_ps),
		cmocka_unit_test(test_many_slices),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
