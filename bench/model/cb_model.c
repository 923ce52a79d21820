/* cb_model: a plan priced round by round on a topology, whole or as a
 * stream of rounds (the model and its assumptions: cb_model.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cb_model.h"
#include "cb_model_topo.h"
#include "cb_pattern.h"
#include "cb_plan_lib.h"


/* A call's time and terms, summed round by round. */
struct acc {
	double time;
	struct cb_model_terms terms;
};

/* Scratch and accumulators of one evaluation. */
struct ev {
	const struct cb_topo *t;
	int n, nhosts, nlinks;  /* nlinks: network links (hosts or ranks) */
	double *out, *in, *red; /* [n] this step's intra-host loads and reduce bytes */
	double *work;           /* [n] one-sided: bytes this step's transfers the rank runs */
	double *fresh;          /* [n] one-sided: bytes they read that another rank
				 * wrote earlier in the call (cb_plan.fresh) */
	double *nout, *nin;     /* [nlinks] this step's network loads */
	double *tx, *rx;        /* [n] bytes per call, per rank */
	double *htx, *hrx;      /* [nhosts] network bytes per call, per host */
	double *hranks;         /* [nhosts] ranks of each host */
	double *hb, *hred;      /* [nhosts] this step's summed rank loads, reduce bytes */
	double *hfresh;         /* [nhosts] and fresh bytes */
	int *host;              /* [n] host of each rank */
	int *list;              /* [n + nlinks] indexes touched this step */
	size_t nlist;
	unsigned *mark;         /* [n + nlinks] step stamp of the last listing */
	unsigned stamp;         /* this step's stamp */
	double alpha;           /* this step's latency */
	int msgs;               /* this step sent a message (even of 0 bytes) */
	int fused;              /* one-sided: moving and reducing overlap */
	double q;               /* time slicing: ranks per CPU of the most loaded
				 * oversubscribed host; 0: a CPU per rank */
	int waited;             /* peers a rank of this step waits for, the most */
	double wait_units;      /* the call's waits term (cb_model_terms) */
	double wait_time;       /* the call's wait_time term */
	struct acc own, shared; /* without and with the CPUs shared (q > 0) */
	struct cb_model_result *r;
};

/* The rate of a one-sided move-and-reduce step on t (fused_bw, else the
 * slower of the intra-host link and gamma), bytes per second. */
static double topo_fused(const struct cb_topo *t)
{
	return t->fused_bw > 0 ? t->fused_bw
	       : t->intra.bw < t->gamma ? t->intra.bw : t->gamma;
}

/* fmax without its NaN rules (no load is NaN): inlined, where fmax is a
 * call per step. */
static inline double dmax(double a, double b)
{
	return a > b ? a : b;
}

static inline int host_of(const struct ev *e, int r)
{
	return e->host[r];
}

static int link_of(const struct ev *e, int r)
{
	return e->t->net_attach == CB_NET_PER_RANK ? r : host_of(e, r);
}

static void ev_free(struct ev *e)
{
	free(e->out);
	free(e->list);
	free(e->mark);
	free(e->host);
}

/* One allocation for every array. Returns CB_OK or CB_ERR_NOMEM. */
static enum cb_status ev_init(struct ev *e, const struct cb_topo *t, int n,
			      struct cb_model_result *r)
{
	size_t nd;

