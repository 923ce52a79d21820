/* cb_cuda_internal: private to the cuda backend's files (cb_cuda*.c). The
 * state they share and the functions one file gives the others:
 *   cb_cuda.c          device, data movement, timing, the ops table;
 *   cb_cuda_ipc.c      buffers shared through CUDA IPC, peer reachability;
 *   cb_cuda_sync.c     progress flags, draining the rank's stream;
 *   cb_cuda_probe.c    choosing how ranks order their work, at init;
 *   cb_cuda_graph.c    CUDA graphs of a call (-G);
 *   cb_cuda_util.c     error reporting and event polling (cb_cuda_util.h).
 * Every arrow points down: cb_cuda.c calls into ipc and sync through this
 * header, and they never call cb_cuda.c. */
#ifndef CB_CUDA_INTERNAL_H
#define CB_CUDA_INTERNAL_H

#include <cuda_runtime_api.h>
#include <time.h>

#include "cb_backend.h"
#include "cb_cuda.h"
#include "cb_cuda_util.h"
#include "cb_shm.h"

/* How ranks order their work on one another's data:
 *   stream: counters in device memory shared through CUDA IPC, written with
 *           cuStreamWriteValue64 after the work before it and waited on with
 *           cuStreamWaitValue64: the GPU's front-end orders the streams, no
 *           host round trip, no kernel spinning on an SM, monotonic so never
 *           reused;
 *   host:   each post waits for this rank's stream to drain, then publishes
 *           a host counter (cb_shm.h); a wait spins on the host. The GPU
 *           idles at every step, but a waiting rank holds no GPU time: where
 *           ranks time-slice one GPU (no MPS) it is the faster one.
 * Chosen at init (cb_cuda_probe.c): CB_CUDA_SYNC=stream|host forces one;
 * otherwise stream, unless the GPU lacks 64-bit stream memory operations,
 * the driver refuses or never completes the probe's stream waits, or ranks
 * share a GPU and the probe measures host ordering faster. */
enum cb_cuda_sync { CB_CUDA_SYNC_STREAM, CB_CUDA_SYNC_HOST };

/* Where the stream mode's counters live (CB_CUDA_WAIT=own|peer):
 *   own:  each rank owns one counter per peer in its own memory, and a
 *         post writes into every peer's (through the IPC mapping): every
 *         wait reads local memory, as NVSHMEM's on-stream barrier does. The
 *         default;
 *   peer: each rank owns the counter it posts, and a waiter reads it through
 *         the IPC mapping (a stream wait on another process's memory, which
 *         the CUDA documentation neither allows nor forbids). Kept to measure
 *         the difference. */
enum cb_cuda_wait { CB_CUDA_WAIT_OWN, CB_CUDA_WAIT_PEER };

#define CB_CUDA_CAPTURED_MAX 16

/* be->impl of a cuda backend. */
struct cb_cuda_state {
	struct cb_cuda_shared shared; /* first: the stream, the most ranks on one
				       * GPU over the world (cb_cuda.h) */
	int device, sm_count;         /* kernels size their grids from sm_count */
	cudaEvent_t t0, t1;
	char bus_id[32];
	enum cb_cuda_sync sync;
	enum cb_cuda_wait wait_layout;
	char sync_why[112];           /* why this mode, for the device text ("" when
				       * stream was chosen with nothing to say) */
	struct timespec wall0;        /* ranks share a GPU: the host clock at time_begin */
	struct cb_host_flags *alive;  /* pids, for peer liveness while polling */
	void *wait_value, *write_value; /* cuStreamWaitValue64 / WriteValue64 */
	void *batch;                  /* cuStreamBatchMemOp, or NULL */
	int peer_atomics;             /* every pair of this host's GPUs has native
				       * atomics peer to peer (or ranks share one) */
	struct cb_flags *cap[CB_CUDA_CAPTURED_MAX]; /* flags posted while capturing */
	int ncap;
	struct cb_nvml *nvml;         /* this GPU in NVML, or NULL: nvml_why */
	char nvml_why[128];
};

