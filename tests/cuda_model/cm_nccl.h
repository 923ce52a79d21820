/* The CUDA model's NCCL: what cm_nccl.c (communicators) and cm_nccl_ops.c
 * (allreduce, send/recv, groups) share.
 *
 * Data moves through host shared memory between the processes of the
 * communicator, not over MPI: NCCL's work runs on the ranks' streams, so in
 * the model on the streams' worker threads, which would need
 * MPI_THREAD_MULTIPLE to call MPI beside the main thread's own MPI calls
 * (allreduce_perf asks for no thread support), and NCCL itself needs no MPI
 * (the unique id is all the ranks share). Every rank of a communicator maps
 * one segment, named in the unique id, "/cbm-<pid>-n<serial>-<random>":
 *   header   nranks, how many ranks joined, which one failed its init;
 *   ranks    per rank: pid, GPU;
 *   channels per ordered pair (src, dst): a ring buffer of CM_NCCL_CHAN
 *            bytes with its head (bytes written by src) and tail (bytes read
 *            by dst), for ncclSend/ncclRecv and the allreduce's ring and tree
 *            (cm_nccl_algo.c).
 * The model can only run the ranks of one host. */
#ifndef CM_NCCL_H
#define CM_NCCL_H

#include <nccl.h>
#include <stdint.h>

#include "cm_model.h"
#include "cm_nccl_tune.h"

#define CM_NCCL_CHAN ((size_t)256 << 10)
#define CM_NCCL_MAX_RANKS 64

struct cm_seg_rank {
	int32_t joined, pid, device, pad;
	char pad2[48];
};

struct cm_chan {
	uint64_t head, tail;
	char pad[48];
};

struct cm_seg {
	uint64_t magic;
	int32_t nranks, arrived;
	int32_t failed; /* rank + 1 of a rank whose init failed, or 0 */
	char pad[44];
	struct cm_seg_rank rank[];
};

struct ncclComm {
	int rank, nranks, device, blocking;
	int state;        /* ncclResult_t, atomic: what ncclCommGetAsyncError says */
	int init_done, finalizing, aborted, destroyed;
	int stuck;        /* a finalize that never completes (CM_FAULT_NCCL_FINALIZE) */
	uint64_t enq, ran; /* NCCL operations enqueued (host), run or dropped (atomic) */
	int refs;          /* atomic: the handle, and every queued operation */
	char name[64];
	struct cm_tune tune; /* NCCL_ALGO, NCCL_PROTO at creation (cm_nccl_tune.h) */
	struct cm_seg *seg;
	size_t seg_bytes;
	struct ncclComm *next_all;
	void *prof_ctx;    /* the profiler plugin's context, and its event mask */
	int prof_mask;
};

/* Where the channel heads and channel rings of seg start, for n ranks; and
 * the whole segment. */
size_t cm_seg_chans(int n);
size_t cm_seg_rings(int n);
size_t cm_seg_bytes(int n);

/* 1 when c is a communicator not yet destroyed or aborted. */
int cm_comm_live(const struct ncclComm *c);
/* A reference for a queued operation, and its release (the segment is
 * unmapped with the last one). */
void cm_comm_ref(struct ncclComm *c);
void cm_comm_unref(struct ncclComm *c);
/* Sets c's state to r (an error: only if it has none yet) and NCCL's last
 * error to the message; returns r. */
ncclResult_t cm_nccl_fail(struct ncclComm *c, ncclResult_t r, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* The communicator's state after whatever progress there is to make (its
 * init completing, a finalize flushing, a launch taking effect). */
ncclResult_t cm_comm_progress(struct ncclComm *c);
/* For a call that enqueues work: ncclSuccess when c takes it, else why not
 * (an error state, or an init still in progress). */
ncclResult_t cm_comm_usable(struct ncclComm *c, const char *call);
/* 1 when rank r of c has exited (its pid is gone). */
int cm_comm_peer_dead(const struct ncclComm *c, int r);
/* 1 when p lies in a window comm registered with NCCL_WIN_COLL_SYMMETRIC
 * and NCCL's symmetric support (cm_nccl_sym.c), else 0. */
int cm_nccl_window_symmetric(const struct ncclComm *comm, const void *p);

/* cm_nccl_prof.c: NCCL's profiler plugin (NCCL_PROFILER_PLUGIN) in the
 * model: its init for communicator c (at its creation), its finalize (at
 * its end), and one collective's events (a group's, then the collective's
 * with cm_nccl_pick's choice): call it where the collective is enqueued,
 * coll an enum cb_coll, func NCCL's name ("AllReduce"). */
void cm_nccl_prof_init(struct ncclComm *c);
void cm_nccl_prof_fini(struct ncclComm *c);
void cm_nccl_prof_coll(struct ncclComm *c, int coll, const char *func, const void *sendbuff,
		       void *recvbuff, size_t count, const char *datatype, size_t bytes);

/* NCCL's choice for collective coll (enum cb_coll as an int) of bytes
 * (the call's message bytes) on c: *algo one of NCCL's names ("Ring",
 * "Tree", "NVLS", "NVLSTree", "CollNetDirect", "CollNetChain", "PAT"),
 * *proto "LL", "LL128" or "Simple", *nchannels the channels; NULL, NULL, 0
 * when nothing NCCL_ALGO and NCCL_PROTO leave on can run here (the call
 * then fails as NCCL's does) and for alltoall (no algorithm: sends and
 * receives). The rule: cm_nccl_tune.c. */
void cm_nccl_pick(const struct ncclComm *c, int coll, size_t bytes, const char **algo,
		  const char **proto, int *nchannels);

/* Moves up to n bytes into (put) or out of (get) the ring of channel src ->
 * dst of c's segment; returns how many (cm_nccl_ops.c). */
size_t cm_chan_move(struct ncclComm *c, int src, int dst, char *bytes, size_t n, int put);

/* One allreduce of cm_nccl_ops.c's call, run on the stream's worker by the
 * algorithm NCCL's choice names (cm_nccl_algo.c): ring or tree. */
struct cm_coll {
	struct ncclComm *comm;
	const char *send;
	char *recv;
	size_t count;
	enum cb_dtype dt;
	enum cb_op op;
	int algo, proto; /* enum cm_algo, enum cm_proto */
};
void cm_nccl_allreduce_run(struct cm_coll *o);
/* The bytes written into a channel (and counted on the link) for a transfer
 * of bytes data bytes with protocol proto (enum cm_proto): Simple bytes, LL
 * 2x (4 data bytes and a flag per 8), LL128 128 per 120, rounded up to whole
 * lines per piece of 7680 data bytes (cm_nccl_algo.c). */
size_t cm_nccl_wire_bytes(int proto, size_t bytes);

#endif
