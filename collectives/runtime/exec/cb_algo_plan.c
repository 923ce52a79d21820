/* The plan algorithms: this rank's part of a plan, the one-sided executor,
 * and their registry entries (contract in cb_algo_plan.h).
 *
 * One-sided, per call (base: this rank's progress at the end of the call
 * before, the same on every rank):
 *   entry:        post base + 1 (entered: this call's input is in SEND), then
 *                 wait for every neighbour's progress >= base + 1: each has
 *                 entered this call (and so finished the last). Without it a
 *                 rank could read a peer's SEND before the peer's caller wrote
 *                 this call's input: a real allreduce pays this handshake (an
 *                 MPI_Allreduce, NCCL's and vLLM's one-shot kernels' start
 *                 barrier), so the measurement does too;
 *   round k:      each wait (peer, j) of this rank: peer's progress >= base + 1 + j;
 *                 its steps, in plan order; then post base + 1 + k + 1;
 *   end:          post base + 1 + nrounds.
 * The waits are the plan's (read after write, write after read and write
 * after write, cb_plan.h): with them every round sees what the rounds before
 * it wrote, as on the in-memory executor. */
#include "cb_algo_plan.h"

#include <stdlib.h>
#include <string.h>

#include "cb_algo_common.h"
#include "cb_p2p.h"
#include "cb_pattern.h"

/* The row's plan arguments for count elements of esize bytes. */
static struct cb_plan_args args_for(const struct cb_plan_state *st, size_t count, size_t esize)
{
	struct cb_plan_args a = st->args;

	a.count = count;
	a.esize = esize;
	a.slice_count = cb_plan_slice_count(st->slice_bytes, st->slice_auto, st->two_sided, count,
					    st->args.n, esize);
	return a;
}

/* Builds algo's plan for count elements of esize and, unless in_place is
 * -1 (sizing: the steps and STAGE alone), finishes it (the waits). */
static enum cb_status build(const struct cb_plan_state *st, size_t count, size_t esize,
			    int in_place, struct cb_plan *p)
{
	struct cb_plan_args a = args_for(st, count, esize);
	char err[512] = "";
	enum cb_status e = cb_plan_make(st->algo, &a, p);

	if (e == CB_OK && in_place >= 0 &&
	    (e = cb_plan_finish(p, in_place, err, sizeof(err))) != CB_OK)
		cb_plan_free(p);
	if (e == CB_ERR_ARG)
		cb_log("%s: no plan for %d ranks, %zu elements of %zu B%s%s", st->algo->name, a.n,
		       count, esize, *err ? ": " : " (its arguments: --servers, -r)", err);
	return e;
}

/* A step's part for this rank: one-sided, the steps it executes; two-sided,
 * the ones that move bytes to or from it or that it does alone. */
static int mine(const struct cb_plan_state *st, const struct cb_plan_step *s)
{
	if (!st->two_sided)
		return s->exec == st->me;
	return s->dst.rank == st->me || s->a.rank == st->me;
}

/* The plan's part for this rank: its rounds, their waits and steps. */
static enum cb_status extract(struct cb_plan_state *st)
{
	const struct cb_plan *p = &st->plan;
	size_t nmine = 0, nr = 0;

	free(st->round), free(st->step), free(st->neigh);
	st->round = calloc(p->nrounds ? p->nrounds : 1, sizeof(*st->round));
	st->step = malloc((p->nsteps ? p->nsteps : 1) * sizeof(*st->step));
	st->neigh = malloc((size_t)p->n * sizeof(*st->neigh));
	if (!st->round || !st->step || !st->neigh)
		return CB_ERR_NOMEM;
	for (size_t k = 0; k < p->nrounds; k++) {
		struct cb_my_round *r = &st->round[nr];
		size_t nw;
		const struct cb_plan_wait *w = cb_plan_waits(p, st->me, k, &nw);

		*r = (struct cb_my_round){ k, (size_t)(w - p->waits), st->two_sided ? 0 : nw, nmine,
					   0, 0, 0, 0 };
		for (size_t i = p->round_first[k]; i < p->round_first[k + 1]; i++)
			if (mine(st, &p->steps[i]))
				st->step[nmine++] = i;
		r->ns = nmine - r->sfirst;
		if (r->ns || r->nw)
			nr++;
	}
	st->nround = nr;
	st->nneigh = cb_plan_neighbours(p, st->me, st->neigh);
	return st->nneigh < 0 ? CB_ERR_NOMEM : CB_OK;
}

