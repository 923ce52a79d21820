/* cb_backend: where buffers live and how bytes move between the ranks of a host.
 *
 * A backend knows how to allocate memory its peers can address, move or reduce
 * a span of bytes from one rank's memory into another's, signal progress to a
 * peer and wait for it, and time an iteration. It knows nothing of allreduce:
 * the ps and ring pattern code (cb_algo_*.c) drives every backend alike.
 *
 * A backend's ops table points at its descriptor in the catalogue
 * (collectives/catalog/cb_catalog.h: name, capabilities CB_CAP_*, pipelining unit, whether
 * host clocks time its work), which says what algorithms can do with its
 * buffers; an algorithm's descriptor states the capabilities it needs. The
 * static table of backends (cb_backend.c) has one entry per descriptor: a
 * backend that is not built into this binary is there too, as a stub whose
 * `missing` says why (cb_cuda_stub.c).
 *
 * Traffic accounting lives here, in one place: algorithms move bytes with
 * cb_be_copy and cb_be_reduce (one-sided, within a host), or hand them to the
 * backend's two-sided transport (cb_p2p.h), which count. Every copy and
 * reduce names the owner rank of each span it touches; bytes read from
 * another rank's memory, or written into it, are added to tx[source owner]
 * and rx[destination owner] of the process that moved them. The harness sums
 * these vectors over processes to get each rank's tx/rx (docs/output.md,
 * "Traffic": counted where bytes move). A backend's own copy and reduce never count.
 *
 * Two rank spaces, never mixed. Node ranks (node_rank, node_size: the ranks
 * that share this host, MPI_COMM_TYPE_SHARED, ordered by world rank) index
 * what one host shares: buf->peer[], progress flags, cb_ref.rank of the
 * one-sided moves. World ranks (world_rank, world_size) index everything
 * about the allreduce, which always runs over the whole world: inputs and
 * the reference, the ps root, the op's last step (avg divides by
 * world_size), the traffic counters and the per-rank results. One-sided
 * algorithms run only where node == world (single_node); two-sided and
 * library algorithms run on the world communicator.
 */
#ifndef CB_BACKEND_H
#define CB_BACKEND_H

#include <mpi.h>
#include <stddef.h>
#include <stdint.h>

#include "cb_catalog.h"
#include "cb_dtype.h"
#include "cb_status.h"
#include "cb_wait.h"
#include "cb_world.h"

struct cb_backend;

/* A buffer every rank of the node allocated collectively. peer[r] is where
 * rank r's part is addressable from this process (NULL if rank r allocated 0
 * bytes); bytes is this rank's own part. */
struct cb_buf {
	size_t bytes;
	void **peer;
	void *impl;
};

/* A span owned by rank `rank`, addressed in this process. */
struct cb_ref {
	void *ptr;
	int rank;
};

static inline struct cb_ref cb_buf_ref(const struct cb_buf *b, int rank, size_t byte_off)
{
	struct cb_ref ref = { (char *)b->peer[rank] + byte_off, rank };
	return ref;
}

/* Progress flags: one monotonic 64-bit counter per rank, written by its owner,
 * read by everyone. */
struct cb_flags;

struct cb_p2p_ops;
struct cb_nvml_facts; /* cb_nvml.h */

