/* Recursive doubling allreduce as a plan. On p = 2^L ranks, round j
 * (0 <= j < L) has every rank v reduce its partner v ^ 2^j's partial with
 * its own: after L rounds every rank holds the whole reduction. Partials
 * alternate between two halves of STAGE (cb_pof2_half) so that no rank
 * writes what its partner reads in the same round; the last round writes
 * RECV, except with L = 1, where a peer still reads SEND (RECV in place) in
 * that round: there it writes STAGE and a local round copies it to RECV. Both partners compute x op y and y op x: the same bits, as every op
 * here commutes. A world that is not a power of two folds first
 * (cb_pof2_fold_in, into A) and copies the result out last
 * (cb_pof2_fold_out). Source: Thakur, Rabenseifner and Gropp, "Optimization
 * of Collective Communication Operations in MPICH", IJHPCA 19(1), 2005,
 * section 4.5. Traffic: S per round, S log2 n per rank for a power of two;
 * otherwise the folded pairs add S each way. */
#include "cb_plan_lib.h"
#include "cb_plan_share.h"

static enum cb_status rd_round(struct cb_plan *p, const struct cb_pof2 *f, int j)
{
	int last = j == f->log2p - 1;
	enum cb_status st = cb_plan_round(p);

	for (int v = 0; v < f->p && st == CB_OK; v++) {
		int r = cb_pof2_rank(f, v), q = cb_pof2_rank(f, v ^ (1 << j));
		size_t ro, qo, oo = cb_pof2_half(f, j, p->count);
		enum cb_plan_buf rb = cb_pof2_partial(f, v, j, p->count, &ro);
		enum cb_plan_buf qb = cb_pof2_partial(f, v ^ (1 << j), j, p->count, &qo);
		enum cb_plan_buf ob = last && f->log2p > 1 ? CB_PLAN_RECV : CB_PLAN_STAGE;

		st = cb_plan_reduce(p, r, cb_pref(r, ob, ob == CB_PLAN_RECV ? 0 : oo),
				    cb_pref(q, qb, qo), cb_pref(r, rb, ro), p->count, last);
	}
	return st;
}

enum cb_status cb_plan_build_allreduce_rd(struct cb_plan *p, const struct cb_plan_args *a)
{
	struct cb_pof2 f = cb_pof2_of(a->n);
	enum cb_status st = cb_plan_init(p, "rd", a->n, a->count);

	if (st == CB_OK)
		st = cb_pof2_fold_in(p, &f, 0);
	for (int j = 0; j < f.log2p && st == CB_OK; j++)
		st = rd_round(p, &f, j);
	if (st == CB_OK && f.log2p == 1) { /* STAGE to RECV; the fold reads it */
		size_t h = cb_pof2_half(&f, 0, a->count);

		st = cb_plan_round(p);
		for (int v = 0; v < f.p && st == CB_OK; v++) {
			int r = cb_pof2_rank(&f, v);

			st = cb_plan_copy(p, r, cb_pref(r, CB_PLAN_RECV, 0), cb_pref(r, CB_PLAN_STAGE, h),
					  a->count, 0);
		}
		for (int i = 0; i < f.rem && st == CB_OK; i++)
			st = cb_plan_copy(p, 2 * i, cb_pref(2 * i, CB_PLAN_RECV, 0),
					  cb_pref(2 * i + 1, CB_PLAN_STAGE, h), a->count, 0);
	} else if (st == CB_OK) {
		st = cb_pof2_fold_out(p, &f, CB_PLAN_RECV, 0);
	}
	if (st != CB_OK)
		cb_plan_free(p);
	return st;
}
