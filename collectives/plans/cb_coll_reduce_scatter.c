/* reduce_scatter: send count (n blocks of B = count/n), recv B: rank r's
 * is block r of the reduction, the allreduce reference at [r B, (r+1) B);
 * in place the receive buffer is the rank's block inside the send
 * (nccl-tests' offset r B). busbw factor (n-1)/n (nccl-tests
 * doc/PERFORMANCE.md). Library rows: MPI_Reduce_scatter_block,
 * ncclReduceScatter. */
#include "cb_coll.h"

static double busbw(int n)
{
	return n > 1 ? (double)(n - 1) / n : 0.0;
}

static void expect(void *buf, size_t first, size_t m, size_t count, enum cb_dtype dt,
		   enum cb_op op, int r, int root, int n)
{
	(void)root;
	cb_coll_expect_reduced(&cb_coll_desc_reduce_scatter, buf, first, m, count, dt, op, r, n);
}

const struct cb_coll_desc cb_coll_desc_reduce_scatter = {
	.name = "reduce_scatter", .perf_name = "reduce_scatter_perf", .reduces = 1, .split = 1,
	.recv_is_block = 1, .busbw_factor = busbw, .expect = expect,
	.mpi_call = "MPI_Reduce_scatter_block", .nccl_call = "ncclReduceScatter",
	.mpi_tuned = "reduce_scatter_block",
};
