/* nccl: ncclAllReduce on the rank's stream, the library baseline of the cuda
 * backend. One communicator for the whole world (unique id from rank 0 over
 * MPI, with rank 0's status, so a failed ncclGetUniqueId reaches every rank),
 * set up once. The communicator is non-blocking (ncclConfig_t.blocking = 0):
 * init, every call and finalize return at once and are polled with
 * ncclCommGetAsyncError while watching the watchdog's flag, so a stuck init
 * ends in a clear error (and ncclCommAbort) instead of a hang. NCCL needs one
 * GPU per rank (since 2.5 it refuses two ranks on one GPU with
 * ncclInvalidUsage), so when ranks share a GPU, as on a one-GPU box, the
 * communicator is not created and every row says why. Its bytes move inside
 * NCCL: traffic is reported as unmeasured. */
#include <nccl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cb_algo.h"
#include "cb_backend_cuda.h"
#include "cb_shm.h"

struct nccl_state {
	struct cb_backend *be;
	ncclComm_t comm; /* NULL when ranks share a GPU */
};

/* Rank 0's unique id and whether it got one, broadcast as one message. */
struct id_msg {
	int32_t status; /* enum cb_status of ncclGetUniqueId on rank 0 */
	ncclUniqueId id;
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

static const char *nccl_result_name(ncclResult_t r)
{
	static const char *const names[] = {
		"ncclSuccess", "ncclUnhandledCudaError", "ncclSystemError", "ncclInternalError",
		"ncclInvalidArgument", "ncclInvalidUsage", "ncclRemoteError", "ncclInProgress",
	};
	return (unsigned)r < sizeof(names) / sizeof(names[0]) ? names[r] : "unknown ncclResult_t";
}

/* CB_OK for ncclSuccess; else logs "<file>:<line>: <call>: <description>
 * (<name>): <ncclGetLastError(comm)>" and returns CB_ERR_NCCL. */
static enum cb_status nccl_status_at(ncclResult_t r, ncclComm_t comm, const char *call,
				     const char *file, int line)
{
	const char *last;

	if (r == ncclSuccess)
		return CB_OK;
	last = ncclGetLastError(comm); /* comm may be NULL */
	cb_log("%s:%d: %s: %s (%s)%s%s", file, line, call, ncclGetErrorString(r),
	       nccl_result_name(r), last && *last ? ": " : "", last ? last : "");
	return CB_ERR_NCCL;
}
#define CB_NCCL(call, comm) nccl_status_at((call), (comm), #call, __FILE__, __LINE__)

/* After a call on the non-blocking communicator returned r: if it is still in
 * progress, polls ncclCommGetAsyncError until it is not, yielding, and gives
 * up when the watchdog fires (CB_ERR_TIMEOUT). Returns the call's outcome. */
static enum cb_status nccl_complete_at(struct nccl_state *ns, ncclResult_t r, const char *call,
				       const char *file, int line)
{
	for (unsigned long polls = 0; r == ncclInProgress; polls++) {
		ncclResult_t q = ncclCommGetAsyncError(ns->comm, &r);

		if (q != ncclSuccess)
			return nccl_status_at(q, ns->comm, "ncclCommGetAsyncError", file, line);
		if (r == ncclInProgress && *ns->be->abort_flag) {
			cb_log("%s:%d: %s: still in progress when the watchdog fired", file, line, call);
			return CB_ERR_TIMEOUT;
		}
		cb_backoff(polls);
	}
	return nccl_status_at(r, ns->comm, call, file, line);
}
#define CB_NCCL_DONE(ns, call) nccl_complete_at((ns), (call), #call, __FILE__, __LINE__)

/* The world communicator, or an agreed failure: rank 0's id comes with its
 * status, so when ncclGetUniqueId fails no rank waits for an id (the others
 * return CB_ERR_PEER, quietly). On failure the communicator is aborted. */
static enum cb_status nccl_init_comm(struct nccl_state *ns)
{
	struct cb_backend *be = ns->be;
	ncclConfig_t cfg = NCCL_CONFIG_INITIALIZER;
	struct id_msg msg;
	enum cb_status st;

	memset(&msg, 0, sizeof(msg));
	if (be->world_rank == 0)
		msg.status = CB_NCCL(ncclGetUniqueId(&msg.id), NULL);
	st = CB_MPI(MPI_Bcast(&msg, sizeof(msg), MPI_BYTE, 0, be->world));
	if (st != CB_OK)
		return st;
	if (msg.status != CB_OK)
		return be->world_rank == 0 ? (enum cb_status)msg.status : CB_ERR_PEER;
	cfg.blocking = 0; /* returns at once; polled below, watching the watchdog */
	st = CB_NCCL_DONE(ns, ncclCommInitRankConfig(&ns->comm, be->world_size, msg.id,
						     be->world_rank, &cfg));
	if (st != CB_OK && ns->comm) {
		ncclCommAbort(ns->comm);
		ns->comm = NULL;
	}
	return st;
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
	if (!shared_gpu_reason(be))
		st = nccl_init_comm(ns);
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
	return CB_NCCL_DONE(ns, ncclAllReduce(a->send->peer[be->node_rank], a->recv->peer[be->node_rank],
					      a->count, nccl_dtype(a->dt), nccl_op(a->op), ns->comm,
					      cb_cuda_stream(be)));
}

/* Finalize (flushes, polled), then destroy; abort if finalize failed. */
static void nccl_teardown(void *state)
{
	struct nccl_state *ns = state;

	if (!ns)
		return;
	if (ns->comm) {
		if (CB_NCCL_DONE(ns, ncclCommFinalize(ns->comm)) == CB_OK)
			CB_NCCL(ncclCommDestroy(ns->comm), NULL);
		else
			ncclCommAbort(ns->comm);
	}
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
	.name = "nccl",
	.needs = CB_CAP_CUDA_MEMORY,
	.result = CB_RESULT_ALLREDUCE,
	.traffic_measured = 0,
	.description = "ncclAllReduce of NCCL (baseline; one GPU per rank; traffic unmeasured)",
	.supports = nccl_supports,
	.setup = nccl_setup,
	.run = nccl_run,
	.teardown = nccl_teardown,
	.describe = nccl_describe,
};
