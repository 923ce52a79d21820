/* What the builders of plans share (contract in cb_plan_share.h). */
#include "cb_plan_share.h"

#include <stdlib.h>

enum cb_status cb_plan_reduce_chain(struct cb_plan *p, int exec, struct cb_plan_ref dst,
				    const int *src, int m, size_t off, size_t count, size_t stage_off,
				    int final)
{
	struct cb_plan_ref acc = cb_pref(exec, CB_PLAN_STAGE, stage_off);
	enum cb_status st;

	if (m == 1)
		return cb_plan_copy(p, exec, dst, cb_pref(src[0], CB_PLAN_SEND, off), count, final);
	st = cb_plan_copy(p, exec, acc, cb_pref(src[0], CB_PLAN_SEND, off), count, 0);
	for (int i = 1; i < m && st == CB_OK; i++)
		st = cb_plan_reduce(p, exec, i == m - 1 ? dst : acc, cb_pref(src[i], CB_PLAN_SEND, off),
				    acc, count, i == m - 1 && final);
	return st;
}

size_t cb_plan_slicing(size_t m, size_t slice_count, size_t *slice)
{
	*slice = slice_count && slice_count < m ? slice_count : m;
	return *slice ? (m + *slice - 1) / *slice : 0;
}

int *cb_plan_rank_order(int n)
{
	int *src = malloc((size_t)n * sizeof(*src));

	for (int r = 0; src && r < n; r++)
		src[r] = r;
	return src;
}

enum cb_status cb_pof2_fold_in(struct cb_plan *p, const struct cb_pof2 *f, size_t stage_off)
{
	enum cb_status st = f->rem ? cb_plan_round(p) : CB_OK;

	for (int i = 0; i < f->rem && st == CB_OK; i++)
		st = cb_plan_reduce(p, 2 * i + 1, cb_pref(2 * i + 1, CB_PLAN_STAGE, stage_off),
				    cb_pref(2 * i, CB_PLAN_SEND, 0), cb_pref(2 * i + 1, CB_PLAN_SEND, 0),
				    p->count, 0);
	return st;
}

enum cb_status cb_pof2_fold_out(struct cb_plan *p, const struct cb_pof2 *f,
				enum cb_plan_buf from, size_t from_off)
{
	enum cb_status st = f->rem ? cb_plan_round(p) : CB_OK;

	for (int i = 0; i < f->rem && st == CB_OK; i++)
		st = cb_plan_copy(p, 2 * i, cb_pref(2 * i, CB_PLAN_RECV, 0),
				  cb_pref(2 * i + 1, from, from_off), p->count, 0);
	return st;
}

enum cb_plan_buf cb_pof2_partial(const struct cb_pof2 *f, int v, int j, size_t count,
				 size_t *base)
{
	*base = 0;
	if (j == 0 && !(v < f->rem))
		return CB_PLAN_SEND;
	if (j > 0)
		*base = cb_pof2_half(f, j - 1, count);
	return CB_PLAN_STAGE;
}

size_t cb_pof2_half(const struct cb_pof2 *f, int j, size_t count)
{
	return (j + (f->rem > 0)) % 2 ? count : 0;
}
