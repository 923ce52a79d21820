/* The CUDA model's stream capture and graphs (cm_graph.c), each check in a
 * fresh process (cm_child.h): a capturing stream records and runs nothing;
 * each launch of the instantiated graph runs the recorded operations again,
 * in order, on the stream it is given; an executable graph outlives its
 * graph; a host wait on a capturing stream is refused and invalidates the
 * capture. The cuda backend's -G (cuda_model.sh graph_*) stands on these. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "cb_cuda_kernels.h"
#include "cm_child.h"
#include "cm_model.h"

/* The word at dev while a stream may still run work on it: the model's
 * device memory is host memory, which a test may look at. */
static uint64_t peek(const uint64_t *dev)
{
	return __atomic_load_n(dev, __ATOMIC_ACQUIRE);
}

/* The word at dev, read through another stream. */
static uint64_t read_word(const uint64_t *dev)
{
	cudaStream_t b;
	uint64_t v = ~0ull;

	CM_CHECK(cudaStreamCreateWithFlags(&b, cudaStreamNonBlocking) == cudaSuccess);
	CM_CHECK(cudaMemcpyAsync(&v, dev, 8, cudaMemcpyDeviceToHost, b) == cudaSuccess);
	CM_CHECK(cudaStreamSynchronize(b) == cudaSuccess);
	CM_CHECK(cudaStreamDestroy(b) == cudaSuccess);
	return v;
}

/* A counter add and a copy recorded, nothing run; three launches run them
 * three times in order; the graph destroyed before its executable graph. */
static void child_replay(int unused)
{
	enum cudaStreamCaptureStatus cs;
	cudaStream_t s;
	cudaGraph_t g;
	cudaGraphExec_t x;
	uint64_t *word, *copy;

	(void)unused;
	CM_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) == cudaSuccess);
	CM_CHECK(cudaMalloc((void **)&word, 8) == cudaSuccess && cudaMalloc((void **)&copy, 8) == cudaSuccess);
	CM_CHECK(cudaMemsetAsync(word, 0, 8, s) == cudaSuccess && cudaMemsetAsync(copy, 0, 8, s) == cudaSuccess);
	CM_CHECK(cudaStreamSynchronize(s) == cudaSuccess);
	CM_CHECK(cudaStreamBeginCapture(NULL, cudaStreamCaptureModeThreadLocal) != cudaSuccess);
	(void)cudaGetLastError();
	CM_CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal) == cudaSuccess);
	CM_CHECK(cudaStreamIsCapturing(s, &cs) == cudaSuccess && cs == cudaStreamCaptureStatusActive);
	CM_CHECK(cb_cuda_counter_add(&word, 1, 5, s) == cudaSuccess);
	CM_CHECK(cudaMemcpyAsync(copy, word, 8, cudaMemcpyDeviceToDevice, s) == cudaSuccess);
	CM_CHECK(cudaStreamEndCapture(s, &g) == cudaSuccess && g);
	CM_CHECK(cudaStreamIsCapturing(s, &cs) == cudaSuccess && cs == cudaStreamCaptureStatusNone);
	usleep(20000);
	CM_CHECK(read_word(word) == 0 && read_word(copy) == 0); /* recorded, not run */
	CM_CHECK(cudaGraphInstantiate(&x, g, 0) == cudaSuccess);
	CM_CHECK(cudaGraphDestroy(g) == cudaSuccess); /* x keeps what it launches */
	CM_CHECK(cudaGraphUpload(x, s) == cudaSuccess);
	for (int i = 0; i < 3; i++)
		CM_CHECK(cudaGraphLaunch(x, s) == cudaSuccess);
	CM_CHECK(cudaStreamSynchronize(s) == cudaSuccess);
	CM_CHECK(read_word(word) == 15 && read_word(copy) == 15); /* in order, three times */
	CM_CHECK(cudaGraphLaunch(x, s) == cudaSuccess);
	CM_CHECK(cudaGraphExecDestroy(x) == cudaSuccess); /* waits for the launch in flight */
	CM_CHECK(read_word(word) == 20);
}

/* A recorded stream wait holds each launch until its value is there: the
 * replay waits again (the value it recorded) on the second launch. */
