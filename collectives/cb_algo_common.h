/* Helpers shared by the algorithms that move bytes through a backend. */
#ifndef CB_ALGO_COMMON_H
#define CB_ALGO_COMMON_H

#include "cb_algo.h"

/* n == 1 allreduce: the result is this rank's input. Copies send to recv when
 * out of place (local, so no traffic), then applies the op's last step. */
enum cb_status cb_algo_single_rank(struct cb_backend *be, const struct cb_run_args *a);

#endif
