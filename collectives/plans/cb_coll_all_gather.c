/* all_gather: send B = count/n (the rank's block), recv count (n blocks):
 * block q is rank q's send; in place the send buffer is the rank's block
 * inside the receive (nccl-tests' offset r B). It does not reduce: its
 * inputs are the checker's for sum. busbw factor (n-1)/n (nccl-tests
 * doc/PERFORMANCE.md). Library rows: MPI_Allgather, ncclAllGather. */
#include "cb_coll.h"

static double busbw(int n)
{
	return n > 1 ? (double)(n - 1) / n : 0.0;
}

static void expect(void *buf, size_t first, size_t m, size_t count, enum cb_dtype dt,
		   enum cb_op op, int r, int root, int n)
{
	(void)op, (void)r, (void)root;
	cb_coll_expect_blocks(buf, first, m, count, dt, 0, n);
}

const struct cb_coll_desc cb_coll_desc_all_gather = {
	.name = "all_gather", .perf_name = "all_gather_perf", .split = 1, .same_result = 1,
	.send_is_block = 1, .busbw_factor = busbw, .expect = expect,
	.mpi_call = "MPI_Allgather", .nccl_call = "ncclAllGather",
	.mpi_tuned = "allgather",
};
