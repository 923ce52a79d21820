/* cb_harness: owns timing, checking, statistics and output. For each dtype,
 * op and message size, every selected algorithm in turn (one block per
 * algorithm, never interleaved per iteration): warm-up, timed iterations
 * (each rank times each iteration after a barrier; an iteration's time is the
 * max over ranks), optional repeats of the timed block, one more iteration that is checked
 * element by element, traffic counters, then one report row. One row's
 * measurement is cb_row.h's; the harness selects and sets up the algorithms,
 * allocates the buffers and walks the sweep. */
#ifndef CB_HARNESS_H
#define CB_HARNESS_H

#include <stddef.h>

#include "cb_algo.h"
#include "cb_backend.h"
#include "cb_options.h"
#include "cb_report.h"
#include "cb_row.h"
#include "cb_topo.h"

struct cb_harness {
	const struct cb_options *o;
	struct cb_backend *be;
	struct cb_layout lay;
	struct cb_report *rep;    /* rank 0 only; NULL elsewhere */
	struct cb_algo_slot slot[CB_MAX_ALGOS];
	size_t nalgos;
	struct cb_measure m;      /* what every row is measured with */
	struct cb_buf *buf[2];    /* the send and receive buffers; [1] NULL with --inplace 1 */
	struct cb_row row;        /* the row being measured */
	int failed_rows;          /* rows with wrong results or an error */
	/* the run's interconnect, for each row's pct_line: known = 0 (as
	 * cb_harness_init leaves it) until the backend's code fills it */
	struct cb_topo topo;
	double copy_algbw;        /* the copy row's algbw at the size being run
				   * (GB/s; NaN: none yet), for pct_copy */
};

/* Selects the algorithms (--algo, or every one that runs on the backend), each
 * over the transport of lay (cb_algo_over), allocates the buffers for the
 * largest message and sets every algorithm up. Collective. A setup that
 * fails on any rank marks that algorithm's rows as errors; other errors are
 * returned (CB_ERR_ARG for an algorithm that does not run on the backend,
 * with a message). lay is copied; lay->host_of must outlive h. */
enum cb_status cb_harness_init(struct cb_harness *h, const struct cb_options *o,
			       struct cb_backend *be, const struct cb_layout *lay,
			       struct cb_report *rep);

/* Runs every row; at each size the copy roofline (algorithm copy, when
 * selected) first, so that every row of that size gets its pct_copy. Returns CB_OK (check h->failed_rows for wrong results), or
 * an error after which peers may be stuck (CB_ERR_TIMEOUT, CB_ERR_PEER, ...):
 * the caller must abort the job. */
enum cb_status cb_harness_run(struct cb_harness *h);

void cb_harness_fini(struct cb_harness *h);

#endif
