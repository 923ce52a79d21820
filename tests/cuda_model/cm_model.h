/* cm_model: a host model of the CUDA runtime, the driver entry points and
 * the NCCL calls that the cuda backend makes (collectives/runtime/cuda, cb_p2p_nccl.c,
 * cb_algo_nccl.c), linked instead of libcudart, libcuda and libnccl into
 * test-only binaries (tests/cuda_model/CMakeLists.txt, CB_CUDA_MODEL=ON).
 * Its files define the real entry points, compiled against the real
 * <cuda_runtime_api.h>, <cuda.h> and <nccl.h>, so a signature cannot drift.
 * This header is what the model's files share:
 *   cm_error.c   the last-error slot, sticky errors, names, the model's log;
 *   cm_device.c  devices, attributes, PCI ids, peer access, driver entry points;
 *   cm_memory.c  device memory in host shared memory, CUDA IPC handles;
 *   cm_stream.c  streams (an in-order queue run by a worker thread), copies,
 *                memsets; cm_event.c events; cm_memops.c stream memory
 *                operations;
 *   cm_kernels.c cb_cuda_reduce and cb_cuda_finalize (cb_cuda_kernels.h) as
 *                host loops (cm_elem.cc: cb_cuda_elem.cuh's element functions);
 *   cm_nccl.c    communicators; cm_nccl_ops.c: allreduce, send/recv, groups;
 *   cm_nccl_prof.c NCCL's profiler plugin (NCCL_PROFILER_PLUGIN, interface
 *                v5 only): init and finalize per communicator, and per
 *                collective a group event and a collective event with
 *                cm_nccl_pick's algorithm, protocol and channels (the events
 *                collbench's plugin reads; no API, proxy or kernel events);
 *                cm_nccl_tune.c: NCCL's choice of algorithm and protocol,
 *                NCCL_ALGO/NCCL_PROTO; cm_nccl_algo.c: the ring and the tree;
 *                cm_nccl_sym.c: ncclMemAlloc, windows (their rules, not
 *                NCCL's symmetric or copy-engine data paths), ncclAlltoAll;
 *   cm_graph.c   stream capture and CUDA graphs as recorded queues;
 *   cm_fault.c   the faults the model injects;
 *   cm_slice.c   time slicing between the processes that share a GPU;
 *   cm_order.c   weaker ordering: bytes that land after an unfenced counter;
 *   cm_link.c    bytes between GPUs, counted per link (cm_topo.c: the box);
 *   cm_nvml.c    NVML's functions the suite uses, reading those counters.
 * Each rule the backend depends on is stated where it is modelled, with the
 * section of the CUDA Runtime API, the CUDA Driver API, the CUDA Programming
 * Guide or the NCCL documentation that states it.
 *
 * Environment (read once, at the first call):
 *   CB_CUDA_MODEL_GPUS          visible model GPUs (default 1; 0: none, as on
 *                               a machine without a GPU)
 *   CB_CUDA_MODEL_P2P           0: GPUs cannot access each other peer to peer
 *   CB_CUDA_MODEL_P2P_ATOMICS   0: they can, but without native atomics
 *   CB_CUDA_MODEL_STREAM_MEM_OPS 0: no 64-bit stream memory operations
 *   CB_CUDA_MODEL_MEM_MB        each process's share of its GPU's memory
 *                               (default 16384, the model's totalGlobalMem)
 *   CB_CUDA_MODEL_LEGACY_LAG_MS hold each operation on the legacy default
 *                               stream back this long (it is unordered with
 *                               non-blocking streams: code that assumes
 *                               otherwise then reads or writes out of order)
 *   CB_CUDA_MODEL_JITTER_US     start each stream operation up to this late
 *                               (a different pseudo-random share each time),
 *                               so the ranks' streams interleave in many orders
 *   CB_CUDA_MODEL_FAULT         faults to inject (cm_fault.c)
 *   CB_CUDA_MODEL_TOPO          the topology (pcie, the default; 8xH100 has
 *                               NVLS: the multicast attribute)
 *   NCCL_WIN_ENABLE, NCCL_CUMEM_ENABLE  0: no symmetric windows (NCCL's)
 *   CB_CUDA_MODEL_TIMESLICE_US  the processes that share a model GPU run one
 *                               at a time, switching on this slice (cm_slice.c;
 *                               default 0: all at once, as under MPS)
 *   CB_CUDA_MODEL_SWITCH_US     with it: how long a context that ran out of
 *                               work keeps the GPU before another takes it
 *                               (a context switch; default 50)
 *   CB_CUDA_MODEL_IPC_STREAM_WAIT  0: cuStreamWaitValue64 on IPC-mapped memory
 *                               returns CUDA_ERROR_NOT_SUPPORTED (a driver that
 *                               refuses it); CB_CUDA_MODEL_IPC_STREAM_WRITE 0:
 *                               the same for cuStreamWriteValue64, -1: such a
 *                               write is taken but never lands
 *   CB_CUDA_MODEL_WEAK_ORDER_US copies', memsets' and kernels' bytes land after
 *                               an unfenced stream write, this much later
 *                               (cm_order.c; default 0: in stream order)
 *   CB_CUDA_MODEL_TOPO          the box: a preset (pcie, the default: no
 *                               NVLink; 8xH100, 8xH200, 8xA100) or a file
 *                               (cm_topo.c); GPU names, NVLink and the model's
 *                               NVML (cm_nvml.c) follow it
 *   CB_CUDA_MODEL_VIOLATION     exit (default): a broken rule ends the process
 *                               with CM_EXIT_VIOLATION; log: it is only logged
 * NCCL's own NCCL_ALGO and NCCL_PROTO are read at each communicator's
 * creation, as NCCL reads them (cm_nccl_tune.c).
 * What the model cannot show: docs/backends.md ("What the CUDA model cannot
 * show"). */
