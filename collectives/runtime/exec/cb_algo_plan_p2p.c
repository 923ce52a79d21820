/* The two-sided plan executor (contract in cb_algo_plan.h): a plan's round
 * over the backend's point-to-point transport (cb_p2p.h: MPI for host
 * buffers, NCCL for GPU buffers; ranks are world ranks).
 *
 * Round k on rank r, the steps it takes part in, in plan order:
 *   messages: a step whose a is r's and whose dst is another rank's is a send
 *             of that range; one whose dst is r's and a another rank's is a
 *             receive, straight into dst for a copy ("direct", unless an
 *             earlier step of r's round touches that range) or into staging
 *             for a reduce; posted in one p2p round (every rank walks the
 *             same rounds, so sends meet receives, in plan order per pair);
 *   own work: after the round's messages arrived, in plan order: local
 *             copies and reduces, a staged reduce dst = staged op b, a staged
 *             copy, the op's last step.
 * Pipelining: the next round's messages go out before this round's own work
 * where they neither read nor overwrite what that work touches (the flag
 * `early`, found per row), as the ring over p2p did; staging alternates
 * between two areas. A plan's messages read only ranges earlier rounds
 * wrote (cb_plan.h), so no wait between ranks is needed beyond the rounds. */
#include <stdlib.h>
#include <string.h>

#include "cb_algo_common.h"
#include "cb_algo_plan.h"
#include "cb_p2p.h"

/* A step's ranges on this rank, for the overlap tests: [lo, hi) of one
 * buffer (SEND and RECV one in place, at cb_plan_mem_off), as elements. */
struct span {
	int buf;
	size_t lo, hi;
};

static struct span span_of(const struct cb_plan_state *st, struct cb_plan_ref r, size_t count)
{
	size_t lo = cb_plan_mem_off(st, r);
	struct span s = { st->in_place && r.buf == CB_PLAN_SEND ? CB_PLAN_RECV : (int)r.buf, lo,
			  lo + count };
	return s;
}

static int overlap(struct span x, struct span y)
{
	return x.buf == y.buf && x.lo < y.hi && y.lo < x.hi;
}

static int is_msg(const struct cb_plan_step *s)
{
	return s->a.rank != s->dst.rank;
}

/* 1 when a range of this rank that step s touches as its own work (after
 * the messages) overlaps span x. */
static int work_touches(const struct cb_plan_state *st, const struct cb_plan_step *s,
			struct span x)
{
	if (s->dst.rank != st->me)
		return 0; /* a send: the message part only */
	if (overlap(span_of(st, s->dst, s->count), x))
		return 1;
	if (!is_msg(s) && overlap(span_of(st, s->a, s->count), x))
		return 1;
	return s->op == CB_PLAN_REDUCE && overlap(span_of(st, s->b, s->count), x);
}

/* The range of this rank a message step reads (a send) or writes directly
 * (a received copy); buf -1: none. */
static struct span msg_span(const struct cb_plan_state *st, const struct cb_plan_step *s,
			    int direct)
{
	struct span none = { -1, 0, 0 };

	if (s->a.rank == st->me)
		return span_of(st, s->a, s->count);
	return direct ? span_of(st, s->dst, s->count) : none;
}

/* Round r's direct flags, messages and staging. */
static void round_facts(struct cb_plan_state *st, size_t r)
{
	struct cb_my_round *mr = &st->round[r];
	const struct cb_plan_step *steps = st->plan.steps;

	for (size_t i = 0; i < mr->ns; i++) {
		const struct cb_plan_step *s = &steps[st->step[mr->sfirst + i]];
		int direct = 0;

		if (!is_msg(s))
			continue;
		mr->nmsg++;
		if (s->dst.rank == st->me && s->op == CB_PLAN_COPY) {
			direct = 1;
			for (size_t j = 0; j < i && direct; j++)
				direct = !work_touches(st, &steps[st->step[mr->sfirst + j]],
						       span_of(st, s->dst, s->count));
		}
		if (s->dst.rank == st->me && !direct)
			mr->stage_bytes += s->count * st->esize;
		st->direct[mr->sfirst + i] = (unsigned char)direct;
	}
}

