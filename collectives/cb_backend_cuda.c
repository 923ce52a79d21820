/* cuda backend: buffers from cudaMalloc, exported once per allocation with
 * cudaIpcGetMemHandle and opened with cudaIpcOpenMemHandle in every other
 * process of the host (never in the one that exported it), closed after a
 * barrier before the owner frees. Copies are cudaMemcpyAsync, reductions a
 * fused kernel, both on the rank's own stream; iterations are timed with CUDA
 * events on that stream. Progress flags: cb_cuda_sync.c. */
#define _GNU_SOURCE
#include "cb_backend_cuda.h"

#include <nccl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cb_cuda_kernels.h"
#include "cb_cuda_plan.h"

struct cuda_buf {
	void *base;      /* this rank's allocation, NULL if it has 0 bytes */
	char *opened;    /* [nranks] 1 where peer[r] came from cudaIpcOpenMemHandle */
};

enum cb_status cb_cuda_status(cudaError_t err, const char *what)
{
	if (err == cudaSuccess)
		return CB_OK;
	cb_log("%s: %s (%s)", what, cudaGetErrorString(err), cudaGetErrorName(err));
	(void)cudaGetLastError(); /* clear a sticky launch error for the next call */
	return CB_ERR_CUDA;
}

static struct cb_cuda_state *state(const struct cb_backend *be)
{
	return be->impl;
}

cudaStream_t cb_cuda_stream(const struct cb_backend *be)
{
	return state(be)->stream;
}

int cb_cuda_max_ranks_per_gpu(const struct cb_backend *be)
{
	return state(be)->max_sharing;
}

/* This process's device, stream and events; no MPI. */
static enum cb_status local_setup(struct cb_cuda_state *cs, int local_rank)
{
	struct cudaDeviceProp p;
	int ndev = 0;
	cudaError_t err = cudaGetDeviceCount(&ndev);

	if (err != cudaSuccess || ndev == 0) {
		/* no driver reads "driver version is insufficient": say what it means */
		cb_log("cuda backend: no usable GPU (is an NVIDIA driver loaded and a device "
		       "visible?): %s", err ? cudaGetErrorString(err) : "no CUDA device is visible");
		return CB_ERR_CUDA;
	}
	cs->device = cb_local_device(local_rank, ndev);
	if (cb_cuda_status(cudaSetDevice(cs->device), "cudaSetDevice") ||
	    cb_cuda_status(cudaGetDeviceProperties(&p, cs->device), "cudaGetDeviceProperties") ||
	    cb_cuda_status(cudaDeviceGetPCIBusId(cs->bus_id, sizeof(cs->bus_id), cs->device),
			   "cudaDeviceGetPCIBusId") ||
	    cb_cuda_status(cudaStreamCreateWithFlags(&cs->stream, cudaStreamNonBlocking),
			   "cudaStreamCreate") ||
	    cb_cuda_status(cudaEventCreate(&cs->t0), "cudaEventCreate") ||
	    cb_cuda_status(cudaEventCreate(&cs->t1), "cudaEventCreate"))
		return CB_ERR_CUDA;
	cs->sm_count = p.multiProcessorCount;
	cs->max_blocks = 4u * (unsigned)p.multiProcessorCount;
	return CB_OK;
}

static void describe(struct cb_backend *be, const char *name)
{
	struct cb_cuda_state *cs = state(be);
	int drv = 0, rt = 0, nccl = 0, ndev = 0;

	cudaDriverGetVersion(&drv);
	cudaRuntimeGetVersion(&rt);
	cudaGetDeviceCount(&ndev);
	ncclGetVersion(&nccl);
	snprintf(be->device_desc, sizeof(be->device_desc),
		 "%.64s, bus %.20s, GPU %d of %d, CUDA driver %d.%d runtime %d.%d, NCCL %d.%d.%d, "
		 "up to %d rank(s) per GPU, sync %s", name, cs->bus_id, cs->device, ndev,
		 drv / 1000, drv % 1000 / 10, rt / 1000, rt % 1000 / 10, nccl / 10000,
		 nccl / 100 % 100, nccl % 100, cs->max_sharing,
		 cs->sync == CB_CUDA_SYNC_STREAM ? "stream" : "host");
}

