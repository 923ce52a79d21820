/* The CUDA model's streams: an in-order queue of operations run by a worker
 * thread per stream (Programming Guide, Asynchronous Concurrent Execution,
 * Streams: "a sequence of commands ... that execute in order"; different
 * streams may run concurrently and in any order relative to each other).
 * Copies and memsets are operations of a stream; so are kernels
 * (cm_kernels.c), events and stream memory operations (cm_event.c) and NCCL's
 * work (cm_nccl_ops.c). Contract in cm_model.h. Streams are never freed: a
 * destroyed one keeps its slot (marked destroyed), so a late use of its
 * handle is an error the model reports, not a use after free. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cm_model.h"

struct op {
	struct op *next;
	uint64_t seq, t_enq_ns;
	cm_run_fn run;
	void (*drop)(void *arg);
	void *arg;
	const char *what;
	struct cm_span *spans;
	int nspans;
};

struct CUstream_st {
	pthread_mutex_t mu;
	pthread_cond_t cv; /* new work, or an operation done */
	struct op *head, *tail;
	struct op *running;    /* popped, not yet done */
	uint64_t queued, done; /* sequence numbers, under mu */
	int device, legacy, destroyed;
	struct CUstream_st *next_all;
};

static pthread_mutex_t all_mu = PTHREAD_MUTEX_INITIALIZER;
static struct CUstream_st *all;
static struct CUstream_st *legacy[CM_MAX_GPUS];

/* CB_CUDA_MODEL_LEGACY_LAG_MS: the legacy default stream "synchronizes with
 * all other streams ... except for non-blocking streams" (Runtime API,
 * Stream synchronization behavior): its work and theirs are unordered, and
 * the model may run its work this much later to show code that assumes
 * otherwise. */
static void lag(const struct CUstream_st *s, const struct op *o)
{
	long ms = s->legacy ? cm_env_long("CB_CUDA_MODEL_LEGACY_LAG_MS", 0) : 0;
	uint64_t due = o->t_enq_ns + (uint64_t)(ms > 0 ? ms : 0) * 1000000u;
	struct timespec t = { 0, 1000000 };

	while (cm_now_ns() < due)
		nanosleep(&t, NULL);
}

/* Runs o, or skips it when the context has a sticky error (its work is
 * lost, as on a GPU whose context faulted); an error of its own is sticky. */
static void run_op(struct op *o)
{
	cudaError_t e = cudaSuccess;

	if (cm_sticky() == cudaSuccess)
		e = o->run(o->arg);
	if (e != cudaSuccess) {
		cm_set_sticky(e);
		cm_log("a stream operation failed: %s (%s); the error is sticky", cudaGetErrorString(e),
		       cudaGetErrorName(e));
	}
	if (o->drop)
		o->drop(o->arg);
}

static void *worker(void *arg)
{
	struct CUstream_st *s = arg;

	pthread_mutex_lock(&s->mu);
	for (;;) {
		struct op *o;

		while (!s->head && !s->destroyed)
			pthread_cond_wait(&s->cv, &s->mu);
		if (!s->head)
			break; /* destroyed, and everything before it ran */
		o = s->head;
		s->head = o->next;
		if (!s->head)
			s->tail = NULL;
		s->running = o;
		pthread_mutex_unlock(&s->mu);
		lag(s, o);
		cm_jitter();
		cm_slice_acquire(s->device);
		if (!(o->nspans == 1 && o->spans[0].sync == 2))
			cm_order_land(); /* the fence before every other operation */
		run_op(o);
		pthread_mutex_lock(&s->mu);
		if (!s->head) /* out of work: what it held lands before it says done */
			cm_order_land();
		cm_slice_release(s->device, !s->head);
		s->done = o->seq;
		s->running = NULL;
		pthread_cond_broadcast(&s->cv);
		free(o->spans);
		free(o);
	}
	pthread_mutex_unlock(&s->mu);
	return NULL;
}

/* A new stream on device with its worker, on the list; all_mu held. */
static struct CUstream_st *new_stream(int device, int is_legacy)
{
	struct CUstream_st *s = calloc(1, sizeof(*s));
	pthread_t t;

	if (!s)
		return NULL;
	pthread_mutex_init(&s->mu, NULL);
	pthread_cond_init(&s->cv, NULL);
	s->device = device;
	s->legacy = is_legacy;
	if (pthread_create(&t, NULL, worker, s) != 0) {
		free(s);
		return NULL;
	}
	pthread_detach(t);
	s->next_all = all;
	all = s;
	return s;
}

/* The live stream behind handle h (the special handles: the current
 * device's legacy stream), or NULL; all_mu held. */
