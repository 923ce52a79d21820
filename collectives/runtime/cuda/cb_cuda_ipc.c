/* Buffers of the cuda backend, shared through CUDA IPC: cudaMalloc'd per
 * buffer (2 MiB granule, cb_cuda_plan.h), exported once with
 * cudaIpcGetMemHandle and opened in every other process of the host (never
 * in the exporter), closed after a barrier before the owner frees.
 *
 * Reachability: two GPUs of one host may not reach each other peer to peer
 * (PCIe without P2P, VMs); then opening a peer's handle fails. Init probes
 * cudaDeviceCanAccessPeer for every pair, and a failed open is agreed on
 * instead of aborting: either sets be->peer_unreachable, ps and ring skip
 * with that reason, and nccl (which needs no IPC of ours) still runs.
 * <cuda.h> is included for the driver API's types only. */
#define _GNU_SOURCE
#include <cuda.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cb_cuda_internal.h"
#include "cb_cuda_plan.h"

typedef CUresult (*range_fn)(CUdeviceptr *base, size_t *size, CUdeviceptr ptr);

static const char no_p2p[] = "GPUs of this host cannot access each other peer to peer "
			     "(cudaDeviceCanAccessPeer); CUDA IPC needs that";
static const char ipc_failed[] = "CUDA IPC could not map a peer's GPU memory "
				 "(cudaIpcOpenMemHandle failed; see stderr)";

struct cuda_buf {
	void *base;    /* this rank's allocation, NULL if it has 0 bytes */
	void **mapped; /* [nranks] what cudaIpcOpenMemHandle returned for peer r, or NULL */
};

/* What each rank tells the others about its part of a buffer. */
struct ipc_record {
	cudaIpcMemHandle_t handle; /* of the whole allocation that holds the part */
	uint64_t offset;           /* part start - allocation start */
	uint64_t bytes;            /* 0: nothing to open */
	int32_t status;            /* enum cb_status of its allocation and export */
};

enum cb_status cb_cuda_peer_probe(struct cb_backend *be, const char *ids, size_t stride)
{
	struct cb_cuda_state *cs = be->impl;
	const char *me = ids + (size_t)be->node_rank * stride;
	int mine[2] = { 1, 1 }, all[2] = { 0, 0 }; /* peer access, native atomics */
	enum cb_status st;

	for (int r = 0; r < be->node_size; r++) {
		const char *peer = ids + (size_t)r * stride;
		int dev = -1, can = 0;

		if (strcmp(peer, me) == 0) /* same GPU (or me): IPC needs no P2P */
			continue;
		if (cudaDeviceGetByPCIBusId(&dev, peer) != cudaSuccess) {
			/* not visible to this process: the IPC open will tell */
			(void)cudaGetLastError();
			continue;
		}
		if (CB_CUDA(cudaDeviceCanAccessPeer(&can, cs->device, dev)) != CB_OK || !can) {
			if (mine[0])
				cb_log("GPU %s cannot access GPU %s (rank %d) peer to peer: ps and ring "
				       "will be skipped", me, peer, r);
			mine[0] = 0;
		}
		/* -G's posts add to peers' counters with system-scope atomics */
		if (mine[0] && CB_CUDA(cudaDeviceGetP2PAttribute(&can, cudaDevP2PAttrNativeAtomicSupported,
								 cs->device, dev)) == CB_OK)
			mine[1] &= can != 0;
	}
	st = CB_MPI(MPI_Allreduce(mine, all, 2, MPI_INT, MPI_MIN, be->node));
	if (st == CB_OK && !all[0])
		be->peer_unreachable = no_p2p;
	cs->peer_atomics = st == CB_OK && all[1];
	return st;
}

/* cudaIpcGetMemHandle exports the whole allocation that contains ptr, and the
 * opener maps it from its start: resolve that start (as vLLM's custom
 * allreduce does, with the driver's range query) and send the offset with the
 * handle, rather than assume ptr is the start. */
static enum cb_status range_offset(void *ptr, size_t bytes, uint64_t *offset)
{
	range_fn range = (range_fn)cb_cuda_driver_fn("cuMemGetAddressRange");
	CUdeviceptr base = 0, p = (CUdeviceptr)(uintptr_t)ptr;
	size_t size = 0;
	enum cb_status st;

	if (!range) {
		cb_log("the CUDA driver lacks cuMemGetAddressRange: cannot export %p", ptr);
		return CB_ERR_CUDA;
	}
	st = CB_CU(range(&base, &size, p));
	if (st != CB_OK)
		return st;
	if (p < base || p + bytes > base + size) {
		cb_log("%p + %zu B lies outside its allocation [%#llx, +%zu B)", ptr, bytes,
		       (unsigned long long)base, size);
		return CB_ERR_INTERNAL;
	}
	*offset = p - base;
	return CB_OK;
}

/* This rank's part: allocated, zeroed on the rank's stream and finished
 * before any peer opens it, exported. A failure is logged here, once. */
static enum cb_status alloc_mine(struct cb_backend *be, size_t bytes, struct cuda_buf *cb,
				 struct ipc_record *mine)
{
	struct cb_cuda_state *cs = be->impl;
	size_t alloc = cb_ipc_alloc_bytes(bytes);
	enum cb_status st = CB_CUDA(cudaMalloc(&cb->base, alloc));

