/* cb_plan_share: what the builders of plans share (cb_plan_lib.h lists
 * the builders): a rank's reduce of a range over several ranks' inputs, and
 * the fold of a world that is not a power of two. */
#ifndef CB_PLAN_SHARE_H
#define CB_PLAN_SHARE_H

#include <stddef.h>

#include "cb_plan.h"
#include "cb_status.h"

/* exec's reduce of the element range [off, off + count) of the SEND buffers
 * of ranks src[0 .. m-1] (m >= 1), in that order, ((x0 op x1) op x2) ...,
 * into dst, the partial kept in exec's STAGE at stage_off (dst may be that
 * very range); final on the last step. All in the open round; the reads of
 * other ranks' SEND are messages. Every rank that reduces a range over the
 * same src order computes the same bits. m == 1: a copy. Errors:
 * CB_ERR_NOMEM. */
enum cb_status cb_plan_reduce_chain(struct cb_plan *p, int exec, struct cb_plan_ref dst,
				    const int *src, int m, size_t off, size_t count, size_t stage_off,
				    int final);

/* The slices of a range of m elements for a slice_count (0: one slice):
 * the slice in *slice (elements, at most m), their number returned (0 for
 * m = 0). */
size_t cb_plan_slicing(size_t m, size_t slice_count, size_t *slice);

/* Ranks 0 .. n-1 in order (malloc'ed; NULL: no memory): the sources of a
 * reduce in rank order. */
int *cb_plan_rank_order(int n);

/* The fold of a world that is not a power of two (Thakur, Rabenseifner and
 * Gropp, "Optimization of Collective Communication Operations in MPICH",
 * IJHPCA 19(1), 2005, section 4.5): p is the largest power of two <= n,
 * rem = n - p; among the first 2 rem ranks each even rank gives its input
 * to the odd rank after it and sits out, so that p ranks (the odd ones of
 * the first 2 rem, then the rest) run the power-of-two algorithm as new
 * ranks 0 .. p-1; at the end each even rank of the first 2 rem copies the
 * result from the odd one after it. */
struct cb_pof2 {
	int n, p, rem, log2p;
};

static inline struct cb_pof2 cb_pof2_of(int n)
{
	struct cb_pof2 f = { n, 1, 0, 0 };

	while (f.p * 2 <= n)
		f.p *= 2, f.log2p++;
	f.rem = n - f.p;
	return f;
}

/* Rank r's new rank, -1 for a rank that sits out. */
static inline int cb_pof2_newrank(const struct cb_pof2 *f, int r)
{
	if (r < 2 * f->rem)
		return r % 2 ? r / 2 : -1;
	return r - f->rem;
}

/* The rank of new rank v. */
static inline int cb_pof2_rank(const struct cb_pof2 *f, int v)
{
	return v < f->rem ? 2 * v + 1 : v + f->rem;
}

/* The fold's first round (rem > 0): each odd rank 2i+1 < 2 rem reduces the
 * input of 2i with its own into its STAGE at stage_off (count elements).
 * Its last (rem > 0): each even rank 2i copies 2i+1's result at `from`
 * (RECV, or STAGE) into its RECV. Errors: CB_ERR_NOMEM. */
enum cb_status cb_pof2_fold_in(struct cb_plan *p, const struct cb_pof2 *f, size_t stage_off);
enum cb_status cb_pof2_fold_out(struct cb_plan *p, const struct cb_pof2 *f,
				enum cb_plan_buf from, size_t from_off);

/* A power-of-two exchange that alternates its partials between two halves
 * of STAGE (A at 0, B at count): the half round j writes, as an element
 * offset. The fold's partials are in A before round 0, so there round 0
 * writes B; without a fold round 0 writes A, and a world of two ranks needs
 * only A (count elements of STAGE a rank, not 2 count). */
size_t cb_pof2_half(const struct cb_pof2 *f, int j, size_t count);

/* Where new rank v's partial is before round j of that exchange: its SEND
 * before round 0 (a rank the fold gave nothing), else STAGE, the half's
 * base in *base (A before round 0, where the fold put it). */
enum cb_plan_buf cb_pof2_partial(const struct cb_pof2 *f, int v, int j, size_t count,
				 size_t *base);

#endif
