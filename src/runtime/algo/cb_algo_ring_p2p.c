/* Ring allreduce over the two-sided transport (p2p, cb_p2p.h): the schedule
 * of the one-sided ring (cb_algo_ring.c; cb_pattern.h: which chunk moves at
 * which step, cut in slices), with the left neighbour sending what the
 * one-sided ring would pull from it. Ranks are world ranks.
 *
 * Round u = s * nslices + j moves slice j of step s: every rank sends to its
 * right the slice its right neighbour reads at step s (cb_ring_step of the
 * right: its input at step 0, else the slice this rank produced at round
 * u - nslices) and receives from its left the slice it reads itself, into
 * staging for a reduce-scatter step (then recv = staged op send), straight
 * into its receive buffer for an all-gather step. So each rank sends exactly
 * the bytes its right neighbour receives: tx_r = rx_{r+1}, the formulas of
 * DESIGN.md section 1, counted by cb_p2p_send and cb_p2p_recv.
 *
 * Pipelining: with two slices or more per chunk, round u+1 is posted before
 * round u is reduced (its data is ready: produced at u+1-nslices < u), so the
 * transfer of one slice overlaps the reduce of the one before. Two staging
 * slices alternate. An all-gather receive overwrites a slice this rank sent
 * (nslices - 1) steps before, in a round long waited for.
 *
 * Slice size: cb_ring_p2p_slice_count (cb_pattern.h, with the measurements
 * behind it), which the cost model reads too: with --slicebytes, that; with
 * the backend's default, at least a chunk's 1/CB_RING_P2P_SLICES up to
 * CB_RING_P2P_SLICE_MAX (4 MiB), since each slice is a message of its own. */
#include <stdlib.h>

#include "cb_algo_common.h"
#include "cb_p2p.h"
#include "cb_pattern.h"

_Static_assert(CB_P2P_SLICE_SPAN == CB_P2P_MAX_SPAN, "cb_pattern.h's span is cb_p2p.h's");

struct ring_p2p {
	struct cb_backend *be;
	struct cb_p2p *p;     /* NULL where p2p cannot reach the ranks (supports) */
	void *stage[2];
	size_t max_bytes, slice_bytes;
	int auto_slice;       /* no --slicebytes: see "Slice size" above */
};

/* One run's geometry. */
struct ring_run {
	const struct cb_run_args *a;
	size_t esz, slice_count, nslices, rounds;
};

static void ring_p2p_teardown(void *state)
{
	struct ring_p2p *rg = state;

	if (!rg)
		return;
	cb_p2p_close_staged(rg->p, rg->stage, 2);
	free(rg);
}

static enum cb_status ring_p2p_setup(struct cb_backend *be, const struct cb_setup_args *sa,
				     void **state)
{
	struct ring_p2p *rg = calloc(1, sizeof(*rg));
	size_t stage;
	enum cb_status st = CB_OK;

	*state = NULL;
	if (!rg)
		return CB_ERR_NOMEM;
	rg->be = be;
	rg->max_bytes = sa->max_bytes;
	rg->slice_bytes = sa->slice_bytes ? sa->slice_bytes : be->ops->desc->pipeline_bytes;
	rg->auto_slice = !sa->slice_bytes;
	if (rg->slice_bytes > CB_P2P_MAX_SPAN)
		rg->slice_bytes = CB_P2P_MAX_SPAN;
	/* a slice is at most slice_bytes (or one element), or with auto_slice
	 * CB_RING_P2P_SLICE_MAX (see slice_elems), and at most the message */
	stage = rg->slice_bytes;
	if (rg->auto_slice && stage < CB_RING_P2P_SLICE_MAX)
		stage = CB_RING_P2P_SLICE_MAX;
	stage = stage < sa->max_bytes ? stage : sa->max_bytes;
	stage = stage < 16 ? 16 : stage;
	if (!cb_p2p_unusable(be) && be->world_size > 1)
		st = cb_p2p_open(be, 2, &rg->p);
	for (int i = 0; i < 2 && rg->p && st == CB_OK; i++)
		st = rg->p->ops->alloc(rg->p, stage, &rg->stage[i]);
	if (st != CB_OK) {
		ring_p2p_teardown(rg);
		return st;
	}
	*state = rg;
	return CB_OK;
}

/* Elements per slice for count elements on n ranks (see the top). */
static size_t slice_elems(const struct ring_p2p *rg, size_t count, int n, size_t esz)
{
	return cb_ring_p2p_slice_count(rg->slice_bytes, rg->auto_slice, count, n, esz);
}