/* May round r + 1's messages go before round r's own work? */
static int early_ok(const struct cb_plan_state *st, size_t r)
{
	const struct cb_my_round *a = &st->round[r], *b = &st->round[r + 1];
	const struct cb_plan_step *steps = st->plan.steps;

	if (!b->nmsg || b->k != a->k + 1)
		return 0;
	for (size_t i = 0; i < b->ns; i++) {
		const struct cb_plan_step *s = &steps[st->step[b->sfirst + i]];
		struct span x = msg_span(st, s, st->direct[b->sfirst + i]);

		if (!is_msg(s) || x.buf < 0)
			continue;
		for (size_t j = 0; j < a->ns; j++)
			if (work_touches(st, &steps[st->step[a->sfirst + j]], x))
				return 0;
	}
	return 1;
}

static enum cb_status p2p_prepare(void *state, const struct cb_run_args *a)
{
	struct cb_plan_state *st = state;
	enum cb_status e = cb_plan_state_prepare(st, a);

	if (e != CB_OK)
		return e;
	free(st->direct);
	st->direct = calloc(st->plan.nsteps ? st->plan.nsteps : 1, 1);
	if (!st->direct)
		return CB_ERR_NOMEM;
	for (size_t r = 0; r < st->nround; r++) {
		st->round[r].nmsg = st->round[r].stage_bytes = 0;
		round_facts(st, r);
		if (st->round[r].stage_bytes > st->mstage_bytes)
			return CB_ERR_INTERNAL; /* set-up sized it for the largest count */
	}
	for (size_t r = 0; r + 1 < st->nround; r++)
		st->round[r + 1].early = early_ok(st, r);
	return CB_OK;
}

static void p2p_teardown(void *state)
{
	struct cb_plan_state *st = state;
	void *stage[3];

	if (!st)
		return;
	stage[0] = st->lstage, stage[1] = st->mstage[0], stage[2] = st->mstage[1];
	if (st->p2p)
		cb_p2p_close_staged(st->p2p, stage, 3);
	else
		free(st->lstage); /* one rank: host scratch */
	cb_plan_state_fini(st);
	free(st);
}

static enum cb_status p2p_setup(struct cb_backend *be, const struct cb_setup_args *sa,
				void **state)
{
	struct cb_plan_state *st = calloc(1, sizeof(*st));
	size_t stage_bytes = 0;
	enum cb_status e;

	*state = NULL;
	if (!st)
		return CB_ERR_NOMEM;
	e = cb_plan_state_init(st, be, sa, 1, &stage_bytes);
	if (e == CB_OK && !cb_p2p_unusable(be) && be->world_size > 1)
		e = cb_p2p_open(be, (int)(st->max_msgs ? st->max_msgs : 1), &st->p2p);
	/* local scratch of the buffers' kind: the plan's STAGE and two staging areas */
	if (e == CB_OK && st->p2p)
		e = st->p2p->ops->alloc(st->p2p, stage_bytes ? stage_bytes : 16, &st->lstage);
	for (int i = 0; i < 2 && e == CB_OK && st->p2p; i++)
		e = st->p2p->ops->alloc(st->p2p, st->mstage_bytes ? st->mstage_bytes : 16,
					&st->mstage[i]);
	if (e == CB_OK && !st->p2p && be->world_size == 1 && stage_bytes) {
		st->lstage = calloc(1, stage_bytes); /* one rank: host only (no transport) */
		e = st->lstage ? CB_OK : CB_ERR_NOMEM;
	}
	if (e != CB_OK) {
		p2p_teardown(st);
		return e;
	}
	*state = st;
	return CB_OK;
}

