/* The CUDA model's events (a generation recorded by the host, the
 * generation the stream reached, and when) and the stream memory operations
 * (cuStreamWaitValue64, cuStreamWriteValue64) reached through the driver
 * entry points. Operations of a stream (cm_stream.c); contract in
 * cm_model.h. Events are never freed, as streams: a destroyed one is
 * marked so. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdlib.h>
#include <time.h>

#include "cm_model.h"

struct CUevent_st {
	unsigned flags;
	int device, destroyed;
	uint64_t recorded; /* the host's last cudaEventRecord (0: never) */
	uint64_t done;     /* atomic: the generation its stream reached */
	uint64_t t_ns;     /* atomic: when */
	struct CUevent_st *next_all;
};

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static struct CUevent_st *all;

static int live(const struct CUevent_st *ev)
{
	int yes = 0;

	pthread_mutex_lock(&mu);
	for (const struct CUevent_st *e = all; e && !yes; e = e->next_all)
		yes = e == ev && !e->destroyed;
	pthread_mutex_unlock(&mu);
	return yes;
}

cudaError_t cudaEventCreateWithFlags(cudaEvent_t *event, unsigned int flags)
{
	cudaError_t e = cm_enter();
	struct CUevent_st *ev;

	if (e != cudaSuccess)
		return e;
	if (flags & ~(unsigned)(cudaEventBlockingSync | cudaEventDisableTiming | cudaEventInterprocess))
		return cm_ret(cudaErrorInvalidValue);
	ev = calloc(1, sizeof(*ev));
	if (!ev)
		return cm_ret(cudaErrorMemoryAllocation);
	ev->flags = flags;
	ev->device = cm_current_device();
	pthread_mutex_lock(&mu);
	ev->next_all = all;
	all = ev;
	pthread_mutex_unlock(&mu);
	*event = ev;
	return cudaSuccess;
}

cudaError_t cudaEventCreate(cudaEvent_t *event)
{
	return cudaEventCreateWithFlags(event, cudaEventDefault);
}

/* Runtime API, cudaEventDestroy: an event recorded but not completed is
 * released "once the device has completed event"; the model keeps it. */
cudaError_t cudaEventDestroy(cudaEvent_t event)
{
	cudaError_t e = cm_enter();

	if (e != cudaSuccess)
		return e;
	if (!live(event))
		return cm_ret(cudaErrorInvalidResourceHandle);
	event->destroyed = 1;
	return cudaSuccess;
}

struct record {
	struct CUevent_st *ev;
	uint64_t gen;
	int hang;
};

static cudaError_t run_record(void *arg)
{
	struct record *r = arg;
	struct timespec t = { 1, 0 };

	while (r->hang) /* CB_CUDA_MODEL_FAULT=event_hang: the GPU never gets here */
		nanosleep(&t, NULL);
	__atomic_store_n(&r->ev->t_ns, cm_now_ns(), __ATOMIC_RELAXED);
	__atomic_store_n(&r->ev->done, r->gen, __ATOMIC_RELEASE);
	return cudaSuccess;
}

/* Runtime API, cudaEventRecord: captures the contents of stream at the
 * call; the event completes when the stream has done that work. Event and
 * stream must be of the same device. */
cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream)
{
	cudaError_t e = cm_enter();
	struct record *r;

	if (e != cudaSuccess)
		return e;
	if (!live(event) || cm_stream_device(stream) != event->device)
		return cm_ret(cudaErrorInvalidResourceHandle);
	r = malloc(sizeof(*r));
	if (!r)
		return cm_ret(cudaErrorMemoryAllocation);
	r->ev = event;
	r->gen = ++event->recorded;
	r->hang = cm_fault_hit(CM_FAULT_EVENT_HANG);
	return cm_ret(cm_enqueue(stream, run_record, free, r));
}

static int complete(const struct CUevent_st *ev)
{
	return __atomic_load_n(&ev->done, __ATOMIC_ACQUIRE) >= ev->recorded;
}

/* Runtime API, cudaEventQuery: cudaSuccess when the captured work is done
 * (or the event was never recorded), else cudaErrorNotReady, left in the
 * thread's last-error slot as any returned error (cm_ret; cb_cuda_util.h's
 * poll clears it). */
