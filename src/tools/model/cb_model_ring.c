/* cb_model_ring: the ring step by step (cb_model.h), from cb_pattern's
 * schedule as cb_algo_ring.c runs it. */
#include <math.h>
#include <stdlib.h>

#include "cb_model_sched_int.h"
#include "cb_pattern.h"

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
 * waits and posts: one alpha. */
static void ring_slices(struct ev *e, const struct ring *rg, int s, size_t j, double mult)
{
	for (int r = 0; r < e->n; r++) {
		struct cb_ring_step st;
		size_t off, cnt;
		double b;

		cb_ring_step(r, e->n, s, &st);
		cb_slice(rg->csize[st.chunk], rg->slice_count, j, &off, &cnt);
		b = (double)cnt * rg->esize;
		cb_ev_xfer(e, st.src, r, b, st.reduce ? b : 0, mult);
	}
	cb_ev_close(e, mult);
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
	cb_ev_account(e, multi ? fmax(t->intra.alpha, t->net.alpha) : t->intra.alpha,
		      fmax(in / t->intra.bw, multi ? net / t->net.bw : 0), fmax(in, net), red, 1,
		      mult);
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
 * over the same links, as does every all-gather step: one of each is
 * evaluated and counted n - 1 times; with unequal chunks, ring_fast takes
 * each step in constant time (CB_RING_FAST, or CB_RING_AUTO from
 * RING_FAST_MIN ranks), else the walk visits every rank. */
enum cb_status cb_ev_ring(struct ev *e, const struct cb_model_case *c)
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

		if (even && s != 0 && s != n - 1)
			continue;
		if (even)
			m = n - 1;
		if (rg.nslices > 1)
			ring_slices(e, &rg, s, 0, m * (double)(rg.nslices - 1));
		ring_slices(e, &rg, s, rg.nslices - 1, m);
	}
	free(rg.csize);
	return CB_OK;
}

