/* copy: each rank copies its S bytes from its send to its receive buffer;
 * nothing crosses ranks. Run in the same job as the allreduce algorithms, it
 * measures the copy roofline of this machine under the same load (every rank
 * copying at once). Reported as algbw only; its traffic is 0 by construction. */
#include <stdlib.h>

#include "cb_algo_common.h"

static const char *copy_supports(const struct cb_backend *be, enum cb_dtype dt, enum cb_op op,
				 int in_place)
{
	(void)be, (void)dt, (void)op;
	return in_place ? "in place there is nothing to copy" : NULL;
}

static enum cb_status copy_run(void *state, const struct cb_run_args *a)
{
	struct cb_backend *be = state;

	return cb_be_copy(be, cb_buf_ref(a->recv, be->node_rank, 0), cb_buf_ref(a->send, be->node_rank, 0),
			  a->count * cb_dtype_size(a->dt));
}

const struct cb_algo_ops cb_algo_copy_ops = {
	.desc = &cb_desc_copy,
	.supports = copy_supports,
	.setup = cb_algo_setup_backend,
	.run = copy_run,
	.teardown = cb_algo_teardown_none,
};
