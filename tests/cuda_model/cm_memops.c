/* The CUDA model's stream memory operations (cuStreamWaitValue64,
 * cuStreamWriteValue64, cuStreamBatchMemOp) reached through the driver
 * entry points: operations of a stream (cm_stream.c) on 8-byte words of
 * device memory. Contract in cm_model.h. */
#define _GNU_SOURCE
#include <stdlib.h>

#include "cm_model.h"

struct value_op {
	uint64_t *addr;
	uint64_t value;
	unsigned flags;
	int device; /* the stream's GPU: a write into a peer's memory crosses the link */
};

/* Driver API, cuStreamWaitValue64: CU_STREAM_WAIT_VALUE_GEQ is "(int64_t)
 * (*addr - value) >= 0, a cyclic greater-or-equal"; EQ, AND, NOR as
 * CUstreamWaitValue_flags. The wait never gives up ("Improper use of this
 * API may deadlock the application"). */
static int satisfied(uint64_t v, const struct value_op *w)
{
	switch (w->flags & ~(unsigned)CU_STREAM_WAIT_VALUE_FLUSH) {
	case CU_STREAM_WAIT_VALUE_GEQ: return (int64_t)(v - w->value) >= 0;
	case CU_STREAM_WAIT_VALUE_EQ: return v == w->value;
	case CU_STREAM_WAIT_VALUE_AND: return (v & w->value) != 0;
	default: return ~(v | w->value) != 0;
	}
}

static cudaError_t run_wait_value(void *arg)
{
	struct value_op *w = arg;

	for (unsigned long polls = 0; !satisfied(__atomic_load_n(w->addr, __ATOMIC_ACQUIRE), w); polls++) {
		cm_slice_poll(); /* an unsatisfied wait holds the GPU until its slice ends */
		cm_backoff(polls);
	}
	return cudaSuccess;
}

/* CU_STREAM_WRITE_VALUE_DEFAULT: the write is preceded by "a memory fence
 * before the write, which has similar semantics to __threadfence_system()
 * but is scoped to the stream" (CUstreamWriteValue_flags): a release store
 * after the stream's earlier work, whose held bytes (cm_order.c) the worker
 * landed before it. NO_MEMORY_BARRIER: a relaxed one, before those bytes. */
static cudaError_t run_write_value(void *arg)
{
	struct value_op *w = arg;

	if (w->flags & CU_STREAM_WRITE_VALUE_NO_MEMORY_BARRIER) {
		__atomic_store_n(w->addr, w->value, __ATOMIC_RELAXED);
		cm_order_land_late();
	} else {
		__atomic_store_n(w->addr, w->value, __ATOMIC_RELEASE);
	}
	cm_link_touch(w->device, w->addr, sizeof(*w->addr), 1);
	return cudaSuccess;
}

/* Both take a device address of this process (its own or mapped through
 * CUDA IPC: "all memory pointers passed as parameters to these operations
 * are device pointers", Driver API, Stream Memory Operations), 8-byte
 * aligned, and need CU_DEVICE_ATTRIBUTE_CAN_USE_64_BIT_STREAM_MEM_OPS.
 * CUDA_SUCCESS, or why not; *lost: a write to drop (the model's setting). */
static CUresult check(CUdeviceptr addr, int write, const char *call, int *lost)
{
	int dev = -1;
	long ipc;
	enum cm_mem_kind k;

	cm_init();
	k = cm_mem_lookup((void *)(uintptr_t)addr, 8, &dev);
	*lost = 0;
	if (cm_sticky() != cudaSuccess)
		return CUDA_ERROR_ILLEGAL_ADDRESS;
	if (!cm_env_long("CB_CUDA_MODEL_STREAM_MEM_OPS", 1))
		return CUDA_ERROR_NOT_SUPPORTED;
	if (addr % 8 || (k != CM_OWN && k != CM_MAPPED)) {
		cm_log("%s(%#llx): not an aligned 8-byte word of device memory", call, (unsigned long long)addr);
		return CUDA_ERROR_INVALID_VALUE;
	}
	/* a driver that refuses the operation on another process's memory (0),
	 * or takes a write there that never lands (WRITE=-1) */
	ipc = k == CM_MAPPED ? cm_env_long(write ? "CB_CUDA_MODEL_IPC_STREAM_WRITE" :
						   "CB_CUDA_MODEL_IPC_STREAM_WAIT", 1) : 1;
	if (ipc == 0) {
		cm_log("%s on IPC-mapped memory: refused (CUDA_ERROR_NOT_SUPPORTED; "
		       "CB_CUDA_MODEL_IPC_STREAM_%s=0)", call, write ? "WRITE" : "WAIT");
		return CUDA_ERROR_NOT_SUPPORTED;
	}
	*lost = ipc < 0 && write; /* a peer waiting for it waits forever */
	return CUDA_SUCCESS;
}

