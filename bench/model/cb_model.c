/* cb_model: ps, ring and copy step by step on a topology, and the dispatch
 * to the library algorithms' closed forms (the model and its assumptions:
 * cb_model.h). The ring's schedule comes from cb_pattern.h (cb_ring_step,
 * cb_chunk, cb_slice_num, cb_slice, cb_ring_slice_count), the functions
 * cb_algo_ring.c runs; ps mirrors cb_algo_ps.c's three phases. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cb_model.h"
#include "cb_model_lib.h"
#include "cb_model_topo.h"
#include "cb_model_tslice.h"
#include "cb_pattern.h"
#include "cb_plan_lib.h"

#define MAX_RANKS (1 << 20)

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
	enum cb_ring_eval ring_how;
	struct cb_model_result *r;
};

static int host_of(const struct ev *e, int r)
{
	return e->t->rank_host ? e->t->rank_host[r] : r / e->t->ranks_per_host;
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
	e->stamp = 1;
	if (!e->out || !e->list || !e->mark) {
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
	for (int k = 0; k < n; k++)
		e->hranks[host_of(e, k)] += 1;
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
 * to the open step, and mult times to the per-call totals. */
static void ev_xfer(struct ev *e, int src, int dst, double bytes, double reduce, double mult)
{
	e->msgs = 1;
	if (host_of(e, src) == host_of(e, dst)) {
		touch(e, src);
		touch(e, dst);
		e->out[src] += bytes;
		e->in[dst] += bytes;
		e->alpha = fmax(e->alpha, e->t->intra.alpha);
	} else {
		int ls = link_of(e, src), ld = link_of(e, dst);

		touch(e, e->n + ls);
		touch(e, e->n + ld);
		touch(e, dst);
		e->nout[ls] += bytes;
		e->nin[ld] += bytes;
		e->alpha = fmax(e->alpha, e->t->net.alpha);
		e->r->one_class = 0;
		e->htx[host_of(e, src)] += mult * bytes;
		e->hrx[host_of(e, dst)] += mult * bytes;
	}
	e->red[dst] += reduce;
	e->tx[src] += mult * bytes;
	e->rx[dst] += mult * bytes;
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

/* Accounts one step, counted mult times, from its latency and loads l; net:
 * a network link carried some of them. Two-sided: alpha + bwt + the reduce
 * at gamma. One-sided on one host: the terms' own sum (cb_model_terms), what
 * the fit solves for: the bytes that move and reduce at once (the smaller
 * of the two maxima) at the fused rate, the rest of each at its own. One-
 * sided with a network link: alpha + the slower of moving and reducing.
 * One-sided, the fresh bytes add their own time (fresh_bw; 0: free). */
static double ev_account(struct ev *e, struct acc *a, double alpha, const struct load *l,
			 int net, int msgs, double mult)
{
	double maxb = l->maxb, maxred = l->maxred, bwt = l->bwt;
	double gf = cb_topo_fused(e->t), both = e->fused ? fmin(maxb, maxred) : 0;
	double redt = e->fused && both > 0 ? maxred / gf : maxred / e->t->gamma, t;

	if (!e->fused)
		t = bwt + redt;
	else if (net || maxb == 0)
		t = fmax(bwt, redt);
	else
		t = bwt * (maxb - both) / maxb + (maxred - both) / e->t->gamma + both / gf;
	if (e->fused && e->t->fresh_bw > 0)
		t += l->maxfresh / e->t->fresh_bw;
	a->time += mult * (alpha + t);
	a->terms.msgs += mult * msgs;
	a->terms.link_bytes += mult * (maxb - both);
	a->terms.reduce_bytes += mult * (maxred - both);
	a->terms.fused_bytes += mult * both;
	a->terms.fresh_bytes += e->fused ? mult * l->maxfresh : 0;
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
			l->bwt = fmax(l->bwt, e->hb[h] / cpus / e->t->intra.bw);
			l->maxb = fmax(l->maxb, e->hb[h] / cpus);
			l->maxred = fmax(l->maxred, e->hred[h] / cpus);
			l->maxfresh = fmax(l->maxfresh, e->hfresh[h] / cpus);
			m->maxb = fmax(m->maxb, e->hb[h] / e->hranks[h]);
			m->maxred = fmax(m->maxred, e->hred[h] / e->hranks[h]);
			m->maxfresh = fmax(m->maxfresh, e->hfresh[h] / e->hranks[h]);
		}
		e->hb[h] = e->hred[h] = e->hfresh[h] = 0;
	}
	m->bwt = m->maxb / e->t->intra.bw;
}

