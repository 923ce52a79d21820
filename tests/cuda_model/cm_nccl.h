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
 *   ranks    per rank: pid, GPU, allreduce progress (posted, consumed);
 *   slots    per rank CM_NCCL_SLOT bytes: its share of one allreduce step;
 *   channels per ordered pair (src, dst): a ring buffer of CM_NCCL_CHAN
 *            bytes with its head (bytes written by src) and tail (bytes read
 *            by dst), for ncclSend/ncclRecv.
 * The model can only run the ranks of one host. */
#ifndef CM_NCCL_H
#define CM_NCCL_H

#include <nccl.h>
#include <stdint.h>

#include "cm_model.h"

#define CM_NCCL_SLOT ((size_t)1 << 20)
#define CM_NCCL_CHAN ((size_t)256 << 10)
#define CM_NCCL_MAX_RANKS 64

struct cm_seg_rank {
	int32_t joined, pid, device, pad;
	uint64_t posted, consumed; /* allreduce steps: slot written, slots read */
	char pad2[32];
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
	uint64_t step;     /* allreduce steps so far (the stream's worker) */
	char name[64];
	struct cm_seg *seg;
	size_t seg_bytes;
	struct ncclComm *next_all;
};

/* Where the slots, channel heads and channel rings of seg start, for n ranks;
 * and the whole segment. */
size_t cm_seg_slots(int n);
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

#endif
