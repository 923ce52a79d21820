/* cb_row_time: where a row's time went, per rank: busy, wait and barrier
 * time, the straggler, and every rank's iterations for --json, reduced and
 * gathered to rank 0 after the row's timed block(s), and the timed barrier
 * before an iteration. The times are measured where they happen
 * (cb_backend.h, struct cb_time_acct) and recorded per iteration by the
 * row's measurement (cb_row.h). */
#ifndef CB_ROW_TIME_H
#define CB_ROW_TIME_H

#include <stdint.h>

#include "cb_backend.h"
#include "cb_row.h"
#include "cb_status.h"

/* Busy, wait and barrier time, the straggler and (with --json) every
 * rank's iterations of the row just timed, to rank 0:
 * row->rank_*_us, the straggler columns, m->iters. Collective over the
 * world. Errors: CB_ERR_MPI. */
enum cb_status cb_row_gather_time(struct cb_measure *m, const struct cb_algo_slot *slot,
				  struct cb_row *row);

/* The barrier before an iteration, on the world; *ns: its duration on the
 * accounting's clock (0 when accounting is off). Errors: CB_ERR_TIMEOUT when
 * the abort flag is set while waiting (the watchdog, a signal), an MPI
 * error's status. */
enum cb_status cb_row_barrier(struct cb_backend *be, uint64_t *ns);

/* The calls of one timed iteration: ncalls calls of slot's algorithm on a
 * (ncalls: -m's K for a timed iteration, else 1), with nccl-tests' -z
 * waits after each (o->blocking 1 and 2: be->ops->sync, where the backend
 * has one) and -z 1's barrier after each (inside the iteration's time, as
 * nccl-tests has it). Errors: the call's, the wait's, the barrier's. */
enum cb_status cb_row_calls(struct cb_backend *be, const struct cb_options *o,
			    const struct cb_algo_slot *slot, const struct cb_run_args *a, int ncalls);

/* CLOCK_MONOTONIC now, in microseconds: the host's time to issue calls (-C). */
double cb_row_now_us(void);

#endif