static struct CUstream_st *resolve(cudaStream_t h)
{
	int dev = cm_current_device();

	if (h == NULL || h == cudaStreamLegacy || h == cudaStreamPerThread) {
		if (!legacy[dev])
			legacy[dev] = new_stream(dev, 1);
		return legacy[dev];
	}
	for (struct CUstream_st *s = all; s; s = s->next_all)
		if (s == h && !s->destroyed)
			return s;
	return NULL;
}

static struct CUstream_st *find(cudaStream_t h)
{
	struct CUstream_st *s;

	pthread_mutex_lock(&all_mu);
	s = resolve(h);
	pthread_mutex_unlock(&all_mu);
	return s;
}

int cm_stream_device(cudaStream_t h)
{
	struct CUstream_st *s = find(h);

	return s ? s->device : -1;
}

/* 1 when an op touches memory that o touches, one of them writing. */
static int conflicts(const struct op *a, const struct op *o)
{
	for (int i = 0; i < a->nspans; i++)
		for (int j = 0; j < o->nspans; j++) {
			const struct cm_span *x = &a->spans[i], *y = &o->spans[j];
			const char *p = x->p, *q = y->p;

			if ((x->write || y->write) && !(x->sync && y->sync) && p < q + y->bytes &&
			    q < p + x->bytes)
				return 1;
		}
	return 0;
}

/* Programming Guide, Asynchronous Concurrent Execution, Streams: the
 * operations of different streams run in any order relative to each other
 * unless the program orders them (an event, a synchronization). o, about to
 * be queued on s, touches memory that an operation of another stream of
 * this process, queued and not yet done, touches too, one of them writing:
 * they race (the model does not see cudaStreamWaitEvent orderings, which the
 * backend does not use, nor races between processes, which it orders with
 * stream memory operations). all_mu held. */
static void check_unordered(const struct CUstream_st *s, const struct op *o)
{
	for (struct CUstream_st *t = all; t; t = t->next_all) {
		const char *hit = NULL;

		if (t == s || !o->nspans)
			continue;
		pthread_mutex_lock(&t->mu);
		if (t->running && conflicts(t->running, o))
			hit = t->running->what;
		for (const struct op *q = t->head; q && !hit; q = q->next)
			if (conflicts(q, o))
				hit = q->what;
		pthread_mutex_unlock(&t->mu);
		if (hit)
			cm_violation("Programming Guide, Streams: operations of different streams are "
				     "unordered unless the program orders them",
				     "%s on stream %p%s touches %p (%zu B) while %s on stream %p%s, "
				     "queued earlier and not done, touches the same memory", o->what,
				     (void *)s, s->legacy ? " (the legacy default stream)" : "", o->spans[0].p,
				     o->spans[0].bytes, hit, (void *)t,
				     t->legacy ? " (the legacy default stream)" : "");
	}
}

cudaError_t cm_enqueue_touching(cudaStream_t h, const char *what, cm_run_fn run,
				void (*drop)(void *arg), void *arg, const struct cm_span *spans,
				int nspans)
{
	struct op *o;
	struct CUstream_st *s;
	cudaError_t rec;

	if (cm_graph_record(h, what, run, drop, arg, spans, nspans, &rec))
		return rec;
	o = calloc(1, sizeof(*o));
	if (o && nspans && !(o->spans = malloc(sizeof(*spans) * (size_t)nspans))) {
		free(o);
		o = NULL;
	}
	pthread_mutex_lock(&all_mu);
	s = resolve(h);
	if (!s || !o) {
		pthread_mutex_unlock(&all_mu);
		if (o)
			free(o->spans);
		free(o);
		if (drop)
			drop(arg);
		return s ? cudaErrorMemoryAllocation : cudaErrorInvalidResourceHandle;
	}
	*o = (struct op){ NULL, 0, cm_now_ns(), run, drop, arg, what, o->spans, nspans };
	if (nspans)
		memcpy(o->spans, spans, sizeof(*spans) * (size_t)nspans);
	check_unordered(s, o);
	pthread_mutex_lock(&s->mu);
	o->seq = ++s->queued;
	if (s->tail)
		s->tail->next = o;
	else
		s->head = o;
	s->tail = o;
	pthread_cond_broadcast(&s->cv);
	pthread_mutex_unlock(&s->mu);
	pthread_mutex_unlock(&all_mu);
	return cudaSuccess;
}

cudaError_t cm_enqueue(cudaStream_t h, cm_run_fn run, void (*drop)(void *arg), void *arg)
{
	return cm_enqueue_touching(h, "an operation", run, drop, arg, NULL, 0);
}