	memset(e, 0, sizeof(*e));
	e->t = t;
	e->n = n;
	e->r = r;
	e->nhosts = (n + t->ranks_per_host - 1) / t->ranks_per_host;
	for (int k = 0; t->rank_host && k < n; k++) /* hosts 0 .. max named */
		e->nhosts = k == 0 || t->rank_host[k] >= e->nhosts ? t->rank_host[k] + 1 : e->nhosts;
	e->nlinks = t->net_attach == CB_NET_PER_RANK ? n : e->nhosts;
	nd = 7 * (size_t)n + 2 * (size_t)e->nlinks + 6 * (size_t)e->nhosts;
	e->out = calloc(nd, sizeof(double));
	e->list = malloc(((size_t)n + (size_t)e->nlinks) * sizeof(int));
	e->mark = calloc((size_t)n + (size_t)e->nlinks, sizeof(unsigned));
	e->host = malloc((size_t)n * sizeof(int));
	e->stamp = 1;
	if (!e->out || !e->list || !e->mark || !e->host) {
		ev_free(e);
		return CB_ERR_NOMEM;
	}
	e->in = e->out + n;
	e->red = e->in + n;
	e->tx = e->red + n;
	e->rx = e->tx + n;
	e->nout = e->rx + n;
	e->nin = e->nout + e->nlinks;
	e->htx = e->nin + e->nlinks;
	e->hrx = e->htx + e->nhosts;
	e->work = e->hrx + e->nhosts;
	e->hranks = e->work + n;
	e->hb = e->hranks + e->nhosts;
	e->hred = e->hb + e->nhosts;
	e->hfresh = e->hred + e->nhosts;
	e->fresh = e->hfresh + e->nhosts;
	for (int k = 0; k < n; k++) {
		e->host[k] = t->rank_host ? t->rank_host[k] : k / t->ranks_per_host;
		e->hranks[e->host[k]] += 1;
	}
	e->q = cb_model_ranks_per_cpu(t, n);
	return CB_OK;
}

/* Lists index k (a rank, or n + a network link) once per step. */
static void touch(struct ev *e, int k)
{
	if (e->mark[k] != e->stamp) {
		e->mark[k] = e->stamp;
		e->list[e->nlist++] = k;
	}
}

/* Adds a transfer of bytes from src to dst (dst reduces `reduce` bytes of it)
 * to the open step and to the per-call totals. */
static void ev_xfer(struct ev *e, int src, int dst, double bytes, double reduce)
{
	e->msgs = 1;
	if (host_of(e, src) == host_of(e, dst)) {
		touch(e, src);
		touch(e, dst);
		e->out[src] += bytes;
		e->in[dst] += bytes;
		e->alpha = dmax(e->alpha, e->t->intra.alpha);
	} else {
		int ls = link_of(e, src), ld = link_of(e, dst);

		touch(e, e->n + ls);
		touch(e, e->n + ld);
		touch(e, dst);
		e->nout[ls] += bytes;
		e->nin[ld] += bytes;
		e->alpha = dmax(e->alpha, e->t->net.alpha);
		e->r->one_class = 0;
		e->htx[host_of(e, src)] += bytes;
		e->hrx[host_of(e, dst)] += bytes;
	}
	e->red[dst] += reduce;
	e->tx[src] += bytes;
	e->rx[dst] += bytes;
}

/* One-sided: rank exec runs a transfer of bytes itself (its CPU or its
 * kernel copies them), after the others it runs in this step; its memory
 * link is busy for the sum (ev_close), where a link carrying transfers that
 * different ranks run is busy for the larger direction. */
static void ev_work(struct ev *e, int exec, double bytes)
{
	touch(e, exec);
	e->work[exec] += bytes;
}

/* A step's loads: its slowest link's time, its most loaded link's bytes,
 * the most bytes a rank reduces and the most it reads fresh. */
struct load {
	double bwt, maxb, maxred, maxfresh;
};

/* Accounts one step from its latency and loads l; net:
 * a network link carried some of them. Two-sided: alpha + bwt + the reduce
 * at gamma. One-sided on one host: the terms' own sum (cb_model_terms), what
 * the fit solves for: the bytes that move and reduce at once (the smaller
 * of the two maxima) at the fused rate, the rest of each at its own. One-
 * sided with a network link: alpha + the slower of moving and reducing.
 * One-sided, the fresh bytes add their own time (fresh_bw; 0: free). */