/* Where slice j of chunk c of buf starts, and its bytes. */
static char *slice_at(const struct ring_run *r, struct cb_buf *buf, int me, int n, int c,
		      size_t j, size_t *bytes)
{
	size_t coff, ccount, soff, scount;

	cb_chunk(r->a->count, n, c, &coff, &ccount);
	cb_slice(ccount, r->slice_count, j, &soff, &scount);
	*bytes = scount * r->esz;
	return (char *)buf->peer[me] + (coff + soff) * r->esz;
}

/* Posts round u: the right's slice out, the left's slice in. */
static enum cb_status issue(struct ring_p2p *rg, const struct ring_run *r, size_t u)
{
	struct cb_backend *be = rg->be;
	int n = be->world_size, me = be->world_rank, s = (int)(u / r->nslices), nr = be->node_rank;
	size_t j = u % r->nslices, sbytes, rbytes;
	struct cb_ring_step out, in;
	char *src, *dst;
	enum cb_status st;

	cb_ring_step(cb_ring_right(me, n), n, s, &out); /* what my right reads of mine */
	cb_ring_step(me, n, s, &in);                     /* what I read of my left */
	src = slice_at(r, out.peer_send ? r->a->send : r->a->recv, nr, n, out.chunk, j, &sbytes);
	dst = slice_at(r, r->a->recv, nr, n, in.chunk, j, &rbytes);
	if (in.reduce)
		dst = rg->stage[u % 2];
	st = cb_p2p_round_begin(rg->p);
	if (st == CB_OK)
		st = cb_p2p_send(rg->p, cb_ring_right(me, n), src, sbytes);
	if (st == CB_OK)
		st = cb_p2p_recv(rg->p, cb_ring_left(me, n), dst, rbytes);
	if (st == CB_OK)
		st = cb_p2p_round_end(rg->p);
	return st;
}

/* After round u arrived: a reduce-scatter step reduces the staged slice into
 * the receive buffer (and the last one finishes the op); nothing else. */
static enum cb_status reduce(struct ring_p2p *rg, const struct ring_run *r, size_t u)
{
	struct cb_backend *be = rg->be;
	int n = be->world_size, s = (int)(u / r->nslices), nr = be->node_rank;
	size_t bytes;
	struct cb_ring_step in;
	struct cb_ref dst, mine, staged = { rg->stage[u % 2], nr };
	enum cb_status st;

	cb_ring_step(be->world_rank, n, s, &in);
	if (!in.reduce)
		return CB_OK;
	dst.ptr = slice_at(r, r->a->recv, nr, n, in.chunk, u % r->nslices, &bytes);
	mine.ptr = slice_at(r, r->a->send, nr, n, in.chunk, u % r->nslices, &bytes);
	dst.rank = mine.rank = nr;
	/* local: the staged bytes were counted when received */
	st = cb_be_reduce(be, dst, staged, mine, bytes / r->esz, r->a->dt, r->a->op);
	if (st == CB_OK && s == n - 2 && bytes) /* my chunk is complete: finish it */
		st = cb_be_finalize(be, dst, bytes / r->esz, r->a->dt, r->a->op);
	return st;
}

static enum cb_status ring_p2p_run(void *state, const struct cb_run_args *a)
{
	struct ring_p2p *rg = state;
	struct cb_backend *be = rg->be;
	int n = be->world_size;
	struct ring_run r = { a, cb_dtype_size(a->dt), 0, 0, 0 };
	enum cb_status st;

	if (a->count * r.esz > rg->max_bytes)
		return CB_ERR_ARG;
	if (n == 1)
		return cb_algo_single_rank(be, a);
	if (!rg->p)
		return CB_ERR_UNSUPPORTED;
	if (a->count == 0)
		return CB_OK;
	r.slice_count = slice_elems(rg, a->count, n, r.esz);
	r.nslices = cb_slice_num(a->count, n, r.slice_count);
	r.rounds = (size_t)cb_ring_nsteps(n) * r.nslices;
	st = issue(rg, &r, 0);
	for (size_t u = 0; u < r.rounds && st == CB_OK; u++) {
		int ahead = r.nslices > 1 && u + 1 < r.rounds;

		if (ahead) /* its data is ready: the next round overlaps this reduce */
			st = issue(rg, &r, u + 1);
		if (st == CB_OK)
			st = cb_p2p_round_wait(rg->p);
		if (st == CB_OK)
			st = reduce(rg, &r, u);
		if (st == CB_OK && !ahead && u + 1 < r.rounds)
			st = issue(rg, &r, u + 1);
	}
	return st;
}

const struct cb_algo_ops cb_algo_ring_ref_p2p_ops = {
	.desc = &cb_desc_ring_ref,
	.two_sided_code = 1,
	.supports = cb_algo_supports_p2p,
	.setup = ring_p2p_setup,
	.run = ring_p2p_run,
	.teardown = ring_p2p_teardown,
};
