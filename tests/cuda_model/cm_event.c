/* The CUDA model's events (a generation recorded by the host, the
 * generation the stream reached, and when). Operations of a stream
 * (cm_stream.c); the stream memory operations are cm_memops.c's; contract in
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