enum cb_status cb_plan_state_prepare(struct cb_plan_state *st, const struct cb_run_args *a)
{
	size_t esize = cb_dtype_size(a->dt);
	int in_place = a->send == a->recv;
	enum cb_status e;

	if (st->plan.n && st->count == a->count && st->esize == esize && st->in_place == in_place)
		return CB_OK;
	if (st->plan.n)
		cb_plan_free(&st->plan);
	e = build(st, a->count, esize, in_place, &st->plan);
	if (e != CB_OK)
		return e;
	st->count = a->count, st->esize = esize, st->in_place = in_place;
	return extract(st);
}

enum cb_status cb_plan_state_init(struct cb_plan_state *st, struct cb_backend *be,
				  const struct cb_setup_args *sa, int two_sided, size_t *stage_bytes)
{
	memset(st, 0, sizeof(*st));
	st->be = be;
	st->algo = sa->algo->plan;
	st->two_sided = two_sided;
	st->me = be->world_rank;
	st->max_bytes = sa->max_bytes;
	st->slice_bytes = sa->slice_bytes ? sa->slice_bytes : be->ops->desc->pipeline_bytes;
	st->slice_auto = !sa->slice_bytes;
	st->args = (struct cb_plan_args){ be->world_size, 0, 1, sa->root, sa->servers, 0,
					  sa->rank_host, NULL };
	*stage_bytes = 0;
	/* the largest STAGE, and per round the most messages and staging, over
	 * the element sizes at the largest count: the steps say them, the
	 * waits (prepare's) are not needed */
	for (size_t esize = 1; esize <= 8; esize *= 2) {
		struct cb_plan p;
		enum cb_status e = build(st, cb_coll_count(st->algo->coll, st->args.n,
							   sa->max_bytes / esize), esize, -1, &p);

		if (e != CB_OK)
			return e;
		if (p.stage_count[st->me] * esize > *stage_bytes)
			*stage_bytes = p.stage_count[st->me] * esize;
		for (size_t k = 0; k < p.nrounds; k++) {
			size_t msgs = 0, staged = 0;

			for (size_t i = p.round_first[k]; i < p.round_first[k + 1]; i++) {
				const struct cb_plan_step *s = &p.steps[i];

				if (s->a.rank == s->dst.rank || !mine(st, s))
					continue;
				msgs++;
				if (s->dst.rank == st->me) /* a receive, staged at most */
					staged += s->count * esize;
			}
			st->max_msgs = msgs > st->max_msgs ? msgs : st->max_msgs;
			st->mstage_bytes = staged > st->mstage_bytes ? staged : st->mstage_bytes;
		}
		cb_plan_free(&p);
	}
	return CB_OK;
}

void cb_plan_state_fini(struct cb_plan_state *st)
{
	if (st->plan.n)
		cb_plan_free(&st->plan);
	free(st->round);
	free(st->step);
	free(st->neigh);
	free(st->direct);
}

size_t cb_plan_mem_off(const struct cb_plan_state *st, struct cb_plan_ref r)
{
	/* in place SEND and RECV are one buffer: the larger's offset is the one */
	return st->in_place ? cb_plan_canon_ref(&st->plan, r).off : r.off;
}

struct cb_ref cb_plan_span(const struct cb_plan_state *st, const struct cb_run_args *a,
			   struct cb_plan_ref r)
{
	struct cb_backend *be = st->be;
	size_t off = cb_plan_mem_off(st, r) * st->esize;
	int nr = cb_backend_node_rank_of(be, r.rank);

	switch (r.buf) {
	case CB_PLAN_SEND:
		return cb_buf_ref(a->send, nr, off);
	case CB_PLAN_RECV:
		return cb_buf_ref(a->recv, nr, off);
	default:
		if (st->two_sided) { /* this rank's own STAGE */
			struct cb_ref ref = { (char *)st->lstage + off, be->node_rank };
			return ref;
		}
		return cb_buf_ref(st->stage, nr, off);
	}
}

