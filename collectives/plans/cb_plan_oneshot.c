/* One-shot allreduce as a plan: every rank reads every rank's input and
 * reduces the whole buffer itself, in absolute rank order ((x0 op x1) op x2
 * ... op x(n-1)), so every rank computes the same bits (vLLM's 1-stage kernel
 * sums in that order too; its 2-stage one rotates it, vllm#57042). Source:
 * vLLM's custom allreduce, cross_device_reduce_1stage (Hanzhi Zhou,
 * "Latency-optimal allreduce and CUDA graph optimization", vllm#2192, 2023);
 * TensorRT-LLM's oneShotAllReduceKernel (customAllReduceKernels.cu).
 *
 * Round 0: rank r accumulates into its STAGE (count elements): a copy of
 * rank 0's input, then the inputs of ranks 1 .. n-1 reduced in, the last
 * with the op's final step. Round 1: rank r copies STAGE into its RECV, a
 * local copy. The second round is what in place needs: there RECV is the
 * input the peers read in round 0, and a round's messages read nothing the
 * round writes (cb_plan.h), so the result waits for every peer's round 0;
 * out of place round 1 waits for no one (cb_plan_finish derives no wait)
 * and costs a local copy of S. Traffic: tx = rx = (n-1)S on every rank,
 * n(n-1)S in total; one round of messages, the latency-optimal shape. */
#include "cb_plan_lib.h"
#include "cb_plan_share.h"

#include <stdlib.h>

enum cb_status cb_plan_build_allreduce_oneshot(struct cb_plan *p, const struct cb_plan_args *a)
{
	int n = a->n, *order = malloc((size_t)n * sizeof(int));
	enum cb_status st = order ? cb_plan_init(p, "oneshot", n, a->count) : CB_ERR_NOMEM;

	for (int r = 0; order && r < n; r++)
		order[r] = r;
	for (int r = 0; r < n && st == CB_OK; r++)
		st = cb_plan_reduce_chain(p, r, cb_pref(r, CB_PLAN_STAGE, 0), order, n, 0, a->count, 0, 1);
	if (st == CB_OK)
		st = cb_plan_round(p);
	for (int r = 0; r < n && st == CB_OK; r++)
		st = cb_plan_copy(p, r, cb_pref(r, CB_PLAN_RECV, 0), cb_pref(r, CB_PLAN_STAGE, 0),
				  a->count, 0);
	free(order);
	if (st != CB_OK && order)
		cb_plan_free(p);
	return st;
}