/* Polls until the rank's stream has finished everything enqueued so far,
 * yielding the CPU; CB_ERR_TIMEOUT if the watchdog fired, CB_ERR_PEER if a
 * peer died meanwhile (its work may never come). */
enum cb_status cb_cuda_drain(struct cb_backend *be, cudaEvent_t ev);

/* Buffers (cb_cuda_ipc.c): the ops-table entries, and the peer-access probe
 * of init: sets be->peer_unreachable when two GPUs of the host cannot reach
 * each other peer to peer (cudaDeviceCanAccessPeer), so ps and ring skip and
 * nccl still runs. ids: every node rank's PCI bus id, stride bytes apart.
 * Collective over be->node. Errors: CB_ERR_MPI. */
enum cb_status cb_cuda_peer_probe(struct cb_backend *be, const char *ids, size_t stride);
enum cb_status cb_cuda_buf_alloc(struct cb_backend *be, size_t bytes, struct cb_buf **out);
void cb_cuda_buf_free(struct cb_backend *be, struct cb_buf *buf);

/* Flags (cb_cuda_sync.c): the ops-table entries, on the rank's stream in
 * cs->sync's mode and cs->wait_layout's layout. */
enum cb_status cb_cuda_flags_alloc(struct cb_backend *be, struct cb_flags **out);
void cb_cuda_flags_free(struct cb_backend *be, struct cb_flags *f);
enum cb_status cb_cuda_post(struct cb_backend *be, struct cb_flags *f, uint64_t value);
enum cb_status cb_cuda_wait(struct cb_backend *be, struct cb_flags *f, int peer, uint64_t value);
/* Flags in a given mode and layout whose posts and waits go to `stream`
 * (the probe's own stream). Collective over be->node, as flags_alloc.
 * A refused stream memory operation is logged and named in cs->sync_why. */
enum cb_status cb_cuda_flags_make(struct cb_backend *be, enum cb_cuda_sync sync,
				  enum cb_cuda_wait layout, cudaStream_t stream,
				  struct cb_flags **out);
/* Stream mode after a failed probe: writes `value` into every counter of
 * this rank's own allocation with a stream write on `stream` (local memory),
 * so that whatever of this rank's or a peer's probe still waits on them
 * completes. */
enum cb_status cb_cuda_flags_release(struct cb_backend *be, struct cb_flags *f,
				     cudaStream_t stream, uint64_t value);
/* At the end of a capture: records (record != 0), for every flags object
 * posted since it began, the re-base of this rank's own counters (captured
 * posts: see cb_cuda_sync.c), and forgets them. Errors: CB_ERR_CUDA. */
enum cb_status cb_cuda_flags_rebase(struct cb_backend *be, int record);
/* 1 if this rank's GPU takes 64-bit stream waits and writes (resolves the
 * driver's entry points into cs). */
int cb_cuda_stream_ops_usable(struct cb_cuda_state *cs);

/* CUDA graphs (cb_cuda_graph.c): the ops-table entries (cb_backend.h). */
enum cb_status cb_cuda_graph_begin(struct cb_backend *be);
enum cb_status cb_cuda_graph_end(struct cb_backend *be, void **graph, char *why, size_t cap);
enum cb_status cb_cuda_graph_launch(struct cb_backend *be, void *graph);
void cb_cuda_graph_free(struct cb_backend *be, void *graph);

/* Ordering (cb_cuda_probe.c): reads CB_CUDA_SYNC and CB_CUDA_WAIT, probes
 * and agrees on cs->sync, cs->wait_layout and cs->sync_why across be->world
 * (every rank the same). Collective over be->world. Errors: CB_ERR_ARG (a
 * bad setting, or CB_CUDA_SYNC=stream where the probe failed), CB_ERR_MPI,
 * CB_ERR_NOMEM, CB_ERR_CUDA. */
enum cb_status cb_cuda_sync_init(struct cb_backend *be);

#endif
