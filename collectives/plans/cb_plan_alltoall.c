/* all-to-all as plans: count = n blocks of B elements (nccl-tests'
 * alltoall: send and recv count each, B = count/n per peer). Rank r's SEND
 * block q goes to rank q's RECV block r; every RECV ends with block q =
 * rank q's SEND block r.
 *
 * In place SEND and RECV are one buffer (offset 0), so a rank may not write
 * its RECV block q while rank q still reads the same range as its SEND
 * block: both plans gather into STAGE first and write RECV in a later
 * round, which makes one plan valid in both modes (the in-memory executor
 * checks both). The price out of place is a local copy of the staged
 * blocks.
 *
 * direct (pairwise exchange: every rank reads its block from every peer;
 * Thakur, Rabenseifner and Gropp, IJHPCA 19(1), 2005, section 3's
 * pairwise all-to-all, one round instead of n-1 steps): round 0: rank r
 * copies rank q's SEND block r into its STAGE block q, for every q != r,
 * and its own SEND block r; round 1: STAGE into RECV. Traffic: (n-1) B
 * each way (the closed forms: cb_coll_alltoall.c).
 *
 * ps (the seed's parameter server as an all-to-all: everything through the
 * root): round 0: the root copies every rank's whole SEND into its STAGE
 * (slot q = rank q's SEND); round 1: every rank copies, for each q, its
 * block from slot q of the root's STAGE into its RECV block q. The root
 * carries (n-1) count elements each way, the others count each way: their
 * own block goes to the root and back (the relaying). */
#include "cb_plan_lib.h"

/* Round 1 of both: rank r's RECV block q from src_q (q = 0 .. n-1). */
static enum cb_status to_recv(struct cb_plan *p, int r, int n, size_t block, int root, int ps)
{
	enum cb_status st = CB_OK;

	for (int q = 0; q < n && st == CB_OK; q++) {
		struct cb_plan_ref src = ps ? cb_pref(root, CB_PLAN_STAGE,
						      (size_t)q * p->count + (size_t)r * block)
					    : cb_pref(r, CB_PLAN_STAGE, (size_t)q * block);

		st = cb_plan_copy(p, r, cb_pref(r, CB_PLAN_RECV, (size_t)q * block), src, block, 0);
	}
	return st;
}

enum cb_status cb_plan_build_alltoall_direct(struct cb_plan *p, const struct cb_plan_args *a)
{
	int n = a->n;
	size_t block = a->count / (size_t)n;
	enum cb_status st = cb_plan_init_coll(p, "direct", CB_COLL_ALLTOALL, n, a->count, 0);

	for (int r = 0; r < n && st == CB_OK && block; r++)
		for (int i = 0; i < n && st == CB_OK; i++) { /* r, r+1, ...: no rank read by all */
			int q = (r + i) % n;

			st = cb_plan_copy(p, r, cb_pref(r, CB_PLAN_STAGE, (size_t)q * block),
					  cb_pref(q, CB_PLAN_SEND, (size_t)r * block), block, 0);
		}
	if (st == CB_OK && block)
		st = cb_plan_round(p);
	for (int r = 0; r < n && st == CB_OK && block; r++)
		st = to_recv(p, r, n, block, 0, 0);
	if (st != CB_OK)
		cb_plan_free(p);
	return st;
}

enum cb_status cb_plan_build_alltoall_ps(struct cb_plan *p, const struct cb_plan_args *a)
{
	int n = a->n, root = a->root;
	size_t block = a->count / (size_t)n;
	enum cb_status st = cb_plan_init_coll(p, "ps", CB_COLL_ALLTOALL, n, a->count, root);

	for (int q = 0; q < n && st == CB_OK && block; q++) /* the root's own SEND too */
		st = cb_plan_copy(p, root, cb_pref(root, CB_PLAN_STAGE, (size_t)q * a->count),
				  cb_pref(q, CB_PLAN_SEND, 0), a->count, 0);
	if (st == CB_OK && block)
		st = cb_plan_round(p);
	for (int r = 0; r < n && st == CB_OK && block; r++)
		st = to_recv(p, r, n, block, root, 1);
	if (st != CB_OK)
		cb_plan_free(p);
	return st;
}
