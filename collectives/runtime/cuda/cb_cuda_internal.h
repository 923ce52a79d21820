/* cb_cuda_internal: private to the cuda backend's files (cb_cuda*.c). The
 * state they share and the functions one file gives the others:
 *   cb_cuda.c          device, data movement, timing, the ops table;
 *   cb_cuda_ipc.c      buffers shared through CUDA IPC, peer reachability;
 *   cb_cuda_sync.c     progress flags, draining the rank's stream;
 *   cb_cuda_util.c     error reporting and event polling (cb_cuda_util.h).
 * Every arrow points down: cb_cuda.c calls into ipc and sync through this
 * header, and they never call cb_cuda.c. */
#ifndef CB_CUDA_INTERNAL_H
#define CB_CUDA_INTERNAL_H

#include <cuda_runtime_api.h>

#include "cb_backend.h"
#include "cb_cuda.h"
#include "cb_cuda_util.h"
#include "cb_shm.h"

/* How ranks order their work on one another's data:
 *   stream: counters in device memory shared through CUDA IPC, written with
 *           cuStreamWriteValue64 after the work before it and waited on with
 *           cuStreamWaitValue64: the GPU's front-end orders the streams, no
 *           host round trip, no kernel spinning on an SM (so ranks that share
 *           one GPU cannot starve one another), monotonic so never reused;
 *   host:   each post waits for this rank's stream to drain, then publishes
 *           a host counter (cb_shm.h); a wait spins on the host. Slower (the
 *           GPU idles at every step), never deadlocks: the fallback.
 * Chosen with CB_CUDA_SYNC=stream|host (default stream, or host when the GPU
 * lacks 64-bit stream memory operations). */
enum cb_cuda_sync { CB_CUDA_SYNC_STREAM, CB_CUDA_SYNC_HOST };

/* be->impl of a cuda backend. */
struct cb_cuda_state {
	struct cb_cuda_shared shared; /* first: the stream, the most ranks on one
				       * GPU over the world (cb_cuda.h) */
	int device, sm_count;         /* kernels size their grids from sm_count */
	cudaEvent_t t0, t1;
	char bus_id[32];
	enum cb_cuda_sync sync;
	struct cb_host_flags *alive;  /* pids, for peer liveness while polling */
	void *wait_value, *write_value; /* cuStreamWaitValue64 / WriteValue64 */
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

/* Flags (cb_cuda_sync.c): resolve the driver's stream memory operations and
 * pick the mode at init; the ops-table entries. */
enum cb_status cb_cuda_sync_init(struct cb_backend *be);
enum cb_status cb_cuda_flags_alloc(struct cb_backend *be, struct cb_flags **out);
void cb_cuda_flags_free(struct cb_backend *be, struct cb_flags *f);
enum cb_status cb_cuda_post(struct cb_backend *be, struct cb_flags *f, uint64_t value);
enum cb_status cb_cuda_wait(struct cb_backend *be, struct cb_flags *f, int peer, uint64_t value);

#endif
