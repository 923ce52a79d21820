/* Helpers shared by the algorithms: ops-table entries more than one of them
 * uses, and the one-rank case of those that move bytes through a backend. */
#ifndef CB_ALGO_COMMON_H
#define CB_ALGO_COMMON_H

#include "cb_algo.h"

/* n == 1 allreduce: the result is this rank's input. Copies send to recv when
 * out of place (local, so no traffic), then applies the op's last step. */
enum cb_status cb_algo_single_rank(struct cb_backend *be, const struct cb_run_args *a);

/* supports() of algorithms whose bytes move through shared memory or IPC
 * (ps, ring): NULL when every rank is on this host and can address every
 * peer's buffers (be->peer_unreachable), else why not, the same text on
 * every rank. */
const char *cb_algo_supports_one_host(const struct cb_backend *be, enum cb_dtype dt,
				      enum cb_op op, int in_place);

/* supports() of the two-sided ps and ring: NULL when the backend's p2p
 * transport connects every rank (cb_p2p_unusable), else why not, the same
 * text on every rank. */
const char *cb_algo_supports_p2p(const struct cb_backend *be, enum cb_dtype dt, enum cb_op op,
				 int in_place);

/* setup() of algorithms with no state of their own: the state is the
 * backend. Never fails. */
enum cb_status cb_algo_setup_backend(struct cb_backend *be, const struct cb_setup_args *sa,
				     void **state);

/* teardown() of those: nothing to undo. */
void cb_algo_teardown_none(void *state);

#endif