static double ev_account(struct ev *e, struct acc *a, double alpha, const struct load *l,
			 int net, int msgs)
{
	double maxb = l->maxb, maxred = l->maxred, bwt = l->bwt;
	double gf = topo_fused(e->t), both = e->fused ? fmin(maxb, maxred) : 0;
	double redt = e->fused && both > 0 ? maxred / gf : maxred / e->t->gamma, t;

	if (!e->fused)
		t = bwt + redt;
	else if (net || maxb == 0)
		t = dmax(bwt, redt);
	else
		t = bwt * (maxb - both) / maxb + (maxred - both) / e->t->gamma + both / gf;
	if (e->fused && e->t->fresh_bw > 0)
		t += l->maxfresh / e->t->fresh_bw;
	a->time += alpha + t;
	a->terms.msgs += msgs;
	a->terms.link_bytes += maxb - both;
	a->terms.reduce_bytes += maxred - both;
	a->terms.fused_bytes += both;
	a->terms.fresh_bytes += e->fused ? l->maxfresh : 0;
	return alpha + t;
}

/* Time slicing (cb_model.h): the step's loads of each oversubscribed host
 * summed over its ranks and shared by its CPUs, into l where larger, and
 * the largest of their means over a host's ranks into m (its bwt unused);
 * clears the sums. */
static void ev_share(struct ev *e, struct load *l, struct load *m)
{
	double cpus = e->t->cpus_per_host;

	memset(m, 0, sizeof(*m));
	for (size_t i = 0; i < e->nlist; i++) {
		int k = e->list[i], h;

		if (k >= e->n)
			continue;
		h = host_of(e, k);
		if (e->hranks[h] > cpus && (e->hb[h] > 0 || e->hred[h] > 0 || e->hfresh[h] > 0)) {
			l->bwt = dmax(l->bwt, e->hb[h] / cpus / e->t->intra.bw);
			l->maxb = dmax(l->maxb, e->hb[h] / cpus);
			l->maxred = dmax(l->maxred, e->hred[h] / cpus);
			l->maxfresh = dmax(l->maxfresh, e->hfresh[h] / cpus);
			m->maxb = dmax(m->maxb, e->hb[h] / e->hranks[h]);
			m->maxred = dmax(m->maxred, e->hred[h] / e->hranks[h]);
			m->maxfresh = dmax(m->maxfresh, e->hfresh[h] / e->hranks[h]);
		}
		e->hb[h] = e->hred[h] = e->hfresh[h] = 0;
	}
	m->bwt = m->maxb / e->t->intra.bw;
}

/* Closes the open step (ev_account): its rank's link
 * loads are the larger direction, or, one-sided, the bytes of the transfers
 * the rank runs where that is more (ev_work). */
static void ev_close(struct ev *e)
{
	struct load l = { 0, 0, 0, 0 }, mean;
	int net = 0;

	for (size_t i = 0; i < e->nlist; i++) {
		int k = e->list[i];

		if (k < e->n) {
			double b = dmax(dmax(e->out[k], e->in[k]), e->work[k]);

			l.bwt = dmax(l.bwt, b / e->t->intra.bw);
			l.maxb = dmax(l.maxb, b);
			l.maxred = dmax(l.maxred, e->red[k]);
			l.maxfresh = dmax(l.maxfresh, e->fresh[k]);
			if (e->q > 0) {
				e->hb[host_of(e, k)] += b;
				e->hred[host_of(e, k)] += e->red[k];
				e->hfresh[host_of(e, k)] += e->fresh[k];
			}
			e->out[k] = e->in[k] = e->red[k] = e->work[k] = e->fresh[k] = 0;
		} else {
			double b = dmax(e->nout[k - e->n], e->nin[k - e->n]);

			l.bwt = dmax(l.bwt, b / e->t->net.bw);
			l.maxb = dmax(l.maxb, b);
			e->nout[k - e->n] = e->nin[k - e->n] = 0;
			net = 1;
		}
	}
	ev_account(e, &e->own, e->alpha, &l, net, e->msgs);
	if (e->q > 0) {
		struct acc scratch = { 0 };

		ev_share(e, &l, &mean);
		ev_account(e, &e->shared, e->alpha, &l, net, e->msgs);
		if (e->waited) { /* a rank's time in the step, on the mean: the one waited for */
			double own = ev_account(e, &scratch, e->alpha, &mean, net, 0);

			e->wait_units += (e->q + e->waited / (double)e->t->cpus_per_host);
			e->wait_time += fmin(own, cb_model_base_slice(e->t->cpus_per_host));
		}
	}
	e->nlist = 0;
	e->stamp++;
	e->alpha = 0;
	e->msgs = 0;
	e->waited = 0;
}

