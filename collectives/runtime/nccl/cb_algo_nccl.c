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

/* A collective's NCCL call on this rank's send and receive buffers (at
 * their in-place offsets), block = count/n, on stream s. */
typedef ncclResult_t (*nccl_call_fn)(struct nccl_state *ns, char *sb, char *rb,
				     const struct cb_run_args *a, size_t block, cudaStream_t s);

static ncclResult_t nccl_allreduce(struct nccl_state *ns, char *sb, char *rb,
				   const struct cb_run_args *a, size_t block, cudaStream_t s)
{
	(void)block;
	return ncclAllReduce(sb, rb, a->count, cb_nccl_dtype(a->dt), cb_nccl_op(a->op), ns->comm, s);
}

static ncclResult_t nccl_reduce_scatter(struct nccl_state *ns, char *sb, char *rb,
					const struct cb_run_args *a, size_t block, cudaStream_t s)
{
	return ncclReduceScatter(sb, rb, block, cb_nccl_dtype(a->dt), cb_nccl_op(a->op), ns->comm, s);
}

static ncclResult_t nccl_all_gather(struct nccl_state *ns, char *sb, char *rb,
				    const struct cb_run_args *a, size_t block, cudaStream_t s)
{
	return ncclAllGather(sb, rb, block, cb_nccl_dtype(a->dt), ns->comm, s);
}

static ncclResult_t nccl_broadcast(struct nccl_state *ns, char *sb, char *rb,
				   const struct cb_run_args *a, size_t block, cudaStream_t s)
{
	(void)block;
	return ncclBroadcast(sb, rb, a->count, cb_nccl_dtype(a->dt), a->root, ns->comm, s);
}

static ncclResult_t nccl_reduce(struct nccl_state *ns, char *sb, char *rb,
				const struct cb_run_args *a, size_t block, cudaStream_t s)
{
	(void)block;
	return ncclReduce(sb, rb, a->count, cb_nccl_dtype(a->dt), cb_nccl_op(a->op), a->root, ns->comm,
			  s);
}

/* alltoall as nccl-tests' alltoall.cu runs it: one group of an ncclSend
 * and an ncclRecv of count/n elements per peer (NCCL has no alltoall call). */
static ncclResult_t nccl_alltoall(struct nccl_state *ns, char *sb, char *rb,
				  const struct cb_run_args *a, size_t block, cudaStream_t s)
{
	int n = ns->be->world_size;
	size_t bb = block * cb_dtype_size(a->dt);
	ncclResult_t r = ncclGroupStart(), e;

	for (int q = 0; q < n && r == ncclSuccess; q++) {
		r = ncclSend(sb + (size_t)q * bb, block, cb_nccl_dtype(a->dt), q, ns->comm, s);
		if (r == ncclSuccess)
			r = ncclRecv(rb + (size_t)q * bb, block, cb_nccl_dtype(a->dt), q, ns->comm, s);
	}
	e = ncclGroupEnd();
	return r != ncclSuccess ? r : e;
}

/* Each collective's call, and why its rows cannot run in place (NULL: they
 * can); a collective without a call has no nccl rows that run. */
static const struct {
	nccl_call_fn call;
	const char *no_in_place;
} calls[CB_COLL_COUNT] = {
	[CB_COLL_ALLREDUCE] = { nccl_allreduce, NULL },
	[CB_COLL_REDUCE_SCATTER] = { nccl_reduce_scatter, NULL },
	[CB_COLL_ALL_GATHER] = { nccl_all_gather, NULL },
	[CB_COLL_BROADCAST] = { nccl_broadcast, NULL },
	[CB_COLL_REDUCE] = { nccl_reduce, NULL },
	/* in place, one group's sends and receives on one buffer race (a peer's
	 * receive may land before this rank's send of that block read it) */
	[CB_COLL_ALLTOALL] = { nccl_alltoall, "a group of ncclSend/ncclRecv on one buffer "
			       "overwrites blocks before they are sent: alltoall's nccl rows run "
			       "out of place" },
};

const char *cb_nccl_coll_supports(const struct cb_backend *be, enum cb_coll c, enum cb_dtype dt,
				  enum cb_op op, int in_place)
{
	const char *why = nccl_supports(be, dt, op, in_place); /* one GPU per rank first */

	if (why)
		return why;
	if (!calls[c].call)
		return "collbench has no NCCL call for this collective";
	return in_place ? calls[c].no_in_place : NULL;
}

enum cb_status cb_nccl_coll_call(struct cb_backend *be, ncclComm_t *comm,
				 const struct cb_run_args *a)
{
	struct nccl_state ns = { be, *comm };
	char *sb = a->send->peer[be->node_rank], *rb = a->recv->peer[be->node_rank];
	size_t so, ro, esz = cb_dtype_size(a->dt), block = a->count / (size_t)be->world_size;

	if (!*comm || !calls[a->coll].call)
		return CB_ERR_UNSUPPORTED;
	cb_coll_offsets(a->coll, be->world_size, a->count, be->world_rank, a->send == a->recv, &so,
			&ro);
	return CB_NCCL_DONE(be, comm, calls[a->coll].call(&ns, sb + so * esz, rb + ro * esz, a,
							  block, cb_cuda_stream(be)));
}

static enum cb_status nccl_coll_run(void *state, const struct cb_run_args *a)
{
	struct nccl_state *ns = state;

	return cb_nccl_coll_call(ns->be, &ns->comm, a);
}

/* The nccl row of every collective: one supports per collective, as the
 * ops table takes no collective. */
#define NCCL_SUP(id, name) \
	static const char *nccl_supports_##name(const struct cb_backend *be, enum cb_dtype dt, \
						enum cb_op op, int in_place) \
	{ \
		return cb_nccl_coll_supports(be, CB_COLL_##id, dt, op, in_place); \
	}
CB_COLLECTIVES(NCCL_SUP)
#undef NCCL_SUP
#define NCCL_COLL(id, name) \
	[CB_COLL_##id] = { .desc = &cb_desc_nccl[CB_COLL_##id], .supports = nccl_supports_##name, \
			   .setup = nccl_setup, .run = nccl_coll_run, .teardown = nccl_teardown, \
			   .describe = nccl_describe },
const struct cb_algo_ops cb_algo_nccl_ops[CB_COLL_COUNT] = { CB_COLLECTIVES(NCCL_COLL) };
#undef NCCL_COLL
