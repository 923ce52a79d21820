/* reduce: send count, recv count: the root's is the reduction, the other
 * ranks' receive buffers are no result; in place send == recv. busbw
 * factor 1 whatever n (nccl-tests' ReduceGetBw). Library rows: MPI_Reduce,
 * ncclReduce. */
#include "cb_coll.h"

static double busbw(int n)
{
	(void)n;
	return 1.0;
}

static void expect(void *buf, size_t first, size_t m, size_t count, enum cb_dtype dt,
		   enum cb_op op, int r, int root, int n)
{
	(void)root;
	cb_coll_expect_reduced(&cb_coll_desc_reduce, buf, first, m, count, dt, op, r, n);
}

const struct cb_coll_desc cb_coll_desc_reduce = {
	.name = "reduce", .perf_name = "reduce_perf", .reduces = 1, .rooted = 1,
	.root_only_result = 1, .busbw_factor = busbw, .expect = expect,
	.mpi_call = "MPI_Reduce", .nccl_call = "ncclReduce",
	.mpi_tuned = "reduce",
};
