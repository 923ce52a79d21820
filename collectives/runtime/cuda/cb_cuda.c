/* cb_cuda: the cuda backend: device set-up, data movement and timing. Buffers shared
 * through CUDA IPC: cb_cuda_ipc.c; progress flags: cb_cuda_sync.c; error
 * reporting and event polling: cb_cuda_util.c (cb_cuda_internal.h). Copies
 * are cudaMemcpyAsync, reductions a fused kernel, both on the rank's own
 * stream; iterations are timed with CUDA events on that stream. It knows
 * nothing of NCCL: the nccl algorithm reports its own version, and its
 * two-sided transport (p2p: ncclSend/ncclRecv) is cb_p2p_nccl.c's, or a stub
 * that says why where NCCL is not built. */
#define _GNU_SOURCE
#include "cb_cuda.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cb_cuda_internal.h"
#include "cb_cuda_kernels.h"
#include "cb_cuda_plan.h"
#include "cb_nvml.h"

extern const struct cb_p2p_ops cb_p2p_nccl_ops;

static struct cb_cuda_state *state(const struct cb_backend *be)
{
	return be->impl;
}

/* This process's device, stream and events; no MPI. */
static enum cb_status local_setup(struct cb_cuda_state *cs, int local_rank)
{
	int ndev = 0;
	cudaError_t err = cudaGetDeviceCount(&ndev);
	enum cb_status st;

	if (err != cudaSuccess || ndev == 0) {
		/* no driver reads "driver version is insufficient": say what it means */
		cb_log("cuda backend: no usable GPU (is an NVIDIA driver loaded and a device "
		       "visible?): %s", err ? cudaGetErrorString(err) : "no CUDA device is visible");
		(void)cudaGetLastError();
		return CB_ERR_CUDA;
	}
	cs->device = cb_local_device(local_rank, ndev);
	st = CB_CUDA(cudaSetDevice(cs->device));
	if (st == CB_OK)
		st = CB_CUDA(cudaDeviceGetAttribute(&cs->sm_count, cudaDevAttrMultiProcessorCount,
						    cs->device));
	if (st == CB_OK)
		st = CB_CUDA(cudaDeviceGetPCIBusId(cs->bus_id, sizeof(cs->bus_id), cs->device));
	if (st == CB_OK)
		st = CB_CUDA(cudaStreamCreateWithFlags(&cs->shared.stream, cudaStreamNonBlocking));
	if (st == CB_OK)
		st = CB_CUDA(cudaEventCreate(&cs->t0));
	if (st == CB_OK)
		st = CB_CUDA(cudaEventCreate(&cs->t1));
	return st;
}

/* "sync stream (own counters)", "sync host (<why>)"; where ranks share a
 * GPU, how a row's time is taken. */
static void describe(struct cb_backend *be, const char *name)
{
	struct cb_cuda_state *cs = state(be);
	int drv = 0, rt = 0, ndev = 0;
	const char *layout = cs->wait_layout == CB_CUDA_WAIT_OWN ? "own counters" : "peer counters";

	cudaDriverGetVersion(&drv);
	cudaRuntimeGetVersion(&rt);
	cudaGetDeviceCount(&ndev);
	snprintf(be->device_desc, sizeof(be->device_desc),
		 "%.64s, bus %.20s, GPU %d of %d, CUDA driver %d.%d runtime %d.%d, "
		 "up to %d rank(s) per GPU, sync %s (%s%s%s)%s", name, cs->bus_id, cs->device, ndev,
		 drv / 1000, drv % 1000 / 10, rt / 1000, rt % 1000 / 10, cs->shared.max_sharing,
		 cs->sync == CB_CUDA_SYNC_STREAM ? "stream" : "host",
		 cs->sync == CB_CUDA_SYNC_STREAM ? layout : "", cs->sync == CB_CUDA_SYNC_STREAM &&
		 cs->sync_why[0] ? "; " : "", cs->sync_why,
		 cs->shared.max_sharing > 1 ? ", time max(CUDA events, host wall clock)" : "");
}

/* Which ranks share a GPU (NCCL's one-GPU-per-rank rule) and which GPUs can
 * reach each other (CUDA IPC between different GPUs needs peer access). */
static enum cb_status topology(struct cb_backend *be, struct cb_cuda_state *cs)
{
	char (*ids)[32] = calloc((size_t)be->node_size, sizeof(*ids));
	int sharing;
	enum cb_status st = ids ? CB_OK : CB_ERR_NOMEM;

