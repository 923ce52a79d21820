/* alltoall (nccl-tests' alltoall.cu): send count (n blocks of B =
 * count/n: block q for rank q), recv count (n blocks): block q is rank q's
 * send block r, i.e. rank q's inputs at [r B, (r+1) B); in place send ==
 * recv (offsets 0, as nccl-tests'; MPI_IN_PLACE is allowed for
 * MPI_Alltoall since MPI 2.2). It does not reduce. busbw factor (n-1)/n
 * (nccl-tests doc/PERFORMANCE.md). Library rows: MPI_Alltoall; NCCL has
 * no call: a group of ncclSend/ncclRecv, as nccl-tests does.
 *
 * The closed forms of its plans (collectives/plans/cb_plan_alltoall.c), in
 * elements: direct tx = rx = (n-1) B on every rank; ps the root's
 * tx = rx = (n-1) count (it relays everything), the others' count. */
#include <string.h>

#include "cb_coll.h"

static double busbw(int n)
{
	return n > 1 ? (double)(n - 1) / n : 0.0;
}

static void expect(void *buf, size_t first, size_t m, size_t count, enum cb_dtype dt,
		   enum cb_op op, int r, int root, int n)
{
	(void)op, (void)root;
	cb_coll_expect_blocks(buf, first, m, count, dt, (size_t)r * (count / (size_t)n), n);
}

static int traffic(const char *algo, int n, int root, int r, size_t count, size_t *tx,
		   size_t *rx)
{
	int ps = strcmp(algo, "ps") == 0;

	if (!ps && strcmp(algo, "direct") != 0)
		return 0;
	if (n < 2)
		*tx = *rx = 0;
	else if (!ps)
		*tx = *rx = (size_t)(n - 1) * (count / (size_t)n);
	else
		*tx = *rx = r == root ? (size_t)(n - 1) * count : count;
	return 1;
}

const struct cb_coll_desc cb_coll_desc_alltoall = {
	.name = "alltoall", .perf_name = "alltoall_perf", .split = 1, .busbw_factor = busbw,
	.expect = expect, .traffic = traffic,
	.mpi_call = "MPI_Alltoall", .nccl_call = "a group of ncclSend/ncclRecv",
	.mpi_tuned = "alltoall",
};