cudaError_t cudaEventQuery(cudaEvent_t event)
{
	cudaError_t e = cm_enter();

	if (e != cudaSuccess)
		return e;
	if (!live(event))
		return cm_ret(cudaErrorInvalidResourceHandle);
	return cm_ret(complete(event) ? cudaSuccess : cudaErrorNotReady);
}

cudaError_t cudaEventSynchronize(cudaEvent_t event)
{
	cudaError_t e = cm_enter();

	if (e != cudaSuccess)
		return e;
	if (!live(event))
		return cm_ret(cudaErrorInvalidResourceHandle);
	for (unsigned long polls = 0; !complete(event) && cm_sticky() == cudaSuccess; polls++)
		cm_backoff(polls);
	return cm_ret(cm_sticky());
}

/* Runtime API, cudaEventElapsedTime: cudaErrorInvalidResourceHandle when
 * either event was never recorded or was created with
 * cudaEventDisableTiming; cudaErrorNotReady when either has not completed. */
cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end)
{
	cudaError_t e = cm_enter();
	int64_t ns;

	if (e != cudaSuccess)
		return e;
	if (!live(start) || !live(end) || !start->recorded || !end->recorded ||
	    ((start->flags | end->flags) & cudaEventDisableTiming))
		return cm_ret(cudaErrorInvalidResourceHandle);
	if (!complete(start) || !complete(end))
		return cm_ret(cudaErrorNotReady);
	ns = (int64_t)(__atomic_load_n(&end->t_ns, __ATOMIC_RELAXED) -
		       __atomic_load_n(&start->t_ns, __ATOMIC_RELAXED));
	*ms = (float)((double)ns / 1e6);
	return cudaSuccess;
}

struct wait_event {
	struct CUevent_st *ev;
	uint64_t gen;
};

static cudaError_t run_wait_event(void *arg)
{
	struct wait_event *w = arg;

	for (unsigned long polls = 0; __atomic_load_n(&w->ev->done, __ATOMIC_ACQUIRE) < w->gen; polls++) {
		cm_slice_poll();
		cm_backoff(polls);
	}
	return cudaSuccess;
}

/* Runtime API, cudaStreamWaitEvent: later work of stream waits for the work
 * the event captured at its most recent cudaEventRecord; an event never
 * recorded makes it wait for nothing. */
cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int flags)
{
	cudaError_t e = cm_enter();
	struct wait_event *w;

	if (e != cudaSuccess)
		return e;
	if (!live(event) || cm_stream_device(stream) < 0)
		return cm_ret(cudaErrorInvalidResourceHandle);
	if (flags != 0)
		return cm_ret(cudaErrorInvalidValue);
	if (!event->recorded)
		return cudaSuccess;
	w = malloc(sizeof(*w));
	if (!w)
		return cm_ret(cudaErrorMemoryAllocation);
	*w = (struct wait_event){ event, event->recorded };
	return cm_ret(cm_enqueue(stream, run_wait_event, free, w));
}

/* ---- stream memory operations (driver API) ----------------------------- */

struct value_op {
	uint64_t *addr;
	uint64_t value;
	unsigned flags;
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
	return cudaSuccess;
}

/* Both take a device address of this process (its own or mapped through
 * CUDA IPC: "all memory pointers passed as parameters to these operations
 * are device pointers", Driver API, Stream Memory Operations), 8-byte
 * aligned, and need CU_DEVICE_ATTRIBUTE_CAN_USE_64_BIT_STREAM_MEM_OPS. */
static CUresult value_op(CUstream stream, CUdeviceptr addr, cuuint64_t value, unsigned flags,
			 cm_run_fn run, const char *call)
{
	int write = run == run_write_value;
	struct cm_span span = { (void *)(uintptr_t)addr, 8, write,
				write && (flags & CU_STREAM_WRITE_VALUE_NO_MEMORY_BARRIER) ? 2 : 1 };
	struct value_op *w;
	int dev = -1;
	long ipc;
	enum cm_mem_kind k;

	cm_init();
	k = cm_mem_lookup((void *)(uintptr_t)addr, 8, &dev);
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
	if (ipc < 0 && write)
		return CUDA_SUCCESS; /* lost: a peer waiting for it waits forever */
	w = malloc(sizeof(*w));
	if (!w)
		return CUDA_ERROR_OUT_OF_MEMORY;
	*w = (struct value_op){ (uint64_t *)(uintptr_t)addr, value, flags };
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