	if (st == CB_OK)
		st = CB_MPI(MPI_Allgather(cs->bus_id, 32, MPI_CHAR, ids, 32, MPI_CHAR, be->node));
	if (st == CB_OK) {
		sharing = cb_ranks_sharing_gpu(&ids[0][0], 32, be->node_size, be->node_rank);
		st = CB_MPI(MPI_Allreduce(&sharing, &cs->shared.max_sharing, 1, MPI_INT, MPI_MAX,
					  be->world));
	}
	if (st == CB_OK)
		st = cb_cuda_peer_probe(be, &ids[0][0], 32);
	free(ids);
	return st;
}

static enum cb_status cuda_init(struct cb_backend *be)
{
	struct cb_cuda_state *cs = calloc(1, sizeof(*cs));
	struct cudaDeviceProp p;
	enum cb_status st;

	if (!cs)
		return CB_ERR_NOMEM;
	be->impl = cs;
	/* every rank learns whether all found a GPU before any other collective;
	 * one that did not said why, the others return CB_ERR_PEER quietly */
	st = local_setup(cs, be->node_rank);
	if (cb_agree(st, be->world) != CB_OK && st == CB_OK)
		st = CB_ERR_PEER;
	if (st == CB_OK)
		st = topology(be, cs);
	if (st == CB_OK)
		st = cb_host_flags_alloc(be, &cs->alive);
	if (st == CB_OK)
		st = cb_cuda_sync_init(be);
	if (st == CB_OK)
		st = CB_CUDA(cudaGetDeviceProperties(&p, cs->device));
	if (st != CB_OK)
		goto out_free;
	describe(be, p.name);
	snprintf(be->device_model, sizeof(be->device_model), "%.95s", p.name);
	/* local: a rank without NVML reports its rows' hardware bytes unmeasured */
	cs->nvml = cb_nvml_open(cs->bus_id, cs->nvml_why, sizeof(cs->nvml_why));
	return CB_OK;

out_free:
	if (cs->alive)
		cb_host_flags_free(be, cs->alive);
	if (cs->t0)
		cudaEventDestroy(cs->t0);
	if (cs->t1)
		cudaEventDestroy(cs->t1);
	if (cs->shared.stream)
		cudaStreamDestroy(cs->shared.stream);
	free(cs);
	be->impl = NULL;
	be->peer_unreachable = NULL;
	return st;
}

static void cuda_fini(struct cb_backend *be)
{
	struct cb_cuda_state *cs = state(be);

	if (!cs)
		return;
	cudaStreamSynchronize(cs->shared.stream);
	cb_host_flags_free(be, cs->alive);
	cudaEventDestroy(cs->t0);
	cudaEventDestroy(cs->t1);
	cudaStreamDestroy(cs->shared.stream);
	cb_nvml_close(cs->nvml);
	free(cs);
	be->impl = NULL;
}

static enum cb_status cuda_upload(struct cb_backend *be, struct cb_buf *buf, size_t off,
				  const void *host, size_t bytes)
{
	cudaStream_t s = state(be)->shared.stream;

	if (off + bytes > buf->bytes)
		return CB_ERR_ARG;
	if (CB_CUDA(cudaMemcpyAsync((char *)buf->peer[be->node_rank] + off, host, bytes,
				    cudaMemcpyHostToDevice, s)))
		return CB_ERR_CUDA;
	return CB_CUDA(cudaStreamSynchronize(s));
}

static enum cb_status cuda_download(struct cb_backend *be, void *host, struct cb_buf *buf,
				    size_t off, size_t bytes)
{
	cudaStream_t s = state(be)->shared.stream;

	if (off + bytes > buf->bytes)
		return CB_ERR_ARG;
	if (CB_CUDA(cudaMemcpyAsync(host, (char *)buf->peer[be->node_rank] + off, bytes,
				    cudaMemcpyDeviceToHost, s)))
		return CB_ERR_CUDA;
	return CB_CUDA(cudaStreamSynchronize(s));
}

static enum cb_status cuda_copy(struct cb_backend *be, struct cb_ref dst, struct cb_ref src,
				size_t bytes)
{
	return CB_CUDA(cudaMemcpyAsync(dst.ptr, src.ptr, bytes, cudaMemcpyDefault,
				       state(be)->shared.stream));
}

static enum cb_status cuda_reduce(struct cb_backend *be, struct cb_ref dst, struct cb_ref a,
				  struct cb_ref b, size_t count, enum cb_dtype dt, enum cb_op op)
{
	struct cb_cuda_state *cs = state(be);

	return CB_CUDA(cb_cuda_reduce(dst.ptr, a.ptr, b.ptr, count, dt, op, cs->sm_count,
				      cs->shared.stream));
}

