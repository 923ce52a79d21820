/* all-gather as plans (CB_PLAN_BUILTINS): count = n blocks of B
 * elements; rank q's SEND is its block (B elements), and every RECV ends
 * with block q at q B for every q.
 *
 * A rank's copy of its own block into its RECV goes in a round where no
 * peer reads its SEND: in place, SEND is that very range of RECV (nccl-tests'
 * in-place offset), and a round may not write what another rank reads.
 *
 * ring (Patarasuk and Yuan, JPDC 69(2), 2009: the ring allreduce's n-1
 * all-gather steps): at step s = 0 .. n-2 rank r copies block
 * c = (r - s - 1) mod n from its left (the left's SEND at step 0, its RECV
 * after), in slices, one round per (step, slice); its own block at the last
 * round (a round of its own at n = 2, where the last round reads it).
 * Traffic: every rank sends and receives (n-1) B elements.
 *
 * direct (the two-shot allreduce's second round): every rank copies every
 * peer's block in one round, its own in a second. Traffic: (n-1) B each way.
 *
 * ps (the seed's parameter server: a gather, then every rank's pull): the
 * root copies every block into its RECV, then every other rank copies the
 * root's whole RECV. Traffic: the root receives (n-1) B and sends (n-1)
 * count; every other rank sends B and receives count. */
#include "cb_pattern.h"
#include "cb_plan_lib.h"
#include "cb_plan_share.h"

/* Round (s, j) of the ring: slice j of every rank's step s block. */
static enum cb_status ag_ring_round(struct cb_plan *p, int n, size_t block, size_t slice, int s,
				    size_t j)
{
	enum cb_status st = cb_plan_round(p);

	for (int r = 0; r < n && st == CB_OK; r++) {
		int left = cb_ring_left(r, n), c = ((r - s - 1) % n + n) % n;
		size_t soff, sc, off;

		cb_slice(block, slice, j, &soff, &sc);
		off = (size_t)c * block + soff;
		st = cb_plan_copy(p, r, cb_pref(r, CB_PLAN_RECV, off),
				  s == 0 ? cb_pref(left, CB_PLAN_SEND, soff)
					 : cb_pref(left, CB_PLAN_RECV, off), sc, 0);
	}
	return st;
}

/* Every rank's copy of its own block into its RECV: in a round of its own
 * (new_round), else in the open one. */
static enum cb_status own_blocks(struct cb_plan *p, int n, size_t block, int new_round)
{
	enum cb_status st = new_round ? cb_plan_round(p) : CB_OK;

	for (int r = 0; r < n && st == CB_OK; r++)
		st = cb_plan_copy(p, r, cb_pref(r, CB_PLAN_RECV, (size_t)r * block),
				  cb_pref(r, CB_PLAN_SEND, 0), block, 0);
	return st;
}

enum cb_status cb_plan_build_all_gather_ring(struct cb_plan *p, const struct cb_plan_args *a)
{
	int n = a->n;
	size_t block = a->count / (size_t)n;
	size_t slice, nslices = cb_plan_slicing(block, a->slice_count, &slice);
	enum cb_status st = cb_plan_init_coll(p, "ring", CB_COLL_ALL_GATHER, n, a->count, 0);

	for (int s = 0; s < n - 1 && st == CB_OK && block; s++)
		for (size_t j = 0; j < nslices && st == CB_OK; j++)
			st = ag_ring_round(p, n, block, slice, s, j);
	if (st == CB_OK)
		st = own_blocks(p, n, block, n == 2);
	if (st != CB_OK)
		cb_plan_free(p);
	return st;
}

enum cb_status cb_plan_build_all_gather_direct(struct cb_plan *p, const struct cb_plan_args *a)
{
	int n = a->n;
	size_t block = a->count / (size_t)n;
	enum cb_status st = cb_plan_init_coll(p, "direct", CB_COLL_ALL_GATHER, n, a->count, 0);

	for (int r = 0; r < n && st == CB_OK; r++)
		for (int i = 1; i < n && st == CB_OK; i++) { /* from r+1 on, so no rank is read by all */
			int q = (r + i) % n;

			st = cb_plan_copy(p, r, cb_pref(r, CB_PLAN_RECV, (size_t)q * block),
					  cb_pref(q, CB_PLAN_SEND, 0), block, 0);
		}
	if (st == CB_OK)
		st = own_blocks(p, n, block, 1);
	if (st != CB_OK)
		cb_plan_free(p);
	return st;
}

enum cb_status cb_plan_build_all_gather_ps(struct cb_plan *p, const struct cb_plan_args *a)
{
	int n = a->n, root = a->root;
	size_t block = a->count / (size_t)n;
	enum cb_status st = cb_plan_init_coll(p, "ps", CB_COLL_ALL_GATHER, n, a->count, root);

	for (int q = 0; q < n && st == CB_OK; q++) /* the gather, the root's own block too */
		st = cb_plan_copy(p, root, cb_pref(root, CB_PLAN_RECV, (size_t)q * block),
				  cb_pref(q, CB_PLAN_SEND, 0), block, 0);
	if (st == CB_OK)
		st = cb_plan_round(p);
	for (int r = 0; r < n && st == CB_OK; r++)
		if (r != root)
			st = cb_plan_copy(p, r, cb_pref(r, CB_PLAN_RECV, 0),
					  cb_pref(root, CB_PLAN_RECV, 0), a->count, 0);
	if (st != CB_OK)
		cb_plan_free(p);
	return st;
}
