#include "cb_pattern.h"

void cb_chunk(size_t count, int n, int c, size_t *offset, size_t *ccount)
{
	size_t base = count / (size_t)n, extra = count % (size_t)n;
	size_t uc = (size_t)c;

	*offset = uc * base + (uc < extra ? uc : extra);
	*ccount = base + (uc < extra ? 1 : 0);
}

size_t cb_chunk_max(size_t count, int n)
{
	return count / (size_t)n + (count % (size_t)n ? 1 : 0);
}

size_t cb_slice_num(size_t count, int n, size_t slice_count)
{
	size_t cmax = cb_chunk_max(count, n);

	return cmax / slice_count + (cmax % slice_count ? 1 : 0);
}

void cb_slice(size_t ccount, size_t slice_count, size_t j, size_t *offset,
	      size_t *scount)
{
	size_t start = j * slice_count;

	if (start >= ccount) {
		*offset = ccount;
		*scount = 0;
		return;
	}
	*offset = start;
	*scount = ccount - start < slice_count ? ccount - start : slice_count;
}

void cb_ring_step(int rank, int n, int s, struct cb_ring_step *out)
{
	out->src = cb_ring_left(rank, n);
	if (s < n - 1) {
		/* reduce-scatter: pull the partial sum the left made one step ago */
		out->chunk = ((rank - 1 - s) % n + n) % n;
		out->reduce = 1;
		out->peer_send = s == 0;
		out->gather_index = -1;
	} else {
		/* all-gather: pull the final chunk the left holds or just copied */
		int g = s - (n - 1);

		out->chunk = ((rank - g) % n + n) % n;
		out->reduce = 0;
		out->peer_send = 0;
		out->gather_index = g;
	}
}

size_t cb_ring_p2p_slice_count(size_t slice_bytes, int auto_slice, size_t count, int n,
			       size_t esize)
{
	size_t sb = slice_bytes < CB_P2P_SLICE_SPAN ? slice_bytes : CB_P2P_SLICE_SPAN;
	size_t sc = cb_ring_slice_count(sb, esize);
	size_t part = (cb_chunk_max(count, n) + CB_RING_P2P_SLICES - 1) / CB_RING_P2P_SLICES;

	if (part > CB_RING_P2P_SLICE_MAX / esize)
		part = CB_RING_P2P_SLICE_MAX / esize;
	return auto_slice && part > sc ? part : sc;
}

size_t cb_plan_slice_count(size_t slice_bytes, int auto_slice, int two_sided, size_t count, int n,
			   size_t esize)
{
	return two_sided ? cb_ring_p2p_slice_count(slice_bytes, auto_slice, count, n, esize)
			 : cb_ring_slice_count(slice_bytes, esize);
}
