/* nccl: ncclAllReduce on the rank's stream, the library baseline of the cuda
 * backend. One communicator for the whole world (cb_nccl_comm_init: unique id
 * from rank 0 over MPI, with rank 0's status, so a failed ncclGetUniqueId
 * reaches every rank), set up once. The communicator is non-blocking:
 * init, every call and finalize return at once and are polled with
 * ncclCommGetAsyncError while watching the watchdog's flag, so a stuck init
 * ends in a clear error (and ncclCommAbort) instead of a hang. NCCL needs one
 * GPU per rank (since 2.5 it refuses two ranks on one GPU with
 * ncclInvalidUsage), so when ranks share a GPU, as on a one-GPU box, the
 * communicator is not created and every row says why. Its bytes move inside
 * NCCL: traffic is reported as unmeasured. */
#include <stdio.h>
#include <stdlib.h>

#include "cb_algo.h"
#include "cb_cuda.h"
#include "cb_nccl.h"

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

static const char *nccl_supports(const struct cb_backend *be, enum cb_dtype dt, enum cb_op op,
				 int in_place)
{
	(void)dt, (void)op, (void)in_place;
	return cb_nccl_shared_gpu_reason(be);
}

static enum cb_status nccl_setup(struct cb_backend *be, const struct cb_setup_args *sa,
				 void **state)
{
	struct nccl_state *ns = calloc(1, sizeof(*ns));
	enum cb_status st = CB_OK;

	(void)sa;
	*state = NULL;
	if (!ns)
		return CB_ERR_NOMEM;
	ns->be = be;
	if (!cb_nccl_shared_gpu_reason(be))
		st = cb_nccl_comm_init(be, &ns->comm);
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
	return CB_NCCL_DONE(be, &ns->comm,
			    ncclAllReduce(a->send->peer[be->node_rank], a->recv->peer[be->node_rank],
					  a->count, nccl_dtype(a->dt), nccl_op(a->op), ns->comm,
					  cb_cuda_stream(be)));
}

static void nccl_teardown(void *state)
{
	struct nccl_state *ns = state;

	if (!ns)
		return;
	if (ns->comm)
		cb_nccl_comm_close(ns->be, ns->comm);
	free(ns);
}

/* "NCCL 2.28.3": the library this binary runs, from ncclGetVersion. */
static void nccl_describe(char *buf, size_t len)
{
	int v = 0;

	ncclGetVersion(&v);
	snprintf(buf, len, "NCCL %d.%d.%d", v / 10000, v / 100 % 100, v % 100);
}

const struct cb_algo_ops cb_algo_nccl_ops = {
	.desc = &cb_desc_nccl,
	.supports = nccl_supports,
	.setup = nccl_setup,
	.run = nccl_run,
	.teardown = nccl_teardown,
	.describe = nccl_describe,
};

/* alltoall as nccl-tests' alltoall.cu runs it: one group of an ncclSend
 * and an ncclRecv of count/n elements per peer (NCCL has no alltoall call). */
static ncclResult_t nccl_alltoall(struct nccl_state *ns, char *sb, char *rb,
				  const struct cb_run_args *a, cudaStream_t s)
{
	int n = ns->be->world_size;
	size_t block = a->count / (size_t)n, bb = block * cb_dtype_size(a->dt);
	ncclResult_t r = ncclGroupStart(), e;

	for (int q = 0; q < n && r == ncclSuccess; q++) {
		r = ncclSend(sb + (size_t)q * bb, block, nccl_dtype(a->dt), q, ns->comm, s);
		if (r == ncclSuccess)
			r = ncclRecv(rb + (size_t)q * bb, block, nccl_dtype(a->dt), q, ns->comm, s);
	}
	e = ncclGroupEnd();
	return r != ncclSuccess ? r : e;
}

/* In place, one group's sends and receives on one buffer race (a peer's
 * receive may land before this rank's send of that block has read it). */
static const char *nccl_alltoall_supports(const struct cb_backend *be, enum cb_dtype dt,
					  enum cb_op op, int in_place)
{
	if (in_place)
		return "a group of ncclSend/ncclRecv on one buffer overwrites blocks before they are "
		       "sent: alltoall's nccl rows run out of place";
	return nccl_supports(be, dt, op, in_place);
}

/* The collectives beyond allreduce (cb_desc_nccl_coll): NCCL's own call,
 * counts and in-place pointers as nccl-tests gives them (cb_coll.h). */
static ncclResult_t nccl_coll_call(struct nccl_state *ns, const struct cb_run_args *a)
{
	struct cb_backend *be = ns->be;
	char *sb = a->send->peer[be->node_rank], *rb = a->recv->peer[be->node_rank];
	size_t so, ro, esz = cb_dtype_size(a->dt), block = a->count / (size_t)be->world_size;
	cudaStream_t s = cb_cuda_stream(be);

	cb_coll_offsets(a->coll, be->world_size, a->count, be->world_rank, a->send == a->recv, &so,
			&ro);
	sb += so * esz, rb += ro * esz;
	switch (a->coll) {
	case CB_COLL_REDUCE_SCATTER:
		return ncclReduceScatter(sb, rb, block, nccl_dtype(a->dt), nccl_op(a->op), ns->comm, s);
	case CB_COLL_ALL_GATHER:
		return ncclAllGather(sb, rb, block, nccl_dtype(a->dt), ns->comm, s);
	case CB_COLL_BROADCAST:
		return ncclBroadcast(sb, rb, a->count, nccl_dtype(a->dt), a->root, ns->comm, s);
	case CB_COLL_REDUCE:
		return ncclReduce(sb, rb, a->count, nccl_dtype(a->dt), nccl_op(a->op), a->root,
				  ns->comm, s);
	case CB_COLL_ALLTOALL:
		return nccl_alltoall(ns, sb, rb, a, s);
	default:
		return ncclInvalidArgument;
	}
}

static enum cb_status nccl_coll_run(void *state, const struct cb_run_args *a)
{
	struct nccl_state *ns = state;

	if (!ns->comm)
		return CB_ERR_UNSUPPORTED;
	return CB_NCCL_DONE(ns->be, &ns->comm, nccl_coll_call(ns, a));
}

#define NCCL_COLL(c, sup) \
	[c] = { .desc = &cb_desc_nccl_coll[c], .supports = sup, .setup = nccl_setup, \
		.run = nccl_coll_run, .teardown = nccl_teardown, .describe = nccl_describe }
const struct cb_algo_ops cb_algo_nccl_coll_ops[CB_COLL_COUNT] = {
	NCCL_COLL(CB_COLL_REDUCE_SCATTER, nccl_supports),
	NCCL_COLL(CB_COLL_ALL_GATHER, nccl_supports),
	NCCL_COLL(CB_COLL_BROADCAST, nccl_supports),
	NCCL_COLL(CB_COLL_REDUCE, nccl_supports),
	NCCL_COLL(CB_COLL_ALLTOALL, nccl_alltoall_supports),
};
#undef NCCL_COLL
