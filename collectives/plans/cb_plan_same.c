/* Whether two plans are one schedule (contract in cb_plan.h). */
#include "cb_plan.h"

#include <stdlib.h>
#include <string.h>

/* Steps of one round, ordered by exec rank, plan order kept within one. */
struct ord {
	const struct cb_plan_step *s;
	size_t i;
};

static int ord_cmp(const void *x, const void *y)
{
	const struct ord *a = x, *b = y;

	if (a->s->exec != b->s->exec)
		return a->s->exec < b->s->exec ? -1 : 1;
	return a->i < b->i ? -1 : a->i > b->i;
}

static int ref_eq(struct cb_plan_ref a, struct cb_plan_ref b)
{
	return a.rank == b.rank && a.buf == b.buf && a.off == b.off;
}

static int step_eq(const struct cb_plan_step *a, const struct cb_plan_step *b)
{
	return a->op == b->op && a->exec == b->exec && a->final == b->final &&
	       a->count == b->count && ref_eq(a->dst, b->dst) && ref_eq(a->a, b->a) &&
	       (a->op != CB_PLAN_REDUCE || ref_eq(a->b, b->b));
}

/* Round k of a and b in exec order (ox, oy: scratch of its steps). */
static int round_eq(const struct cb_plan *a, const struct cb_plan *b, size_t k, struct ord *ox,
		    struct ord *oy)
{
	size_t fa = a->round_first[k], fb = b->round_first[k];
	size_t m = a->round_first[k + 1] - fa;

	if (m != b->round_first[k + 1] - fb)
		return 0;
	for (size_t i = 0; i < m; i++) {
		ox[i] = (struct ord){ &a->steps[fa + i], i };
		oy[i] = (struct ord){ &b->steps[fb + i], i };
	}
	qsort(ox, m, sizeof(*ox), ord_cmp);
	qsort(oy, m, sizeof(*oy), ord_cmp);
	for (size_t i = 0; i < m; i++)
		if (!step_eq(ox[i].s, oy[i].s))
			return 0;
	return 1;
}

static int shape_eq(const struct cb_plan *a, const struct cb_plan *b)
{
	if (a->coll != b->coll || a->n != b->n || a->root != b->root || a->count != b->count ||
	    a->send_count != b->send_count || a->recv_count != b->recv_count ||
	    a->nrounds != b->nrounds || a->nsteps != b->nsteps)
		return 0;
	for (int r = 0; r < a->n; r++)
		if (a->stage_count[r] != b->stage_count[r])
			return 0;
	return 1;
}

int cb_plan_same(const struct cb_plan *a, const struct cb_plan *b)
{
	size_t most = 0;
	struct ord *ox, *oy;
	int same = 1;

	if (!shape_eq(a, b))
		return 0;
	for (size_t k = 0; k < a->nrounds; k++) {
		size_t m = a->round_first[k + 1] - a->round_first[k];

		most = m > most ? m : most;
	}
	ox = malloc((most ? most : 1) * sizeof(*ox));
	oy = malloc((most ? most : 1) * sizeof(*oy));
	if (!ox || !oy)
		same = -1;
	for (size_t k = 0; k < a->nrounds && same == 1; k++)
		same = round_eq(a, b, k, ox, oy);
	free(ox);
	free(oy);
	return same;
}
