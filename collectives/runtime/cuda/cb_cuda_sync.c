/* Progress flags of the cuda backend, in the two modes of cb_cuda_internal.h.
 * The driver's stream memory operations are resolved at run time
 * (cb_cuda_driver_fn), so the binary never links libcuda and starts (and
 * reports "no GPU") on machines without a driver. <cuda.h> is included for
 * the driver API's types and constants only. */
#define _GNU_SOURCE
#include <cuda.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cb_cuda_internal.h"

typedef CUresult (*value_fn)(CUstream, CUdeviceptr, cuuint64_t, unsigned int);
typedef CUresult (*device_get_fn)(CUdevice *, int);
typedef CUresult (*attribute_fn)(int *, CUdevice_attribute, CUdevice);

#define CB_LIVENESS_POLLS 4096u

struct cuda_flags {
	struct cb_buf *dev;          /* stream mode: one counter per rank, device memory */
	struct cb_host_flags *host;  /* host mode */
	cudaEvent_t drained;         /* host mode: marks the end of the work to post */
};

/* 1 if this rank's GPU takes 64-bit stream waits and writes. */
static int stream_ops_usable(struct cb_cuda_state *cs)
{
	device_get_fn dev_get = (device_get_fn)cb_cuda_driver_fn("cuDeviceGet");
	attribute_fn attr = (attribute_fn)cb_cuda_driver_fn("cuDeviceGetAttribute");
	CUdevice dev;
	int yes = 0;

	cs->wait_value = cb_cuda_driver_fn("cuStreamWaitValue64");
	cs->write_value = cb_cuda_driver_fn("cuStreamWriteValue64");
	if (!dev_get || !attr || !cs->wait_value || !cs->write_value ||
	    CB_CU(dev_get(&dev, cs->device)) != CB_OK ||
	    CB_CU(attr(&yes, CU_DEVICE_ATTRIBUTE_CAN_USE_64_BIT_STREAM_MEM_OPS, dev)) != CB_OK)
		return 0;
	return yes;
}

enum cb_status cb_cuda_sync_init(struct cb_backend *be)
{
	struct cb_cuda_state *cs = be->impl;
	const char *want = getenv("CB_CUDA_SYNC");
	int mine, all, bad = want && strcmp(want, "stream") && strcmp(want, "host");
	enum cb_status st;

	if (bad && be->world_rank == 0)
		cb_log("CB_CUDA_SYNC=%s: expected stream or host", want);
	mine = bad ? -1 : stream_ops_usable(cs);
	st = CB_MPI(MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_MIN, be->world));
	if (st != CB_OK || all < 0)
		return st != CB_OK ? st : CB_ERR_ARG;
	if (want && strcmp(want, "host") == 0) {
		cs->sync = CB_CUDA_SYNC_HOST;
	} else if (!all) {
		if (be->world_rank == 0)
			cb_log("cuda backend: a GPU lacks 64-bit stream memory operations; "
			       "ordering ranks through the host (CB_CUDA_SYNC=host)");
		cs->sync = CB_CUDA_SYNC_HOST;
	} else {
		cs->sync = CB_CUDA_SYNC_STREAM;
	}
	return CB_OK;
}

enum cb_status cb_cuda_drain(struct cb_backend *be, cudaEvent_t ev)
{
	struct cb_cuda_state *cs = be->impl;
	enum cb_status st;

	for (unsigned long polls = 0;; polls++) {
		/* not-ready is cleared from the last-error slot in there */
		enum cb_cuda_poll p = CB_CUDA_POLL(ev, &st);

		if (p == CB_CUDA_DONE)
			return CB_OK;
		if (p == CB_CUDA_FAILED)
			return st;
		cb_backoff(polls);
		if (*be->abort_flag) {
			cb_log("gave up waiting for this rank's GPU work (cudaEventQuery still not ready "
			       "when the run was stopped: a peer that never posted, or a stuck GPU)");
			return CB_ERR_TIMEOUT;
		}
		if (polls % CB_LIVENESS_POLLS)
			continue;
		for (int r = 0; r < be->node_size; r++)
			if (!cb_host_flags_peer_alive(cs->alive, r)) {
				cb_log("rank %d died while this rank's GPU work depended on it", r);
				return CB_ERR_PEER;
			}
	}
}

enum cb_status cb_cuda_flags_alloc(struct cb_backend *be, struct cb_flags **out)
{
	struct cb_cuda_state *cs = be->impl;
	struct cuda_flags *f = calloc(1, sizeof(*f));
	enum cb_status st;

	if (!f)
		return CB_ERR_NOMEM;
	if (cs->sync == CB_CUDA_SYNC_STREAM) {
		st = be->ops->buf_alloc(be, sizeof(uint64_t), &f->dev); /* zeroed */
	} else {
		st = CB_CUDA(cudaEventCreateWithFlags(&f->drained, cudaEventDisableTiming));
		if (st == CB_OK)
			st = cb_host_flags_alloc(be, &f->host);
	}
	if (st != CB_OK) {
		if (f->drained)
			cudaEventDestroy(f->drained);
		free(f);
		return st;
	}
	*out = (struct cb_flags *)f;
	return CB_OK;
}

void cb_cuda_flags_free(struct cb_backend *be, struct cb_flags *flags)
{
	struct cuda_flags *f = (struct cuda_flags *)flags;

	if (!f)
		return;
	if (f->dev)
		be->ops->buf_free(be, f->dev);
	if (f->host)
		cb_host_flags_free(be, f->host);
	if (f->drained)
		cudaEventDestroy(f->drained);
	free(f);
}

enum cb_status cb_cuda_post(struct cb_backend *be, struct cb_flags *flags, uint64_t value)
{
	struct cb_cuda_state *cs = be->impl;
	struct cuda_flags *f = (struct cuda_flags *)flags;
	enum cb_status st;

	if (f->dev) /* written once the work before it is done and visible */
		return CB_CU(((value_fn)cs->write_value)((CUstream)cs->shared.stream,
							 (CUdeviceptr)(uintptr_t)f->dev->peer[be->node_rank],
							 value, CU_STREAM_WRITE_VALUE_DEFAULT));
	st = CB_CUDA(cudaEventRecord(f->drained, cs->shared.stream));
	if (st == CB_OK)
		st = cb_cuda_drain(be, f->drained);
	if (st == CB_OK)
		cb_host_flags_post(be, f->host, value);
	return st;
}

enum cb_status cb_cuda_wait(struct cb_backend *be, struct cb_flags *flags, int peer,
			    uint64_t value)
{
	struct cb_cuda_state *cs = be->impl;
	struct cuda_flags *f = (struct cuda_flags *)flags;

	if (f->dev) /* the stream, not the host, waits: later work queues behind it */
		return CB_CU(((value_fn)cs->wait_value)((CUstream)cs->shared.stream,
							(CUdeviceptr)(uintptr_t)f->dev->peer[peer],
							value, CU_STREAM_WAIT_VALUE_GEQ));
	return cb_host_flags_wait(be, f->host, peer, value);
}