struct cb_backend_ops {
	/* name, capabilities, pipelining unit, whether host clocks time its work */
	const struct cb_backend_desc *desc;
	/* NULL when the backend is built into this binary; else why not (a
	 * stub: every function below is NULL) */
	const char *missing;
	/* Fills be (communicators are set by cb_backend_init). Errors: CB_ERR_CUDA
	 * (no usable GPU), CB_ERR_MPI. On error nothing is left allocated. */
	enum cb_status (*init)(struct cb_backend *be);
	void (*fini)(struct cb_backend *be);
	/* Collective over the node: each rank allocates `bytes` (may differ per
	 * rank, may be 0), zero-filled, pre-faulted by its owner. */
	enum cb_status (*buf_alloc)(struct cb_backend *be, size_t bytes, struct cb_buf **out);
	void (*buf_free)(struct cb_backend *be, struct cb_buf *buf); /* collective */
	/* Staging between host memory and this rank's own part of a buffer. */
	enum cb_status (*upload)(struct cb_backend *be, struct cb_buf *buf, size_t off,
				 const void *host, size_t bytes);
	enum cb_status (*download)(struct cb_backend *be, void *host, struct cb_buf *buf,
				   size_t off, size_t bytes);
	/* dst = src, `bytes` bytes (> 0); spans must not overlap. Not counted:
	 * algorithms call cb_be_copy, which counts. */
	enum cb_status (*copy)(struct cb_backend *be, struct cb_ref dst, struct cb_ref src,
			       size_t bytes);
	/* dst = a op b over count (> 0) elements (avg combines as sum). dst may
	 * alias a or b exactly. Not counted: algorithms call cb_be_reduce. */
	enum cb_status (*reduce)(struct cb_backend *be, struct cb_ref dst, struct cb_ref a,
				 struct cb_ref b, size_t count, enum cb_dtype dt, enum cb_op op);
	/* The op's last step (avg divides by world_size) on count elements, in place. */
	enum cb_status (*finalize)(struct cb_backend *be, struct cb_ref buf, size_t count,
				   enum cb_dtype dt, enum cb_op op);
	enum cb_status (*flags_alloc)(struct cb_backend *be, struct cb_flags **out); /* collective */
	void (*flags_free)(struct cb_backend *be, struct cb_flags *flags);         /* collective */
	/* Publishes value (monotonic) as this rank's progress, after every copy and
	 * reduce issued before it is visible to peers. */
	enum cb_status (*post)(struct cb_backend *be, struct cb_flags *flags, uint64_t value);
	/* Returns once peer's progress is >= value and its writes before that post
	 * are visible; a wait on the host waits as be->wait says. Errors:
	 * CB_ERR_TIMEOUT when *be->abort_flag is set (cb_abort: the watchdog
	 * fired or a signal stopped the run), CB_ERR_PEER when the peer process
	 * died (also when it is seen gone as the flag is set). */
	enum cb_status (*wait)(struct cb_backend *be, struct cb_flags *flags, int peer,
			       uint64_t value);
	/* Optional: 1 when peer's progress is already >= value (its writes
	 * before that post visible, as after wait), else 0; never blocks. Lets
	 * the time accounting read no clock for a wait that need not wait. */
	int (*ready)(struct cb_backend *be, struct cb_flags *flags, int peer, uint64_t value);
	/* Time one iteration of this rank: begin, then end returns microseconds
	 * after all work issued in between has completed. */
	enum cb_status (*time_begin)(struct cb_backend *be);
	enum cb_status (*time_end)(struct cb_backend *be, double *us);
	/* Optional: returns once all work issued by this rank so far has
	 * completed (nccl-tests' -z wait: the rank's stream synchronised on
	 * cuda); NULL where a call has completed when it returns (host). Between
	 * time_begin and time_end it leaves the iteration's timing intact.
	 * Errors: as time_end's. */
	enum cb_status (*sync)(struct cb_backend *be);
	/* CUDA graphs (-G): NULL where the backend has no stream to capture.
	 * graph_begin: the rank's stream records the calls that follow instead
	 * of running them; graph_end: stops recording and, on success, *graph is
	 * an executable graph of what was recorded; CB_ERR_UNSUPPORTED with why
	 * filled (nothing kept) where a recorded call cannot be replayed (a wait
	 * on the host); graph_launch: one replay on the rank's stream, ordered
	 * as a call would be; graph_free: NULL is ignored. Local, no MPI. */
	enum cb_status (*graph_begin)(struct cb_backend *be);
	enum cb_status (*graph_end)(struct cb_backend *be, void **graph, char *why, size_t cap);
	enum cb_status (*graph_launch)(struct cb_backend *be, void *graph);
	void (*graph_free)(struct cb_backend *be, void *graph);
	/* The two-sided transport of its buffers (cb_p2p.h), with
	 * CB_CAP_TWO_SIDED; a stub whose `missing` says why where it is not
	 * built. */
	const struct cb_p2p_ops *p2p;
	/* Optional (NULL: none, as on host): the hardware's own byte counters of
	 * this rank's device (NVML's NVLink counters on cuda, cb_nvml.h): bytes
	 * sent and received over its links so far, cumulative. Returns NULL, or
	 * why they are unmeasured. Local, no MPI; never inside a timed region. */
	const char *(*hw_bytes)(struct cb_backend *be, uint64_t *tx, uint64_t *rx);
	/* Optional: the device's facts for the topology stamp and its PCI bus
	 * id (bus_cap bytes); f->known 0 with f->why where there are none. */
	void (*hw_facts)(struct cb_backend *be, struct cb_nvml_facts *f, char *bus_id, size_t bus_cap);
};