static CUresult value_op(CUstream stream, CUdeviceptr addr, cuuint64_t value, unsigned flags,
			 cm_run_fn run, const char *call)
{
	int write = run == run_write_value, lost;
	struct cm_span span = { (void *)(uintptr_t)addr, 8, write,
				write && (flags & CU_STREAM_WRITE_VALUE_NO_MEMORY_BARRIER) ? 2 : 1 };
	struct value_op *w;
	CUresult r = check(addr, write, call, &lost);

	if (r != CUDA_SUCCESS || lost)
		return r;
	w = malloc(sizeof(*w));
	if (!w)
		return CUDA_ERROR_OUT_OF_MEMORY;
	*w = (struct value_op){ (uint64_t *)(uintptr_t)addr, value, flags, cm_stream_device((cudaStream_t)stream) };
	return cm_enqueue_touching((cudaStream_t)stream, call, run, free, w, &span, 1) == cudaSuccess ?
		       CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
}

CUresult cuStreamWaitValue64(CUstream stream, CUdeviceptr addr, cuuint64_t value, unsigned int flags)
{
	unsigned cond = flags & ~(unsigned)CU_STREAM_WAIT_VALUE_FLUSH;

	if (cond > CU_STREAM_WAIT_VALUE_NOR)
		return CUDA_ERROR_INVALID_VALUE;
	return value_op(stream, addr, value, flags, run_wait_value, "cuStreamWaitValue64");
}

CUresult cuStreamWriteValue64(CUstream stream, CUdeviceptr addr, cuuint64_t value, unsigned int flags)
{
	if (flags & ~(unsigned)CU_STREAM_WRITE_VALUE_NO_MEMORY_BARRIER)
		return CUDA_ERROR_INVALID_VALUE;
	return value_op(stream, addr, value, flags, run_write_value, "cuStreamWriteValue64");
}

/* ---- cuStreamBatchMemOp --------------------------------------------------- */

struct batch {
	unsigned n;
	struct batch_op {
		struct value_op v;
		int wait, lost;
	} ops[];
};

static cudaError_t run_batch(void *arg)
{
	struct batch *b = arg;

	for (unsigned i = 0; i < b->n; i++)
		if (b->ops[i].wait)
			run_wait_value(&b->ops[i].v);
		else if (!b->ops[i].lost)
			run_write_value(&b->ops[i].v);
	return cudaSuccess;
}

/* One operation of a batch into *o and its span; CUDA_SUCCESS or why not. */
static CUresult batch_one(const CUstreamBatchMemOpParams *p, struct batch_op *o, struct cm_span *sp)
{
	int wait = p->operation == CU_STREAM_MEM_OP_WAIT_VALUE_64;
	CUdeviceptr addr = wait ? p->waitValue.address : p->writeValue.address;
	unsigned flags = wait ? p->waitValue.flags : p->writeValue.flags;

	if (!wait && p->operation != CU_STREAM_MEM_OP_WRITE_VALUE_64) {
		cm_log("cuStreamBatchMemOp: operation %d: the model has the 64-bit waits and writes only",
		       (int)p->operation);
		return CUDA_ERROR_NOT_SUPPORTED;
	}
	/* the model batches fenced writes only (cm_order.c holds bytes back
	 * behind a lone unfenced write) */
	if (wait ? (flags & ~(unsigned)CU_STREAM_WAIT_VALUE_FLUSH) > CU_STREAM_WAIT_VALUE_NOR :
		   flags != CU_STREAM_WRITE_VALUE_DEFAULT)
		return CUDA_ERROR_INVALID_VALUE;
	o->wait = wait;
	o->v = (struct value_op){ (uint64_t *)(uintptr_t)addr,
				  wait ? p->waitValue.value64 : p->writeValue.value64, flags, -1 };
	*sp = (struct cm_span){ o->v.addr, 8, !wait, 1 };
	return check(addr, !wait, "cuStreamBatchMemOp", &o->lost);
}

/* Driver API, cuStreamBatchMemOp: count (< 256) waits and writes, run in
 * order as one operation of the stream; flags must be 0. The model takes
 * the 64-bit ones, the writes with their fence (the default flag). */
CUresult cuStreamBatchMemOp(CUstream stream, unsigned int count, CUstreamBatchMemOpParams *paramArray,
			    unsigned int flags)
{
	struct batch *b;
	struct cm_span *sp;
	CUresult r = CUDA_SUCCESS;

	if (count == 0 || count >= 256 || flags || !paramArray)
		return CUDA_ERROR_INVALID_VALUE;
	b = calloc(1, sizeof(*b) + count * sizeof(b->ops[0]));
	sp = calloc(count, sizeof(*sp));
	if (!b || !sp)
		r = CUDA_ERROR_OUT_OF_MEMORY;
	for (unsigned i = 0; i < count && r == CUDA_SUCCESS; i++) {
		r = batch_one(&paramArray[i], &b->ops[i], &sp[i]);
		b->ops[i].v.device = cm_stream_device((cudaStream_t)stream);
	}
	if (r == CUDA_SUCCESS) {
		b->n = count;
		r = cm_enqueue_touching((cudaStream_t)stream, "cuStreamBatchMemOp", run_batch, free, b, sp,
					(int)count) == cudaSuccess ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
	} else {
		free(b);
	}
	free(sp);
	return r;
}