/* The call's time and terms into e->r (cb_model.h, time slicing): its own
 * with a CPU per rank; else, where some rank waits, shared, with switch_s
 * per unit of waits and wait_frac of wait_time; where none does, its own
 * stretched past the scheduler's slice. */
static void ev_finish(struct ev *e)
{
	struct acc a = e->own;

	if (e->q > 0 && e->wait_units > 0) {
		a = e->shared;
		a.terms.waits = e->wait_units;
		a.terms.wait_time = e->wait_time;
		a.time += e->t->switch_s * a.terms.waits + e->t->wait_frac * a.terms.wait_time;
	} else {
		a.time = cb_model_stretch(e->t, e->q, a.time);
	}
	e->r->time += a.time;
	e->r->terms.msgs += a.terms.msgs;
	e->r->terms.link_bytes += a.terms.link_bytes;
	e->r->terms.reduce_bytes += a.terms.reduce_bytes;
	e->r->terms.fused_bytes += a.terms.fused_bytes;
	e->r->terms.fresh_bytes += a.terms.fresh_bytes;
	e->r->terms.waits += a.terms.waits;
	e->r->terms.wait_time += a.terms.wait_time;
}

/* The most peers a rank waits for in round k of p (cb_model.h, time
 * slicing): one-sided, its waits derived by cb_plan_finish; two-sided, the
 * messages it receives (at most n - 1). in: [n] scratch. */
static int round_waits(const struct cb_plan *p, size_t k, int one_sided, int *in)
{
	int most = 0;

	for (int r = 0; r < p->n; r++) {
		size_t nw = 0;

		if (one_sided)
			cb_plan_waits(p, r, k, &nw);
		in[r] = (int)nw;
	}
	for (size_t i = p->round_first[k]; !one_sided && i < p->round_first[k + 1]; i++)
		if (p->steps[i].a.rank != p->steps[i].dst.rank)
			in[p->steps[i].dst.rank]++;
	for (int r = 0; r < p->n; r++)
		most = in[r] > most ? in[r] : most;
	return most < p->n - 1 ? most : p->n - 1;
}

enum cb_status cb_model_case_plan(const struct cb_topo *t, const struct cb_model_case *c,
				  struct cb_plan *p)
{
	struct cb_plan_args a = { .n = c->n, .count = c->count, .esize = c->esize, .root = c->root,
				  .servers = c->servers > 0 ? c->servers : 1, .rank_host = t->rank_host,
				  .slice_count = c->unsliced ? 0 : cb_plan_slice_count(t->slice_bytes,
						c->slice_auto, c->two_sided, c->count, c->n, c->esize) };

	if (!c->plan)
		return CB_ERR_ARG;
	return cb_plan_make(c->plan, &a, p);
}

/* Round k of p, its steps' fresh elements fresh[] (NULL: none known),
 * into e's open step (ev_close makes it one step of the formula,
 * cb_model.h). */
static void price_steps(struct ev *e, const struct cb_plan *p, size_t k, const size_t *fresh,
			size_t esize)
{
	for (size_t i = p->round_first[k]; i < p->round_first[k + 1]; i++) {
		const struct cb_plan_step *s = &p->steps[i];
		double b = (double)s->count * (double)esize;
		double red = s->op == CB_PLAN_REDUCE ? b : 0;

		if (e->fused && fresh)
			e->fresh[s->exec] += (double)fresh[i] * (double)esize;
		if (s->a.rank != s->dst.rank) {
			ev_xfer(e, s->a.rank, s->dst.rank, b, red);
			if (e->fused)
				ev_work(e, s->exec, b);
			continue;
		}
		touch(e, s->exec);
		e->red[s->exec] += red;
		if (!red) /* a local copy: the rank's memory link */
			e->out[s->exec] += b, e->in[s->exec] += b;
	}
}