static void child_wait(int unused)
{
	cm_value_fn wait = cm_child_driver("cuStreamWaitValue64");
	cm_value_fn write = cm_child_driver("cuStreamWriteValue64");
	cudaStream_t s, t;
	cudaGraph_t g;
	cudaGraphExec_t x;
	uint64_t *flag, *word;

	(void)unused;
	CM_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) == cudaSuccess);
	CM_CHECK(cudaStreamCreateWithFlags(&t, cudaStreamNonBlocking) == cudaSuccess);
	CM_CHECK(cudaMalloc((void **)&flag, 8) == cudaSuccess && cudaMalloc((void **)&word, 8) == cudaSuccess);
	CM_CHECK(cudaMemsetAsync(flag, 0, 8, s) == cudaSuccess && cudaMemsetAsync(word, 0, 8, s) == cudaSuccess);
	CM_CHECK(cudaStreamSynchronize(s) == cudaSuccess);
	CM_CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal) == cudaSuccess);
	CM_CHECK(wait((CUstream)s, (CUdeviceptr)flag, 1, CU_STREAM_WAIT_VALUE_GEQ) == 0);
	CM_CHECK(cb_cuda_counter_add(&word, 1, 1, s) == cudaSuccess);
	CM_CHECK(cb_cuda_counter_add(&flag, 1, (uint64_t)-1, s) == cudaSuccess); /* re-based */
	CM_CHECK(cudaStreamEndCapture(s, &g) == cudaSuccess);
	CM_CHECK(cudaGraphInstantiate(&x, g, 0) == cudaSuccess);
	CM_CHECK(cudaGraphLaunch(x, s) == cudaSuccess && cudaGraphLaunch(x, s) == cudaSuccess);
	usleep(20000);
	CM_CHECK(peek(word) == 0 && cudaStreamQuery(s) == cudaErrorNotReady);
	(void)cudaGetLastError();
	CM_CHECK(write((CUstream)t, (CUdeviceptr)flag, 1, 0) == 0);
	usleep(50000);
	CM_CHECK(peek(word) == 1 && peek(flag) == 0); /* the second launch waits */
	CM_CHECK(write((CUstream)t, (CUdeviceptr)flag, 1, 0) == 0);
	CM_CHECK(cudaStreamSynchronize(s) == cudaSuccess && peek(word) == 2);
	CM_CHECK(cudaGraphExecDestroy(x) == cudaSuccess && cudaGraphDestroy(g) == cudaSuccess);
}

/* A host wait on a capturing stream: refused, the capture invalidated, no
 * graph; the stream records nothing after and runs work again. */
static void child_forbidden(int unused)
{
	cudaStream_t s;
	cudaGraph_t g = (cudaGraph_t)1;
	uint64_t *word;

	(void)unused;
	CM_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) == cudaSuccess);
	CM_CHECK(cudaMalloc((void **)&word, 8) == cudaSuccess);
	CM_CHECK(cudaMemsetAsync(word, 0, 8, s) == cudaSuccess && cudaStreamSynchronize(s) == cudaSuccess);
	CM_CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal) == cudaSuccess);
	CM_CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal) != cudaSuccess);
	(void)cudaGetLastError();
	CM_CHECK(cudaStreamSynchronize(s) == cudaErrorStreamCaptureUnsupported);
	(void)cudaGetLastError();
	CM_CHECK(cudaStreamEndCapture(s, &g) == cudaErrorStreamCaptureInvalidated && g == NULL);
	(void)cudaGetLastError();
	CM_CHECK(cb_cuda_counter_add(&word, 1, 2, s) == cudaSuccess);
	CM_CHECK(cudaStreamSynchronize(s) == cudaSuccess && read_word(word) == 2);
}

static void test_graphs(void **state)
{
	(void)state;
	assert_int_equal(cm_child_run(child_replay, 0, NULL), 0);
	assert_int_equal(cm_child_run(child_wait, 0, NULL), 0);
	assert_int_equal(cm_child_run(child_forbidden, 0, NULL), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = { cmocka_unit_test(test_graphs) };

	return cmocka_run_group_tests(tests, NULL, NULL);
}
