/* Two-shot allreduce as a plan: a reduce-scatter then an all-gather, each by
 * direct exchange with every peer. Round 0: rank r reduces chunk r
 * (cb_chunk) of every rank's input, in rank order 0 .. n-1, into its RECV
 * (the partial in its STAGE). Round 1: rank r copies chunk q of rank q's
 * RECV, for every q != r. Source: vLLM's custom allreduce,
 * cross_device_reduce_2stage (vllm#2192); TensorRT-LLM's
 * twoShotAllReduceKernel (customAllReduceKernels.cu). Traffic: rank r
 * receives (n-1) c_r + S - c_r and sends as much (c_r: its chunk's bytes),
 * 2(n-1)/n S when n divides the count, as the ring, in 2 rounds instead of
 * 2(n-1). In place, round 1 writes the ranges peers read in round 0: the
 * waits cb_plan_finish derives order it. */
#include "cb_pattern.h"
#include "cb_plan_lib.h"
#include "cb_plan_share.h"

#include <stdlib.h>

enum cb_status cb_plan_build_allreduce_twoshot(struct cb_plan *p, const struct cb_plan_args *a)
{
	int n = a->n, *order = malloc((size_t)n * sizeof(int));
	enum cb_status st = order ? cb_plan_init(p, "twoshot", n, a->count) : CB_ERR_NOMEM;

	for (int r = 0; order && r < n; r++)
		order[r] = r;
	for (int r = 0; r < n && st == CB_OK; r++) { /* reduce-scatter */
		size_t off, c;

		cb_chunk(a->count, n, r, &off, &c);
		st = cb_plan_reduce_chain(p, r, cb_pref(r, CB_PLAN_RECV, off), order, n, off, c, 0, 1);
	}
	if (st == CB_OK)
		st = cb_plan_round(p);
	for (int r = 0; r < n && st == CB_OK; r++) /* all-gather */
		for (int q = 0; q < n && st == CB_OK; q++) {
			size_t off, c;

			cb_chunk(a->count, n, q, &off, &c);
			if (q != r)
				st = cb_plan_copy(p, r, cb_pref(r, CB_PLAN_RECV, off),
						  cb_pref(q, CB_PLAN_RECV, off), c, 0);
		}
	free(order);
	if (st != CB_OK && order)
		cb_plan_free(p);
	return st;
}
