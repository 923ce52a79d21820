/* Rabenseifner's allreduce as a plan: a reduce-scatter by recursive halving
 * then an all-gather by recursive doubling, on p = 2^L ranks over p blocks
 * (cb_chunk). Reduce-scatter round j (d = p / 2^(j+1)): rank v and its
 * partner v ^ d split the blocks they share in halves; v keeps the half
 * holding block v and reduces the partner's partial of it with its own.
 * After L rounds v holds block v, final, in its RECV. All-gather round j
 * (d = 2^j): v copies the d blocks its partner v ^ d holds from the
 * partner's RECV. Partials alternate between two halves of STAGE
 * (cb_pof2_half) so that no rank writes what its partner reads in that
 * round.
 * Both partners reduce a block as x op y and y op x: the same bits, as every
 * op here commutes. A world that is not a power of two folds first and
 * copies the result out last (cb_pof2_fold_in, _out). Source: R.
 * Rabenseifner, "Optimization of Collective Reduction Operations", ICCS
 * 2004; Thakur, Rabenseifner and Gropp, IJHPCA 19(1), 2005, section 4.5.
 * Traffic: 2(p-1)/p S per rank for a power of two p dividing the count, the
 * ring's bytes in 2 log2 p rounds; the folded pairs add S each way. */
#include "cb_pattern.h"
#include "cb_plan_lib.h"
#include "cb_plan_share.h"

/* Elements of blocks [lo, lo + nb) of p: offset and count. */
static void blocks(size_t count, int p, int lo, int nb, size_t *off, size_t *c)
{
	size_t o1, c1;

	cb_chunk(count, p, lo, off, c);
	cb_chunk(count, p, lo + nb - 1, &o1, &c1);
	*c = o1 + c1 - *off;
}

static enum cb_status rs_round(struct cb_plan *p, const struct cb_pof2 *f, int j)
{
	int d = f->p >> (j + 1), last = j == f->log2p - 1;
	enum cb_status st = cb_plan_round(p);

	for (int v = 0; v < f->p && st == CB_OK; v++) {
		int w = v ^ d, r = cb_pof2_rank(f, v), q = cb_pof2_rank(f, w);
		size_t off, c, rb, qb, ob = cb_pof2_half(f, j, p->count);
		enum cb_plan_buf rbuf = cb_pof2_partial(f, v, j, p->count, &rb);
		enum cb_plan_buf qbuf = cb_pof2_partial(f, w, j, p->count, &qb);

		blocks(p->count, f->p, v & ~(d - 1), d, &off, &c);
		st = cb_plan_reduce(p, r, last ? cb_pref(r, CB_PLAN_RECV, off)
					       : cb_pref(r, CB_PLAN_STAGE, ob + off),
				    cb_pref(q, qbuf, qb + off), cb_pref(r, rbuf, rb + off), c, last);
	}
	return st;
}

static enum cb_status ag_round(struct cb_plan *p, const struct cb_pof2 *f, int j)
{
	int d = 1 << j;
	enum cb_status st = cb_plan_round(p);

	for (int v = 0; v < f->p && st == CB_OK; v++) {
		int w = v ^ d, r = cb_pof2_rank(f, v), q = cb_pof2_rank(f, w);
		size_t off, c;

		blocks(p->count, f->p, w & ~(d - 1), d, &off, &c);
		st = cb_plan_copy(p, r, cb_pref(r, CB_PLAN_RECV, off), cb_pref(q, CB_PLAN_RECV, off), c,
				  0);
	}
	return st;
}

enum cb_status cb_plan_build_allreduce_rabenseifner(struct cb_plan *p, const struct cb_plan_args *a)
{
	struct cb_pof2 f = cb_pof2_of(a->n);
	enum cb_status st = cb_plan_init(p, "rabenseifner", a->n, a->count);

	if (st == CB_OK)
		st = cb_pof2_fold_in(p, &f, 0);
	for (int j = 0; j < f.log2p && st == CB_OK; j++)
		st = rs_round(p, &f, j);
	for (int j = 0; j < f.log2p && st == CB_OK; j++)
		st = ag_round(p, &f, j);
	if (st == CB_OK)
		st = cb_pof2_fold_out(p, &f, CB_PLAN_RECV, 0);
	if (st != CB_OK)
		cb_plan_free(p);
	return st;
}
