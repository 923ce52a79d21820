/* reduce as plans (CB_PLAN_BUILTINS): the root's RECV ends with the
 * reduction of every SEND (count elements), finished; the other RECVs are
 * not results. Positions count from the root: rank r is at
 * v = (r - root) mod n.
 *
 * ps (the seed's parameter server's push): the root reduces every rank's
 * input in rank order in one round. Traffic: the root receives (n-1) count;
 * every other rank sends count.
 *
 * chain (NCCL's ring reduce): partials flow from position n-1 down to the
 * root; position v (1 <= v <= n-2) reduces slice j of the partial of
 * position v+1 (its SEND, for the last) with its own input into its STAGE
 * in round j + n-2-v, the root into its RECV, finished. Traffic: every rank
 * but the root sends count, every rank but the last receives count.
 *
 * binomial (Thakur, Rabenseifner and Gropp, IJHPCA 19(1), 2005, section
 * 4.1, the broadcast's tree reversed): in round k, position v with
 * v mod 2^(k+1) = 2^k gives its partial (its SEND until it received one,
 * then its STAGE) to position v - 2^k, which reduces it with its own
 * partial into its STAGE (the root's last into its RECV, finished).
 * Traffic: every rank but the root sends count once; a rank receives count
 * from each of its children. */
#include <stdlib.h>

#include "cb_pattern.h"
#include "cb_plan_lib.h"
#include "cb_plan_share.h"

static int rank_at(int v, int root, int n)
{
	return (v + root) % n;
}

enum cb_status cb_plan_build_reduce_ps(struct cb_plan *p, const struct cb_plan_args *a)
{
	int n = a->n, root = a->root, *src = NULL;
	enum cb_status st = cb_plan_init_coll(p, "ps", CB_COLL_REDUCE, n, a->count, root);

	if (st == CB_OK && !(src = cb_plan_rank_order(n)))
		st = CB_ERR_NOMEM;
	if (st == CB_OK && a->count)
		st = cb_plan_reduce_chain(p, root, cb_pref(root, CB_PLAN_RECV, 0), src, n, 0, a->count,
					  0, 1);
	free(src);
	if (st != CB_OK)
		cb_plan_free(p);
	return st;
}

/* Position v's partial of the chain, at element off. */
static struct cb_plan_ref chain_partial(int v, int root, int n, size_t off)
{
	return cb_pref(rank_at(v, root, n), v == n - 1 ? CB_PLAN_SEND : CB_PLAN_STAGE, off);
}

enum cb_status cb_plan_build_reduce_chain(struct cb_plan *p, const struct cb_plan_args *a)
{
	int n = a->n, root = a->root;
	size_t slice, nslices = cb_plan_slicing(a->count, a->slice_count, &slice);
	size_t nrounds = nslices + (size_t)n - 2;
	enum cb_status st = cb_plan_init_coll(p, "chain", CB_COLL_REDUCE, n, a->count, root);

	for (size_t u = 0; u < nrounds && st == CB_OK; u++) {
		st = cb_plan_round(p);
		for (int v = n - 2; v >= 0 && st == CB_OK; v--) {
			size_t lag = (size_t)(n - 2 - v), j = u - lag, off, c;
			int r = rank_at(v, root, n);

			if (u < lag || j >= nslices)
				continue;
			cb_slice(a->count, slice, j, &off, &c);
			st = cb_plan_reduce(p, r, v == 0 ? cb_pref(r, CB_PLAN_RECV, off)
							 : cb_pref(r, CB_PLAN_STAGE, off),
					    chain_partial(v + 1, root, n, off), cb_pref(r, CB_PLAN_SEND, off),
					    c, v == 0);
		}
	}
	if (st != CB_OK)
		cb_plan_free(p);
	return st;
}

enum cb_status cb_plan_build_reduce_binomial(struct cb_plan *p, const struct cb_plan_args *a)
{
	int n = a->n, root = a->root, nr = 0;
	enum cb_status st = cb_plan_init_coll(p, "binomial", CB_COLL_REDUCE, n, a->count, root);

	while ((1 << nr) < n)
		nr++;
	for (int k = 0; k < nr && st == CB_OK; k++) {
		int d = 1 << k;

		st = cb_plan_round(p);
		for (int v = d; v < n && st == CB_OK; v += 2 * d) { /* v gives to v - d */
			int to = rank_at(v - d, root, n), from = rank_at(v, root, n);
			int last = v == d && k == nr - 1; /* the root's last child */
			/* a partial is the SEND until its rank's first child (position
			 * + 1, round 0) gave it one, then STAGE: v - d had that child
			 * when k > 0, v when k > 0 and v + 1 < n */
			struct cb_plan_ref mine = cb_pref(to, k > 0 ? CB_PLAN_STAGE : CB_PLAN_SEND, 0);
			struct cb_plan_ref theirs = cb_pref(from, k > 0 && v + 1 < n ? CB_PLAN_STAGE
										 : CB_PLAN_SEND, 0);

			st = cb_plan_reduce(p, to, last ? cb_pref(to, CB_PLAN_RECV, 0)
							: cb_pref(to, CB_PLAN_STAGE, 0),
					    theirs, mine, a->count, last);
		}
	}
	if (st != CB_OK)
		cb_plan_free(p);
	return st;
}
