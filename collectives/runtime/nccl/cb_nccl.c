/* NCCL helpers shared by the nccl algorithm and the p2p transport (contract
 * in cb_nccl.h). */
#include "cb_nccl.h"

#include <stdint.h>
#include <string.h>

#include "cb_cuda.h"
#include "cb_shm.h"

/* Rank 0's unique id and whether it got one, broadcast as one message. */
struct id_msg {
	int32_t status; /* enum cb_status of ncclGetUniqueId on rank 0 */
	ncclUniqueId id;
};

static const char *nccl_result_name(ncclResult_t r)
{
	static const char *const names[] = {
		"ncclSuccess", "ncclUnhandledCudaError", "ncclSystemError", "ncclInternalError",
		"ncclInvalidArgument", "ncclInvalidUsage", "ncclRemoteError", "ncclInProgress",
	};
	return (unsigned)r < sizeof(names) / sizeof(names[0]) ? names[r] : "unknown ncclResult_t";
}

enum cb_status cb_nccl_status_at(ncclResult_t r, ncclComm_t comm, const char *call,
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

enum cb_status cb_nccl_complete_at(const struct cb_backend *be, ncclComm_t *comm,
				   ncclResult_t r, const char *call, const char *file, int line)
{
	for (unsigned long polls = 0; r == ncclInProgress; polls++) {
		ncclResult_t q = ncclCommGetAsyncError(*comm, &r);

		if (q != ncclSuccess)
			return cb_nccl_status_at(q, *comm, "ncclCommGetAsyncError", file, line);
		if (r == ncclInProgress && *be->abort_flag) {
			cb_log("%s:%d: %s: still in progress when the watchdog fired", file, line, call);
			return CB_ERR_TIMEOUT;
		}
		cb_backoff(polls);
	}
	return cb_nccl_status_at(r, *comm, call, file, line);
}

const char *cb_nccl_shared_gpu_reason(const struct cb_backend *be)
{
	if (cb_cuda_max_ranks_per_gpu(be) > 1)
		return "ranks share a GPU; NCCL needs one GPU per rank (ncclInvalidUsage)";
	return NULL;
}

enum cb_status cb_nccl_comm_init(const struct cb_backend *be, ncclComm_t *out)
{
	ncclConfig_t cfg = NCCL_CONFIG_INITIALIZER;

	return cb_nccl_comm_init_config(be, &cfg, out);
}

enum cb_status cb_nccl_comm_init_config(const struct cb_backend *be, ncclConfig_t *cfg,
					ncclComm_t *out)
{
	struct id_msg msg;
	enum cb_status st;

	*out = NULL;
	memset(&msg, 0, sizeof(msg));
	if (be->world_rank == 0)
		msg.status = CB_NCCL(ncclGetUniqueId(&msg.id), NULL);
	st = CB_MPI(MPI_Bcast(&msg, sizeof(msg), MPI_BYTE, 0, be->world));
	if (st != CB_OK)
		return st;
	if (msg.status != CB_OK)
		return be->world_rank == 0 ? (enum cb_status)msg.status : CB_ERR_PEER;
	cfg->blocking = 0; /* returns at once; polled, watching the watchdog */
	st = CB_NCCL_DONE(be, out, ncclCommInitRankConfig(out, be->world_size, msg.id,
							  be->world_rank, cfg));
	if (st != CB_OK && *out) {
		ncclCommAbort(*out);
		*out = NULL;
	}
	return st;
}

void cb_nccl_comm_close(const struct cb_backend *be, ncclComm_t comm)
{
	if (CB_NCCL_DONE(be, &comm, ncclCommFinalize(comm)) == CB_OK)
		CB_NCCL(ncclCommDestroy(comm), NULL);
	else
		ncclCommAbort(comm);
}

ncclDataType_t cb_nccl_dtype(enum cb_dtype dt)
{
	static const ncclDataType_t map[CB_DTYPE_COUNT] = {
		[CB_INT8] = ncclInt8,     [CB_UINT8] = ncclUint8,       [CB_INT32] = ncclInt32,
		[CB_UINT32] = ncclUint32, [CB_INT64] = ncclInt64,       [CB_UINT64] = ncclUint64,
		[CB_HALF] = ncclFloat16,  [CB_BFLOAT16] = ncclBfloat16, [CB_FLOAT] = ncclFloat32,
		[CB_DOUBLE] = ncclFloat64,
	};
	return map[dt];
}

ncclRedOp_t cb_nccl_op(enum cb_op op)
{
	static const ncclRedOp_t map[CB_OP_COUNT] = {
		[CB_SUM] = ncclSum, [CB_PROD] = ncclProd, [CB_MIN] = ncclMin,
		[CB_MAX] = ncclMax, [CB_AVG] = ncclAvg,
	};
	return map[op];
}
