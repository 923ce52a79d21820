/* cb_pattern: the communication patterns, independent of where bytes live.
 *
 * Every backend runs the same ps and ring code; this module only answers
 * "which elements" and "which peer" questions, in elements (never bytes).
 *
 * Chunks. A buffer of count elements is cut into n chunks, one per rank.
 * Uneven counts give the first count % n chunks one extra element, so chunk c
 * starts at c * (count / n) + min(c, count % n). A chunk is further cut into
 * slices of at most slice_count elements, the pipelining unit of the ring:
 * every chunk is processed as the same number of slices so that the per-slice
 * progress counters of all ranks line up (trailing slices of a short chunk may
 * be empty).
 *
 * Ring. Rank r reads from its left neighbour l = r - 1 and is read by its right
 * neighbour r + 1 (mod n). Steps 0 .. n-2 are the reduce-scatter, steps
 * n-1 .. 2n-3 the all-gather:
 *   reduce-scatter step s: recv_r[c] = peer_l[c] op send_r[c], c = (r - 1 - s) mod n,
 *       where peer_l is the left's send buffer at s = 0 and its recv buffer after;
 *       after step n-2, rank r holds the fully reduced chunk (r + 1) mod n;
 *   all-gather step s:     recv_r[c] = recv_l[c],               c = (r - s) mod n.
 * So rank r receives every chunk but its own in the reduce-scatter and every
 * chunk but chunk r + 1 in the all-gather: rx_r = 2S - |chunk r| - |chunk r+1|,
 * and tx_r = rx of its right neighbour; with n | count both are 2(n-1)/n S.
 */
#ifndef CB_PATTERN_H
#define CB_PATTERN_H

#include <stddef.h>

/* Chunk c (0 <= c < n) of count elements split over n >= 1 ranks:
 * sets *offset and *ccount in elements. Never fails. */
void cb_chunk(size_t count, int n, int c, size_t *offset, size_t *ccount);

/* Elements in the largest chunk: ceil(count / n). */
size_t cb_chunk_max(size_t count, int n);

/* Number of slices every chunk is processed in, for slices of at most
 * slice_count (>= 1) elements: ceil(cb_chunk_max / slice_count), 0 if count == 0. */
size_t cb_slice_num(size_t count, int n, size_t slice_count);

/* Slice j of a chunk of ccount elements: sets *offset (relative to the chunk)
 * and *scount, which may be 0 for a trailing slice of a short chunk. */
void cb_slice(size_t ccount, size_t slice_count, size_t j, size_t *offset,
	      size_t *scount);

static inline int cb_ring_left(int rank, int n) { return (rank + n - 1) % n; }
static inline int cb_ring_right(int rank, int n) { return (rank + 1) % n; }

/* Steps of a ring allreduce on n ranks: 2(n - 1). */
static inline int cb_ring_nsteps(int n) { return 2 * (n - 1); }

/* What rank does at ring step s (0 <= s < 2(n-1)), per the table above.
 * The ring's plan (cb_plan_ring.c) and the cost model (bench/model) both read
 * the schedule from here: which rank's bytes move into which, and whether
 * they are reduced. */
struct cb_ring_step {
	int chunk;        /* chunk read from src and written locally */
	int src;          /* rank whose buffer is read: the left neighbour */
	int reduce;       /* 1: reduce-scatter step (reduce); 0: all-gather (copy) */
	int peer_send;    /* 1: the left neighbour's chunk is read from its send buffer */
	int gather_index; /* all-gather steps: s - (n - 1); -1 in reduce-scatter */
};
void cb_ring_step(int rank, int n, int s, struct cb_ring_step *out);

/* Elements in one ring slice for a pipelining unit of slice_bytes bytes and
 * elements of esize >= 1 bytes: slice_bytes / esize, at least 1. */
static inline size_t cb_ring_slice_count(size_t slice_bytes, size_t esize)
{
	return slice_bytes / esize ? slice_bytes / esize : 1;
}

/* Slices over a two-sided transport (the plans of ring and ps, cb_plan_*.c),
 * where each slice is a message of its own with a cost per message (above
 * the eager limit a rendezvous: the receiver answers before the bytes move,
 * which on a crowded CPU waits for it to be scheduled). The plan executors
 * and the cost model (bench/model) take the slice from cb_plan_slice_count.
 *
 * A slice setting slice_bytes is --slicebytes, else the backend's
 * pipeline_bytes (cb_backend_ops); a message carries at most
 * CB_P2P_SLICE_SPAN bytes (cb_p2p.h's CB_P2P_MAX_SPAN, asserted equal there).
 *
 * Ring: with the backend's default (auto_slice = 1) a slice is at least the
 * setting and at least a chunk's 1/CB_RING_P2P_SLICES, up to
 * CB_RING_P2P_SLICE_MAX: measured on the two-host bed (4 ranks, 2 hosts,
 * 64 MiB, three interleaved launches each): 256 KiB slices 0.52-0.84 GB/s
 * busbw, 4 MiB slices (4 per chunk) 1.08-1.28; a few slices per chunk still
 * overlap a reduce with the next transfer. At 2 ranks, 64 MiB, 8 MiB slices
 * were 10-17% slower than 256 KiB ones: hence the cap (commit 0cf2953). */
#define CB_P2P_SLICE_SPAN ((size_t)1 << 30)
#define CB_RING_P2P_SLICES 4
#define CB_RING_P2P_SLICE_MAX ((size_t)4 << 20)

/* Elements per slice of the ring over p2p for count elements on n >= 1 ranks
 * of esize >= 1 bytes: slice_bytes (capped at CB_P2P_SLICE_SPAN) / esize, at
 * least 1; with auto_slice at least ceil(ceil(count / n) / CB_RING_P2P_SLICES)
 * but that part no more than CB_RING_P2P_SLICE_MAX / esize. Never fails. */
size_t cb_ring_p2p_slice_count(size_t slice_bytes, int auto_slice, size_t count, int n,
			       size_t esize);

/* The pipelining unit a plan is built with (cb_plan_args.slice_count), for
 * its executor and for the cost model alike: over a two-sided transport
 * cb_ring_p2p_slice_count (its larger slices with the backend's default),
 * else cb_ring_slice_count. Elements, >= 1. */
size_t cb_plan_slice_count(size_t slice_bytes, int auto_slice, int two_sided, size_t count, int n,
			   size_t esize);

/* Parameter server: index of worker w's slot in the root's receive area,
 * which holds the n - 1 workers' inputs in rank order, the root skipped. */
static inline int cb_ps_slot(int worker, int root)
{
	return worker < root ? worker : worker - 1;
}

/* Spacing of the ps slots: slots start 256 bytes apart at least, so every slot
 * is as aligned as its allocation (cudaMalloc and the shm windows give 256 B
 * or more) and the root's reduce keeps 16-byte vector access for any message
 * size (a slot spaced max_bytes apart would start misaligned for most sizes).
 * Bytes of one slot for messages up to max_bytes: max_bytes rounded up to a
 * multiple of CB_PS_SLOT_ALIGN (max_bytes <= CB_MAX_MESSAGE, no overflow). */
#define CB_PS_SLOT_ALIGN ((size_t)256)

static inline size_t cb_ps_slot_bytes(size_t max_bytes)
{
	return (max_bytes + CB_PS_SLOT_ALIGN - 1) / CB_PS_SLOT_ALIGN * CB_PS_SLOT_ALIGN;
}

#endif
