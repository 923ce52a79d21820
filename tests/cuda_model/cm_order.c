/* Weaker ordering in the CUDA model, CB_CUDA_MODEL_WEAK_ORDER_US=N (N > 0):
 * a copy's, memset's or kernel's bytes are held back by the stream that
 * wrote them and land just before the stream's next operation starts, or
 * when the stream runs out of work; but an unfenced stream write
 * (cuStreamWriteValue64 with CU_STREAM_WRITE_VALUE_NO_MEMORY_BARRIER) lands
 * first, and the held bytes N us after it. A peer that waits on that counter
 * then reads the old bytes. The default write's "memory fence before the
 * write, which has similar semantics to __threadfence_system() but is scoped
 * to the stream" (Driver API, CUstreamWriteValue_flags) makes them land
 * first. A GPU may make writes visible late; this is the order of that
 * lateness the backend must tolerate. The held writes are the stream
 * worker's own (thread-local): one stream's later operations always see
 * its earlier ones. Contract in cm_model.h. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cm_model.h"

struct held {
	struct held *next;
	void *dst;
	size_t bytes;
	unsigned char data[];
};

static _Thread_local struct held *first, *last;

long cm_order_weak_us(void)
{
	long us = cm_env_long("CB_CUDA_MODEL_WEAK_ORDER_US", 0);

	return us > 0 ? us : 0;
}

/* A buffer of bytes to land at dst later, or NULL (not weak, or no
 * memory: the caller writes at once). */
void *cm_order_hold(void *dst, size_t bytes)
{
	struct held *h;

	if (!cm_order_weak_us() || !(h = malloc(sizeof(*h) + bytes)))
		return NULL;
	h->next = NULL;
	h->dst = dst;
	h->bytes = bytes;
	if (last)
		last->next = h;
	else
		first = h;
	last = h;
	return h->data;
}

void cm_order_land(void)
{
	while (first) {
		struct held *h = first;

		first = h->next;
		memcpy(h->dst, h->data, h->bytes);
		free(h);
	}
	last = NULL;
	__atomic_thread_fence(__ATOMIC_RELEASE);
}

void cm_order_land_late(void)
{
	long us = cm_order_weak_us();
	struct timespec t = { us / 1000000, us % 1000000 * 1000 };

	if (!first)
		return;
	nanosleep(&t, NULL);
	cm_order_land();
}