/* Closes the open step, counted mult times (ev_account): its rank's link
 * loads are the larger direction, or, one-sided, the bytes of the transfers
 * the rank runs where that is more (ev_work). */
static void ev_close(struct ev *e, double mult)
{
	struct load l = { 0, 0, 0, 0 }, mean;
	int net = 0;

	for (size_t i = 0; i < e->nlist; i++) {
		int k = e->list[i];

		if (k < e->n) {
			double b = fmax(fmax(e->out[k], e->in[k]), e->work[k]);

			l.bwt = fmax(l.bwt, b / e->t->intra.bw);
			l.maxb = fmax(l.maxb, b);
			l.maxred = fmax(l.maxred, e->red[k]);
			l.maxfresh = fmax(l.maxfresh, e->fresh[k]);
			if (e->q > 0) {
				e->hb[host_of(e, k)] += b;
				e->hred[host_of(e, k)] += e->red[k];
				e->hfresh[host_of(e, k)] += e->fresh[k];
			}
			e->out[k] = e->in[k] = e->red[k] = e->work[k] = e->fresh[k] = 0;
		} else {
			double b = fmax(e->nout[k - e->n], e->nin[k - e->n]);

			l.bwt = fmax(l.bwt, b / e->t->net.bw);
			l.maxb = fmax(l.maxb, b);
			e->nout[k - e->n] = e->nin[k - e->n] = 0;
			net = 1;
		}
	}
	ev_account(e, &e->own, e->alpha, &l, net, e->msgs, mult);
	if (e->q > 0) {
		struct acc scratch = { 0 };

		ev_share(e, &l, &mean);
		ev_account(e, &e->shared, e->alpha, &l, net, e->msgs, mult);
		if (e->waited) { /* a rank's time in the step, on the mean: the one waited for */
			double own = ev_account(e, &scratch, e->alpha, &mean, net, 0, 1);

			e->wait_units += mult * (e->q + e->waited / (double)e->t->cpus_per_host);
			e->wait_time += mult * fmin(own, cb_model_base_slice(e->t->cpus_per_host));
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

/* One round of ps, counted mult times: in bytes from every worker to the
 * root, out bytes from the root to every worker (full duplex, at once; -1:
 * no message), the root reducing red bytes of each of the n - 1 inputs.
 * One-sided, the root reads the inputs its workers pushed and each worker
 * the result the root wrote: fresh bytes. */
static void ps_round(struct ev *e, int root, double in, double out, double red, double mult)
{
	for (int w = 0; w < e->n; w++) {
		if (w == root)
			continue;
		if (in >= 0)
			ev_xfer(e, w, root, in, 0, mult);
		if (out >= 0)
			ev_xfer(e, root, w, out, 0, mult);
		if (e->fused) { /* the worker runs its push and its pull */
			ev_work(e, w, (in > 0 ? in : 0) + (out > 0 ? out : 0));
			e->fresh[w] += out > 0 ? out : 0;
		}
	}
	touch(e, root);
	e->red[root] += (e->n - 1) * red;
	e->fresh[root] += e->fused ? (e->n - 1) * red : 0;
	ev_close(e, mult);
}

/* Bytes of slice j of the whole buffer, -1 past either end (no message). */
static double ps_slice(const struct cb_model_case *c, size_t sc, size_t ns, long long j)
{
	size_t off, cnt;

	if (j < 0 || (size_t)j >= ns)
		return -1;
	cb_slice(c->count, sc, (size_t)j, &off, &cnt);
	return (double)cnt * (double)c->esize;
}

/* ps with one server, the schedule of its plan (cb_plan_ps.c): nslices + 2
 * rounds in slices of cb_plan_slice_count; round u pushes slice u of every
 * worker's input to the root, the root reduces slice u - 1 and every worker
 * pulls slice u - 2 of the result. Consecutive rounds that move and reduce
 * the same bytes are evaluated once, so a call costs O(n) per distinct
 * round: the walk predict takes at scale, equal to the plan's price
 * (test_model.c compares them). */
static void eval_ps(struct ev *e, const struct cb_model_case *c)
{
	size_t sc = cb_plan_slice_count(e->t->slice_bytes, c->slice_auto, c->two_sided, c->count,
					c->n, c->esize);
	size_t ns, slice = sc && sc < c->count ? sc : c->count;
	long long rounds, u = 0;

	ns = cb_slice_num(c->count, 1, slice);
	rounds = (long long)ns + 2;
	while (u < rounds) {
		double in = ps_slice(c, slice, ns, u), red = ps_slice(c, slice, ns, u - 1);
		double out = ps_slice(c, slice, ns, u - 2);
		long long v = u + 1;

		while (v < rounds && ps_slice(c, slice, ns, v) == in &&
		       ps_slice(c, slice, ns, v - 1) == red && ps_slice(c, slice, ns, v - 2) == out)
			v++;
		ps_round(e, c->root, in, out, red > 0 ? red : 0, (double)(v - u));
		u = v;
	}
}

/* The ring's slicing of one call, as ring_run computes it. */
struct ring {
	size_t *csize;      /* [n] elements of each chunk (cb_chunk) */
	size_t slice_count; /* elements per slice */
	size_t nslices;     /* slices per chunk, the same for every chunk */
	double esize;
};

/* Ring step s, slice j of every rank at once, counted mult times. Slice
 * j = 0 stands for the nslices - 1 full slices (every chunk's slices but the
 * last are full: cb_slice_num rounds the largest chunk up and chunks differ
 * by at most one element), j = nslices - 1 for the last. An empty slice still
 * waits and posts: one alpha. From step 1 on, one-sided, a rank reads what
 * its left wrote at the step before: fresh bytes. */
static void ring_slices(struct ev *e, const struct ring *rg, int s, size_t j, double mult)
{
	for (int r = 0; r < e->n; r++) {
		struct cb_ring_step st;
		size_t off, cnt;
		double b;

		cb_ring_step(r, e->n, s, &st);
		cb_slice(rg->csize[st.chunk], rg->slice_count, j, &off, &cnt);
		b = (double)cnt * rg->esize;
		ev_xfer(e, st.src, r, b, st.reduce ? b : 0, mult);
		e->fresh[r] += e->fused && s > 0 ? b : 0;
	}
	ev_close(e, mult);
}

/* 1 when the cyclic range [a, a + len) of ranks mod n holds a multiple of m
 * (a rank whose left neighbour is on another host). */
static int has_first(int a, int len, int m, int n)
{
	if (len <= 0)
		return 0;
	if (len >= n || a + len > n)
		return 1; /* holds rank 0 */
	return (a + m - 1) / m * m < a + len;
}

/* 1 when the range holds a rank that is not a multiple of m. */
static int has_other(int a, int len, int m)
{
	return len > 0 && m > 1 && (len >= 2 || a % m != 0);
}

/* Slice j of step s for every rank at once without visiting each: chunks
 * hold q or q + 1 elements (the first count % n ones the larger), and by
 * cb_ring_step's table rank r handles chunk (chunk of rank 0 + r) mod n, so
 * the ranks with a larger chunk form one cyclic range. The links they read
 * over are network links for the first rank of each host (several hosts),
 * else intra-host links. Same result as ring_slices (tests compare). */
static void ring_fast(struct ev *e, const struct ring *rg, size_t count, int s, size_t j,
		      double mult)
{
	const struct cb_topo *t = e->t;
	struct cb_ring_step st;
	int n = e->n, rem = (int)(count % (size_t)n), r0, m = t->ranks_per_host;
	int multi = e->nhosts > 1;
	size_t q = count / (size_t)n, off, nb, ns;
	double big, small, in, net, red;
	struct load l;

	cb_ring_step(0, n, s, &st);
	r0 = (n - st.chunk) % n; /* the rank reading chunk 0 */
	cb_slice(q + 1, rg->slice_count, j, &off, &nb);
	cb_slice(q, rg->slice_count, j, &off, &ns);
	big = (double)nb * rg->esize;
	small = (double)ns * rg->esize;
	in = (multi ? has_other(r0, rem, m) : rem > 0) ? big
	     : (multi ? has_other((r0 + rem) % n, n - rem, m) : rem < n) ? small : 0;
	net = !multi ? 0 : has_first(r0, rem, m, n) ? big
		     : has_first((r0 + rem) % n, n - rem, m, n) ? small : 0;
	red = st.reduce ? (rem > 0 ? big : small) : 0;
	if (multi)
		e->r->one_class = 0;
	l.bwt = fmax(in / t->intra.bw, multi ? net / t->net.bw : 0);
	l.maxb = fmax(in, net);
	l.maxred = red;
	l.maxfresh = s > 0 ? (rem > 0 ? big : small) : 0; /* ring_slices' */
	ev_account(e, &e->own, multi ? fmax(t->intra.alpha, t->net.alpha) : t->intra.alpha, &l,
		   multi, 1, mult);
}

/* Per-call bytes of ring_fast's calls: rank r receives every chunk but its
 * own in the reduce-scatter and every chunk but r + 1 in the all-gather
 * (cb_pattern.h), and sends what its right neighbour receives. */
static void ring_fast_totals(struct ev *e, const struct ring *rg, size_t count)
{
	int n = e->n;

	for (int r = 0; r < n; r++) {
		double rx = (2.0 * (double)count - (double)rg->csize[r] -
			     (double)rg->csize[(r + 1) % n]) * rg->esize;
		int left = cb_ring_left(r, n);

		e->rx[r] += rx;
		e->tx[left] += rx;
		if (host_of(e, left) != host_of(e, r)) {
			e->htx[host_of(e, left)] += rx;
			e->hrx[host_of(e, r)] += rx;
		}
	}
}

/* Rank count from which CB_RING_AUTO takes the ring's unequal steps in
 * constant time: below it the walk is as fast. */
#define RING_FAST_MIN 65

size_t cb_model_ring_slice(const struct cb_topo *t, const struct cb_model_case *c)
{
	if (c->two_sided) /* cb_algo_ring_p2p.c */
		return cb_ring_p2p_slice_count(t->slice_bytes, c->slice_auto, c->count, c->n,
					       c->esize);
	return cb_ring_slice_count(t->slice_bytes, c->esize); /* cb_algo_ring.c */
}

/* ring (cb_algo_ring.c): 2(n-1) steps of nslices slices each. With equal
 * chunks (n divides count) every reduce-scatter step moves the same bytes
 * over the same links, as does every all-gather step: step 0, step 1 (the
 * rest of the reduce-scatter: fresh reads from here on) counted n - 2
 * times, and step n - 1 counted n - 1 times are evaluated; with unequal
 * chunks, ring_fast takes
 * each step in constant time (CB_RING_FAST, or CB_RING_AUTO from
 * RING_FAST_MIN ranks), else the walk visits every rank. */
static enum cb_status ev_ring(struct ev *e, const struct cb_model_case *c)
{
	struct ring rg;
	int n = e->n, even = c->count % (size_t)n == 0;
	int fast = !even && !e->t->rank_host && (e->ring_how == CB_RING_FAST ||
			     (e->ring_how == CB_RING_AUTO && n >= RING_FAST_MIN));

	rg.csize = malloc((size_t)n * sizeof(size_t));
	if (!rg.csize)
		return CB_ERR_NOMEM;
	for (int k = 0; k < n; k++) {
		size_t off;

		cb_chunk(c->count, n, k, &off, &rg.csize[k]);
	}
	rg.esize = (double)c->esize;
	rg.slice_count = cb_model_ring_slice(e->t, c);
	rg.nslices = cb_slice_num(c->count, n, rg.slice_count);
	for (int s = 0; s < cb_ring_nsteps(n) && fast; s++) {
		if (rg.nslices > 1)
			ring_fast(e, &rg, c->count, s, 0, (double)(rg.nslices - 1));
		ring_fast(e, &rg, c->count, s, rg.nslices - 1, 1);
	}
	if (fast)
		ring_fast_totals(e, &rg, c->count);
	for (int s = 0; s < cb_ring_nsteps(n) && !fast; s++) {
		double m = 1;

		if (even && s != 0 && s != 1 && s != n - 1)
			continue;
		if (even)
			m = s == 0 ? 1 : s == n - 1 ? n - 1 : n - 2;
		if (rg.nslices > 1)
			ring_slices(e, &rg, s, 0, m * (double)(rg.nslices - 1));
		ring_slices(e, &rg, s, rg.nslices - 1, m);
	}
	free(rg.csize);
	return CB_OK;
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

/* A plan algorithm (cb_model.h): its plan for case c on e's topology,
 * round by round. Errors: CB_ERR_UNSUPPORTED (no plan for the case, or one
 * of more than CB_MODEL_PLAN_MAX_STEPS steps: the reason in why),
 * CB_ERR_NOMEM. */
enum cb_status cb_model_case_plan(const struct cb_topo *t, const struct cb_model_case *c,
				  struct cb_plan *p)
{
	struct cb_plan_args a = { .n = c->n, .count = c->count, .esize = c->esize, .root = c->root,
				  .servers = c->servers > 0 ? c->servers : 1, .rank_host = t->rank_host,
				  .slice_count = cb_plan_slice_count(t->slice_bytes, c->slice_auto,
								c->two_sided, c->count, c->n, c->esize) };

	if (!c->plan)
		return CB_ERR_ARG;
	return cb_plan_make(c->plan, &a, p);
}

static enum cb_status eval_plan(struct ev *e, const struct cb_model_case *c, char *why,
				size_t whylen)
{
	struct cb_plan p;
	enum cb_status st = cb_model_case_plan(e->t, c, &p);

	if (st == CB_OK && p.nsteps > CB_MODEL_PLAN_MAX_STEPS)
		cb_plan_free(&p), st = CB_ERR_UNSUPPORTED;
	if (st != CB_OK) {
		snprintf(why, whylen, "%s: no plan to price for %d ranks and %zu elements%s",
			 c->plan->name, c->n, c->count, st == CB_ERR_UNSUPPORTED ? " (too many steps)" : "");
		return st == CB_ERR_NOMEM ? st : CB_ERR_UNSUPPORTED;
	}
	if (e->fused) { /* the waits the executors derive, and the fresh reads */
		st = cb_plan_finish(&p, c->in_place, why, whylen);
		if (st != CB_OK) {
			cb_plan_free(&p);
			return st == CB_ERR_NOMEM ? st : CB_ERR_UNSUPPORTED; /* why says */
		}
	}
	for (size_t k = 0; k < p.nrounds; k++) {
		e->waited = e->q > 0 ? round_waits(&p, k, e->fused, e->list) : 0;
		for (size_t i = p.round_first[k]; i < p.round_first[k + 1]; i++) {
			const struct cb_plan_step *s = &p.steps[i];
			double b = (double)s->count * (double)c->esize;
			double red = s->op == CB_PLAN_REDUCE ? b : 0;

			if (e->fused)
				e->fresh[s->exec] += (double)p.fresh[i] * (double)c->esize;
			if (s->a.rank != s->dst.rank) {
				ev_xfer(e, s->a.rank, s->dst.rank, b, red, 1);
				if (e->fused)
					ev_work(e, s->exec, b);
				continue;
			}
			touch(e, s->exec);
			e->red[s->exec] += red;
			if (!red) /* a local copy: the rank's memory link */
				e->out[s->exec] += b, e->in[s->exec] += b;
		}
		ev_close(e, 1);
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
		r->txrx_max = fmax(r->txrx_max, e->tx[k] + e->rx[k]);
		r->txrx_min = fmin(r->txrx_min, e->tx[k] + e->rx[k]);
	}
	r->host_max = r->host_min = 0;
	if (e->nhosts < 2)
		return;
	r->host_min = INFINITY;
	for (int h = 0; h < e->nhosts; h++) {
		r->host_max = fmax(r->host_max, e->htx[h] + e->hrx[h]);
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
	if (c->n < 1 || c->n > MAX_RANKS || c->esize < 1 || c->root < 0 || c->root >= c->n ||
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
	return cb_model_eval_how(t, c, CB_RING_AUTO, r, why, whylen);
}

enum cb_status cb_model_eval_how(const struct cb_topo *t, const struct cb_model_case *c,
				 enum cb_ring_eval how, struct cb_model_result *r, char *why,
				 size_t whylen)
{
	struct cb_model_result res = { .one_class = 1 };
	double bytes = (double)c->count * (double)c->esize;
	enum cb_status st = check_case(t, c, why, whylen);
	struct ev e;

	if (st != CB_OK)
		return st;
	if (c->algo == CB_MODEL_MPI || c->algo == CB_MODEL_NCCL)
		return cb_model_eval_lib(t, c, r, why, whylen);
	if (c->algo == CB_MODEL_COPY || c->n == 1 || c->count == 0) {
		/* copy; n = 1 (cb_algo_single_rank); 0 elements return at once */
		if (c->count > 0 && !c->in_place)
			eval_local_copy(t, c->n, bytes, &res);
		res.what = c->algo == CB_MODEL_COPY ? "copy: S bytes on every rank at once"
			   : c->n == 1	       ? "n = 1: a local copy when out of place"
						: "0 bytes: nothing moves";
		*r = res;
		return CB_OK;
	}
	st = ev_init(&e, t, c->n, &res);
	if (st != CB_OK)
		return st;
	e.fused = !c->two_sided;
	e.ring_how = how;
	if (c->algo == CB_MODEL_PLAN || e.q > 0) {
		/* time slicing needs the plan's waits: ps and ring from their plans */
		struct cb_model_case pc = *c;

		if (c->algo != CB_MODEL_PLAN)
			pc.plan = cb_plan_coll_find(CB_COLL_ALLREDUCE, c->algo == CB_MODEL_PS ? "ps" : "ring");
		st = eval_plan(&e, &pc, why, whylen);
		res.what = "plan: round by round (a latency, the most loaded link, the most reduce bytes)";
	} else if (c->algo == CB_MODEL_PS) {
		eval_ps(&e, c);
		res.what = "ps: slices pushed, reduced on the root and pulled at once, in rounds";
	} else {
		st = ev_ring(&e, c);
		res.what = "ring: 2(n-1) steps, each in slices";
	}
	if (st == CB_OK) {
		ev_finish(&e);
		res.terms.calls = 1;
		summarize(&e, &res);
		*r = res;
	}
	ev_free(&e);
	return st;
}
