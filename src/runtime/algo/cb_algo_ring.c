/* Ring allreduce: reduce-scatter then all-gather between ring neighbours, in
 * 2(n-1) steps of one chunk (1/n of the buffer) each. See cb_pattern.h for
 * which chunk moves at which step.
 *
 * Every rank pulls from its left neighbour: at each step it reads one chunk of
 * the left's buffer and reduces it into (or, in the all-gather, copies it to)
 * the same chunk of its own receive buffer. Each chunk moves as a fixed number
 * of slices; after each slice the rank bumps its progress counter, so its right
 * neighbour can start on that slice of the next step while this rank moves on:
 * the pipeline that keeps every rank busy at every step and the slice hot in
 * the shared cache when the neighbour reads it.
 *
 * Ordering, per call (base = progress at entry, u = step * nslices + slice):
 *   entry:         left and right >= base (both finished the previous call);
 *   step s > 0:    left >= base + (s-1) * nslices + j + 1 (it wrote slice j
 *                  of the chunk this step reads);
 *   all-gather g:  right >= base + g * nslices + j + 1 (it has read slice j of
 *                  the chunk this step overwrites: the value of reduce-scatter
 *                  step g, or, in place, the original input);
 *   after a slice: post base + u + 1.
 */
#include <stdlib.h>

#include "cb_algo_common.h"
#include "cb_pattern.h"

extern const struct cb_algo_ops cb_algo_ring_ref_p2p_ops; /* cb_algo_ring_p2p.c */

struct ring_state {
	struct cb_backend *be;
	struct cb_flags *flags;
	size_t max_bytes;
	size_t slice_bytes;
	uint64_t seq; /* this rank's progress counter at the end of the last call */
};

static void ring_teardown(void *state)
{
	struct ring_state *rg = state;

	if (!rg)
		return;
	rg->be->ops->flags_free(rg->be, rg->flags);
	free(rg);
}

static enum cb_status ring_setup(struct cb_backend *be, const struct cb_setup_args *sa,
				 void **state)
{
	struct ring_state *rg = calloc(1, sizeof(*rg));
	enum cb_status st;

	*state = NULL;
	if (!rg)
		return CB_ERR_NOMEM;
	rg->be = be;
	rg->max_bytes = sa->max_bytes;
	/* --slicebytes, else the backend's preferred pipelining unit */
	rg->slice_bytes = sa->slice_bytes ? sa->slice_bytes : be->ops->desc->pipeline_bytes;
	st = be->ops->flags_alloc(be, &rg->flags);
	if (st != CB_OK) {
		free(rg);
		return st;
	}
	*state = rg;
	return CB_OK;
}

/* Moves slice j of step s: waits for its inputs, reduces or copies, posts. */
static enum cb_status ring_slice(struct ring_state *rg, const struct cb_run_args *a,
				 const struct cb_ring_step *step, int s, size_t j,
				 size_t nslices, size_t slice_count, uint64_t base)
{
	struct cb_backend *be = rg->be;
	int n = be->node_size, left = step->src, right = cb_ring_right(be->node_rank, n);
	size_t esz = cb_dtype_size(a->dt), coff, ccount, soff, scount, off;
	enum cb_status st = CB_OK;

	cb_chunk(a->count, n, step->chunk, &coff, &ccount);
	cb_slice(ccount, slice_count, j, &soff, &scount);
	off = (coff + soff) * esz;
	if (s > 0)
		st = cb_be_wait(be, rg->flags, left, base + (uint64_t)(s - 1) * nslices + j + 1);
	if (st == CB_OK && step->gather_index >= 0)
		st = cb_be_wait(be, rg->flags, right,
				   base + (uint64_t)step->gather_index * nslices + j + 1);
	if (st != CB_OK)
		return st;
	if (step->reduce) {
		struct cb_buf *src = step->peer_send ? a->send : a->recv;

		/* recv[c] = left's partial (or input) + my input */
		st = cb_be_reduce(be, cb_buf_ref(a->recv, be->node_rank, off),
				  cb_buf_ref(src, left, off), cb_buf_ref(a->send, be->node_rank, off),
				  scount, a->dt, a->op);
		if (st == CB_OK && s == n - 2) /* my chunk is complete: finish it */
			st = cb_be_finalize(be, cb_buf_ref(a->recv, be->node_rank, off), scount,
					       a->dt, a->op);
	} else {
		/* recv[c] = left's final chunk */
		st = cb_be_copy(be, cb_buf_ref(a->recv, be->node_rank, off),
				cb_buf_ref(a->recv, left, off), scount * esz);
	}
	if (st != CB_OK)
		return st;
	return be->ops->post(be, rg->flags, base + (uint64_t)s * nslices + j + 1);
}

static enum cb_status ring_run(void *state, const struct cb_run_args *a)
{
	struct ring_state *rg = state;
	struct cb_backend *be = rg->be;
	int n = be->node_size;
	size_t esz = cb_dtype_size(a->dt), slice_count, nslices;
	uint64_t base;
	enum cb_status st;

	if (a->count * esz > rg->max_bytes)
		return CB_ERR_ARG;
	if (n == 1)
		return cb_algo_single_rank(be, a);
	if (a->count == 0)
		return CB_OK;
	slice_count = cb_ring_slice_count(rg->slice_bytes, esz);
	nslices = cb_slice_num(a->count, n, slice_count);
	base = rg->seq;
	rg->seq += (uint64_t)cb_ring_nsteps(n) * nslices;
	st = cb_be_wait(be, rg->flags, cb_ring_left(be->node_rank, n), base);
	if (st == CB_OK)
		st = cb_be_wait(be, rg->flags, cb_ring_right(be->node_rank, n), base);
	for (int s = 0; s < cb_ring_nsteps(n) && st == CB_OK; s++) {
		struct cb_ring_step step;

		cb_ring_step(be->node_rank, n, s, &step);
		for (size_t j = 0; j < nslices && st == CB_OK; j++)
			st = ring_slice(rg, a, &step, s, j, nslices, slice_count, base);
	}
	return st;
}

const struct cb_algo_ops cb_algo_ring_ref_ops = {
	.desc = &cb_desc_ring_ref,
	.supports = cb_algo_supports_one_host,
	.setup = ring_setup,
	.run = ring_run,
	.teardown = ring_teardown,
	.two_sided = &cb_algo_ring_ref_p2p_ops,
};
