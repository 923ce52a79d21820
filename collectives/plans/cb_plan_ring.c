/* The ring allreduce as a plan: reduce-scatter then all-gather between ring
 * neighbours in 2(n-1) steps of one chunk each (cb_pattern.h: which chunk
 * moves at which step), each chunk cut in slices; round u = s * nslices + j
 * moves slice j of step s on every rank. Rank r pulls from its left: at a
 * reduce-scatter step it reduces the left's chunk (its input at step 0, its
 * partial after) with its own input into its receive buffer, at an all-gather
 * step it copies the left's final chunk. Source: Patarasuk and Yuan,
 * "Bandwidth optimal all-reduce algorithms for clusters of workstations",
 * JPDC 69(2), 2009; the slicing is NCCL's (chunks in slices). Traffic: every
 * rank sends and receives 2(n-1)/n S when n divides the count. */
#include "cb_pattern.h"
#include "cb_plan_lib.h"

/* One round: slice j of step s on every rank. */
static enum cb_status ring_round(struct cb_plan *p, int n, size_t count, size_t slice, int s,
				 size_t j)
{
	enum cb_status st = cb_plan_round(p);

	for (int r = 0; r < n && st == CB_OK; r++) {
		struct cb_ring_step step;
		size_t coff, ccount, soff, scount;

		cb_ring_step(r, n, s, &step);
		cb_chunk(count, n, step.chunk, &coff, &ccount);
		cb_slice(ccount, slice, j, &soff, &scount);
		coff += soff;
		if (step.reduce)
			st = cb_plan_reduce(p, r, cb_pref(r, CB_PLAN_RECV, coff),
					    cb_pref(step.src, step.peer_send ? CB_PLAN_SEND : CB_PLAN_RECV, coff),
					    cb_pref(r, CB_PLAN_SEND, coff), scount, s == n - 2);
		else
			st = cb_plan_copy(p, r, cb_pref(r, CB_PLAN_RECV, coff),
					  cb_pref(step.src, CB_PLAN_RECV, coff), scount, 0);
	}
	return st;
}

enum cb_status cb_plan_build_allreduce_ring(struct cb_plan *p, const struct cb_plan_args *a)
{
	int n = a->n;
	size_t slice = a->slice_count ? a->slice_count : cb_chunk_max(a->count, n);
	size_t nslices = cb_slice_num(a->count, n, slice ? slice : 1);
	enum cb_status st = cb_plan_init(p, "ring", n, a->count);

	if (st != CB_OK)
		return st;
	for (int s = 0; s < cb_ring_nsteps(n) && st == CB_OK; s++)
		for (size_t j = 0; j < nslices && st == CB_OK; j++)
			st = ring_round(p, n, a->count, slice, s, j);
	if (st != CB_OK)
		cb_plan_free(p);
	return st;
}
