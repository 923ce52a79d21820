/* Time slicing in the CUDA model, CB_CUDA_MODEL_TIMESLICE_US=N (N > 0):
 * the processes (contexts) that share one model GPU run one at a time.
 * Without MPS "multiple processes ... are time-sliced" on a GPU (NVIDIA
 * Multi-Process Service documentation, Introduction): a context with work
 * keeps the GPU until its time slice ends and another context has work; one
 * without work gives it up at once. A stream operation runs only while its
 * process holds its GPU; a stream wait (cuStreamWaitValue64,
 * cudaStreamWaitEvent) that is not yet satisfied counts as work, so it holds
 * the GPU until its slice ends, as the GPU's front-end blocked on a
 * semaphore does. A context switch is not free: one that runs out of work
 * keeps the GPU CB_CUDA_MODEL_SWITCH_US (default 50) before another context
 * takes it. Who holds each GPU is in a shared-memory object of the
 * host, "/cbm-<parent pid>-slice<GPU>" (the ranks of one launch share a
 * parent; cm_error.c removes the object once that parent is gone).
 * Contract in cm_model.h. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cm_model.h"

struct gpu_slice {
	uint64_t state;     /* the holder's pid << 1, | 1 while it has no work; 0: free */
	int32_t yielded_by; /* the context that last gave it up at its slice's end */
	int32_t want;       /* workers of other contexts waiting for it */
	uint64_t since_ns;  /* when the holder got it */
	uint64_t idle_ns;   /* when the holder ran out of work */
	uint64_t yield_ns;  /* when yielded_by gave it up */
};

static struct gpu_slice *gpus[CM_MAX_GPUS];
static int inside[CM_MAX_GPUS]; /* this process's operations running on it */
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static _Thread_local int cur = -1; /* the GPU this worker's operation holds */

static uint64_t slice_ns(void)
{
	long us = cm_env_long("CB_CUDA_MODEL_TIMESLICE_US", 0);

	return us > 0 ? (uint64_t)us * 1000u : 0;
}

/* A context switch: how long a context that ran out of work keeps the GPU
 * before another may take it. */
static uint64_t switch_ns(void)
{
	long us = cm_env_long("CB_CUDA_MODEL_SWITCH_US", 50);

	return us > 0 ? (uint64_t)us * 1000u : 0;
}

/* The GPU's shared record, mapped once; NULL without slicing or on error. */
static struct gpu_slice *gpu(int dev)
{
	char name[64];
	int fd;
	void *p;

