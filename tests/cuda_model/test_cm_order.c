/* The CUDA model's weaker ordering (cm_order.c) and time slicing
 * (cm_slice.c), each checked in fresh processes as test_cm_model.c does:
 * the cuda_model tests that rely on them (a missing fence caught, host
 * ordering chosen on a time-sliced GPU) prove nothing if these fail. A child
 * reports a failed check by exiting 1, with the check on stderr. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "cm_child.h"
#include "cm_model.h"

static double ms_since(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)(t.tv_sec - t0->tv_sec) * 1e3 + (double)(t.tv_nsec - t0->tv_nsec) / 1e6;
}

/* ---- weaker ordering ------------------------------------------------------ */

/* A stream held at a gate copies 64 bytes of 0xab into device memory, then
 * writes a counter (fenced: flags 0; unfenced: NO_MEMORY_BARRIER). The host
 * opens the gate and reads the data once it sees the counter: the old bytes
 * (0) where the model is weak and the write unfenced, else the new. After a
 * synchronize the new bytes are there in every case. Exits 0, or 10 + the
 * byte it saw first when that was the old one. */
static void child_fence(int unfenced)
{
	cm_value_fn wait = cm_child_driver("cuStreamWaitValue64"), write = cm_child_driver("cuStreamWriteValue64");
	unsigned char src[64], *data;
	uint64_t *gate, *counter;
	cudaStream_t s;
	int seen;

	memset(src, 0xab, sizeof(src));
	CM_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) == cudaSuccess);
	CM_CHECK(cudaMalloc((void **)&data, 64) == cudaSuccess && cudaMalloc((void **)&gate, 16) == cudaSuccess);
	counter = gate + 1;
	CM_CHECK(cudaMemsetAsync(data, 0, 64, s) == cudaSuccess && cudaMemsetAsync(gate, 0, 16, s) == cudaSuccess);
	CM_CHECK(cudaStreamSynchronize(s) == cudaSuccess);
	CM_CHECK(wait((CUstream)s, (CUdeviceptr)gate, 1, CU_STREAM_WAIT_VALUE_GEQ) == CUDA_SUCCESS);
	CM_CHECK(cudaMemcpyAsync(data, src, 64, cudaMemcpyHostToDevice, s) == cudaSuccess);
	CM_CHECK(write((CUstream)s, (CUdeviceptr)counter, 1,
		    unfenced ? CU_STREAM_WRITE_VALUE_NO_MEMORY_BARRIER : CU_STREAM_WRITE_VALUE_DEFAULT) ==
	      CUDA_SUCCESS);
	__atomic_store_n(gate, 1, __ATOMIC_RELEASE); /* the model's device memory is the host's */
	while (__atomic_load_n(counter, __ATOMIC_ACQUIRE) != 1)
		;
	seen = __atomic_load_n(&data[0], __ATOMIC_ACQUIRE);
	CM_CHECK(cudaStreamSynchronize(s) == cudaSuccess);
	CM_CHECK(data[0] == 0xab && data[63] == 0xab);
	_exit(seen == 0xab ? 0 : 10 + seen);
}

static void test_weak_order(void **state)
{
	static const char *const weak[] = { "CB_CUDA_MODEL_WEAK_ORDER_US=200000", NULL };

	(void)state;
	assert_int_equal(cm_child_reap(cm_child_spawn(child_fence, 0, weak)), 0);  /* fenced: the new bytes */
	assert_int_equal(cm_child_reap(cm_child_spawn(child_fence, 1, weak)), 10); /* unfenced: the old ones */
	assert_int_equal(cm_child_reap(cm_child_spawn(child_fence, 1, NULL)), 0);  /* the default model is stronger */
}

/* ---- time slicing --------------------------------------------------------- */

/* Holds GPU 0 with a stream wait on its own memory that the host satisfies
 * after hold_ms (a context whose stream waits has work). */
static void child_holder(int hold_ms)
{
	cm_value_fn wait = cm_child_driver("cuStreamWaitValue64");
	struct timespec t = { hold_ms / 1000, hold_ms % 1000 * 1000000L };
	cudaStream_t s;
	uint64_t *word;

	CM_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) == cudaSuccess);
	CM_CHECK(cudaMalloc((void **)&word, 8) == cudaSuccess);
	CM_CHECK(cudaMemsetAsync(word, 0, 8, s) == cudaSuccess && cudaStreamSynchronize(s) == cudaSuccess);
	CM_CHECK(wait((CUstream)s, (CUdeviceptr)word, 1, CU_STREAM_WAIT_VALUE_GEQ) == CUDA_SUCCESS);
	nanosleep(&t, NULL);
	__atomic_store_n(word, 1, __ATOMIC_RELEASE);
	CM_CHECK(cudaStreamSynchronize(s) == cudaSuccess);
}

/* Started once the holder's wait runs: one memset on GPU 0; exits with the
 * milliseconds it took to complete, /10 (a byte). */
static void child_other(int unused)
{
	struct timespec t0;
	cudaStream_t s;
	void *p;
	double ms;

	(void)unused;
	CM_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) == cudaSuccess);
	CM_CHECK(cudaMalloc(&p, 64) == cudaSuccess);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	CM_CHECK(cudaMemsetAsync(p, 0, 64, s) == cudaSuccess && cudaStreamSynchronize(s) == cudaSuccess);
	ms = ms_since(&t0);
	_exit(ms / 10 > 250 ? 250 : (int)(ms / 10));
}

/* The other process's memset while the holder waits hold_ms on the GPU:
 * its time in units of 10 ms. */
static int other_while_held(int hold_ms, const char *const *env)
{
	struct timespec t = { 0, 100000000L };
	pid_t holder = cm_child_spawn(child_holder, hold_ms, env);
	int other;

	nanosleep(&t, NULL); /* the holder's wait runs (its set-up takes ~ms) */
	other = cm_child_reap(cm_child_spawn(child_other, 0, env));
	assert_int_equal(cm_child_reap(holder), 0);
	return other;
}

static void test_time_slicing(void **state)
{
	static const char *const long_slice[] = { "CB_CUDA_MODEL_TIMESLICE_US=10000000", NULL };
	static const char *const short_slice[] = { "CB_CUDA_MODEL_TIMESLICE_US=20000", NULL };
	int t;

	(void)state;
	/* unsliced: the memset runs beside the wait */
	t = other_while_held(800, NULL);
	assert_true(t < 20);
	/* a 10 s slice: it waits until the holder's wait is satisfied (0.8 s
	 * after it began, ~0.7 s after the memset was queued) */
	t = other_while_held(800, long_slice);
	assert_true(t >= 50 && t < 200);
	/* a 20 ms slice: the holder gives the GPU up when its slice ends */
	t = other_while_held(800, short_slice);
	assert_true(t < 20);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_weak_order),
		cmocka_unit_test(test_time_slicing),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