/* Busy and wait time of this process, in nanoseconds, measured where they
 * happen. wait_ns: CLOCK_MONOTONIC inside cb_be_wait and the p2p transport's
 * round wait (which includes the transfers the library progresses there); a
 * wait whose flag is already there (ops->ready) reads no clock and adds 0.
 * Level 1 (`on`, the default) stops there: per timed iteration the harness
 * takes busy as the iteration's own time less its wait time (the rank
 * working, not waiting: copies, reduces, posting, loop), so the cost is at
 * most two clock reads per wait that waits (one after the flag arrives) and
 * none per copy (issue 19: per-span clocks added 0.33 us, +70%, to an 8 B
 * ring at n = 2). Level 2 (`spans`) also times every busy span: busy_ns,
 * CLOCK_MONOTONIC inside cb_be_copy, cb_be_reduce, cb_be_finalize and the p2p
 * send and receive posting, and busy_cpu_ns, CLOCK_THREAD_CPUTIME_ID over the
 * same spans (a system call: ~0.2-0.7 us a read): the CPU the work took,
 * without the time the process was descheduled inside it, which on an
 * oversubscribed host can dominate the wall time. `on` is 0 where the backend
 * cannot measure (desc->time_unmeasured) or the caller turned it off; then no
 * clock is read. The harness reads the sums before and after each iteration. */
struct cb_time_acct {
	uint64_t busy_ns, wait_ns, busy_cpu_ns;
	int on, spans;
};

/* The start of a busy span: both clocks (zero when the accounting is off). */
struct cb_acct_span {
	uint64_t wall, cpu;
};

struct cb_backend {
	const struct cb_backend_ops *ops;
	MPI_Comm world;       /* every rank of the run (a dup) */
	MPI_Comm node;        /* ranks of this host, ordered by world rank */
	int node_rank, node_size; /* in node: see the top */
	int world_rank, world_size;
	int *world_of_node;   /* [node_size] the world rank of each node rank */
	int single_node;      /* node == world */
	/* NULL, or why the ranks cannot address one another's buffers although
	 * they share a host (GPUs without peer access, a failed CUDA IPC open):
	 * the same text on every rank; set by the backend at init or buf_alloc */
	const char *peer_unreachable;
	uint64_t *tx, *rx;    /* [world_size] bytes moved by this process, by the
			       * world rank of their owner */
	volatile int *abort_flag; /* a cb_abort: who stopped the run; never NULL after init */
	char device_desc[384]; /* e.g. GPU name and bus id; "" on host */
	char device_model[96]; /* the GPU's name alone ("NVIDIA H200"); "" on host */
	struct cb_wait_cfg wait; /* how host-side waits wait: cb_backend_init's
				  * default, or cb_backend_set_wait */
	struct cb_time_acct acct; /* on after init where desc->time_unmeasured
				   * is NULL; cb_backend_set_acct */
	void *impl;
};

/* What *be->abort_flag holds: 0 while the run goes on, else what stopped it
 * (the first cause to set it; every wait that reads the flag returns
 * CB_ERR_TIMEOUT, or CB_ERR_PEER where it can see the peer gone). */
enum cb_abort {
	CB_ABORT_NONE = 0,
	CB_ABORT_WATCHDOG = 1, /* a step overran -T or --setup-timeout */
	CB_ABORT_SIGNAL = 2,   /* a stop signal (mpirun's SIGTERM when a rank died, ...) */
};

/* st's name for messages (cb_status_str), but for CB_ERR_TIMEOUT, a wait that
 * gave up on the abort flag, by the flag's value: "timeout" (the watchdog)
 * or "stopped by a signal". */
static inline const char *cb_abort_why(int flag, enum cb_status st)
{
	if (st != CB_ERR_TIMEOUT)
		return cb_status_str(st);
	return flag == CB_ABORT_SIGNAL ? "stopped by a signal" : "timeout";
}