/* ---- the one-sided executor -------------------------------------------- */

static void plan_teardown(void *state)
{
	struct cb_plan_state *st = state;

	if (!st)
		return;
	st->be->ops->flags_free(st->be, st->flags);
	st->be->ops->buf_free(st->be, st->stage);
	cb_plan_state_fini(st);
	free(st);
}

static enum cb_status plan_setup(struct cb_backend *be, const struct cb_setup_args *sa,
				 void **state)
{
	struct cb_plan_state *st = calloc(1, sizeof(*st));
	size_t stage_bytes = 0;
	enum cb_status e;

	*state = NULL;
	if (!st)
		return CB_ERR_NOMEM;
	/* one-sided plans run where node == world (supports()): the same ranks */
	e = cb_plan_state_init(st, be, sa, 0, &stage_bytes);
	if (e == CB_OK)
		e = be->ops->buf_alloc(be, stage_bytes, &st->stage);
	if (e == CB_OK)
		e = be->ops->flags_alloc(be, &st->flags);
	if (e != CB_OK) {
		if (st->stage)
			be->ops->buf_free(be, st->stage);
		cb_plan_state_fini(st);
		free(st);
		return e;
	}
	*state = st;
	return CB_OK;
}

static enum cb_status plan_prepare(void *state, const struct cb_run_args *a)
{
	return cb_plan_state_prepare(state, a);
}

/* One step: a copy (none where dst is a itself), a reduce, the op's end. */
static enum cb_status do_step(struct cb_plan_state *st, const struct cb_run_args *a,
			      const struct cb_plan_step *s)
{
	struct cb_ref dst = cb_plan_span(st, a, s->dst), src = cb_plan_span(st, a, s->a);
	enum cb_status e = CB_OK;

	if (s->op == CB_PLAN_REDUCE)
		e = cb_be_reduce(st->be, dst, src, cb_plan_span(st, a, s->b), s->count, a->dt, a->op);
	else if (dst.ptr != src.ptr)
		e = cb_be_copy(st->be, dst, src, s->count * st->esize);
	if (e == CB_OK && s->final)
		e = cb_be_finalize(st->be, dst, s->count, a->dt, a->op);
	return e;
}

static enum cb_status plan_run(void *state, const struct cb_run_args *a)
{
	struct cb_plan_state *st = state;
	struct cb_backend *be = st->be;
	const struct cb_plan *p = &st->plan;
	uint64_t base = st->seq + 1, posted = base; /* base: entered this call */
	enum cb_status e;

	if (a->count * cb_dtype_size(a->dt) > st->max_bytes || !p->n || a->count != st->count)
		return CB_ERR_ARG;
	st->seq += p->nrounds + 1;
	e = be->ops->post(be, st->flags, base);
	for (int i = 0; i < st->nneigh && e == CB_OK; i++)
		e = cb_be_wait(be, st->flags, st->neigh[i], base);
	for (size_t r = 0; r < st->nround && e == CB_OK; r++) {
		const struct cb_my_round *mr = &st->round[r];

		for (size_t w = 0; w < mr->nw && e == CB_OK; w++)
			e = cb_be_wait(be, st->flags, p->waits[mr->wfirst + w].peer,
				       base + p->waits[mr->wfirst + w].rounds);
		for (size_t i = 0; i < mr->ns && e == CB_OK; i++)
			e = do_step(st, a, &p->steps[st->step[mr->sfirst + i]]);
		if (e == CB_OK && mr->ns) {
			posted = base + mr->k + 1;
			e = be->ops->post(be, st->flags, posted);
		}
	}
	if (e == CB_OK && posted != st->seq)
		e = be->ops->post(be, st->flags, st->seq);
	return e;
}

/* The one-sided executor's ops; the registry (cb_algo_plan_registry.c)
 * gives each plan algorithm a copy with its descriptor. */
const struct cb_algo_ops cb_algo_plan_template = {
	.supports = cb_algo_supports_one_host,
	.setup = plan_setup,
	.prepare = plan_prepare,
	.run = plan_run,
	.teardown = plan_teardown,
};
