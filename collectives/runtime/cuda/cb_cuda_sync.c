/* Progress flags of the cuda backend, in the modes and layouts of
 * cb_cuda_internal.h. The driver's stream memory operations are resolved at
 * run time (cb_cuda_driver_fn), so the binary never links libcuda and starts
 * (and reports "no GPU") on machines without a driver. <cuda.h> is included
 * for the driver API's types and constants only. */
#define _GNU_SOURCE
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cb_cuda_internal.h"
#include "cb_cuda_kernels.h"

typedef CUresult (*value_fn)(CUstream, CUdeviceptr, cuuint64_t, unsigned int);
typedef CUresult (*device_get_fn)(CUdevice *, int);
typedef CUresult (*attribute_fn)(int *, CUdevice_attribute, CUdevice);
typedef CUresult (*error_name_fn)(CUresult, const char **);
typedef CUresult (*batch_fn)(CUstream, unsigned int, CUstreamBatchMemOpParams *, unsigned int);

#define CB_LIVENESS_POLLS 4096u
#define HOST_SYNC_WHY "sync host orders ranks on the host (a post drains the stream, a wait " \
		      "spins on the CPU): a CUDA graph cannot capture that (CB_CUDA_SYNC=stream can)"

struct cuda_flags {
	/* stream mode, own layout: node_size counters per rank, slot p of rank
	 * r = the last value rank p posted, written by p into r's memory;
	 * peer layout: one counter per rank, its own posts */
	struct cb_buf *dev;
	enum cb_cuda_wait layout;
	cudaStream_t stream;         /* where posts and waits are enqueued */
	CUstreamBatchMemOpParams *ops; /* own layout: a post's writes, one per peer */
	struct cb_host_flags *host;  /* host mode */
	cudaEvent_t drained;         /* host mode: marks the end of the work to post */
	uint64_t posted;             /* what its posts leave in the peers' slots once
				      * the work enqueued so far has run */
	uint64_t cap_from;           /* stream mode: posted when the capture began */
	int captured;                /* posted while the stream records a graph */
};

int cb_cuda_stream_ops_usable(struct cb_cuda_state *cs)
{
	device_get_fn dev_get = (device_get_fn)cb_cuda_driver_fn("cuDeviceGet");
	attribute_fn attr = (attribute_fn)cb_cuda_driver_fn("cuDeviceGetAttribute");
	CUdevice dev;
	int yes = 0;

	cs->wait_value = cb_cuda_driver_fn("cuStreamWaitValue64");
	cs->write_value = cb_cuda_driver_fn("cuStreamWriteValue64");
	cs->batch = cb_cuda_driver_fn("cuStreamBatchMemOp"); /* optional */
	if (!dev_get || !attr || !cs->wait_value || !cs->write_value ||
	    CB_CU(dev_get(&dev, cs->device)) != CB_OK ||
	    CB_CU(attr(&yes, CU_DEVICE_ATTRIBUTE_CAN_USE_64_BIT_STREAM_MEM_OPS, dev)) != CB_OK)
		return 0;
	return yes;
}

/* The result r of a stream memory operation (call); a refusal is logged
 * and named in cs->sync_why for the probe to report. */
static enum cb_status mem_op_status(struct cb_cuda_state *cs, CUresult r, const char *call,
				    const char *what)
{
	error_name_fn name = (error_name_fn)cb_cuda_driver_fn("cuGetErrorName");
	const char *text = NULL;

	if (r == CUDA_SUCCESS)
		return CB_OK;
	if (!name || name(r, &text) != CUDA_SUCCESS || !text)
		text = "an unknown CUresult";
	snprintf(cs->sync_why, sizeof(cs->sync_why), "the driver refused %s (%s)", what, text);
	return cb_cu_status_at((int)r, call, __FILE__, __LINE__);
}

