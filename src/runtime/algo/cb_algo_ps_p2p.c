/* Parameter server (ps) over the two-sided transport (p2p, cb_p2p.h): what
 * the one-sided ps (cb_algo_ps.c) moves, sent instead of stored: each worker
 * sends its input to the root (-r, a world rank), the root reduces its own
 * input and the n - 1 received ones in worker rank order and sends the
 * result back. Root tx = rx = (n-1)S, every worker tx = rx = S (DESIGN.md
 * section 1), counted by cb_p2p_send and cb_p2p_recv.
 *
 * Pipelined by slices (cb_slice over the whole buffer, slices of
 * cb_ps_p2p_slice_count, which the cost model reads too), so the root
 * receives, reduces and sends at once, as a link-bound root would: round t carries slice t of every input to the root and slice
 * t - 2 of the result back. The root posts round t + 1 before it reduces
 * slice t (round t + 1 sends slice t - 1, reduced in the loop before), so
 * the next inputs and the previous result move while it reduces; its
 * receives alternate between two staging areas of n - 1 slices. A worker's
 * result slice t - 2 lands in its receive buffer two rounds after its input
 * slice t - 2 left (in place, the same bytes), in a round it waited for. */
#include <stdlib.h>

#include "cb_algo_common.h"
#include "cb_p2p.h"
#include "cb_pattern.h"

/* result slices travel this many rounds behind the input slices */
#define LAG 2

struct ps_p2p {
	struct cb_backend *be;
	struct cb_p2p *p;        /* NULL where p2p cannot reach the ranks */
	void *stage[2];          /* on the root: n - 1 slices of stage_slot bytes each */
	size_t stage_slot;
	size_t max_bytes, slice_bytes;
	int root;                /* world rank */
};

/* One run's geometry. */
struct ps_run {
	const struct cb_run_args *a;
	size_t esz, slice_count, nslices;
};

static void ps_p2p_teardown(void *state)
{
	struct ps_p2p *ps = state;

	if (!ps)
		return;
	cb_p2p_close_staged(ps->p, ps->stage, 2);
	free(ps);
}

static enum cb_status ps_p2p_setup(struct cb_backend *be, const struct cb_setup_args *sa,
				   void **state)
{
	struct ps_p2p *ps = calloc(1, sizeof(*ps));
	int n = be->world_size, root = be->world_rank == sa->root;
	enum cb_status st = CB_OK;

	*state = NULL;
	if (!ps)
		return CB_ERR_NOMEM;
	ps->be = be;
	ps->root = sa->root;
	ps->max_bytes = sa->max_bytes;
	ps->slice_bytes = sa->slice_bytes ? sa->slice_bytes : be->ops->desc->pipeline_bytes;
	if (ps->slice_bytes > CB_P2P_MAX_SPAN)
		ps->slice_bytes = CB_P2P_MAX_SPAN;
	/* slots as aligned as the one-sided ps's (cb_ps_slot_bytes) */
	ps->stage_slot = cb_ps_slot_bytes(ps->slice_bytes < sa->max_bytes ? ps->slice_bytes :
					  sa->max_bytes);
	if (!cb_p2p_unusable(be) && n > 1)
		st = cb_p2p_open(be, root ? 2 * (n - 1) : 2, &ps->p);
	for (int i = 0; i < 2 && root && ps->p && st == CB_OK; i++)
		st = ps->p->ops->alloc(ps->p, (size_t)(n - 1) * ps->stage_slot,
				       &ps->stage[i]);
	if (st != CB_OK) {
		ps_p2p_teardown(ps);
		return st;
	}
	*state = ps;
	return CB_OK;
}

/* Slice t of buf (this rank's part): its start and bytes; none past the end. */
static char *slice_at(const struct ps_run *r, struct cb_buf *buf, int nr, size_t t,
		      size_t *bytes)
{
	size_t off, scount;

	cb_slice(r->a->count, r->slice_count, t, &off, &scount);
	*bytes = scount * r->esz;
	return (char *)buf->peer[nr] + off * r->esz;
}

/* The root's staging slot of worker w for round t. */
static char *slot_of(const struct ps_p2p *ps, int w, size_t t)
{
	return (char *)ps->stage[t % 2] + (size_t)cb_ps_slot(w, ps->root) * ps->stage_slot;
}

