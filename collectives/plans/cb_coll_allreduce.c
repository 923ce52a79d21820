/* allreduce: send count, recv count, every rank's receive buffer the
 * reduction of every send; in place send == recv. busbw factor 2(n-1)/n
 * (nccl-tests doc/PERFORMANCE.md: each rank sends and receives 2(n-1)/n S
 * in the best algorithm). Library rows: MPI_Allreduce, ncclAllReduce. */
#include "cb_coll.h"

static double busbw(int n)
{
	return n > 1 ? 2.0 * (n - 1) / n : 0.0;
}

static void expect(void *buf, size_t first, size_t m, size_t count, enum cb_dtype dt,
		   enum cb_op op, int r, int root, int n)
{
	(void)root;
	cb_coll_expect_reduced(&cb_coll_desc_allreduce, buf, first, m, count, dt, op, r, n);
}

const struct cb_coll_desc cb_coll_desc_allreduce = {
	.name = "allreduce", .perf_name = "all_reduce_perf", .reduces = 1, .same_result = 1,
	.busbw_factor = busbw, .expect = expect,
	.mpi_call = "MPI_Allreduce", .nccl_call = "ncclAllReduce",
	.nccl_schedule = "ring", /* NCCL's ring; its tuner may take a tree or NVLS instead */
	.mpi_tuned = "allreduce",
};