/* One stream wait or write (fn: cs->wait_value or cs->write_value). */
static enum cb_status value_op(struct cb_backend *be, void *fn, cudaStream_t s, void *addr,
			       uint64_t value, unsigned flags, const char *what)
{
	struct cb_cuda_state *cs = be->impl;
	CUresult r = ((value_fn)fn)((CUstream)s, (CUdeviceptr)(uintptr_t)addr, value, flags);

	return mem_op_status(cs, r, fn == cs->wait_value ? "cuStreamWaitValue64" :
			     "cuStreamWriteValue64", what);
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

enum cb_status cb_cuda_flags_make(struct cb_backend *be, enum cb_cuda_sync sync,
				  enum cb_cuda_wait layout, cudaStream_t stream,
				  struct cb_flags **out)
{
	struct cuda_flags *f = calloc(1, sizeof(*f));
	size_t slots = layout == CB_CUDA_WAIT_OWN ? (size_t)be->node_size : 1;
	enum cb_status st;

	if (!f)
		return CB_ERR_NOMEM;
	f->layout = layout;
	f->stream = stream;
	if (sync == CB_CUDA_SYNC_STREAM) {
		f->ops = layout == CB_CUDA_WAIT_OWN ? calloc(slots, sizeof(*f->ops)) : NULL;
		st = be->ops->buf_alloc(be, slots * sizeof(uint64_t), &f->dev); /* zeroed */
	} else {
		st = CB_CUDA(cudaEventCreateWithFlags(&f->drained, cudaEventDisableTiming));
		if (st == CB_OK)
			st = cb_host_flags_alloc(be, &f->host);
	}
	if (st != CB_OK) {
		if (f->drained)
			cudaEventDestroy(f->drained);
		free(f->ops);
		free(f);
		return st;
	}
	*out = (struct cb_flags *)f;
	return CB_OK;
}

enum cb_status cb_cuda_flags_alloc(struct cb_backend *be, struct cb_flags **out)
{
	struct cb_cuda_state *cs = be->impl;

	return cb_cuda_flags_make(be, cs->sync, cs->wait_layout, cs->shared.stream, out);
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
	free(f->ops);
	free(f);
}

enum cb_status cb_cuda_flags_release(struct cb_backend *be, struct cb_flags *flags,
				     cudaStream_t stream, uint64_t value)
{
	struct cb_cuda_state *cs = be->impl;
	struct cuda_flags *f = (struct cuda_flags *)flags;
	size_t slots = f->layout == CB_CUDA_WAIT_OWN ? (size_t)be->node_size : 1;
	enum cb_status st = CB_OK;

	for (size_t i = 0; f->dev && i < slots && st == CB_OK; i++)
		st = value_op(be, cs->write_value, stream,
			      (uint64_t *)f->dev->peer[be->node_rank] + i, value,
			      CU_STREAM_WRITE_VALUE_DEFAULT, "a stream write to its own memory");
	return st;
}

/* The writes of a post into every peer's memory as one batch
 * (cuStreamBatchMemOp: one call, not one per peer; under 256 of them). */
static enum cb_status batch_post(struct cb_backend *be, struct cuda_flags *f, uint64_t value)
{
	struct cb_cuda_state *cs = be->impl;
	unsigned n = 0;

	for (int r = 0; r < be->node_size; r++) {
		CUstreamBatchMemOpParams *p = &f->ops[n];

		if (r == be->node_rank)
			continue;
		memset(p, 0, sizeof(*p));
		p->writeValue.operation = CU_STREAM_MEM_OP_WRITE_VALUE_64;
		p->writeValue.address = (CUdeviceptr)(uintptr_t)((uint64_t *)f->dev->peer[r] + be->node_rank);
		p->writeValue.value64 = value;
		p->writeValue.flags = CU_STREAM_WRITE_VALUE_DEFAULT;
		n++;
	}
	return mem_op_status(cs, ((batch_fn)cs->batch)((CUstream)f->stream, n, f->ops, 0),
			     "cuStreamBatchMemOp", "a batch of stream writes to peers' IPC-mapped memory");
}

/* The slots of this rank in every peer's memory (adding: a post), or the
 * peers' slots in its own (subtracting: the re-base), own layout. */
static int slots_of(struct cb_backend *be, struct cuda_flags *f, int own, uint64_t **out)
{
	int n = 0, me = be->node_rank;

	for (int r = 0; r < be->node_size && n < CB_CUDA_ADDS_MAX; r++)
		if (r != me)
			out[n++] = own ? (uint64_t *)f->dev->peer[me] + r :
					 (uint64_t *)f->dev->peer[r] + me;
	return n;
}

/* A post while the stream records a graph. A graph replays the values it
 * recorded, but the executors' counters rise with every call, so a replay
 * would find its waits already met by the launch before. Recorded instead:
 * a kernel that adds value - (the last value posted) to this rank's slot in
 * every peer (the default post's fence first: cb_cuda_kernels.h), so a
 * launch raises each counter by S, the sum of one call's increments; the
 * re-base (cb_cuda_flags_rebase) takes S off again at the end of each
 * launch, after the launch's last wait. Then a launch sees the counters as
 * the call recorded them, whatever launch its peers are in (a peer one
 * launch ahead reads S more, one behind S less: the waits' cyclic GEQ). */
static enum cb_status captured_post(struct cb_backend *be, struct cuda_flags *f, uint64_t value)
{
	struct cb_cuda_state *cs = be->impl;
	uint64_t *slot[CB_CUDA_ADDS_MAX], delta;
	int n;

	if (f->layout != CB_CUDA_WAIT_OWN)
		return cb_cuda_graph_refuse(be, "CB_CUDA_WAIT=peer's counters are read by every peer: "
					    "a graph's replays cannot re-base them (own counters can)");
	if (be->node_size - 1 > CB_CUDA_ADDS_MAX)
		return cb_cuda_graph_refuse(be, "more ranks on this host than a graph's counter "
					    "kernel takes (65)");
	if (!cs->peer_atomics)
		return cb_cuda_graph_refuse(be, "the GPUs lack native atomics peer to peer "
					    "(cudaDevP2PAttrNativeAtomicSupported), which a graph's "
					    "posts use to re-base the counters");
	if (!f->captured) {
		if (cs->ncap == CB_CUDA_CAPTURED_MAX)
			return cb_cuda_graph_refuse(be, "too many progress counters in one graph");
		cs->cap[cs->ncap++] = (struct cb_flags *)f;
		f->captured = 1;
		f->cap_from = f->posted;
	}
	delta = value - f->posted;
	f->posted = value;
	n = slots_of(be, f, 0, slot);
	return CB_CUDA(cb_cuda_counter_add(slot, n, delta, f->stream));
}

/* Stream mode: written once the work before it is done and visible (the
 * default flag's fence), into every peer's slot for this rank (own layout)
 * or into this rank's own counter (peer layout). */
static enum cb_status stream_post(struct cb_backend *be, struct cuda_flags *f, uint64_t value)
{
	struct cb_cuda_state *cs = be->impl;
	int me = be->node_rank;
	enum cb_status st = CB_OK;

	if (cs->shared.capturing)
		return captured_post(be, f, value);
	if (f->layout == CB_CUDA_WAIT_PEER)
		return value_op(be, cs->write_value, f->stream, f->dev->peer[me], value,
				CU_STREAM_WRITE_VALUE_DEFAULT, "a stream write to its own memory");
	if (cs->batch && f->ops && be->node_size > 2 && be->node_size <= 256)
		return batch_post(be, f, value);
	for (int r = 0; r < be->node_size && st == CB_OK; r++)
		if (r != me)
			st = value_op(be, cs->write_value, f->stream, (uint64_t *)f->dev->peer[r] + me,
				      value, CU_STREAM_WRITE_VALUE_DEFAULT,
				      "a stream write to a peer's IPC-mapped memory");
	return st;
}

enum cb_status cb_cuda_post(struct cb_backend *be, struct cb_flags *flags, uint64_t value)
{
	struct cuda_flags *f = (struct cuda_flags *)flags;
	enum cb_status st;

	if (f->dev) {
		st = stream_post(be, f, value);
		if (st == CB_OK)
			f->posted = value;
		return st;
	}
	st = cb_cuda_graph_refuse(be, HOST_SYNC_WHY);
	if (st == CB_OK)
		st = CB_CUDA(cudaEventRecord(f->drained, f->stream));
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

	if (!f->dev && cb_cuda_graph_refuse(be, HOST_SYNC_WHY) != CB_OK)
		return CB_ERR_UNSUPPORTED;
	if (f->dev && f->layout == CB_CUDA_WAIT_PEER && cs->shared.capturing)
		return cb_cuda_graph_refuse(be, "CB_CUDA_WAIT=peer's counters are read by every peer: "
					    "a graph's replays cannot re-base them (own counters can)");
	/* the stream, not the host, waits: later work queues behind it */
	if (f->dev && f->layout == CB_CUDA_WAIT_OWN)
		return value_op(be, cs->wait_value, f->stream,
				(uint64_t *)f->dev->peer[be->node_rank] + peer, value,
				CU_STREAM_WAIT_VALUE_GEQ, "a stream wait on its own memory");
	if (f->dev)
		return value_op(be, cs->wait_value, f->stream, f->dev->peer[peer], value,
				CU_STREAM_WAIT_VALUE_GEQ, "a stream wait on a peer's IPC-mapped memory");
	return cb_host_flags_wait(be, f->host, peer, value);
}

enum cb_status cb_cuda_flags_rebase(struct cb_backend *be, int record)
{
	struct cb_cuda_state *cs = be->impl;
	enum cb_status st = CB_OK;

	for (int i = 0; i < cs->ncap; i++) {
		struct cuda_flags *f = (struct cuda_flags *)cs->cap[i];
		uint64_t *slot[CB_CUDA_ADDS_MAX];
		int n = slots_of(be, f, 1, slot);

		/* every rank made the same calls: its S is each peer's */
		if (st == CB_OK && record)
			st = CB_CUDA(cb_cuda_counter_add(slot, n, f->cap_from - f->posted, f->stream));
		/* what the counters hold after every launch (or none): a later
		 * capture's increments start there */
		f->posted = f->cap_from;
		f->captured = 0;
	}
	cs->ncap = 0;
	return st;
}