static enum cb_status cuda_init(struct cb_backend *be)
{
	struct cb_cuda_state *cs = calloc(1, sizeof(*cs));
	struct cudaDeviceProp p;
	char (*ids)[32] = NULL;
	int ok, all_ok, sharing;
	enum cb_status st;

	if (!cs)
		return CB_ERR_NOMEM;
	be->impl = cs;
	/* every rank learns whether all found a GPU before any other collective */
	ok = local_setup(cs, be->rank) == CB_OK;
	MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, be->world);
	if (!all_ok) {
		st = CB_ERR_CUDA;
		goto out_free;
	}
	ids = calloc((size_t)be->nranks, sizeof(*ids));
	st = ids ? CB_OK : CB_ERR_NOMEM;
	if (st == CB_OK)
		st = CB_MPI(MPI_Allgather(cs->bus_id, 32, MPI_CHAR, ids, 32, MPI_CHAR, be->node));
	sharing = st == CB_OK ? cb_ranks_sharing_gpu(&ids[0][0], 32, be->nranks, be->rank) : 0;
	free(ids);
	if (st == CB_OK)
		st = CB_MPI(MPI_Allreduce(&sharing, &cs->max_sharing, 1, MPI_INT, MPI_MAX, be->world));
	if (st == CB_OK)
		st = cb_host_flags_alloc(be, &cs->alive);
	if (st == CB_OK)
		st = cb_cuda_sync_init(be);
	if (st != CB_OK)
		goto out_free;
	cudaGetDeviceProperties(&p, cs->device);
	describe(be, p.name);
	snprintf(be->device_model, sizeof(be->device_model), "%.95s", p.name);
	/* each slice costs a kernel launch and two stream memory operations
	 * (a few us): slices of 16 MiB keep that under a few percent at HBM speed */
	be->pipeline_bytes = (size_t)16 << 20;
	return CB_OK;

out_free:
	if (cs->alive)
		cb_host_flags_free(be, cs->alive);
	if (cs->t0)
		cudaEventDestroy(cs->t0);
	if (cs->t1)
		cudaEventDestroy(cs->t1);
	if (cs->stream)
		cudaStreamDestroy(cs->stream);
	free(cs);
	be->impl = NULL;
	return st;
}

static void cuda_fini(struct cb_backend *be)
{
	struct cb_cuda_state *cs = state(be);

	if (!cs)
		return;
	cudaStreamSynchronize(cs->stream);
	cb_host_flags_free(be, cs->alive);
	cudaEventDestroy(cs->t0);
	cudaEventDestroy(cs->t1);
	cudaStreamDestroy(cs->stream);
	free(cs);
	be->impl = NULL;
}

/* Closes what this rank opened (after every rank stopped using it), then
 * frees its own allocation once every peer has closed it. Collective. */
static void release(struct cb_backend *be, struct cb_buf *buf, struct cuda_buf *cb)
{
	cudaStreamSynchronize(state(be)->stream);
	MPI_Barrier(be->node);
	for (int r = 0; r < be->nranks; r++)
		if (buf && buf->peer && cb && cb->opened && cb->opened[r])
			cudaIpcCloseMemHandle(buf->peer[r]);
	MPI_Barrier(be->node);
	if (cb && cb->base)
		cudaFree(cb->base);
}

struct ipc_record {
	cudaIpcMemHandle_t handle;
	uint64_t bytes;
};

/* Exchanges handles and opens every peer's allocation; returns this rank's
 * status (the caller agrees on it). Collective: a rank whose allocation
 * failed passes buf = NULL and still takes part in the exchange. */
