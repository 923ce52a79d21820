/* cb_plan_exec: a plan run in one process, every rank's buffers in host
 * memory, round after round: the semantics of a plan (cb_plan.h) made
 * executable, against which every real executor is held. It checks a plan
 * before anything is timed (allreduce_perf --plan, the plan tests) and
 * counts the traffic it really moves, step by step.
 *
 * A round reads what the rounds before it wrote; its steps run one after
 * the other, which equals any order because cb_plan_finish refused a round
 * whose steps touch each other's ranges. Reduces and the last step are the
 * host backend's (cb_reduce_host, cb_finalize_host); inputs, reference and
 * comparison are the checker's (cb_check.h), so "exact" means what #wrong
 * means. */
#ifndef CB_PLAN_EXEC_H
#define CB_PLAN_EXEC_H

#include <stddef.h>
#include <stdint.h>

#include "cb_dtype.h"
#include "cb_plan.h"
#include "cb_status.h"

/* What a check found. */
struct cb_plan_report {
	size_t wrong;            /* elements of the RECVs that differ from the reference */
	int rank;                /* the first wrong element's rank, -1: none */
	size_t offset;           /* its element offset in that rank's RECV */
	long round;              /* the round that last wrote it, -1: none did */
	uint64_t *tx, *rx;       /* [n] bytes each rank moved, counted per step;
				  * NULL: not wanted */
};

/* Runs plan p (finished for its in_place mode) on the checker's inputs for
 * dt and op and compares every rank's RECV that holds a result with the
 * exact result of p's collective (cb_coll.h). r->tx,
 * r->rx, where given, receive the bytes each step moved. Errors:
 * CB_ERR_NOMEM; a wrong result is not an error (r->wrong > 0). */
enum cb_status cb_plan_check(const struct cb_plan *p, enum cb_dtype dt, enum cb_op op,
			     struct cb_plan_report *r);

/* The values of p (finished, cb_plan_finish) for dt and op, as one call: on
 * a wrong result writes "plan NAME on N ranks, count COUNT, DT OP, MODE: W
 * wrong element(s); the first: rank R, element OFF (last written in round
 * K)" to err and returns CB_ERR_ARG; CB_ERR_NOMEM. */
enum cb_status cb_plan_check_values(const struct cb_plan *p, enum cb_dtype dt, enum cb_op op,
				    char *err, size_t errlen);

/* Finishes and checks p in the modes of `modes` (bit 0: out of place, bit
 * 1: in place): the one-call validation of a plan. cb_plan_finish's errors
 * (a broken rule, a read of what nothing wrote) and cb_plan_check_values'. */
enum cb_status cb_plan_validate(struct cb_plan *p, enum cb_dtype dt, enum cb_op op,
				unsigned modes, char *err, size_t errlen);

/* What cb_plan_check of p (n ranks simulated in one process) costs for dt:
 * *bytes of buffers it allocates (every rank's SEND, RECV and STAGE and the
 * reference) and *elems, the elements it writes (inputs, steps, reference,
 * comparison). Without allocating anything. */
void cb_plan_check_cost(const struct cb_plan *p, enum cb_dtype dt, uint64_t *bytes,
			uint64_t *elems);

#endif
