/* The registry entries of the plan algorithms (contract in cb_algo_plan.h):
 * per algorithm of the catalogue that is a plan, a copy of the one-sided
 * executor's ops (cb_algo_plan.c) whose two_sided is a copy of the
 * two-sided one's (cb_algo_plan_p2p.c), both with its descriptor. */
#include "cb_algo_plan.h"

extern const struct cb_algo_ops cb_algo_plan_template;     /* cb_algo_plan.c */
extern const struct cb_algo_ops cb_algo_plan_p2p_template; /* cb_algo_plan_p2p.c */

static struct cb_algo_ops one_sided[CB_PLAN_ALGOS_MAX], two_sided[CB_PLAN_ALGOS_MAX];
static const struct cb_algo_ops *entries[CB_PLAN_ALGOS_MAX];
static size_t nentries, made_np;

const struct cb_algo_ops *const *cb_algo_plan_registry(size_t *n)
{
	size_t na, np;
	const struct cb_algo_desc *const *cat = cb_catalog_algos(&na);

	(void)cb_plan_algos(&np);
	if (np != made_np) /* made again when a plan was added (cb_plan_algo_add) */
		nentries = 0;
	for (size_t i = 0; np != made_np && i < na; i++) {
		if (!cat[i]->plan)
			continue;
		two_sided[nentries] = cb_algo_plan_p2p_template;
		two_sided[nentries].desc = cat[i];
		one_sided[nentries] = cb_algo_plan_template;
		one_sided[nentries].desc = cat[i];
		one_sided[nentries].two_sided = &two_sided[nentries];
		entries[nentries] = &one_sided[nentries];
		nentries++;
	}
	made_np = np;
	*n = nentries;
	return entries;
}

/* The other collectives' entries, made once. */
static struct cb_algo_ops coll_one[CB_COLL_COUNT][CB_PLAN_ALGOS_MAX];
static struct cb_algo_ops coll_two[CB_COLL_COUNT][CB_PLAN_ALGOS_MAX];
static const struct cb_algo_ops *coll_entries[CB_COLL_COUNT][CB_PLAN_ALGOS_MAX];
static size_t coll_nentries[CB_COLL_COUNT];
static int coll_made[CB_COLL_COUNT];

const struct cb_algo_ops *const *cb_algo_plan_registry_coll(enum cb_coll c, size_t *n)
{
	size_t na;
	const struct cb_algo_desc *const *cat;

	if (c == CB_COLL_ALLREDUCE)
		return cb_algo_plan_registry(n);
	*n = 0;
	if ((unsigned)c >= CB_COLL_COUNT)
		return NULL;
	cat = cb_catalog_coll_algos(c, &na);
	for (size_t i = 0; !coll_made[c] && i < na; i++) {
		size_t e;

		if (!cat[i]->plan)
			continue;
		e = coll_nentries[c]++;
		coll_two[c][e] = cb_algo_plan_p2p_template;
		coll_two[c][e].desc = cat[i];
		coll_one[c][e] = cb_algo_plan_template;
		coll_one[c][e].desc = cat[i];
		coll_one[c][e].two_sided = &coll_two[c][e];
		coll_entries[c][e] = &coll_one[c][e];
	}
	coll_made[c] = 1;
	*n = coll_nentries[c];
	return coll_entries[c];
}