	if (st != CB_OK) {
		cb->base = NULL;
		cb_log("cannot allocate %zu B of GPU memory for a buffer of %zu B", alloc, bytes);
		return st;
	}
	st = CB_CUDA(cudaMemsetAsync(cb->base, 0, alloc, cs->shared.stream));
	if (st == CB_OK)
		st = CB_CUDA(cudaStreamSynchronize(cs->shared.stream));
	if (st == CB_OK)
		st = CB_CUDA(cudaIpcGetMemHandle(&mine->handle, cb->base));
	if (st == CB_OK)
		st = range_offset(cb->base, bytes, &mine->offset);
	if (st == CB_OK)
		mine->bytes = bytes;
	return st;
}

/* Maps every peer's part; 1 if all were mapped. A failure is logged and
 * left to the caller to agree on: the buffer stays usable by its owner. */
static int open_peers(struct cb_backend *be, struct cb_buf *buf, struct cuda_buf *cb,
		      const struct ipc_record *all)
{
	for (int r = 0; r < be->node_size; r++) {
		void *p = NULL;

		if (r == be->node_rank || all[r].bytes == 0)
			continue;
		if (CB_CUDA(cudaIpcOpenMemHandle(&p, all[r].handle,
						 cudaIpcMemLazyEnablePeerAccess)) != CB_OK) {
			cb_log("cannot map rank %d's GPU memory through CUDA IPC: ps and ring "
			       "will be skipped", r);
			return 0;
		}
		cb->mapped[r] = p;
		buf->peer[r] = (char *)p + all[r].offset;
	}
	return 1;
}

/* Unmaps what this rank opened (after every rank stopped using it), then
 * frees its own allocation once every peer has unmapped it. Collective: a
 * rank without structures (cb NULL) still joins the barriers. */
static void release(struct cb_backend *be, struct cuda_buf *cb)
{
	struct cb_cuda_state *cs = be->impl;

	cudaStreamSynchronize(cs->shared.stream);
	MPI_Barrier(be->node);
	for (int r = 0; r < be->node_size && cb && cb->mapped; r++)
		if (cb->mapped[r])
			cudaIpcCloseMemHandle(cb->mapped[r]);
	MPI_Barrier(be->node);
	if (cb && cb->base)
		cudaFree(cb->base);
}

static void free_structs(struct cb_buf *buf, struct cuda_buf *cb)
{
	if (cb)
		free(cb->mapped);
	if (buf)
		free(buf->peer);
	free(cb);
	free(buf);
}

/* The status of the exchange for this rank: its own failure, else
 * CB_ERR_PEER when another rank's part failed (that rank said why). */
static enum cb_status exchange_status(const struct cb_backend *be, const struct ipc_record *all,
				      enum cb_status mine)
{
	if (mine != CB_OK)
		return mine;
	for (int r = 0; r < be->node_size; r++)
		if (all[r].status != CB_OK)
			return CB_ERR_PEER;
	return CB_OK;
}

enum cb_status cb_cuda_buf_alloc(struct cb_backend *be, size_t bytes, struct cb_buf **out)
{
	struct cb_buf *buf = calloc(1, sizeof(*buf));
	struct cuda_buf *cb = calloc(1, sizeof(*cb));
	struct ipc_record mine, *all = calloc((size_t)be->node_size, sizeof(*all));
	enum cb_status st = CB_ERR_NOMEM;
	int opened = 1, all_opened = 0;

	memset(&mine, 0, sizeof(mine));
	if (!all) { /* cannot join the exchange: peers wait, the watchdog ends the job */
		free_structs(buf, cb);
		return CB_ERR_NOMEM;
	}
	if (buf && cb) {
		buf->peer = calloc((size_t)be->node_size, sizeof(void *));
		cb->mapped = calloc((size_t)be->node_size, sizeof(void *));
		st = buf->peer && cb->mapped ? CB_OK : CB_ERR_NOMEM;
	}
	if (st == CB_OK && bytes)
		st = alloc_mine(be, bytes, cb, &mine);
	mine.status = st;
	/* every rank joins the exchange, a failed one too: its record says so */
	if (CB_MPI(MPI_Allgather(&mine, sizeof(mine), MPI_BYTE, all, sizeof(mine), MPI_BYTE,
				 be->node)) != CB_OK)
		st = CB_ERR_MPI;
	else
		st = exchange_status(be, all, st);
	if (st == CB_OK) {
		buf->peer[be->node_rank] = cb->base;
		if (!be->peer_unreachable)
			opened = open_peers(be, buf, cb, all);
		st = CB_MPI(MPI_Allreduce(&opened, &all_opened, 1, MPI_INT, MPI_MIN, be->node));
		if (st == CB_OK && !all_opened)
			be->peer_unreachable = ipc_failed;
	}
	free(all);
	if (st != CB_OK) {
		release(be, cb); /* collective on every rank, whatever failed */
		free_structs(buf, cb);
		return st;
	}
	buf->bytes = bytes;
	buf->impl = cb;
	*out = buf;
	return CB_OK;
}

void cb_cuda_buf_free(struct cb_backend *be, struct cb_buf *buf)
{
	struct cuda_buf *cb;

	if (!buf)
		return;
	cb = buf->impl;
	release(be, cb);
	free_structs(buf, cb);
}
