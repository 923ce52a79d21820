/* The table of plan algorithms (contract in cb_plan_lib.h): a new algorithm
 * is its builder's file and one line here. */
#include "cb_plan_lib.h"

#include <string.h>

static const struct cb_plan_algo algos[] = {
	{ "ps", cb_plan_build_ps,
	  "parameter server: workers push to the root (-r), it reduces, workers pull (--servers K: "
	  "K shards)", "the seed's parameter server; K servers: BytePS (OSDI 2020)" },
	{ "ring", cb_plan_build_ring,
	  "ring: reduce-scatter then all-gather between neighbours, pipelined in slices",
	  "Patarasuk and Yuan, JPDC 69(2), 2009; NCCL's slices" },
	{ "oneshot", cb_plan_build_oneshot,
	  "one-shot: every rank reads every input and reduces the whole buffer (1 round of messages)",
	  "vLLM's custom allreduce, 1-stage (vllm#2192); TensorRT-LLM's oneShotAllReduceKernel" },
	{ "twoshot", cb_plan_build_twoshot,
	  "two-shot: reduce-scatter then all-gather by direct exchange with every peer (2 rounds)",
	  "vLLM's custom allreduce, 2-stage; TensorRT-LLM's twoShotAllReduceKernel" },
	{ "rd", cb_plan_build_rd,
	  "recursive doubling: log2 n rounds exchanging the whole buffer with a partner",
	  "Thakur, Rabenseifner and Gropp, IJHPCA 19(1), 2005, section 4.5" },
	{ "rabenseifner", cb_plan_build_rabenseifner,
	  "Rabenseifner: recursive-halving reduce-scatter, recursive-doubling all-gather",
	  "Rabenseifner, ICCS 2004; Thakur, Rabenseifner and Gropp, IJHPCA 19(1), 2005" },
	{ "dbtree", cb_plan_build_dbtree,
	  "double binary tree: each half of the buffer reduced up and broadcast down a tree, in slices",
	  "Sanders, Speck and Traff, ParCo 35(12), 2009; NCCL 2.4's trees" },
	{ "hier", cb_plan_build_hier,
	  "hierarchical: reduce-scatter in each host, a ring of each shard between hosts, all-gather",
	  "the two-level schemes of NCCL's CollNet and Horovod's hierarchical allreduce" },
};
_Static_assert(sizeof(algos) / sizeof(algos[0]) <= CB_PLAN_ALGOS_MAX, "raise CB_PLAN_ALGOS_MAX");

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
