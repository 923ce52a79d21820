/* cb_cuda_plan: the decisions of the cuda backend that need no GPU, as pure C
 * shared by the host code, the CUDA kernels and the unit tests:
 * which GPU a rank binds to, which ranks share a GPU, how large an IPC-shared
 * allocation is, and how a span is split for 16-byte vector access. */
#ifndef CB_CUDA_PLAN_H
#define CB_CUDA_PLAN_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* CUDA shares the whole underlying block of a sub-allocated pointer; the CUDA
 * programming guide recommends IPC-shared allocations of 2 MiB multiples. */
#define CB_IPC_GRANULE ((size_t)2 << 20)

/* Bytes to cudaMalloc for a buffer of `bytes` shared through CUDA IPC: rounded
 * up to the granule, at least one granule. */
static inline size_t cb_ipc_alloc_bytes(size_t bytes)
{
	size_t g = (bytes + CB_IPC_GRANULE - 1) / CB_IPC_GRANULE;

	return (g ? g : 1) * CB_IPC_GRANULE;
}

/* GPU of a rank: its local rank (index among the ranks of its host) modulo the
 * number of visible GPUs, as nccl-tests and most launchers do. ndev >= 1. */
static inline int cb_local_device(int local_rank, int ndev)
{
	return local_rank % ndev;
}

/* Number of ranks among n (including `me`) whose GPU has the same PCI bus id
 * as rank me's; ids is n strings of `stride` bytes. 1 means a GPU of its own. */
static inline int cb_ranks_sharing_gpu(const char *ids, size_t stride, int n, int me)
{
	int same = 0;

	for (int r = 0; r < n; r++)
		same += strcmp(ids + (size_t)r * stride, ids + (size_t)me * stride) == 0;
	return same;
}

/* A span of count elements of esz bytes, cut for 16-byte vector loads:
 * `head` scalar elements up to the first 16-byte boundary, `nvec` vectors of
 * 16 bytes, `tail` scalar elements. When dst, a and b are not equally aligned
 * modulo 16 (or not aligned to esz), everything is head: scalar access. */
struct cb_vec_plan {
	size_t head, nvec, tail;
};

static inline struct cb_vec_plan cb_vec_split(uintptr_t dst, uintptr_t a, uintptr_t b,
					       size_t count, size_t esz)
{
	struct cb_vec_plan p = { count, 0, 0 };
	size_t mis = dst % 16, per = 16 / esz, rest;

	if (a % 16 != mis || b % 16 != mis || mis % esz)
		return p;
	p.head = mis ? (16 - mis) / esz : 0;
	if (p.head > count)
		p.head = count;
	rest = count - p.head;
	p.nvec = rest / per;
	p.tail = rest - p.nvec * per;
	return p;
}

/* Blocks for a grid-stride loop over `items` work items, `threads` per block,
 * each thread taking up to `unroll` items per pass, capped at max_blocks
 * (the blocks the multiprocessors hold at once, from the occupancy API);
 * at least 1. */
static inline unsigned cb_grid_blocks(size_t items, unsigned threads, unsigned unroll,
				      unsigned max_blocks)
{
	size_t per_block = (size_t)threads * unroll;
	size_t blocks = (items + per_block - 1) / per_block;

	if (blocks > max_blocks)
		blocks = max_blocks;
	return blocks ? (unsigned)blocks : 1u;
}

#endif
