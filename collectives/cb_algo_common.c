#include "cb_algo_common.h"

enum cb_status cb_algo_single_rank(struct cb_backend *be, const struct cb_run_args *a)
{
	struct cb_ref dst = cb_buf_ref(a->recv, be->rank, 0);
	enum cb_status st = CB_OK;

	if (a->count == 0)
		return CB_OK;
	if (a->send != a->recv)
		st = cb_be_copy(be, dst, cb_buf_ref(a->send, be->rank, 0),
				a->count * cb_dtype_size(a->dt));
	if (st != CB_OK)
		return st;
	return be->ops->finalize(be, dst, a->count, a->dt, a->op);
}
