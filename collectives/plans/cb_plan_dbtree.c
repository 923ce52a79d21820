/* Double binary tree allreduce as a plan: two binary trees over the n ranks,
 * each carrying one half of the buffer (cb_chunk(count, 2, t)): a reduce up
 * the tree, then a broadcast down, both pipelined in slices. Tree 0 is the
 * in-order tree of the ranks' binary numbering: rank r != 0 with lowest set
 * bit b has parent (r ^ b) | 2b, or r ^ b where that is past the last rank,
 * and children r - b/2 and the largest r + c (c = b/2, b/4, ..) in range;
 * rank 0 is the root, with one child, the largest power of two below n. Odd ranks are its leaves. Tree 1 is tree 0 mirrored
 * (rank r as n-1-r) for even n, so a rank that is a leaf of one tree is
 * inside the other and every rank's links carry about one tree's traffic;
 * for odd n it is tree 0 shifted by one rank. Source: Sanders, Speck and
 * Traff, "Two-tree algorithms for full bandwidth broadcast, reduction and
 * scan", Parallel Computing 35(12), 2009; NCCL 2.4's trees.
 *
 * Reduce: a node of height h (leaves 0) reduces slice j of its half in
 * round j + h - 1: its children's partials (a leaf's partial is its input)
 * into its own input, the partial in its STAGE (the root: its RECV, final).
 * Broadcast: after the reduce's rounds, a node at depth d copies slice j
 * from its parent's RECV in round j + d - 1 of the second phase. Every rank
 * reduces each element at most once per child, and every result is the
 * root's, so all ranks hold the same bits. Traffic: a node sends its half's
 * partial to its parent and the result to each child; per tree an interior
 * node with two children moves 3 halves each way, a leaf 1. */
#include "cb_pattern.h"
#include "cb_plan_lib.h"

#include <stdlib.h>

struct tree {
	int *up, *down[2], *height, *depth; /* [n] each; -1: none */
	int hmax, dmax;
};

/* Tree 0's links of rank r of n (see the top). */
static void bit_links(int n, int r, int *up, int *d0, int *d1)
{
	int b = 1;

	*up = *d0 = *d1 = -1;
	if (r == 0) {
		while (b * 2 < n)
			b *= 2;
		*d0 = b;
		return;
	}
	while (!(r & b))
		b *= 2;
	*up = ((r ^ b) | (b << 1)) < n ? (r ^ b) | (b << 1) : r ^ b;
	if (b > 1) {
		*d0 = r - b / 2;
		for (int c = b / 2; c >= 1 && *d1 < 0; c /= 2) /* the first in range */
			if (r + c < n)
				*d1 = r + c;
	}
}

/* Tree t's rank for rank r and back. */
static int map(int n, int t, int r)
{
	return t == 0 ? r : n % 2 == 0 ? n - 1 - r : (r + 1) % n;
}

static int unmap(int n, int t, int v)
{
	return v < 0 || t == 0 ? v : n % 2 == 0 ? n - 1 - v : (v + n - 1) % n;
}

static int height(struct tree *tr, int r)
{
	int h = 0;

	for (int k = 0; k < 2; k++)
		if (tr->down[k][r] >= 0) {
			int c = height(tr, tr->down[k][r]) + 1;

			h = c > h ? c : h;
		}
	tr->height[r] = h;
	return h;
}

static void depths(struct tree *tr, int r, int d)
{
	tr->depth[r] = d;
	tr->dmax = d > tr->dmax ? d : tr->dmax;
	for (int k = 0; k < 2; k++)
		if (tr->down[k][r] >= 0)
			depths(tr, tr->down[k][r], d + 1);
}

/* Tree t of n ranks; its root in *root. Errors: CB_ERR_NOMEM. */
static enum cb_status tree_make(struct tree *tr, int n, int t, int *root)
{
	int *m = malloc(5 * (size_t)n * sizeof(int));