/* The table of backends collbench knows, built or not (ops->missing), in
 * display order; *n receives its length. */
const struct cb_backend_ops *const *cb_backend_registry(size_t *n);

/* Looks up a backend by name ("host", "cuda"); NULL if unknown. A backend
 * that is not built comes back too: check ops->missing. */
const struct cb_backend_ops *cb_backend_find(const char *name);

/* Creates communicators, the traffic counters, then calls ops->init.
 * Collective over world. abort_flag may be NULL (then a private flag is used).
 * Errors: CB_ERR_UNSUPPORTED for a backend that is not built (ops->missing,
 * logged), the backend's own. On error everything is released and be is
 * left zeroed. */
enum cb_status cb_backend_init(struct cb_backend *be, const struct cb_backend_ops *ops,
			       MPI_Comm world, volatile int *abort_flag);
void cb_backend_fini(struct cb_backend *be);

/* Sets how this process waits for its peers on the host (cb_wait.h,
 * cb_wait_configure): the poll and the yield window depend on whether the
 * ranks of this host (be->node_size) outnumber its online CPUs. cb_backend_init
 * sets CB_WAIT_FUTEX. Local: the caller makes every rank pass the same mode
 * (allreduce_perf: --wait, checked by the pre-flight). */
void cb_backend_set_wait(struct cb_backend *be, enum cb_wait_mode mode);

/* Moving bytes, counted: the only way algorithms copy and reduce. They call
 * ops->copy / ops->reduce (nothing for 0 bytes) and, when it succeeded, add
 * the bytes each span moved across ranks to the counters: copy, `bytes` from
 * src.rank to dst.rank; reduce, count elements of dt from a.rank and from
 * b.rank to dst.rank each; nothing where the two ranks are the same. Errors:
 * the backend's, with nothing counted. */
enum cb_status cb_be_copy(struct cb_backend *be, struct cb_ref dst, struct cb_ref src,
			  size_t bytes);
enum cb_status cb_be_reduce(struct cb_backend *be, struct cb_ref dst, struct cb_ref a,
			    struct cb_ref b, size_t count, enum cb_dtype dt, enum cb_op op);

void cb_traffic_reset(struct cb_backend *be);

/* The op's last step, timed as busy: ops->finalize. Errors: the backend's. */
enum cb_status cb_be_finalize(struct cb_backend *be, struct cb_ref buf, size_t count,
			      enum cb_dtype dt, enum cb_op op);

/* Waiting for a peer, timed as wait: ops->wait (arguments and errors as
 * there). The only way algorithms wait for a progress flag. */
enum cb_status cb_be_wait(struct cb_backend *be, struct cb_flags *flags, int peer,
			  uint64_t value);

/* Sets the time accounting (struct cb_time_acct): 0 off, 1 wait time (busy
 * is the rest of the iteration), 2 also every busy span's wall and CPU time
 * (busy_ns, busy_cpu_ns). Refused (off) where the backend cannot measure.
 * Local. */
void cb_backend_set_acct(struct cb_backend *be, int level);

/* The clocks of the accounting, for code that moves or waits outside
 * cb_be_* (the p2p transport, the harness's barrier). cb_acct_now: 0 when
 * be->acct.on is 0 (then no clock is read), else CLOCK_MONOTONIC in ns;
 * cb_acct_wait adds the wall time since t0 to wait_ns (nothing for t0 == 0).
 * cb_acct_begin starts a busy span (both clocks; nothing read below level
 * 2), cb_acct_busy adds it to busy_ns and busy_cpu_ns. */
uint64_t cb_acct_now(const struct cb_backend *be);
void cb_acct_wait(struct cb_backend *be, uint64_t t0);
struct cb_acct_span cb_acct_begin(const struct cb_backend *be);
void cb_acct_busy(struct cb_backend *be, struct cb_acct_span t0);

/* The node rank of world rank w, or -1 when w is on another host. */
int cb_backend_node_rank_of(const struct cb_backend *be, int w);

/* Sums every process's counters: tx[r], rx[r] (arrays of world_size) receive
 * world rank r's bytes since the last reset, on every rank. Collective over
 * world. */
enum cb_status cb_traffic_collect(struct cb_backend *be, uint64_t *tx, uint64_t *rx);

#endif
