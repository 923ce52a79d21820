/* reduce-scatter as plans (CB_PLAN_BUILTINS): count = n blocks of B
 * elements; rank r ends with block r of the reduction in its RECV (B
 * elements). Block c is elements [c B, (c+1) B) of every SEND.
 *
 * ring (Patarasuk and Yuan, JPDC 69(2), 2009: the ring allreduce's n-1
 * reduce-scatter steps): at step s = 0 .. n-2 rank r reduces block
 * c = (r - s - 2) mod n, the left's partial of it (its input at step 0)
 * with its own input, into its STAGE at c B; the last step's is block r,
 * into RECV, finished. Each block is cut in slices, one round per (step,
 * slice). Traffic: every rank sends and receives (n-1) B elements.
 *
 * direct (the two-shot allreduce's first round): rank r reduces block r of
 * every rank's input, in rank order, in one round. Traffic: (n-1) B each
 * way per rank.
 *
 * ps (the seed's parameter server, its push half and a scatter): the root
 * reduces the whole of every input in rank order into its STAGE, finished;
 * then every rank copies its block out. Traffic: the root receives (n-1)
 * count and sends (n-1) B; every other rank sends count and receives B. */
#include <stdlib.h>

#include "cb_pattern.h"
#include "cb_plan_lib.h"
#include "cb_plan_share.h"

/* Slice j of the ring's block: its offset inside the block, its count. */
static size_t rs_slice(size_t block, size_t slice, size_t j, size_t *off)
{
	size_t c;

	cb_slice(block, slice, j, off, &c);
	return c;
}

/* Round (s, j) of the ring: every rank's reduce of slice j of its step s block. */
static enum cb_status rs_ring_round(struct cb_plan *p, int n, size_t block, size_t slice, int s,
				    size_t j)
{
	enum cb_status st = cb_plan_round(p);

	for (int r = 0; r < n && st == CB_OK; r++) {
		int left = cb_ring_left(r, n), c = ((r - s - 2) % n + 2 * n) % n;
		size_t soff, sc = rs_slice(block, slice, j, &soff), off = (size_t)c * block + soff;
		struct cb_plan_ref a = s == 0 ? cb_pref(left, CB_PLAN_SEND, off)
					      : cb_pref(left, CB_PLAN_STAGE, off);
		struct cb_plan_ref dst = s == n - 2 ? cb_pref(r, CB_PLAN_RECV, soff)
						    : cb_pref(r, CB_PLAN_STAGE, off);

		st = cb_plan_reduce(p, r, dst, a, cb_pref(r, CB_PLAN_SEND, off), sc, s == n - 2);
	}
	return st;
}

enum cb_status cb_plan_build_reduce_scatter_ring(struct cb_plan *p, const struct cb_plan_args *a)
{
	int n = a->n;
	size_t block = a->count / (size_t)n;
	size_t slice, nslices = cb_plan_slicing(block, a->slice_count, &slice);
	enum cb_status st = cb_plan_init_coll(p, "ring", CB_COLL_REDUCE_SCATTER, n, a->count, 0);

	for (int s = 0; s < n - 1 && st == CB_OK && block; s++)
		for (size_t j = 0; j < nslices && st == CB_OK; j++)
			st = rs_ring_round(p, n, block, slice, s, j);
	if (st != CB_OK)
		cb_plan_free(p);
	return st;
}

enum cb_status cb_plan_build_reduce_scatter_direct(struct cb_plan *p, const struct cb_plan_args *a)
{
	int n = a->n, *src = NULL;
	size_t block = a->count / (size_t)n;
	enum cb_status st = cb_plan_init_coll(p, "direct", CB_COLL_REDUCE_SCATTER, n, a->count, 0);

	if (st == CB_OK && !(src = cb_plan_rank_order(n)))
		st = CB_ERR_NOMEM;

	for (int r = 0; r < n && st == CB_OK && block; r++)
		st = cb_plan_reduce_chain(p, r, cb_pref(r, CB_PLAN_RECV, 0), src, n, (size_t)r * block,
					  block, 0, 1);
	free(src);
	if (st != CB_OK)
		cb_plan_free(p);
	return st;
}

enum cb_status cb_plan_build_reduce_scatter_ps(struct cb_plan *p, const struct cb_plan_args *a)
{
	int n = a->n, root = a->root, *src = NULL;
	size_t block = a->count / (size_t)n;
	enum cb_status st = cb_plan_init_coll(p, "ps", CB_COLL_REDUCE_SCATTER, n, a->count, root);

	if (st == CB_OK && !(src = cb_plan_rank_order(n)))
		st = CB_ERR_NOMEM;

	if (st == CB_OK && block) /* the root's reduce of everything */
		st = cb_plan_reduce_chain(p, root, cb_pref(root, CB_PLAN_STAGE, 0), src, n, 0, a->count,
					  0, 1);
	if (st == CB_OK)
		st = cb_plan_round(p);
	for (int r = 0; r < n && st == CB_OK && block; r++) /* every block out */
		st = cb_plan_copy(p, r, cb_pref(r, CB_PLAN_RECV, 0),
				  cb_pref(root, CB_PLAN_STAGE, (size_t)r * block), block, 0);
	free(src);
	if (st != CB_OK)
		cb_plan_free(p);
	return st;
}
