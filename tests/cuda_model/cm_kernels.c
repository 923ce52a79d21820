/* The cuda backend's kernels in the CUDA model: cb_cuda_reduce and
 * cb_cuda_finalize (contract in cb_cuda_kernels.h) enqueue a host loop over
 * the kernels' own element functions (cm_elem.cc) on the stream, in place
 * of cb_cuda_kernels.cu. A kernel reads and writes device memory only:
 * every span it touches must lie in one allocation its GPU can access (its
 * own, or a peer's mapped through CUDA IPC), else it faults when it runs
 * with cudaErrorIllegalAddress, which is sticky, as on a GPU. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "cb_cuda_kernels.h"
#include "cm_model.h"

struct kernel {
	void *dst;
	const void *a, *b; /* b NULL: finalize */
	size_t count;
	enum cb_dtype dt;
	enum cb_op op;
	int nranks, device, fault;
};

static int accessible(const void *p, size_t bytes, int device)
{
	int d = -1;
	enum cm_mem_kind k = cm_mem_lookup(p, bytes, &d);

	return k == CM_MAPPED || (k == CM_OWN && (d == device || cm_can_access_peer(device, d)));
}

static cudaError_t run_kernel(void *arg)
{
	struct kernel *k = arg;
	size_t bytes = k->count * cb_dtype_size(k->dt);
	void *out;

	if (k->fault) /* CB_CUDA_MODEL_FAULT=sticky */
		return cudaErrorIllegalAddress;
	if (!accessible(k->dst, bytes, k->device) || !accessible(k->a, bytes, k->device) ||
	    (k->b && !accessible(k->b, bytes, k->device))) {
		cm_log("kernel on GPU %d: %p, %p or %p (%zu B) is not device memory it can access", k->device,
		       k->dst, k->a, k->b, bytes);
		return cudaErrorIllegalAddress;
	}
	out = cm_order_hold(k->dst, bytes);
	if (!out)
		out = k->dst;
	else if (!k->b)
		memcpy(out, k->dst, bytes); /* finalize works in place */
	if (k->b)
		cm_elem_reduce(out, k->a, k->b, k->count, k->dt, k->op);
	else
		cm_elem_finalize(out, k->count, k->dt, k->nranks);
	/* what crossed a link: a source read from, the output written into,
	 * another GPU's memory */
	cm_link_touch(k->device, k->a, bytes, 0);
	if (k->b)
		cm_link_touch(k->device, k->b, bytes, 0);
	cm_link_touch(k->device, k->dst, bytes, 1);
	return cudaSuccess;
}

/* 1 when [x, x + n) and [y, y + n) overlap without being the same span. */
static int partly_overlap(const void *x, const void *y, size_t n)
{
	const char *p = x, *q = y;

	return p != q && p < q + n && q < p + n;
}

/* Enqueues *k on s as one launch. The launch check the cuda backend makes
 * (cudaGetLastError after a launch) reads the thread's last-error slot: an
 * error an earlier call left there would read as this launch's failure
 * (the bug tests/test_cuda_poll.c recalls). cb_cuda_kernels.cu returns
 * cudaLaunchKernelEx's own error instead, but the rule of cb_cuda_util.h
 * stands (every error a call returned is cleared where it is handled), and
 * the model holds the backend to it here: a launch with the slot not clean
 * fails, as that launch check would, naming the error. */