#ifndef CM_MODEL_H
#define CM_MODEL_H

#include <cuda.h>
#include <cuda_runtime_api.h>
#include <stddef.h>
#include <stdint.h>

#include "cb_dtype.h"

#define CM_MAX_GPUS 16
#define CM_EXIT_VIOLATION 86
#define CM_PAGE ((size_t)4096)

/* ---- cm_error.c ---------------------------------------------------------- */

/* Once per process: the environment, stale shared-memory objects of dead
 * processes removed. Every entry point calls it (cheap after the first). */
void cm_init(void);
/* The integer value of environment variable name, or def when unset. */
long cm_env_long(const char *name, long def);
/* This process's MPI rank as the launcher says (OMPI_COMM_WORLD_RANK,
 * PMIX_RANK), or -1. */
int cm_world_rank(void);

/* Returns e, after putting it in the calling thread's last-error slot when
 * it is not cudaSuccess: cudaGetLastError "returns the last error that has
 * been produced by any of the runtime calls in the same instance of the CUDA
 * Runtime library in the host thread and resets it to cudaSuccess" (Runtime
 * API, Error Handling). */
cudaError_t cm_ret(cudaError_t e);
/* The start of every runtime call that does work: cm_init, then the
 * context's sticky error through cm_ret, or cudaSuccess. */
cudaError_t cm_enter(void);
/* The context's sticky error (cudaSuccess: none), and setting it. A fault in
 * a kernel or copy is sticky: cudaErrorIllegalAddress "leaves the process in
 * an inconsistent state and any further CUDA work will return the same
 * error" (Runtime API, Data types, enum cudaError). One context per process. */
cudaError_t cm_sticky(void);
void cm_set_sticky(cudaError_t e);
/* The calling thread's last-error slot, unchanged. */
cudaError_t cm_slot(void);

/* "cuda model: rank R: ..." on stderr. */
void cm_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* A rule of the documentation (named by rule) broken by the caller: logged,
 * then the process ends with CM_EXIT_VIOLATION (unless
 * CB_CUDA_MODEL_VIOLATION=log). */
