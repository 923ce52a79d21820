/* The registry entries of the plan algorithms (contract in cb_algo_plan.h):
 * per plan algorithm of a collective in the catalogue, a copy of the
 * one-sided executor's ops (cb_algo_plan.c) whose two_sided is a copy of
 * the two-sided one's (cb_algo_plan_p2p.c), both with its descriptor: the
 * transport picks the executor, whatever the collective. */
#include "cb_algo_plan.h"

extern const struct cb_algo_ops cb_algo_plan_template;     /* cb_algo_plan.c */
extern const struct cb_algo_ops cb_algo_plan_p2p_template; /* cb_algo_plan_p2p.c */

static struct cb_algo_ops one_sided[CB_COLL_COUNT][CB_PLAN_ALGOS_MAX];
static struct cb_algo_ops two_sided[CB_COLL_COUNT][CB_PLAN_ALGOS_MAX];
static const struct cb_algo_ops *entries[CB_COLL_COUNT][CB_PLAN_ALGOS_MAX];
static size_t nentries[CB_COLL_COUNT], made_np[CB_COLL_COUNT];

/* Made again when a plan was added to c (cb_plan_algo_add). */
const struct cb_algo_ops *const *cb_algo_plan_registry_coll(enum cb_coll c, size_t *n)
{
	size_t na, np;
	const struct cb_algo_desc *const *cat;

	*n = 0;
	if ((unsigned)c >= CB_COLL_COUNT)
		return NULL;
	(void)cb_plan_coll_algos(c, &np);
	cat = cb_catalog_coll_algos(c, &na);
	if (nentries[c] && np == made_np[c]) {
		*n = nentries[c];
		return entries[c];
	}
	nentries[c] = 0;
	for (size_t i = 0; i < na; i++) {
		size_t e;

		if (!cat[i]->plan)
			continue;
		e = nentries[c]++;
		two_sided[c][e] = cb_algo_plan_p2p_template;
		two_sided[c][e].desc = cat[i];
		one_sided[c][e] = cb_algo_plan_template;
		one_sided[c][e].desc = cat[i];
		one_sided[c][e].two_sided = &two_sided[c][e];
		entries[c][e] = &one_sided[c][e];
	}
	made_np[c] = np;
	*n = nentries[c];
	return entries[c];
}
