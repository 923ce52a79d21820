/* broadcast as plans (CB_PLAN_BUILTINS): every RECV ends with the
 * root's SEND (count elements). Positions count from the root: rank r is
 * at v = (r - root) mod n. The root's copy of its SEND into its RECV goes
 * in a round where nobody reads its SEND (in place they are one buffer).
 *
 * ps (the seed's parameter server's pull): every other rank copies the
 * root's SEND in one round; the root's own copy in a second. Traffic: the
 * root sends (n-1) count; every other rank receives count.
 *
 * chain (Thakur, Rabenseifner and Gropp, IJHPCA 19(1), 2005; NCCL's ring
 * broadcast): position v >= 1 copies slice j from position v-1 in round
 * j + v - 1, so the slices flow down the chain one round apart; the root's
 * own copy in round nslices. Traffic: every rank but the last sends count,
 * every rank but the root receives count.
 *
 * binomial (the same paper, section 4.1): in round k = 0 .. ceil(log2 n)-1,
 * position v < 2^k gives the whole buffer to position v + 2^k (when there is
 * one); the root's own copy in a last round. Traffic: every rank but the
 * root receives count; position v sends count to each of its children. */
#include "cb_pattern.h"
#include "cb_plan_lib.h"
#include "cb_plan_share.h"

static int rank_at(int v, int root, int n)
{
	return (v + root) % n;
}

/* Where position v's copy of the buffer is: the root's SEND, else its RECV. */
static struct cb_plan_ref held(int v, int root, int n, size_t off)
{
	return cb_pref(rank_at(v, root, n), v == 0 ? CB_PLAN_SEND : CB_PLAN_RECV, off);
}

static enum cb_status root_copy(struct cb_plan *p, int root, size_t count)
{
	enum cb_status st = cb_plan_round(p);

	return st == CB_OK ? cb_plan_copy(p, root, cb_pref(root, CB_PLAN_RECV, 0),
					  cb_pref(root, CB_PLAN_SEND, 0), count, 0)
			   : st;
}

enum cb_status cb_plan_build_broadcast_ps(struct cb_plan *p, const struct cb_plan_args *a)
{
	int n = a->n, root = a->root;
	enum cb_status st = cb_plan_init_coll(p, "ps", CB_COLL_BROADCAST, n, a->count, root);

	for (int v = 1; v < n && st == CB_OK; v++)
		st = cb_plan_copy(p, rank_at(v, root, n), cb_pref(rank_at(v, root, n), CB_PLAN_RECV, 0),
				  cb_pref(root, CB_PLAN_SEND, 0), a->count, 0);
	if (st == CB_OK)
		st = root_copy(p, root, a->count);
	if (st != CB_OK)
		cb_plan_free(p);
	return st;
}

enum cb_status cb_plan_build_broadcast_chain(struct cb_plan *p, const struct cb_plan_args *a)
{
	int n = a->n, root = a->root;
	size_t slice, nslices = cb_plan_slicing(a->count, a->slice_count, &slice);
	size_t nrounds = nslices + (size_t)n - 2;
	enum cb_status st = cb_plan_init_coll(p, "chain", CB_COLL_BROADCAST, n, a->count, root);

	for (size_t u = 0; u < nrounds && st == CB_OK; u++) {
		st = cb_plan_round(p);
		for (int v = 1; v < n && st == CB_OK; v++) {
			size_t j = u - (size_t)(v - 1), off, c;

			if (u < (size_t)(v - 1) || j >= nslices)
				continue;
			cb_slice(a->count, slice, j, &off, &c);
			st = cb_plan_copy(p, rank_at(v, root, n),
					  cb_pref(rank_at(v, root, n), CB_PLAN_RECV, off),
					  held(v - 1, root, n, off), c, 0);
		}
		if (st == CB_OK && u == nslices && a->count) /* the chain read the root's last slice */
			st = cb_plan_copy(p, root, cb_pref(root, CB_PLAN_RECV, 0),
					  cb_pref(root, CB_PLAN_SEND, 0), a->count, 0);
	}
	if (st == CB_OK && nrounds <= nslices) /* n = 2: no round after the last slice yet */
		st = root_copy(p, root, a->count);
	if (st != CB_OK)
		cb_plan_free(p);
	return st;
}

enum cb_status cb_plan_build_broadcast_binomial(struct cb_plan *p, const struct cb_plan_args *a)
{
	int n = a->n, root = a->root;
	enum cb_status st = cb_plan_init_coll(p, "binomial", CB_COLL_BROADCAST, n, a->count, root);

	for (int d = 1; d < n && st == CB_OK; d *= 2) { /* round log2 d */
		st = cb_plan_round(p);
		for (int v = 0; v < d && v + d < n && st == CB_OK; v++)
			st = cb_plan_copy(p, rank_at(v + d, root, n),
					  cb_pref(rank_at(v + d, root, n), CB_PLAN_RECV, 0),
					  held(v, root, n, 0), a->count, 0);
	}
	if (st == CB_OK)
		st = root_copy(p, root, a->count);
	if (st != CB_OK)
		cb_plan_free(p);
	return st;
}
