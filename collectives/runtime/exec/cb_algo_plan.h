/* cb_algo_plan: the executors that walk any plan (collectives/plans/cb_plan.h), and the
 * registry entries of the plan algorithms: one-sided (cb_algo_plan.c: loads
 * and stores into the ranks' buffers through the backend, shared memory or
 * CUDA IPC, synchronised by progress flags) and two-sided (cb_algo_plan_p2p.c:
 * the round's messages through the backend's point-to-point transport, then
 * the round's own work). An algorithm is its plan: its name, its builder and
 * its descriptor come from the plans' table (cb_plan_lib.h) and the
 * catalogue; this module names none of them.
 *
 * Per row (cb_algo_ops.prepare, before the warm-up), the executor builds the
 * plan for the row's count, element size and mode, finishes it (the waits)
 * and keeps this rank's part: the rounds in which it waits or acts, their
 * waits and steps. run() then only walks that. The harness synchronises the
 * ranks between rows; within a row, calls follow one another, each waiting
 * at its start for the ranks it shares ranges with to have finished the one
 * before (cb_plan_neighbours). */
#ifndef CB_ALGO_PLAN_H
#define CB_ALGO_PLAN_H

#include <stddef.h>
#include <stdint.h>

#include "cb_algo.h"
#include "cb_plan_lib.h"

/* One round of this rank's part: its waits (one-sided), its steps. */
struct cb_my_round {
	size_t k;             /* the plan's round */
	size_t wfirst, nw;    /* this rank's waits: plan->waits[wfirst ..] */
	size_t sfirst, ns;    /* its steps: mine->step[sfirst ..] */
	size_t nmsg;          /* two-sided: its messages (sends and receives) */
	size_t stage_bytes;   /* two-sided: staging its received reduces need */
	int early;            /* two-sided: its messages may go before the round
			       * before finishes its own work */
};

/* A plan algorithm's state on one rank, for either executor. */
struct cb_plan_state {
	struct cb_backend *be;
	const struct cb_plan_algo *algo;
	struct cb_plan_args args;  /* n, root, servers; count, esize and slice per row */
	size_t max_bytes, slice_bytes;
	int slice_auto;            /* 1: no --slicebytes (the backend's own unit) */
	int me;                    /* this rank in the plan: its world rank */
	int two_sided;
	struct cb_plan plan;       /* the row's, finished; plan.n 0: none yet */
	size_t count, esize;
	int in_place;
	struct cb_my_round *round; /* this rank's rounds */
	size_t nround;
	size_t *step;              /* indices into plan.steps, round by round */
	unsigned char *direct;     /* two-sided: [nsteps of mine] 1: a received copy
				    * lands in its dst as it arrives */
	int *neigh, nneigh;        /* cb_plan_neighbours */
	uint64_t seq;              /* one-sided: progress at the end of the last call */
	struct cb_flags *flags;    /* one-sided */
	struct cb_buf *stage;      /* one-sided: the plan's STAGE, shared */
	void *lstage;              /* two-sided: the plan's STAGE, local */
	void *mstage[2];           /* two-sided: staging of received reduces */
	size_t mstage_bytes;
	struct cb_p2p *p2p;        /* two-sided */
	size_t max_msgs;
};

/* Collective c's plan algorithms' ops, one-sided (their two_sided points
 * at the two-sided ones), in the catalogue's order; *n receives the count
 * (0 past CB_COLL_COUNT). */
const struct cb_algo_ops *const *cb_algo_plan_registry_coll(enum cb_coll c, size_t *n);

/* The shared part of set-up: st's fields from the backend and sa, and the
 * largest STAGE (bytes) and, per round, messages and staged bytes this rank
 * needs over the row's possible element sizes at sa->max_bytes. Local, no
 * communication. Errors: CB_ERR_ARG (the plan refuses the arguments: a
 * message in the log), CB_ERR_NOMEM. */
enum cb_status cb_plan_state_init(struct cb_plan_state *st, struct cb_backend *be,
				  const struct cb_setup_args *sa, int two_sided, size_t *stage_bytes);

/* prepare(): the plan of a's count, element size and mode, and this rank's
 * part of it. Local. Errors: CB_ERR_ARG (logged), CB_ERR_NOMEM. */
enum cb_status cb_plan_state_prepare(struct cb_plan_state *st, const struct cb_run_args *a);

void cb_plan_state_fini(struct cb_plan_state *st);

/* Where r's range starts in the memory of its rank, in elements: in place
 * (one buffer) its offset in the larger buffer (cb_plan_canon_ref), else
 * its offset. */
size_t cb_plan_mem_off(const struct cb_plan_state *st, struct cb_plan_ref r);

/* The plan's step i as the backend's span of one rank: buffer b of a's (or
 * the one-sided STAGE), at element offset off. */
struct cb_ref cb_plan_span(const struct cb_plan_state *st, const struct cb_run_args *a,
			   struct cb_plan_ref r);

#endif
