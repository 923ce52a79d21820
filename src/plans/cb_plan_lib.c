/* The table of plan algorithms (contract in cb_plan_lib.h): a new algorithm
 * is its builder's file and one line here. */
#include "cb_plan_lib.h"

#include <string.h>

static const struct cb_plan_algo algos[] = {
	{ "ps", cb_plan_build_ps, "the seed's parameter server; k servers: BytePS (OSDI 2020)" },
	{ "ring", cb_plan_build_ring, "Patarasuk and Yuan, JPDC 69(2), 2009; NCCL's slices" },
};

#define NALGOS (sizeof(algos) / sizeof(algos[0]))

const struct cb_plan_algo *cb_plan_algos(size_t *n)
{
	*n = NALGOS;
	return algos;
}

const struct cb_plan_algo *cb_plan_algo_find(const char *name)
{
	for (size_t i = 0; i < NALGOS; i++)
		if (strcmp(algos[i].name, name) == 0)
			return &algos[i];
	return NULL;
}

enum cb_status cb_plan_build(const char *name, const struct cb_plan_args *a, struct cb_plan *p)
{
	const struct cb_plan_algo *al = cb_plan_algo_find(name);

	if (!al || a->n < 1 || a->esize < 1)
		return CB_ERR_ARG;
	return al->build(p, a);
}
