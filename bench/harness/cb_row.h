/* cb_row: one row of the report, measured: warm-up, timed block(s), check,
 * traffic, and the statistics across iterations and ranks.
 *
 * The row code sees a small context (struct cb_measure: the options, the
 * backend, the buffers, the verifier and scratch arrays) and the one
 * algorithm it measures (struct cb_algo_slot); the harness owns both and
 * walks the sweep. A row (struct cb_row) owns its per-rank arrays. */
#ifndef CB_ROW_H
#define CB_ROW_H

#include <stdint.h>

#include "cb_algo.h"
#include "cb_backend.h"
#include "cb_options.h"
#include "cb_report.h"
#include "cb_verify.h"

/* Where the run's ranks are and how bytes move between them, settled before
 * the harness starts (the pre-flight's host names, --transport resolved). */
struct cb_layout {
	enum cb_transport_id transport; /* cb_transport_resolve's: never AUTO */
	int nhosts;
	const int *host_of;             /* [world size] each rank's host, 0 .. nhosts-1 */
};

/* An algorithm of the run: the ops that run its rows (the registry's entry,
 * or its two-sided variant over p2p: cb_algo_over), its state once set up,
 * and whether the set-up failed (then every row of it is an error saying
 * so). */
struct cb_algo_slot {
	const struct cb_algo_ops *ops;
	const char *transport;   /* its rows' transport column */
	void *state;
	enum cb_status setup_st; /* CB_OK, or the failure agreed by every rank */
};

/* What measuring a row takes besides the algorithm. Scratch arrays are
 * overwritten by every row: k = repeat x iters; w = world size (every
 * rank-indexed quantity is by world rank: cb_backend.h). */
/* The hardware's counters of this rank around a row's timed iterations
 * (cb_hwtraffic.h): cumulative bytes; code 0 measured, else why not. */
struct cb_hw_mark {
	uint64_t tx0, rx0, tx1, rx1;
	int code;
	const char *why;
};

struct cb_measure {
	const struct cb_options *o;
	struct cb_backend *be;
	const struct cb_layout *lay;
	struct cb_buf *send, *recv;   /* recv == send in place */
	int in_place;                 /* the mode of the rows measured now: 0 or 1 */
	struct cb_verify verify;
	double *times, *tmax;         /* [k] this rank's / the max over ranks (rank 0) */
	uint64_t *tx_sum, *rx_sum;    /* [w] bytes over the k allreduces, by world rank */
	/* [k] this rank's busy (wall), wait, barrier and busy CPU time of each
	 * timed iteration (us; NaN where unmeasured: cb_time_acct off), [warmup]
	 * its warm-up times, [k] the straggler of each iteration (rank 0) */
	double *busy, *wait, *barrier, *busy_cpu, *warm;
	int *slowest;
	/* [k] this rank's time to completion of each timed iteration, per call,
	 * and (rank 0, -C 1) its max over ranks: -C's bandwidths */
	double *done, *done_max;
	/* every rank keeps its iterations for rank 0 (rank 0 has --json), and
	 * there, every rank's iterations (cb_iter_values) */
	int keep_iters;
	double *all_time, *all_busy, *all_wait, *all_warm, *warm_max;
	struct cb_iter_values iters;
	/* -G K (cb_row_time.h): the row's CUDA graph of one call (NULL: calls
	 * run as calls), its launches per call, the traffic of one call, and
	 * why the row's graph was refused */
	void *graph;
	int launches;
	uint64_t *graph_tx, *graph_rx;
	char graph_why[160];
	struct cb_hw_mark hw;         /* the row's hardware counters (cb_hwtraffic.h) */
};

/* A measured row (rank 0 holds the aggregated numbers). */
struct cb_row {
	struct cb_summary s;
	uint64_t *tx, *rx;            /* [world size] bytes per allreduce */
	double *rank_time_us;         /* [world size] each rank's own mean */
	double *rank_busy_us, *rank_wait_us, *rank_barrier_us; /* [world size] means */
	double *rank_busy_cpu_us;
	int measured;                 /* the arrays hold this row's values */
	int acct;                     /* rank_busy_us, rank_wait_us hold them too */
	int kept;                     /* cb_measure.iters holds this row's iterations */
	uint64_t *hw_tx, *hw_rx;      /* [world size] hardware bytes per call (rank 0) */
	int hw;                       /* hw_tx, hw_rx hold this row's values */
	int traffic;                  /* tx and rx hold them too */
};

/* Allocates m's scratch for the world of m->be and the iterations of m->o,
 * and the verifier for messages up to alloc_bytes; m->o, m->be set, buffers
 * not yet; the buffers, m->in_place and the verifier's collective and mode
 * are the caller's to set before a row (cb_harness.c: set_mode). Collective over the world (whether rank 0 writes --json).
 * Errors: CB_ERR_NOMEM, CB_ERR_MPI (m partly set: cb_measure_fini frees). */
enum cb_status cb_measure_init(struct cb_measure *m, size_t alloc_bytes);
void cb_measure_fini(struct cb_measure *m);

/* The per-rank arrays of a row for nranks ranks. Errors: CB_ERR_NOMEM. */
enum cb_status cb_row_init(struct cb_row *row, int nranks);
void cb_row_fini(struct cb_row *row);

/* Before the rows of one (dtype, op): uploads this rank's input for the
 * largest message into m->send when out-of-place rows follow (--inplace 0 or
 * both; in place it is uploaded before each row) and prepares the
 * reference. Collective only through the backend's upload. */
enum cb_status cb_row_prepare(struct cb_measure *m, enum cb_dtype dt, enum cb_op op,
			      size_t largest_bytes);

/* Measures the algorithm of slot at `bytes` per rank into *row. Collective
 * over the world. A skipped or wrong row is CB_OK with its status set; an
 * error return means the job must be aborted. */
enum cb_status cb_row_measure(struct cb_measure *m, const struct cb_algo_slot *slot,
			      size_t bytes, enum cb_dtype dt, enum cb_op op, struct cb_row *row);

#endif