/* A stream's round (cb_plan_stream), priced as it closes: no derived
 * waits nor fresh reads (a rank waits for the peers it receives from). A
 * round moving the counts of the one before between the same ranks (the
 * ring's steps, a pipeline's slices) costs what it cost: added again. A
 * round in parts (CB_PLAN_STREAM_PART) is priced part by part. */
struct stream_ctx {
	struct ev *e;
	size_t esize;
	struct cb_plan_step *prev; /* the round before, [nprev] */
	size_t nprev, cap;
	struct acc own, shared;    /* what the round before added */
	double wait_units, wait_time;
	double reps;               /* its repeats whose bytes per rank are not yet counted */
	int split;                 /* a round handed over in parts is open */
};

/* 1 when p's round costs what sc's previous round did. */
static int same_round(const struct stream_ctx *sc, const struct cb_plan *p)
{
	if (p->nsteps != sc->nprev)
		return 0;
	for (size_t i = 0; i < p->nsteps; i++) {
		const struct cb_plan_step *a = &p->steps[i], *b = &sc->prev[i];

		if (a->count != b->count || a->op != b->op || a->exec != b->exec ||
		    a->a.rank != b->a.rank || a->dst.rank != b->dst.rank)
			return 0;
	}
	return 1;
}

/* out = a - b, or a + d where b is NULL, field by field (all doubles). */
static void acc_step(struct acc *a, const struct acc *b, const struct acc *d, struct acc *out)
{
	const double *pa = (const double *)a, *pb = (const double *)b, *pd = (const double *)d;
	double *po = (double *)out;

	for (size_t k = 0; k < sizeof(*a) / sizeof(double); k++)
		po[k] = b ? pa[k] - pb[k] : pa[k] + pd[k];
}

/* Counts the bytes per rank of the previous round's pending repeats. */
static void count_repeats(struct stream_ctx *sc)
{
	struct ev *e = sc->e;

	for (size_t i = 0; i < sc->nprev && sc->reps > 0; i++) {
		const struct cb_plan_step *s = &sc->prev[i];
		double b = (double)s->count * (double)sc->esize * sc->reps;

		if (s->a.rank == s->dst.rank)
			continue;
		e->tx[s->a.rank] += b;
		e->rx[s->dst.rank] += b;
		if (e->host[s->a.rank] != e->host[s->dst.rank]) {
			e->htx[e->host[s->a.rank]] += b;
			e->hrx[e->host[s->dst.rank]] += b;
		}
	}
	sc->reps = 0;
}

/* A part of a round handed over in parts (never a repeat). */
static void stream_split(struct stream_ctx *sc, const struct cb_plan *p, int end)
{
	struct ev *e = sc->e;
	int w = e->q > 0 && p->nsteps ? round_waits(p, 0, 0, e->list) : 0;

	count_repeats(sc);
	sc->nprev = 0;
	e->waited = w > e->waited ? w : e->waited;
	price_steps(e, p, 0, NULL, sc->esize);
	sc->split = !end;
	if (end)
		ev_close(e);
}

static enum cb_status stream_part(void *ctx, const struct cb_plan *p, int end)
{
	struct stream_ctx *sc = ctx;
	struct ev *e = sc->e;
	struct acc own = e->own, shared = e->shared;
	double wu = e->wait_units, wt = e->wait_time;

