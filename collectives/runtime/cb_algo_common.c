/* Helpers shared by the algorithms (contract in cb_algo_common.h). */
#include "cb_algo_common.h"

#include "cb_p2p.h"

enum cb_status cb_algo_single_rank(struct cb_backend *be, const struct cb_run_args *a)
{
	struct cb_ref dst = cb_buf_ref(a->recv, be->node_rank, 0);
	enum cb_status st = CB_OK;

	if (a->count == 0)
		return CB_OK;
	if (a->send != a->recv)
		st = cb_be_copy(be, dst, cb_buf_ref(a->send, be->node_rank, 0),
				a->count * cb_dtype_size(a->dt));
	if (st != CB_OK)
		return st;
	return cb_be_finalize(be, dst, a->count, a->dt, a->op);
}

const char *cb_algo_supports_one_host(const struct cb_backend *be, enum cb_dtype dt,
				      enum cb_op op, int in_place)
{
	(void)dt, (void)op, (void)in_place;
	if (!be->single_node)
		return "ranks span several hosts; shared memory and IPC reach one host only";
	return be->peer_unreachable;
}

const char *cb_algo_supports_p2p(const struct cb_backend *be, enum cb_dtype dt, enum cb_op op,
				 int in_place)
{
	(void)dt, (void)op, (void)in_place;
	return cb_p2p_unusable(be);
}

enum cb_status cb_algo_setup_backend(struct cb_backend *be, const struct cb_setup_args *sa,
				     void **state)
{
	(void)sa;
	*state = be;
	return CB_OK;
}

void cb_algo_teardown_none(void *state)
{
	(void)state;
}