static cudaError_t launch(const struct kernel *k, cudaStream_t s, const char *name)
{
	cudaError_t e = cm_enter();
	struct kernel *q;

	if (e != cudaSuccess)
		return e;
	if (cm_slot() != cudaSuccess) {
		e = cudaGetLastError();
		cm_log("%s: the thread's last-error slot holds %s from an earlier call; a launch check "
		       "(cudaGetLastError) reads it as this launch's failure", name, cudaGetErrorName(e));
		return e;
	}
	if ((unsigned)k->dt >= CB_DTYPE_COUNT || (unsigned)k->op >= CB_OP_COUNT)
		return cm_ret(cudaErrorInvalidValue);
	if (k->b && (partly_overlap(k->dst, k->a, k->count * cb_dtype_size(k->dt)) ||
		     partly_overlap(k->dst, k->b, k->count * cb_dtype_size(k->dt)))) {
		cm_log("%s: dst overlaps a source without being it (cb_cuda_kernels.h)", name);
		return cm_ret(cudaErrorInvalidValue);
	}
	if (cm_stream_device(s) < 0)
		return cm_ret(cudaErrorInvalidResourceHandle);
	if (cm_fault_hit(CM_FAULT_LAUNCH))
		return cm_ret(cudaErrorLaunchOutOfResources);
	q = malloc(sizeof(*q));
	if (!q)
		return cm_ret(cudaErrorMemoryAllocation);
	*q = *k;
	q->device = cm_stream_device(s);
	q->fault = cm_fault_hit(CM_FAULT_STICKY);
	{
		size_t bytes = k->count * cb_dtype_size(k->dt);
		struct cm_span sp[3] = { { k->dst, bytes, 1, 0 }, { k->a, bytes, 0, 0 }, { k->b, bytes, 0, 0 } };

		return cm_ret(cm_enqueue_touching(s, name, run_kernel, free, q, sp, k->b ? 3 : 2));
	}
}

cudaError_t cb_cuda_reduce(void *dst, const void *a, const void *b, size_t count, enum cb_dtype dt,
			   enum cb_op op, int sm_count, cudaStream_t stream)
{
	struct kernel k = { dst, a, b, count, dt, op, 0, 0, 0 };

	(void)sm_count;
	if (count == 0)
		return cudaSuccess;
	return launch(&k, stream, "cb_cuda_reduce");
}

cudaError_t cb_cuda_finalize(void *buf, size_t count, enum cb_dtype dt, enum cb_op op, int nranks,
			     int sm_count, cudaStream_t stream)
{
	struct kernel k = { buf, buf, NULL, count, dt, op, nranks, 0, 0 };

	(void)sm_count;
	if (op != CB_AVG || count == 0 || nranks <= 1)
		return cudaSuccess;
	return launch(&k, stream, "cb_cuda_finalize");
}

/* cb_cuda_counter_add: system-scope atomic adds after a fence (the worker
 * lands the stream's earlier bytes before every operation: cm_order.c), on
 * 8-byte words of device memory this GPU can reach. */
struct adds {
	uint64_t *addr[CB_CUDA_ADDS_MAX];
	int n, device;
	uint64_t delta;
};

static cudaError_t run_adds(void *arg)
{
	struct adds *a = arg;

	for (int i = 0; i < a->n; i++) {
		if (!accessible(a->addr[i], sizeof(uint64_t), a->device)) {
			cm_log("cb_cuda_counter_add on GPU %d: %p is not device memory it can access",
			       a->device, (void *)a->addr[i]);
			return cudaErrorIllegalAddress;
		}
		__atomic_add_fetch(a->addr[i], a->delta, __ATOMIC_SEQ_CST);
		cm_link_touch(a->device, a->addr[i], sizeof(uint64_t), 1);
	}
	return cudaSuccess;
}

cudaError_t cb_cuda_counter_add(uint64_t *const *addr, int n, uint64_t delta, cudaStream_t stream)
{
	cudaError_t e = cm_enter();
	struct cm_span sp[CB_CUDA_ADDS_MAX];
	struct adds *a;

	if (e != cudaSuccess || n <= 0)
		return e;
	if (n > CB_CUDA_ADDS_MAX)
		return cm_ret(cudaErrorInvalidValue);
	if (cm_stream_device(stream) < 0)
		return cm_ret(cudaErrorInvalidResourceHandle);
	a = calloc(1, sizeof(*a));
	if (!a)
		return cm_ret(cudaErrorMemoryAllocation);
	for (int i = 0; i < n; i++) {
		a->addr[i] = addr[i];
		/* a counter: written across streams as stream memory operations are */
		sp[i] = (struct cm_span){ addr[i], sizeof(uint64_t), 1, 1 };
	}
	a->n = n;
	a->delta = delta;
	a->device = cm_stream_device(stream);
	return cm_ret(cm_enqueue_touching(stream, "cb_cuda_counter_add", run_adds, free, a, sp, n));
}