/* Round t: slice t of the inputs in, slice t - LAG of the result out (each
 * NULL past its end). */
static enum cb_status issue(struct ps_p2p *ps, const struct ps_run *r, size_t t)
{
	struct cb_backend *be = ps->be;
	int nr = be->node_rank;
	size_t in_bytes = 0, out_bytes = 0;
	char *in = t < r->nslices ? slice_at(r, r->a->send, nr, t, &in_bytes) : NULL;
	char *out = t >= LAG ? slice_at(r, r->a->recv, nr, t - LAG, &out_bytes) : NULL;
	enum cb_status st = cb_p2p_round_begin(ps->p);

	if (be->world_rank != ps->root) { /* a worker: input out, result in */
		if (st == CB_OK && in)
			st = cb_p2p_send(ps->p, ps->root, in, in_bytes);
		if (st == CB_OK && out)
			st = cb_p2p_recv(ps->p, ps->root, out, out_bytes);
	}
	for (int w = 0; w < be->world_size && be->world_rank == ps->root; w++) {
		if (w == ps->root)
			continue;
		if (st == CB_OK && in)
			st = cb_p2p_recv(ps->p, w, slot_of(ps, w, t), in_bytes);
		if (st == CB_OK && out)
			st = cb_p2p_send(ps->p, w, out, out_bytes);
	}
	if (st == CB_OK)
		st = cb_p2p_round_end(ps->p);
	return st;
}

/* On the root, after round t arrived: result slice t = own input slice op
 * the workers' in rank order, then the op's last step. */
static enum cb_status reduce(struct ps_p2p *ps, const struct ps_run *r, size_t t)
{
	struct cb_backend *be = ps->be;
	int nr = be->node_rank;
	size_t bytes, count;
	struct cb_ref acc = { slice_at(r, r->a->recv, nr, t, &bytes), nr };
	struct cb_ref lhs = { slice_at(r, r->a->send, nr, t, &bytes), nr };
	enum cb_status st = CB_OK;

	count = bytes / r->esz;
	for (int w = 0; w < be->world_size && st == CB_OK && count; w++) {
		struct cb_ref slot;

		if (w == ps->root)
			continue;
		slot.ptr = slot_of(ps, w, t);
		slot.rank = nr;
		/* local: the slot's bytes were counted when received */
		st = cb_be_reduce(be, acc, lhs, slot, count, r->a->dt, r->a->op);
		lhs = acc;
	}
	if (st == CB_OK && count)
		st = cb_be_finalize(be, acc, count, r->a->dt, r->a->op);
	return st;
}

static enum cb_status ps_p2p_run(void *state, const struct cb_run_args *a)
{
	struct ps_p2p *ps = state;
	struct cb_backend *be = ps->be;
	struct ps_run r = { a, cb_dtype_size(a->dt), 0, 0 };
	int root = be->world_rank == ps->root;
	size_t rounds;
	enum cb_status st;

	if (a->count * r.esz > ps->max_bytes)
		return CB_ERR_ARG;
	if (be->world_size == 1)
		return cb_algo_single_rank(be, a);
	if (!ps->p)
		return CB_ERR_UNSUPPORTED;
	if (a->count == 0)
		return CB_OK;
	r.slice_count = cb_ps_p2p_slice_count(ps->slice_bytes, r.esz); /* as the model */
	r.nslices = cb_slice_num(a->count, 1, r.slice_count);
	rounds = r.nslices + LAG;
	st = issue(ps, &r, 0);
	for (size_t t = 0; t < rounds && st == CB_OK; t++) {
		if (t + 1 < rounds) /* round t + 1 needs slices up to t - 1 reduced */
			st = issue(ps, &r, t + 1);
		if (st == CB_OK)
			st = cb_p2p_round_wait(ps->p);
		if (st == CB_OK && root && t < r.nslices)
			st = reduce(ps, &r, t);
	}
	return st;
}

const struct cb_algo_ops cb_algo_ps_p2p_ops = {
	.desc = &cb_desc_ps,
	.two_sided_code = 1,
	.supports = cb_algo_supports_p2p,
	.setup = ps_p2p_setup,
	.run = ps_p2p_run,
	.teardown = ps_p2p_teardown,
};
