/* nccl: ncclAllReduce on the rank's stream, the library baseline of the cuda
 * backend. One communicator for the whole world (unique id from rank 0 over
 * MPI), set up once. NCCL needs one GPU per rank (since 2.5 it refuses two
 * ranks on one GPU with ncclInvalidUsage), so when ranks share a GPU, as on a
 * one-GPU box, the communicator is not created and every row says why. Its
 * bytes move inside NCCL: traffic is reported as unmeasured. */
#include <nccl.h>
#include <stdlib.h>

#include "cb_algo.h"
#include "cb_backend_cuda.h"

struct nccl_state {
	struct cb_backend *be;
	ncclComm_t comm; /* NULL when ranks share a GPU */
};

static ncclDataType_t nccl_dtype(enum cb_dtype dt)
{
	static const ncclDataType_t map[CB_DTYPE_COUNT] = {
		[CB_INT8] = ncclInt8,     [CB_UINT8] = ncclUint8,       [CB_INT32] = ncclInt32,
		[CB_UINT32] = ncclUint32, [CB_INT64] = ncclInt64,       [CB_UINT64] = ncclUint64,
		[CB_HALF] = ncclFloat16,  [CB_BFLOAT16] = ncclBfloat16, [CB_FLOAT] = ncclFloat32,
		[CB_DOUBLE] = ncclFloat64,
	};
	return map[dt];
}

static ncclRedOp_t nccl_op(enum cb_op op)
{
	static const ncclRedOp_t map[CB_OP_COUNT] = {
		[CB_SUM] = ncclSum, [CB_PROD] = ncclProd, [CB_MIN] = ncclMin,
		[CB_MAX] = ncclMax, [CB_AVG] = ncclAvg,
	};
	return map[op];
}

static const char *shared_gpu_reason(const struct cb_backend *be)
{
	if (cb_cuda_max_ranks_per_gpu(be) > 1)
		return "ranks share a GPU; NCCL needs one GPU per rank (ncclInvalidUsage)";
	return NULL;
}

static const char *nccl_supports(const struct cb_backend *be, enum cb_dtype dt, enum cb_op op,
				 int in_place)
{
	(void)dt, (void)op, (void)in_place;
	return shared_gpu_reason(be);
}

static enum cb_status nccl_status(ncclResult_t r, const char *what)
{
	if (r == ncclSuccess)
		return CB_OK;
	cb_log("%s: %s", what, ncclGetErrorString(r));
	return CB_ERR_NCCL;
}

static enum cb_status nccl_setup(struct cb_backend *be, const struct cb_setup_args *sa,
				 void **state)
{
	struct nccl_state *ns = calloc(1, sizeof(*ns));
	ncclUniqueId id;
	enum cb_status st = CB_OK;

	(void)sa;
	*state = NULL;
	if (!ns)
		return CB_ERR_NOMEM;
	ns->be = be;
	if (!shared_gpu_reason(be)) {
		if (be->world_rank == 0)
			st = nccl_status(ncclGetUniqueId(&id), "ncclGetUniqueId");
		if (st == CB_OK)
			st = CB_MPI(MPI_Bcast(&id, sizeof(id), MPI_BYTE, 0, be->world));
		if (st == CB_OK)
			st = nccl_status(ncclCommInitRank(&ns->comm, be->world_size, id, be->world_rank),
					 "ncclCommInitRank");
	}
	if (st != CB_OK) {
		free(ns);
		return st;
	}
	*state = ns;
	return CB_OK;
}

static enum cb_status nccl_run(void *state, const struct cb_run_args *a)
{
	struct nccl_state *ns = state;
	struct cb_backend *be = ns->be;

	if (!ns->comm)
		return CB_ERR_UNSUPPORTED;
	return nccl_status(ncclAllReduce(a->send->peer[be->rank], a->recv->peer[be->rank], a->count,
					 nccl_dtype(a->dt), nccl_op(a->op), ns->comm,
					 cb_cuda_stream(be)),
			   "ncclAllReduce");
}

static void nccl_teardown(void *state)
{
	struct nccl_state *ns = state;

	if (!ns)
		return;
	if (ns->comm)
		ncclCommDestroy(ns->comm);
	free(ns);
}

const struct cb_algo_ops cb_algo_nccl_ops = {
	.name = "nccl",
	.backends = CB_BACKEND_CUDA,
	.result = CB_RESULT_ALLREDUCE,
	.traffic_measured = 0,
	.description = "ncclAllReduce of NCCL (baseline; one GPU per rank; traffic unmeasured)",
	.supports = nccl_supports,
	.setup = nccl_setup,
	.run = nccl_run,
	.teardown = nccl_teardown,
};
