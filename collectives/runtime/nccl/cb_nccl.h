/* cb_nccl: what the users of NCCL on the cuda backend share (the nccl
 * algorithm, cb_algo_nccl.c; the p2p transport of GPU buffers,
 * cb_p2p_nccl.c): NCCL's results as statuses, completing calls on a
 * non-blocking communicator while watching the watchdog, and the world
 * communicator. Compiled only where NCCL is (cmake/cuda.cmake). */
#ifndef CB_NCCL_H
#define CB_NCCL_H

#include <nccl.h>

#include "cb_backend.h"
#include "cb_coll.h"

struct cb_run_args;

/* CB_OK for ncclSuccess; else logs "<file>:<line>: <call>: <description>
 * (<name>): <ncclGetLastError(comm)>" and returns CB_ERR_NCCL. comm may be
 * NULL. */
enum cb_status cb_nccl_status_at(ncclResult_t r, ncclComm_t comm, const char *call,
				 const char *file, int line);
#define CB_NCCL(call, comm) cb_nccl_status_at((call), (comm), #call, __FILE__, __LINE__)

/* After a call on the non-blocking communicator *comm returned r: while it
 * is in progress, polls ncclCommGetAsyncError, yielding, and gives up when
 * the watchdog fires (CB_ERR_TIMEOUT). Returns the call's outcome. comm is
 * read after the call, so an init that sets it can be completed too. */
enum cb_status cb_nccl_complete_at(const struct cb_backend *be, ncclComm_t *comm,
				   ncclResult_t r, const char *call, const char *file, int line);
#define CB_NCCL_DONE(be, comm, call) \
	cb_nccl_complete_at((be), (comm), (call), #call, __FILE__, __LINE__)

/* Why NCCL cannot connect the ranks of be (they share a GPU: NCCL needs one
 * per rank, ncclInvalidUsage), or NULL. The same on every rank. */
const char *cb_nccl_shared_gpu_reason(const struct cb_backend *be);

/* A non-blocking communicator over be->world (ncclConfig_t.blocking = 0):
 * rank 0's unique id, with its status, broadcast over MPI, so a failed
 * ncclGetUniqueId reaches every rank (the others return CB_ERR_PEER,
 * quietly). Collective. On failure *out is NULL (aborted). */
enum cb_status cb_nccl_comm_init(const struct cb_backend *be, ncclComm_t *out);
/* The same with the settings of cfg (from NCCL_CONFIG_INITIALIZER; its
 * blocking is set to 0 here): the nccl.* paths that need a communicator
 * configured their way (nccl.ce: CTAPolicy). */
enum cb_status cb_nccl_comm_init_config(const struct cb_backend *be, ncclConfig_t *cfg,
					ncclComm_t *out);

/* NCCL's type and reduction of collbench's. */
ncclDataType_t cb_nccl_dtype(enum cb_dtype dt);
ncclRedOp_t cb_nccl_op(enum cb_op op);

/* Finalizes (flushes, polled) and destroys comm; aborts it if finalizing
 * failed. Collective. */
void cb_nccl_comm_close(const struct cb_backend *be, ncclComm_t comm);

/* The nccl rows' code that the forced nccl.* rows share (cb_algo_nccl.c):
 * NULL when collective c's NCCL call can run (be, dt, op, in_place), else
 * why not (ranks share a GPU, no call, not in place); the call of a->coll
 * on comm, completed as CB_NCCL_DONE does (CB_ERR_UNSUPPORTED where there
 * is no communicator or call). */
const char *cb_nccl_coll_supports(const struct cb_backend *be, enum cb_coll c, enum cb_dtype dt,
				  enum cb_op op, int in_place);
enum cb_status cb_nccl_coll_call(struct cb_backend *be, ncclComm_t *comm,
				 const struct cb_run_args *a);

#endif