	if (!end || sc->split) {
		stream_split(sc, p, end);
		return CB_OK;
	}
	if (p->nsteps == 0)
		return CB_OK;
	if (same_round(sc, p)) {
		acc_step(&e->own, NULL, &sc->own, &e->own);
		acc_step(&e->shared, NULL, &sc->shared, &e->shared);
		e->wait_units += sc->wait_units;
		e->wait_time += sc->wait_time;
		sc->reps += 1;
		return CB_OK;
	}
	count_repeats(sc);
	e->waited = e->q > 0 ? round_waits(p, 0, 0, e->list) : 0;
	price_steps(e, p, 0, NULL, sc->esize);
	ev_close(e);
	acc_step(&e->own, &own, NULL, &sc->own);
	acc_step(&e->shared, &shared, NULL, &sc->shared);
	sc->wait_units = e->wait_units - wu;
	sc->wait_time = e->wait_time - wt;
	if (p->nsteps > sc->cap) {
		void *g = realloc(sc->prev, p->nsteps * sizeof(*sc->prev));

		if (!g)
			return CB_ERR_NOMEM;
		sc->prev = g;
		sc->cap = p->nsteps;
	}
	memcpy(sc->prev, p->steps, p->nsteps * sizeof(*sc->prev));
	sc->nprev = p->nsteps;
	return CB_OK;
}

/* A bound on the steps of every built-in plan of case c (rounds of n - 1
 * steps, and slices): from CB_MODEL_PLAN_MAX_STEPS on, plans are streamed. */
static double steps_bound(const struct cb_topo *t, const struct cb_model_case *c)
{
	double slice = c->unsliced || t->slice_bytes == 0 ? INFINITY : (double)t->slice_bytes;

	return (double)c->n * ((double)c->n + (double)c->count * (double)c->esize / slice + 1);
}

/* st of building c's plan: CB_OK, CB_ERR_NOMEM, else CB_ERR_UNSUPPORTED (why). */
static enum cb_status no_plan(const struct cb_model_case *c, enum cb_status st, char *why,
			      size_t whylen)
{
	if (st != CB_OK && st != CB_ERR_NOMEM)
		snprintf(why, whylen, "%s: no plan to price for %d ranks and %zu elements",
			 c->plan->name, c->n, c->count);
	return st == CB_OK || st == CB_ERR_NOMEM ? st : CB_ERR_UNSUPPORTED;
}

static enum cb_status eval_stream(struct ev *e, const struct cb_model_case *c, char *why,
				  size_t whylen)
{
	struct stream_ctx sc = { .e = e, .esize = c->esize };
	struct cb_plan_stream s = { stream_part, &sc };
	struct cb_plan p;
	enum cb_status st;

	cb_plan_stream_to(&s);
	st = cb_model_case_plan(e->t, c, &p);
	cb_plan_stream_to(NULL);
	if (st == CB_OK) {
		st = cb_plan_flush(&p);
		cb_plan_free(&p);
	}
	count_repeats(&sc);
	free(sc.prev);
	return no_plan(c, st, why, whylen);
}

/* Case c's plan on e's topology, round by round, whole or streamed
 * (cb_model.h). Errors: CB_ERR_UNSUPPORTED (no plan: why), CB_ERR_NOMEM. */
static enum cb_status eval_plan(struct ev *e, const struct cb_model_case *c, char *why,
				size_t whylen)
{
	struct cb_plan p;
	enum cb_status st;

	if (c->stream || steps_bound(e->t, c) > CB_MODEL_PLAN_MAX_STEPS)
		return eval_stream(e, c, why, whylen);
	st = no_plan(c, cb_model_case_plan(e->t, c, &p), why, whylen);
	if (st != CB_OK)
		return st;
	if (e->fused) { /* the waits the executors derive, and the fresh reads */
		st = cb_plan_finish(&p, c->in_place, why, whylen);
		if (st != CB_OK) {
			cb_plan_free(&p);
			return st == CB_ERR_NOMEM ? st : CB_ERR_UNSUPPORTED; /* why says */
		}
	}
	for (size_t k = 0; k < p.nrounds; k++) {
		e->waited = e->q > 0 ? round_waits(&p, k, e->fused, e->list) : 0;
		price_steps(e, &p, k, e->fused ? p.fresh : NULL, c->esize);
		ev_close(e);
	}
	cb_plan_free(&p);
	return CB_OK;
}

