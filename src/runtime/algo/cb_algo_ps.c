/* Parameter server (ps): the naive allreduce every data-parallel framework
 * started with. Each worker puts its whole input into its own slot of the
 * root's slot area; the root reduces its own input and the n - 1 slots into
 * its receive buffer; each worker then copies the result out of the root.
 * Root tx = rx = (n-1)S, every worker tx = rx = S (DESIGN.md section 1).
 *
 * Synchronisation, per call e (base = 2e), with monotonic progress flags:
 *   worker: wait root >= base      (root done with call e-1: slot free)
 *           copy input -> slot; post base+1
 *           wait root >= base+2    (result ready)
 *           copy result out; post base+2
 *   root:   wait every worker >= base+1 (inputs in; and their copy-out of
 *           call e-1 done, so the receive buffer may be overwritten)
 *           reduce, finalize; post base+2
 */
#include <stdlib.h>

#include "cb_algo_common.h"
#include "cb_pattern.h"

extern const struct cb_algo_ops cb_algo_ps_p2p_ops; /* cb_algo_ps_p2p.c */

struct ps_state {
	struct cb_backend *be;
	struct cb_buf *slots;   /* (n-1) * slot_bytes on the root, 0 elsewhere */
	struct cb_flags *flags;
	size_t max_bytes;
	size_t slot_bytes;      /* slot spacing: max_bytes rounded up to 256 B */
	int root;               /* node rank of the root (-1: on another host) */
	uint64_t epoch;
};

static void ps_teardown(void *state)
{
	struct ps_state *ps = state;

	if (!ps)
		return;
	ps->be->ops->flags_free(ps->be, ps->flags);
	ps->be->ops->buf_free(ps->be, ps->slots);
	free(ps);
}

static enum cb_status ps_setup(struct cb_backend *be, const struct cb_setup_args *sa,
			       void **state)
{
	struct ps_state *ps = calloc(1, sizeof(*ps));
	size_t area;
	enum cb_status st;

	*state = NULL;
	if (!ps)
		return CB_ERR_NOMEM;
	ps->be = be;
	/* one-sided ps runs where node == world (supports()): the same rank */
	ps->root = cb_backend_node_rank_of(be, sa->root);
	ps->max_bytes = sa->max_bytes;
	ps->slot_bytes = cb_ps_slot_bytes(sa->max_bytes);
	area = be->node_rank == ps->root ? (size_t)(be->node_size - 1) * ps->slot_bytes : 0;
	st = be->ops->buf_alloc(be, area, &ps->slots);
	if (st != CB_OK)
		goto out_free;
	st = be->ops->flags_alloc(be, &ps->flags);
	if (st != CB_OK)
		goto out_free_slots;
	*state = ps;
	return CB_OK;

out_free_slots:
	be->ops->buf_free(be, ps->slots);
out_free:
	free(ps);
	return st;
}

static enum cb_status ps_worker(struct ps_state *ps, const struct cb_run_args *a, uint64_t base)
{
	struct cb_backend *be = ps->be;
	size_t bytes = a->count * cb_dtype_size(a->dt);
	size_t slot_off = (size_t)cb_ps_slot(be->node_rank, ps->root) * ps->slot_bytes;
	enum cb_status st;

	st = cb_be_wait(be, ps->flags, ps->root, base);
	if (st == CB_OK) /* push: my input into my slot at the root */
		st = cb_be_copy(be, cb_buf_ref(ps->slots, ps->root, slot_off),
				cb_buf_ref(a->send, be->node_rank, 0), bytes);
	if (st == CB_OK)
		st = be->ops->post(be, ps->flags, base + 1);
	if (st == CB_OK)
		st = cb_be_wait(be, ps->flags, ps->root, base + 2);
	if (st == CB_OK) /* pull: the reduced result out of the root */
		st = cb_be_copy(be, cb_buf_ref(a->recv, be->node_rank, 0),
				cb_buf_ref(a->recv, ps->root, 0), bytes);
	if (st == CB_OK)
		st = be->ops->post(be, ps->flags, base + 2);
	return st;
}

static enum cb_status ps_root(struct ps_state *ps, const struct cb_run_args *a, uint64_t base)
{
	struct cb_backend *be = ps->be;
	struct cb_ref acc = cb_buf_ref(a->recv, be->node_rank, 0);
	struct cb_ref lhs = cb_buf_ref(a->send, be->node_rank, 0);
	enum cb_status st = CB_OK;

	for (int w = 0; w < be->node_size && st == CB_OK; w++)
		if (w != ps->root)
			st = cb_be_wait(be, ps->flags, w, base + 1);
	/* acc = send op slot_0 op slot_1 ... in worker rank order */
	for (int w = 0; w < be->node_size && st == CB_OK; w++) {
		size_t off = (size_t)cb_ps_slot(w, ps->root) * ps->slot_bytes;

		if (w == ps->root)
			continue;
		st = cb_be_reduce(be, acc, lhs, cb_buf_ref(ps->slots, ps->root, off),
				  a->count, a->dt, a->op);
		lhs = acc;
	}
	if (st == CB_OK)
		st = cb_be_finalize(be, acc, a->count, a->dt, a->op);
	if (st == CB_OK)
		st = be->ops->post(be, ps->flags, base + 2);
	return st;
}

static enum cb_status ps_run(void *state, const struct cb_run_args *a)
{
	struct ps_state *ps = state;
	uint64_t base;

	if (a->count * cb_dtype_size(a->dt) > ps->max_bytes)
		return CB_ERR_ARG;
	if (ps->be->node_size == 1)
		return cb_algo_single_rank(ps->be, a);
	if (a->count == 0)
		return CB_OK;
	base = 2 * ps->epoch++;
	if (ps->be->node_rank == ps->root)
		return ps_root(ps, a, base);
	return ps_worker(ps, a, base);
}

const struct cb_algo_ops cb_algo_ps_ops = {
	.desc = &cb_desc_ps,
	.supports = cb_algo_supports_one_host,
	.setup = ps_setup,
	.run = ps_run,
	.teardown = ps_teardown,
	.two_sided = &cb_algo_ps_p2p_ops,
};