	if (!m)
		return CB_ERR_NOMEM;
	tr->up = m, tr->down[0] = m + n, tr->down[1] = m + 2 * n;
	tr->height = m + 3 * n, tr->depth = m + 4 * n;
	tr->dmax = 0;
	for (int r = 0; r < n; r++) {
		int u, d0, d1;

		bit_links(n, map(n, t, r), &u, &d0, &d1);
		tr->up[r] = unmap(n, t, u), tr->down[0][r] = unmap(n, t, d0);
		tr->down[1][r] = unmap(n, t, d1);
		if (u < 0)
			*root = r;
	}
	tr->hmax = height(tr, *root);
	depths(tr, *root, 0);
	return CB_OK;
}

/* Where rank r's partial of element off is: its input (a leaf), its STAGE,
 * or (the root) its RECV. */
static struct cb_plan_ref partial(const struct tree *tr, int r, size_t off)
{
	if (tr->height[r] == 0)
		return cb_pref(r, CB_PLAN_SEND, off);
	return cb_pref(r, tr->up[r] < 0 ? CB_PLAN_RECV : CB_PLAN_STAGE, off);
}

/* Tree t's steps for slice j of its half: the reduce (phase 0) or the
 * broadcast (phase 1) of every rank whose turn round u is. */
static enum cb_status tree_round(struct cb_plan *p, const struct tree *tr, size_t hoff,
				 size_t hcount, size_t slice, long u, int phase)
{
	enum cb_status st = CB_OK;

	for (int r = 0; r < p->n && st == CB_OK; r++) {
		long j = phase ? u - tr->depth[r] + 1 : u - tr->height[r] + 1;
		size_t so, sc;
		struct cb_plan_ref acc;

		if ((phase ? tr->depth[r] : tr->height[r]) == 0 || j < 0)
			continue;
		cb_slice(hcount, slice, (size_t)j, &so, &sc);
		if (!sc)
			continue;
		so += hoff;
		if (phase) {
			st = cb_plan_copy(p, r, cb_pref(r, CB_PLAN_RECV, so),
					  cb_pref(tr->up[r], CB_PLAN_RECV, so), sc, 0);
			continue;
		}
		acc = partial(tr, r, so);
		for (int k = 0, first = 1; k < 2 && st == CB_OK; k++) {
			int c = tr->down[k][r], last = k == 1 || tr->down[1][r] < 0;

			if (c < 0)
				continue;
			st = cb_plan_reduce(p, r, acc, partial(tr, c, so),
					    first ? cb_pref(r, CB_PLAN_SEND, so) : acc, sc,
					    last && tr->up[r] < 0);
			first = 0;
		}
	}
	return st;
}

static enum cb_status trees_run(struct cb_plan *p, struct tree *tr, size_t slice)
{
	size_t ho[2], hc[2], ns = 0;
	long rounds[2];
	enum cb_status st = CB_OK;

	for (int t = 0; t < 2; t++) {
		cb_chunk(p->count, 2, t, &ho[t], &hc[t]);
		ns = hc[t] ? (hc[t] + slice - 1) / slice > ns ? (hc[t] + slice - 1) / slice : ns : ns;
	}
	rounds[0] = (long)ns + (tr[0].hmax > tr[1].hmax ? tr[0].hmax : tr[1].hmax) - 1;
	rounds[1] = (long)ns + (tr[0].dmax > tr[1].dmax ? tr[0].dmax : tr[1].dmax) - 1;
	for (int phase = 0; phase < 2; phase++)
		for (long u = 0; u < rounds[phase] && st == CB_OK; u++) {
			st = cb_plan_round(p);
			for (int t = 0; t < 2 && st == CB_OK; t++)
				st = tree_round(p, &tr[t], ho[t], hc[t], slice, u, phase);
		}
	return st;
}

enum cb_status cb_plan_build_allreduce_dbtree(struct cb_plan *p, const struct cb_plan_args *a)
{
	struct tree tr[2] = { { 0 }, { 0 } };
	size_t slice = a->slice_count ? a->slice_count : cb_chunk_max(a->count, 2);
	int root[2] = { 0, 0 };
	enum cb_status st = cb_plan_init(p, "dbtree", a->n, a->count);

	for (int t = 0; t < 2 && st == CB_OK; t++)
		st = tree_make(&tr[t], a->n, t, &root[t]);
	if (st == CB_OK && a->count)
		st = trees_run(p, tr, slice ? slice : 1);
	free(tr[0].up), free(tr[1].up);
	if (st != CB_OK)
		cb_plan_free(p);
	return st;
}