/* Posts round r's messages, staging in area. */
static enum cb_status post_round(struct cb_plan_state *st, const struct cb_run_args *a, size_t r,
				 int area)
{
	const struct cb_my_round *mr = &st->round[r];
	size_t staged = 0;
	enum cb_status e;

	if (!mr->nmsg)
		return CB_OK;
	e = cb_p2p_round_begin(st->p2p);
	for (size_t i = 0; i < mr->ns && e == CB_OK; i++) {
		const struct cb_plan_step *s = &st->plan.steps[st->step[mr->sfirst + i]];
		size_t bytes = s->count * st->esize;

		if (!is_msg(s))
			continue;
		if (s->a.rank == st->me) {
			e = cb_p2p_send(st->p2p, s->dst.rank, cb_plan_span(st, a, s->a).ptr, bytes);
		} else if (st->direct[mr->sfirst + i]) {
			e = cb_p2p_recv(st->p2p, s->a.rank, cb_plan_span(st, a, s->dst).ptr, bytes);
		} else {
			e = cb_p2p_recv(st->p2p, s->a.rank, (char *)st->mstage[area] + staged, bytes);
			staged += bytes;
		}
	}
	return e == CB_OK ? cb_p2p_round_end(st->p2p) : e;
}

/* Round r's own work, after its messages arrived (staged in area). */
static enum cb_status own_work(struct cb_plan_state *st, const struct cb_run_args *a, size_t r,
			       int area)
{
	const struct cb_my_round *mr = &st->round[r];
	struct cb_backend *be = st->be;
	size_t staged = 0;
	enum cb_status e = CB_OK;

	for (size_t i = 0; i < mr->ns && e == CB_OK; i++) {
		const struct cb_plan_step *s = &st->plan.steps[st->step[mr->sfirst + i]];
		struct cb_ref dst, src;

		if (s->dst.rank != st->me)
			continue; /* a send */
		dst = cb_plan_span(st, a, s->dst);
		if (is_msg(s) && !st->direct[mr->sfirst + i]) { /* the staged bytes */
			src.ptr = (char *)st->mstage[area] + staged, src.rank = be->node_rank;
			staged += s->count * st->esize;
		} else if (is_msg(s)) { /* a received copy, landed in dst */
			src = dst;
		} else { /* a.rank is this rank: its own buffers are the only ones it holds */
			src = cb_plan_span(st, a, s->a);
		}
		if (s->op == CB_PLAN_REDUCE) /* local: a received span was counted when received */
			e = cb_be_reduce(be, dst, src, cb_plan_span(st, a, s->b), s->count, a->dt, a->op);
		else if (!(is_msg(s) && st->direct[mr->sfirst + i]) && dst.ptr != src.ptr)
			e = cb_be_copy(be, dst, src, s->count * st->esize);
		if (e == CB_OK && s->final)
			e = cb_be_finalize(be, dst, s->count, a->dt, a->op);
	}
	return e;
}

static enum cb_status p2p_run(void *state, const struct cb_run_args *a)
{
	struct cb_plan_state *st = state;
	size_t posted = 0; /* rounds r < posted are posted */
	enum cb_status e = CB_OK;

	if (a->count * cb_dtype_size(a->dt) > st->max_bytes || !st->plan.n || a->count != st->count)
		return CB_ERR_ARG;
	if (st->plan.n > 1 && !st->p2p)
		return CB_ERR_UNSUPPORTED;
	for (size_t r = 0; r < st->nround && e == CB_OK; r++) {
		if (posted <= r)
			e = post_round(st, a, r, (int)(r % 2)), posted = r + 1;
		/* the next round's messages overlap this round's own work */
		if (e == CB_OK && posted == r + 1 && r + 1 < st->nround && st->round[r + 1].early)
			e = post_round(st, a, r + 1, (int)((r + 1) % 2)), posted = r + 2;
		if (e == CB_OK && st->round[r].nmsg)
			e = cb_p2p_round_wait(st->p2p);
		if (e == CB_OK)
			e = own_work(st, a, r, (int)(r % 2));
	}
	return e;
}

const struct cb_algo_ops cb_algo_plan_p2p_template = {
	.two_sided_code = 1,
	.supports = cb_algo_supports_p2p,
	.setup = p2p_setup,
	.prepare = p2p_prepare,
	.run = p2p_run,
	.teardown = p2p_teardown,
};