static enum cb_status open_peers(struct cb_backend *be, struct cb_buf *buf, struct cuda_buf *cb,
				 const struct ipc_record *mine)
{
	struct ipc_record *all = calloc((size_t)be->nranks, sizeof(*all));
	enum cb_status st;

	if (!all) /* peers wait in the exchange: the watchdog ends the job */
		return CB_ERR_NOMEM;
	st = CB_MPI(MPI_Allgather(mine, sizeof(*mine), MPI_BYTE, all, sizeof(*mine), MPI_BYTE,
				  be->node));
	if (!buf)
		st = CB_ERR_CUDA;
	for (int r = 0; r < be->nranks && st == CB_OK; r++) {
		if (r == be->rank || all[r].bytes == 0)
			continue;
		st = cb_cuda_status(cudaIpcOpenMemHandle(&buf->peer[r], all[r].handle,
							 cudaIpcMemLazyEnablePeerAccess),
				    "cudaIpcOpenMemHandle");
		cb->opened[r] = st == CB_OK;
	}
	free(all);
	return st;
}

static enum cb_status cuda_buf_alloc(struct cb_backend *be, size_t bytes, struct cb_buf **out)
{
	struct cb_buf *buf = calloc(1, sizeof(*buf));
	struct cuda_buf *cb = calloc(1, sizeof(*cb));
	struct ipc_record mine;
	enum cb_status st = CB_ERR_NOMEM;
	int ok, all_ok;

	memset(&mine, 0, sizeof(mine));
	if (buf && cb) {
		buf->peer = calloc((size_t)be->nranks, sizeof(void *));
		cb->opened = calloc((size_t)be->nranks, 1);
		st = buf->peer && cb->opened ? CB_OK : CB_ERR_NOMEM;
	}
	if (st == CB_OK && bytes) {
		size_t alloc = cb_ipc_alloc_bytes(bytes);

		st = cb_cuda_status(cudaMalloc(&cb->base, alloc), "cudaMalloc");
		/* zeroed on the rank's stream and finished before any peer opens it */
		if (st == CB_OK)
			st = cb_cuda_status(cudaMemsetAsync(cb->base, 0, alloc, state(be)->stream),
					    "cudaMemsetAsync");
		if (st == CB_OK)
			st = cb_cuda_status(cudaStreamSynchronize(state(be)->stream), "cudaMemsetAsync");
		if (st == CB_OK)
			st = cb_cuda_status(cudaIpcGetMemHandle(&mine.handle, cb->base),
					    "cudaIpcGetMemHandle");
		mine.bytes = bytes;
	}
	if (st == CB_OK)
		buf->peer[be->rank] = cb->base;
	/* every rank joins the handle exchange, even one that failed above */
	if (open_peers(be, st == CB_OK ? buf : NULL, cb, &mine) != CB_OK)
		st = CB_ERR_CUDA;
	ok = st == CB_OK;
	MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, be->node);
	if (!all_ok) {
		release(be, buf, cb); /* collective on every rank, whatever failed */
		goto out_free;
	}
	buf->bytes = bytes;
	buf->impl = cb;
	*out = buf;
	return CB_OK;

out_free:
	if (cb)
		free(cb->opened);
	if (buf)
		free(buf->peer);
	free(cb);
	free(buf);
	return st == CB_OK ? CB_ERR_CUDA : st;
}

static void cuda_buf_free(struct cb_backend *be, struct cb_buf *buf)
{
	struct cuda_buf *cb;

	if (!buf)
		return;
	cb = buf->impl;
	release(be, buf, cb);
	free(cb->opened);
	free(cb);
	free(buf->peer);
	free(buf);
}

static enum cb_status cuda_upload(struct cb_backend *be, struct cb_buf *buf, size_t off,
				  const void *host, size_t bytes)
{
	cudaStream_t s = state(be)->stream;

	if (off + bytes > buf->bytes)
		return CB_ERR_ARG;
	if (cb_cuda_status(cudaMemcpyAsync((char *)buf->peer[be->rank] + off, host, bytes,
					   cudaMemcpyHostToDevice, s), "upload"))
		return CB_ERR_CUDA;
	return cb_cuda_status(cudaStreamSynchronize(s), "upload");
}