void cm_violation(const char *rule, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The driver API's name and description of r. */
const char *cm_cu_name(CUresult r);
const char *cm_cu_text(CUresult r);
/* A nanosecond CLOCK_MONOTONIC time stamp. */
uint64_t cm_now_ns(void);
/* Polls: spin a little, then yield, then sleep up to 50 us. */
void cm_backoff(unsigned long polls);

/* ---- cm_device.c --------------------------------------------------------- */

int cm_gpu_count(void);
/* The calling thread's current device (cudaSetDevice; 0 by default). */
int cm_current_device(void);
/* 1 when device a can access device b's memory peer to peer. */
int cm_can_access_peer(int a, int b);

/* ---- cm_link.c ----------------------------------------------------------- */

/* bytes moved from model GPU src's memory to model GPU dst's (src != dst)
 * over the link between them: what the model's NVML link counters count.
 * Called where the model moves the bytes (a kernel or copy on one GPU that
 * reads or writes a peer's memory, the model's NCCL). */
void cm_link_move(int src, int dst, unsigned long long bytes);
#define CM_MAX_LINKS 18 /* NVML_NVLINK_MAX_LINKS */
/* What model GPU dev sent and received so far over its link `link` (-1:
 * all its links), in bytes, summed over every process of the run. */
void cm_link_bytes(int dev, int link, unsigned long long *tx, unsigned long long *rx);
/* An access by a kernel or copy running on GPU device to [p, p + bytes):
 * where that is another GPU's memory, its bytes cross the link (a read:
 * from that GPU to device; a write: from device to it). */
void cm_link_touch(int device, const void *p, size_t bytes, int write);
/* A copy of bytes from src to dst: where both are GPU memory of different
 * GPUs, the bytes cross the link between them (whichever GPU's copy engine
 * runs it). */
void cm_link_copy(const void *dst, const void *src, size_t bytes);

/* ---- cm_topo.c ----------------------------------------------------------- */

/* The box the model's GPUs sit in (CB_CUDA_MODEL_TOPO: a preset, pcie by
 * default, 8xH100, 8xH200, 8xA100, or a file: cm_topo.c). Link speeds in
 * GB/s per link and direction. */
struct cm_topo_desc {
	char name[32];       /* the preset's, or "file" */
	char gpu_name[96];   /* cudaGetDeviceProperties' and NVML's name */
	int nvlink_version, nvlink_links;
	double link_GBps;
	int nvswitch, nvls;
	int pcie_gen, pcie_width;
};
const struct cm_topo_desc *cm_topo(void);
/* The box has NVLink between its GPUs / NVLink SHARP (NVSwitch with
 * multicast: cuDeviceGetAttribute's CU_DEVICE_ATTRIBUTE_MULTICAST_SUPPORTED). */
int cm_topo_has_nvlink(void);
int cm_topo_has_nvls(void);

/* ---- cm_memory.c --------------------------------------------------------- */

enum cm_mem_kind {
	CM_HOST,   /* not device memory of this process */
	CM_OWN,    /* a cudaMalloc of this process */
	CM_MAPPED, /* a peer's allocation, opened with cudaIpcOpenMemHandle */
	CM_OVERRUN /* starts in device memory and runs past its allocation's end */
};
/* What [p, p + bytes) is; *device: the GPU whose memory it is. */
enum cm_mem_kind cm_mem_lookup(const void *p, size_t bytes, int *device);

/* ---- cm_stream.c --------------------------------------------------------- */

/* An operation of a stream: run by its worker, in order; an error it returns
 * becomes the context's sticky error. drop frees arg after it ran, or instead
 * of running it (the context has a sticky error). */
typedef cudaError_t (*cm_run_fn)(void *arg);
/* Enqueues run(arg) on stream s (0, cudaStreamLegacy, cudaStreamPerThread:
 * the current device's legacy default stream). Errors:
 * cudaErrorInvalidResourceHandle (s is no live stream: arg dropped). */
cudaError_t cm_enqueue(cudaStream_t s, cm_run_fn run, void (*drop)(void *arg), void *arg);
/* The same for an operation (named what, for messages) that touches the
 * memory of spans: one that another stream's pending operation touches too,
 * either writing, is a broken rule (cm_stream.c: check_unordered), unless
 * both are stream memory operations (sync: a wait on one stream for a
 * write on another is how streams are ordered). */
struct cm_span {
	const void *p;
	size_t bytes;
	int write, sync; /* sync 2: a stream write without its memory fence
			  * (cm_order.c) */
};
cudaError_t cm_enqueue_touching(cudaStream_t s, const char *what, cm_run_fn run,
				void (*drop)(void *arg), void *arg, const struct cm_span *spans,
				int nspans);
/* The device of live stream s, or -1. */
int cm_stream_device(cudaStream_t s);
/* Waits until every stream of this process on device has run what was
 * queued on it before this call. */
void cm_device_sync(int device);

/* ---- cm_graph.c ---------------------------------------------------------- */

/* While stream s captures a graph: records the operation (cm_enqueue_touching's
 * arguments; drop runs when the graph goes, or at once on error *e) and
 * returns 1; else returns 0 and does nothing. */
int cm_graph_record(cudaStream_t s, const char *what, cm_run_fn run, void (*drop)(void *arg),
		    void *arg, const struct cm_span *spans, int nspans, cudaError_t *e);
/* call (a host wait on stream s) while s captures: invalidates the capture
 * and returns cudaErrorStreamCaptureUnsupported; else cudaSuccess. */
cudaError_t cm_graph_forbid(cudaStream_t s, const char *call);

/* ---- cm_fault.c ---------------------------------------------------------- */

enum cm_fault {
	CM_FAULT_IPC_OPEN,   /* cudaIpcOpenMemHandle fails */
	CM_FAULT_LAUNCH,     /* a kernel launch returns an error */
	CM_FAULT_STICKY,     /* a kernel faults: a sticky error */
	CM_FAULT_EVENT_HANG, /* an event record never completes: the stream stalls */
	CM_FAULT_NCCL_INIT,  /* ncclCommInitRankConfig fails */
	CM_FAULT_NCCL_FINALIZE, /* ncclCommFinalize never completes (teardown hangs) */
	CM_FAULT_NCCL_WINDOW, /* ncclCommWindowRegister fails */
	CM_FAULT_COUNT
};
/* Counts one call of kind f on this rank; 1 (and a log line) when this call
 * is the one CB_CUDA_MODEL_FAULT says fails. */
int cm_fault_hit(enum cm_fault f);
/* Parses CB_CUDA_MODEL_FAULT (cm_init); exits 2 on a malformed value. */
void cm_fault_parse(void);
/* Sleeps a pseudo-random 0 .. CB_CUDA_MODEL_JITTER_US - 1 us (nothing when
 * unset or 0): a stream's worker calls it before each operation. */
void cm_jitter(void);

/* ---- cm_slice.c ---------------------------------------------------------- */

/* A stream's worker before an operation on GPU dev: waits until this process
 * holds the GPU (CB_CUDA_MODEL_TIMESLICE_US; returns at once without it). */
void cm_slice_acquire(int dev);
/* After it: gives the GPU up when the stream has no more work (idle), or the
 * slice is over and another process waits for the GPU. */
void cm_slice_release(int dev, int idle);
/* Inside a wait that polls (a stream wait): gives the GPU up for a while
 * when the slice is over and another process waits for it. */
void cm_slice_poll(void);

/* ---- cm_order.c ---------------------------------------------------------- */

/* CB_CUDA_MODEL_WEAK_ORDER_US, 0 when unset. */
long cm_order_weak_us(void);
/* Where an operation of the calling stream worker writes bytes bound for
 * dst when ordering is weak (they land later, cm_order_land), else NULL:
 * write dst directly. */
void *cm_order_hold(void *dst, size_t bytes);
/* The worker's held bytes land, in order, with a release fence. */
void cm_order_land(void);
/* The same, CB_CUDA_MODEL_WEAK_ORDER_US later (after an unfenced write). */
void cm_order_land_late(void);

/* ---- cm_elem.cc ---------------------------------------------------------- */

#ifdef __cplusplus
extern "C" {
#endif
/* dst[i] = a[i] op b[i] with the kernels' element functions
 * (cb_cuda_elem.cuh); 0 for a dtype or op it does not know. */
int cm_elem_reduce(void *dst, const void *a, const void *b, size_t count, enum cb_dtype dt,
		   enum cb_op op);
/* avg's last step: buf[i] /= nranks, as the kernels' finalize. */
int cm_elem_finalize(void *buf, size_t count, enum cb_dtype dt, int nranks);
#ifdef __cplusplus
}
#endif

#endif