/* Waits until s has run what was queued on it so far. */
static void drain(struct CUstream_st *s)
{
	pthread_mutex_lock(&s->mu);
	for (uint64_t target = s->queued; s->done < target;)
		pthread_cond_wait(&s->cv, &s->mu);
	pthread_mutex_unlock(&s->mu);
}

void cm_device_sync(int device)
{
	struct CUstream_st *list[64];
	int n = 0;

	pthread_mutex_lock(&all_mu);
	for (struct CUstream_st *s = all; s && n < 64; s = s->next_all)
		if (s->device == device)
			list[n++] = s;
	pthread_mutex_unlock(&all_mu);
	for (int i = 0; i < n; i++)
		drain(list[i]);
}

/* Runtime API, Stream Management: cudaStreamNonBlocking streams do not
 * synchronize with the legacy default stream. Every stream of the model
 * behaves so (the backend creates no blocking stream). */
cudaError_t cudaStreamCreateWithFlags(cudaStream_t *pStream, unsigned int flags)
{
	cudaError_t e = cm_enter();

	if (e != cudaSuccess)
		return e;
	if (flags & ~(unsigned)cudaStreamNonBlocking)
		return cm_ret(cudaErrorInvalidValue);
	pthread_mutex_lock(&all_mu);
	*pStream = new_stream(cm_current_device(), 0);
	pthread_mutex_unlock(&all_mu);
	return cm_ret(*pStream ? cudaSuccess : cudaErrorMemoryAllocation);
}

cudaError_t cudaStreamCreate(cudaStream_t *pStream)
{
	return cudaStreamCreateWithFlags(pStream, cudaStreamDefault);
}

/* Runtime API, cudaStreamDestroy: "In case the device is still doing work
 * in the stream stream when cudaStreamDestroy() is called, the function
 * will return immediately and the resources associated with stream will be
 * released automatically once the device has completed all work". */
cudaError_t cudaStreamDestroy(cudaStream_t stream)
{
	cudaError_t e = cm_enter();
	struct CUstream_st *s;

	if (e != cudaSuccess)
		return e;
	pthread_mutex_lock(&all_mu);
	s = resolve(stream);
	if (s && !s->legacy)
		s->destroyed = 1;
	pthread_mutex_unlock(&all_mu);
	if (!s || s->legacy)
		return cm_ret(cudaErrorInvalidResourceHandle);
	pthread_mutex_lock(&s->mu);
	pthread_cond_broadcast(&s->cv);
	pthread_mutex_unlock(&s->mu);
	return cudaSuccess;
}

/* Runtime API, cudaStreamSynchronize: blocks until the stream has completed
 * all operations; "may also return error codes from previous, asynchronous
 * launches" (the sticky error). */
cudaError_t cudaStreamSynchronize(cudaStream_t stream)
{
	cudaError_t e = cm_enter();
	struct CUstream_st *s;

	if (e != cudaSuccess)
		return e;
	if ((e = cm_graph_forbid(stream, "cudaStreamSynchronize")) != cudaSuccess)
		return cm_ret(e);
	s = find(stream);
	if (!s)
		return cm_ret(cudaErrorInvalidResourceHandle);
	drain(s);
	return cm_ret(cm_sticky());
}

/* Runtime API, cudaStreamQuery: cudaSuccess when all operations are done,
 * else cudaErrorNotReady, which like any error the call returns is left in
 * the thread's last-error slot (cm_ret: the stricter reading; PyTorch's
 * CUDAStream::query clears it for that reason). */
cudaError_t cudaStreamQuery(cudaStream_t stream)
{
	cudaError_t e = cm_enter();
	struct CUstream_st *s;
	int busy;

	if (e != cudaSuccess)
		return e;
	if ((e = cm_graph_forbid(stream, "cudaStreamQuery")) != cudaSuccess)
		return cm_ret(e);
	s = find(stream);
	if (!s)
		return cm_ret(cudaErrorInvalidResourceHandle);
	pthread_mutex_lock(&s->mu);
	busy = s->done < s->queued;
	pthread_mutex_unlock(&s->mu);
	return cm_ret(busy ? cudaErrorNotReady : cudaSuccess);
}

/* ---- copies and memsets ------------------------------------------------ */

struct copy {
	void *dst;
	const void *src;
	size_t bytes;
	void *staged; /* freed after */
	int value;    /* memset */
};

static cudaError_t run_copy(void *arg)
{
	struct copy *c = arg;
	void *held = cm_order_hold(c->dst, c->bytes);

	memcpy(held ? held : c->dst, c->src, c->bytes);
	cm_link_copy(c->dst, c->src, c->bytes);
	return cudaSuccess;
}