	if (!slice_ns() || dev < 0 || dev >= CM_MAX_GPUS)
		return NULL;
	pthread_mutex_lock(&mu);
	if (!gpus[dev]) {
		snprintf(name, sizeof(name), "/cbm-%d-slice%d", (int)getppid(), dev);
		fd = shm_open(name, O_RDWR | O_CREAT, 0600);
		if (fd >= 0 && ftruncate(fd, sizeof(struct gpu_slice)) == 0) {
			p = mmap(NULL, sizeof(struct gpu_slice), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
			gpus[dev] = p == MAP_FAILED ? NULL : p;
		}
		if (fd >= 0)
			close(fd);
		if (!gpus[dev])
			cm_log("time slicing: cannot map %s; GPU %d runs unsliced", name, dev);
	}
	pthread_mutex_unlock(&mu);
	return gpus[dev];
}

static int cas(uint64_t *w, uint64_t old, uint64_t new_)
{
	return __atomic_compare_exchange_n(w, &old, new_, 0, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED);
}

/* Takes g for this process if it may (mu held): it holds it, or nobody
 * does, or its holder ran out of work a context switch ago; and this
 * process did not just give it up to a waiting context. */
static int try_take(struct gpu_slice *g, int me, int dev, uint64_t now)
{
	uint64_t st = __atomic_load_n(&g->state, __ATOMIC_ACQUIRE), busy = (uint64_t)me << 1;

	if (st >> 1 == (uint64_t)me) { /* mine: busy again, unless taken meanwhile */
		if (st != busy && !cas(&g->state, st, busy))
			return 0;
		if (st != busy) /* the slice counts time with work only */
			__atomic_store_n(&g->since_ns, now, __ATOMIC_RELAXED);
		inside[dev]++;
		return 1;
	}
	if (__atomic_load_n(&g->yielded_by, __ATOMIC_RELAXED) == me &&
	    __atomic_load_n(&g->want, __ATOMIC_RELAXED) > 0 &&
	    now - __atomic_load_n(&g->yield_ns, __ATOMIC_RELAXED) < 2 * slice_ns())
		return 0;
	if (st && !((st & 1) && now - __atomic_load_n(&g->idle_ns, __ATOMIC_RELAXED) >= switch_ns()))
		return 0;
	if (!cas(&g->state, st, busy))
		return 0;
	__atomic_store_n(&g->since_ns, now, __ATOMIC_RELAXED);
	inside[dev] = 1;
	return 1;
}

/* A holder whose process died gives the GPU up. */
static void reap(struct gpu_slice *g)
{
	uint64_t st = __atomic_load_n(&g->state, __ATOMIC_RELAXED);
	pid_t h = (pid_t)(st >> 1);

	if (h > 0 && kill(h, 0) == -1 && errno == ESRCH)
		cas(&g->state, st, 0);
}

void cm_slice_acquire(int dev)
{
	struct gpu_slice *g = gpu(dev);
	int me = (int)getpid(), waiting = 0;

	if (!g)
		return;
	for (unsigned long polls = 0;; polls++) {
		int got;

		pthread_mutex_lock(&mu);
		got = try_take(g, me, dev, cm_now_ns());
		pthread_mutex_unlock(&mu);
		if (got)
			break;
		if (!waiting)
			__atomic_add_fetch(&g->want, 1, __ATOMIC_ACQ_REL), waiting = 1;
		if (polls % 4096 == 4095)
			reap(g);
		cm_backoff(polls);
	}
	if (waiting)
		__atomic_sub_fetch(&g->want, 1, __ATOMIC_ACQ_REL);
	cur = dev;
}

/* The operation on dev ended (mu held): the process gives the GPU up when
 * its slice is over and another waits, or marks it out of work (idle). */
static void leave(struct gpu_slice *g, int dev, int idle)
{
	uint64_t now = cm_now_ns(), busy = (uint64_t)getpid() << 1;
	int over = now - __atomic_load_n(&g->since_ns, __ATOMIC_RELAXED) >= slice_ns() &&
		   __atomic_load_n(&g->want, __ATOMIC_ACQUIRE) > 0;

	if (--inside[dev] > 0 || (!idle && !over))
		return;
	if (over) {
		__atomic_store_n(&g->yielded_by, (int32_t)getpid(), __ATOMIC_RELAXED);
		__atomic_store_n(&g->yield_ns, now, __ATOMIC_RELAXED);
		cas(&g->state, busy, 0);
		return;
	}
	__atomic_store_n(&g->idle_ns, now, __ATOMIC_RELAXED);
	cas(&g->state, busy, busy | 1);
}

void cm_slice_release(int dev, int idle)
{
	struct gpu_slice *g = gpu(dev);

	if (!g)
		return;
	pthread_mutex_lock(&mu);
	leave(g, dev, idle);
	pthread_mutex_unlock(&mu);
	cur = -1;
}

void cm_slice_poll(void)
{
	struct gpu_slice *g;
	int dev = cur, over;

	if (dev < 0 || !(g = gpu(dev)))
		return;
	over = cm_now_ns() - __atomic_load_n(&g->since_ns, __ATOMIC_RELAXED) >= slice_ns() &&
	       __atomic_load_n(&g->want, __ATOMIC_ACQUIRE) > 0;
	if (!over)
		return;
	cm_slice_release(dev, 0);
	cm_slice_acquire(dev);
}