static enum cb_status cuda_download(struct cb_backend *be, void *host, struct cb_buf *buf,
				    size_t off, size_t bytes)
{
	cudaStream_t s = state(be)->stream;

	if (off + bytes > buf->bytes)
		return CB_ERR_ARG;
	if (cb_cuda_status(cudaMemcpyAsync(host, (char *)buf->peer[be->rank] + off, bytes,
					   cudaMemcpyDeviceToHost, s), "download"))
		return CB_ERR_CUDA;
	return cb_cuda_status(cudaStreamSynchronize(s), "download");
}

static enum cb_status cuda_copy(struct cb_backend *be, struct cb_ref dst, struct cb_ref src,
				size_t bytes)
{
	if (bytes == 0)
		return CB_OK;
	if (cb_cuda_status(cudaMemcpyAsync(dst.ptr, src.ptr, bytes, cudaMemcpyDefault,
					   state(be)->stream), "cudaMemcpyAsync"))
		return CB_ERR_CUDA;
	cb_traffic_add(be, dst.rank, src.rank, bytes);
	return CB_OK;
}

static enum cb_status cuda_reduce(struct cb_backend *be, struct cb_ref dst, struct cb_ref a,
				  struct cb_ref b, size_t count, enum cb_dtype dt, enum cb_op op)
{
	struct cb_cuda_state *cs = state(be);
	size_t bytes = count * cb_dtype_size(dt);

	if (count == 0)
		return CB_OK;
	if (cb_cuda_status(cb_cuda_reduce(dst.ptr, a.ptr, b.ptr, count, dt, op, cs->max_blocks,
					  cs->stream), "reduce kernel launch"))
		return CB_ERR_CUDA;
	cb_traffic_add(be, dst.rank, a.rank, bytes);
	cb_traffic_add(be, dst.rank, b.rank, bytes);
	return CB_OK;
}

static enum cb_status cuda_finalize(struct cb_backend *be, struct cb_ref buf, size_t count,
				    enum cb_dtype dt, enum cb_op op)
{
	struct cb_cuda_state *cs = state(be);

	return cb_cuda_status(cb_cuda_finalize(buf.ptr, count, dt, op, be->nranks, cs->max_blocks,
					       cs->stream), "finalize kernel launch");
}

static enum cb_status cuda_time_begin(struct cb_backend *be)
{
	struct cb_cuda_state *cs = state(be);

	return cb_cuda_status(cudaEventRecord(cs->t0, cs->stream), "cudaEventRecord");
}

static enum cb_status cuda_time_end(struct cb_backend *be, double *us)
{
	struct cb_cuda_state *cs = state(be);
	float ms = 0;
	enum cb_status st = cb_cuda_status(cudaEventRecord(cs->t1, cs->stream), "cudaEventRecord");

	if (st == CB_OK)
		st = cb_cuda_drain(be, cs->t1);
	if (st == CB_OK)
		st = cb_cuda_status(cudaEventElapsedTime(&ms, cs->t0, cs->t1), "cudaEventElapsedTime");
	*us = (double)ms * 1e3;
	return st;
}

const struct cb_backend_ops cb_backend_cuda_ops = {
	.name = "cuda",
	.init = cuda_init,
	.fini = cuda_fini,
	.buf_alloc = cuda_buf_alloc,
	.buf_free = cuda_buf_free,
	.upload = cuda_upload,
	.download = cuda_download,
	.copy = cuda_copy,
	.reduce = cuda_reduce,
	.finalize = cuda_finalize,
	.flags_alloc = cb_cuda_flags_alloc,
	.flags_free = cb_cuda_flags_free,
	.post = cb_cuda_post,
	.wait = cb_cuda_wait,
	.time_begin = cuda_time_begin,
	.time_end = cuda_time_end,
};
