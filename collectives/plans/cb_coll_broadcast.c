/* broadcast: send count (the root's is read), recv count: the root's send;
 * in place send == recv. It does not reduce. busbw factor 1 whatever n
 * (nccl-tests' BroadcastGetBw). Library rows: MPI_Bcast, ncclBroadcast. */
#include "cb_coll.h"

static double busbw(int n)
{
	(void)n;
	return 1.0;
}

static void expect(void *buf, size_t first, size_t m, size_t count, enum cb_dtype dt,
		   enum cb_op op, int r, int root, int n)
{
	(void)count, (void)op, (void)r;
	cb_coll_expect_input(buf, first, m, dt, root, n);
}

const struct cb_coll_desc cb_coll_desc_broadcast = {
	.name = "broadcast", .perf_name = "broadcast_perf", .rooted = 1, .same_result = 1,
	.busbw_factor = busbw, .expect = expect,
	.mpi_call = "MPI_Bcast", .nccl_call = "ncclBroadcast",
	.mpi_tuned = "bcast",
};
