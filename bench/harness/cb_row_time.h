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
 * (ncalls: -m's K for a timed iteration, else 1; with -G a call is
 * m->launches launches of m->graph), with nccl-tests' -z waits after each
 * (m->o->blocking 1 and 2: be->ops->sync, where the backend has one) and
 * -z 1's barrier after each (inside the iteration's time, as nccl-tests has
 * it). Errors: the call's, the wait's, the barrier's. */
enum cb_status cb_row_calls(struct cb_measure *m, const struct cb_algo_slot *slot,
			    const struct cb_run_args *a, int ncalls);

/* CLOCK_MONOTONIC now, in microseconds: the host's time to issue calls (-C). */
double cb_row_now_us(void);
/* -G K: one call of the row captured in a CUDA graph on every rank
 * (be->ops->graph_begin .. graph_end), kept in m->graph with K launches per
 * call (m->launches) and the call's traffic, which each launch counts again.
 * Collective over the world: every rank has a graph, or none has and every
 * rank returns CB_ERR_UNSUPPORTED with m->graph_why set (rank 0: its own
 * reason, or that a peer's was refused). Errors: CB_ERR_NOMEM, CB_ERR_MPI,
 * the backend's. */
enum cb_status cb_row_graph_make(struct cb_measure *m, const struct cb_algo_slot *slot,
				 const struct cb_run_args *a);

enum cb_status cb_row_graph_run(struct cb_measure *m);
/* Frees m->graph and its traffic (nothing when there is none). */
void cb_row_graph_free(struct cb_measure *m);

#endif