static cudaError_t run_set(void *arg)
{
	struct copy *c = arg;
	void *held = cm_order_hold(c->dst, c->bytes);

	memset(held ? held : c->dst, c->value, c->bytes);
	return cudaSuccess;
}

static void drop_copy(void *arg)
{
	struct copy *c = arg;

	free(c->staged);
	free(c);
}

static int is_device(enum cm_mem_kind k)
{
	return k == CM_OWN || k == CM_MAPPED;
}

/* The direction of a copy from what its ends are; 0 when kind says
 * otherwise (Runtime API, cudaMemcpyAsync: pointers "that do not match the
 * direction of the copy" are undefined behaviour; the model refuses them)
 * or an end runs past its allocation. */
static int check_kind(void *dst, const void *src, size_t bytes, enum cudaMemcpyKind kind,
		      int *src_host)
{
	int d = -1, dd = -1;
	enum cm_mem_kind kd = cm_mem_lookup(dst, bytes, &d), ks = cm_mem_lookup(src, bytes, &dd);
	enum cudaMemcpyKind real;

	if (kd == CM_OVERRUN || ks == CM_OVERRUN) {
		cm_log("cudaMemcpyAsync(%p, %p, %zu B): runs past the end of a device allocation", dst, src,
		       bytes);
		return 0;
	}
	real = is_device(ks) ? (is_device(kd) ? cudaMemcpyDeviceToDevice : cudaMemcpyDeviceToHost) :
			       (is_device(kd) ? cudaMemcpyHostToDevice : cudaMemcpyHostToHost);
	*src_host = !is_device(ks);
	if (kind == cudaMemcpyDefault || kind == real)
		return 1;
	cm_log("cudaMemcpyAsync(%p, %p, %zu B): kind %d, but the pointers make it %d", dst, src, bytes,
	       (int)kind, (int)real);
	return 0;
}

/* Runtime API, API synchronization behavior: the Async copies are
 * asynchronous; for pageable host memory "the driver may synchronize with
 * the stream and stage the copy into pinned memory". The model stages a
 * host source at the call (the caller may reuse it on return) and runs
 * every copy on the stream: a host destination is written only when the
 * stream gets there (synchronize before reading it). */
cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind,
			    cudaStream_t stream)
{
	cudaError_t e = cm_enter();
	struct copy *c;
	int src_host = 0;

	if (e != cudaSuccess || count == 0)
		return e;
	if (!check_kind(dst, src, count, kind, &src_host))
		return cm_ret(cudaErrorInvalidValue);
	c = calloc(1, sizeof(*c));
	if (!c || (src_host && !(c->staged = malloc(count)))) {
		free(c);
		return cm_ret(cudaErrorMemoryAllocation);
	}
	c->dst = dst;
	c->src = src_host ? memcpy(c->staged, src, count) : src;
	c->bytes = count;
	{
		struct cm_span sp[2] = { { dst, count, 1, 0 }, { c->src, count, 0, 0 } };

		return cm_ret(cm_enqueue_touching(stream, "cudaMemcpyAsync", run_copy, drop_copy, c, sp, 2));
	}
}

static cudaError_t memset_on(void *devPtr, int value, size_t count, cudaStream_t stream,
			     const char *what)
{
	cudaError_t e = cm_enter();
	struct cm_span span = { devPtr, count, 1, 0 };
	struct copy *c;
	int dev = -1;

	if (e != cudaSuccess || count == 0)
		return e;
	if (!is_device(cm_mem_lookup(devPtr, count, &dev))) {
		cm_log("cudaMemset(%p, %zu B): not inside one device allocation", devPtr, count);
		return cm_ret(cudaErrorInvalidValue);
	}
	c = calloc(1, sizeof(*c));
	if (!c)
		return cm_ret(cudaErrorMemoryAllocation);
	*c = (struct copy){ devPtr, NULL, count, NULL, value };
	return cm_ret(cm_enqueue_touching(stream, what, run_set, drop_copy, c, &span, 1));
}

cudaError_t cudaMemsetAsync(void *devPtr, int value, size_t count, cudaStream_t stream)
{
	return memset_on(devPtr, value, count, stream, "cudaMemsetAsync");
}

/* Runtime API, API synchronization behavior, Memset: "The cudaMemset
 * functions are asynchronous with respect to the host except when the
 * target memory is pinned host memory": on the legacy default stream, not
 * waited for. */
cudaError_t cudaMemset(void *devPtr, int value, size_t count)
{
	return memset_on(devPtr, value, count, NULL, "cudaMemset");
}