/* Per-call loads of the busiest and least busy rank and host. */
static void summarize(const struct ev *e, struct cb_model_result *r)
{
	r->txrx_max = 0;
	r->txrx_min = INFINITY;
	for (int k = 0; k < e->n; k++) {
		r->txrx_max = dmax(r->txrx_max, e->tx[k] + e->rx[k]);
		r->txrx_min = fmin(r->txrx_min, e->tx[k] + e->rx[k]);
	}
	r->host_max = r->host_min = 0;
	if (e->nhosts < 2)
		return;
	r->host_min = INFINITY;
	for (int h = 0; h < e->nhosts; h++) {
		r->host_max = dmax(r->host_max, e->htx[h] + e->hrx[h]);
		r->host_min = fmin(r->host_min, e->htx[h] + e->hrx[h]);
	}
}

/* A local copy of bytes on every rank at once (copy rows; n = 1 out of place). */
static void eval_local_copy(const struct cb_topo *t, int n, double bytes,
			    struct cb_model_result *r)
{
	/* no rank waits: stretched past the scheduler's slice (cb_model.h) */
	r->time = cb_model_stretch(t, cb_model_ranks_per_cpu(t, n), bytes / t->copy_bw);
	r->terms.calls = 1;
	r->terms.link_bytes = bytes;
	r->one_class = t->copy_bw == t->intra.bw;
}

static enum cb_status check_case(const struct cb_topo *t, const struct cb_model_case *c,
				 char *why, size_t whylen)
{
	if (cb_topo_check(t, why, whylen) != CB_OK)
		return CB_ERR_ARG;
	if (c->n < 1 || c->n > CB_MODEL_MAX_RANKS || c->esize < 1 || c->root < 0 || c->root >= c->n ||
	    c->count > ((size_t)1 << 52) / c->esize) {
		snprintf(why, whylen, "case out of range (n = %d, count = %zu, element size %zu, "
			 "root %d)", c->n, c->count, c->esize, c->root);
		return CB_ERR_ARG;
	}
	for (int k = 0; t->rank_host && k < c->n; k++)
		if (t->rank_host_n != c->n || t->rank_host[k] < 0 || t->rank_host[k] >= c->n) {
			snprintf(why, whylen, "rank placement of %d ranks for a case of %d ranks "
				 "(or a host index out of range)", t->rank_host_n, c->n);
			return CB_ERR_ARG;
		}
	if (c->n > t->ranks_per_host && t->net.bw == 0) {
		snprintf(why, whylen, "topology %s has no network: %d ranks do not fit its %d "
			 "ranks per host", t->name, c->n, t->ranks_per_host);
		return CB_ERR_UNSUPPORTED;
	}
	return CB_OK;
}

enum cb_status cb_model_eval(const struct cb_topo *t, const struct cb_model_case *c,
			     struct cb_model_result *r, char *why, size_t whylen)
{
	struct cb_model_result res = { .one_class = 1 };
	double bytes = (double)c->count * (double)c->esize;
	enum cb_status st = check_case(t, c, why, whylen);
	struct ev e;

	if (st != CB_OK)
		return st;
	if (!c->plan || c->n == 1 || c->count == 0) {
		/* the copy roofline; n = 1; 0 elements return at once */
		if (c->count > 0 && !c->in_place)
			eval_local_copy(t, c->n, bytes, &res);
		res.what = !c->plan ? "a local copy of S bytes on every rank at once"
			   : c->n == 1 ? "n = 1: a local copy when out of place"
				       : "0 bytes: nothing moves";
		*r = res;
		return CB_OK;
	}
	st = ev_init(&e, t, c->n, &res);
	if (st != CB_OK)
		return st;
	e.fused = !c->two_sided;
	st = eval_plan(&e, c, why, whylen);
	res.what = "plan: round by round (a latency, the most loaded link, the most reduce bytes)";
	if (st == CB_OK) {
		ev_finish(&e);
		res.terms.calls = 1;
		summarize(&e, &res);
		*r = res;
	}
	ev_free(&e);
	return st;
}