static enum cb_status cuda_finalize(struct cb_backend *be, struct cb_ref buf, size_t count,
				    enum cb_dtype dt, enum cb_op op)
{
	struct cb_cuda_state *cs = state(be);

	return CB_CUDA(cb_cuda_finalize(buf.ptr, count, dt, op, be->world_size, cs->sm_count,
					cs->shared.stream));
}

/* CUDA events on the rank's stream; where ranks share a GPU also the host
 * clock, from here (just after the barrier) to the stream drained: the
 * events of a time-sliced GPU are stamped while this rank's context runs,
 * so they leave out the time the other ranks' contexts held the GPU. */
static enum cb_status cuda_time_begin(struct cb_backend *be)
{
	struct cb_cuda_state *cs = state(be);

	clock_gettime(CLOCK_MONOTONIC, &cs->wall0);
	return CB_CUDA(cudaEventRecord(cs->t0, cs->shared.stream));
}

/* The larger of the events' time and, where ranks share a GPU, the host's. */
static enum cb_status cuda_time_end(struct cb_backend *be, double *us)
{
	struct cb_cuda_state *cs = state(be);
	struct timespec t1;
	float ms = 0;
	enum cb_status st = CB_CUDA(cudaEventRecord(cs->t1, cs->shared.stream));

	if (st == CB_OK)
		st = cb_cuda_drain(be, cs->t1);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if (st == CB_OK)
		st = CB_CUDA(cudaEventElapsedTime(&ms, cs->t0, cs->t1));
	*us = (double)ms * 1e3;
	if (cs->shared.max_sharing > 1) {
		double wall = (double)(t1.tv_sec - cs->wall0.tv_sec) * 1e6 +
			      (double)(t1.tv_nsec - cs->wall0.tv_nsec) * 1e-3;

		if (wall > *us)
			*us = wall;
	}
	return st;
}

/* The rank's stream drained (cb_cuda_drain watches the abort flag): an
 * event recorded on it and waited for. It reuses t1, which time_end records
 * again after, so an open timing keeps its start (t0). */
static enum cb_status cuda_sync(struct cb_backend *be)
{
	struct cb_cuda_state *cs = state(be);
	enum cb_status st = CB_CUDA(cudaEventRecord(cs->t1, cs->shared.stream));

	return st == CB_OK ? cb_cuda_drain(be, cs->t1) : st;
}

/* NVML's NVLink counters of this rank's GPU (cb_nvml.h). */
static const char *cuda_hw_bytes(struct cb_backend *be, uint64_t *tx, uint64_t *rx)
{
	struct cb_cuda_state *cs = state(be);

	return cs->nvml ? cb_nvml_read(cs->nvml, tx, rx) : cs->nvml_why;
}

/* NVML's facts of this rank's GPU; NVLS where the GPU supports multicast
 * objects (cudaDevAttrMulticastSupported, the memory NVLS works on) and its
 * links meet in an NVSwitch. */
static void cuda_hw_facts(struct cb_backend *be, struct cb_nvml_facts *f, char *bus_id, size_t cap)
{
	struct cb_cuda_state *cs = state(be);
	int mc = 0;

	snprintf(bus_id, cap, "%s", cs->bus_id);
	if (!cs->nvml) {
		memset(f, 0, sizeof(*f));
		snprintf(f->why, sizeof(f->why), "%s", cs->nvml_why);
		return;
	}
	cb_nvml_facts(cs->nvml, f);
	/* CU_DEVICE_ATTRIBUTE_MULTICAST_SUPPORTED (132, CUDA 12.1): "supports
	 * switch multicast and reduction operations"; the runtime's attribute
	 * numbers are the driver's */
	if (cudaDeviceGetAttribute(&mc, (enum cudaDeviceAttr)132, cs->device) != cudaSuccess)
		mc = 0;
	(void)cudaGetLastError();
	f->nvls = mc && f->nvswitch;
}

const struct cb_backend_ops cb_backend_cuda_ops = {
	.desc = &cb_desc_cuda,
	.init = cuda_init,
	.fini = cuda_fini,
	.buf_alloc = cb_cuda_buf_alloc,
	.buf_free = cb_cuda_buf_free,
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
	.sync = cuda_sync,
	.graph_begin = cb_cuda_graph_begin,
	.graph_end = cb_cuda_graph_end,
	.graph_launch = cb_cuda_graph_launch,
	.graph_free = cb_cuda_graph_free,
	.p2p = &cb_p2p_nccl_ops,
	.hw_bytes = cuda_hw_bytes,
	.hw_facts = cuda_hw_facts,
};
