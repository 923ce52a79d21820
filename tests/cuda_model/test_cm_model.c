/* The CUDA model's own rules (cm_model.h), each checked in fresh processes
 * (the model keeps state per process: a sticky error, worker threads), so
 * that a test of the backend on the model can trust what it stands on: if
 * one of these fails, the cuda_model tests of the backend prove nothing.
 * A child reports a failed check by exiting 1 (with the check on stderr);
 * the model's broken-rule exit is CM_EXIT_VIOLATION. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>
#include <nccl.h>

#include "cb_cuda_kernels.h"
#include "cm_child.h"
#include "cm_model.h"

/* ---- the last-error slot and sticky errors ------------------------------ */

/* A query that answers not-ready leaves it in the slot; a launch with it
 * there fails (the project's launch-check rule); completion then reads
 * cudaSuccess. */
static void child_not_ready(int unused)
{
	cudaStream_t a, b;
	cudaEvent_t ev;
	uint64_t *word;
	float *x;

	(void)unused;
	CM_CHECK(cudaStreamCreateWithFlags(&a, cudaStreamNonBlocking) == cudaSuccess);
	CM_CHECK(cudaStreamCreateWithFlags(&b, cudaStreamNonBlocking) == cudaSuccess);
	CM_CHECK(cudaEventCreate(&ev) == cudaSuccess);
	CM_CHECK(cudaMalloc((void **)&word, 8) == cudaSuccess && cudaMalloc((void **)&x, 64) == cudaSuccess);
	CM_CHECK(cudaMemsetAsync(word, 0, 8, a) == cudaSuccess && cudaMemsetAsync(x, 0, 64, a) == cudaSuccess);
	CM_CHECK(cudaStreamSynchronize(a) == cudaSuccess); /* before b writes the word */
	CM_CHECK(cm_child_driver("cuStreamWaitValue64")((CUstream)a, (CUdeviceptr)word, 7, CU_STREAM_WAIT_VALUE_GEQ) == 0);
	CM_CHECK(cudaEventRecord(ev, a) == cudaSuccess);
	CM_CHECK(cudaEventQuery(ev) == cudaErrorNotReady);
	CM_CHECK(cudaPeekAtLastError() == cudaErrorNotReady);
	CM_CHECK(cb_cuda_reduce(x, x, x, 16, CB_FLOAT, CB_SUM, 1, a) == cudaErrorNotReady);
	CM_CHECK(cudaGetLastError() == cudaSuccess); /* the launch check read it */
	CM_CHECK(cb_cuda_reduce(x, x, x, 16, CB_FLOAT, CB_SUM, 1, a) == cudaSuccess);
	CM_CHECK(cm_child_driver("cuStreamWriteValue64")((CUstream)b, (CUdeviceptr)word, 7, 0) == 0);
	CM_CHECK(cudaEventSynchronize(ev) == cudaSuccess && cudaEventQuery(ev) == cudaSuccess);
	CM_CHECK(cudaStreamSynchronize(a) == cudaSuccess && cudaGetLastError() == cudaSuccess);
}

/* A kernel on memory that is no device memory faults when it runs: every
 * later call returns cudaErrorIllegalAddress, and cudaGetLastError does not
 * clear it. An argument error is not sticky. */
static void child_sticky(int unused)
{
	static float host[16];
	cudaStream_t s;
	void *p;

	(void)unused;
	CM_CHECK(cudaSetDevice(99) == cudaErrorInvalidDevice);
	CM_CHECK(cudaGetLastError() == cudaErrorInvalidDevice && cudaGetLastError() == cudaSuccess);
	CM_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) == cudaSuccess);
	CM_CHECK(cb_cuda_reduce(host, host, host, 16, CB_FLOAT, CB_SUM, 1, s) == cudaSuccess);
	CM_CHECK(cudaStreamSynchronize(s) == cudaErrorIllegalAddress);
	CM_CHECK(cudaMalloc(&p, 64) == cudaErrorIllegalAddress);
	CM_CHECK(cudaGetLastError() == cudaErrorIllegalAddress && cudaGetLastError() == cudaErrorIllegalAddress);
}

static void test_slot_and_sticky(void **state)
{
	(void)state;
	assert_int_equal(cm_child_run(child_not_ready, 0, NULL), 0);
	assert_int_equal(cm_child_run(child_sticky, 0, NULL), 0);
}

/* ---- events ------------------------------------------------------------ */

static void child_events(int unused)
{
	cudaEvent_t t0, t1, quiet;
	cudaStream_t s;
	float ms = -1;

	(void)unused;
	CM_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) == cudaSuccess);
	CM_CHECK(cudaEventCreate(&t0) == cudaSuccess && cudaEventCreate(&t1) == cudaSuccess);
	CM_CHECK(cudaEventCreateWithFlags(&quiet, cudaEventDisableTiming) == cudaSuccess);
	CM_CHECK(cudaEventQuery(t0) == cudaSuccess); /* never recorded */
	CM_CHECK(cudaEventElapsedTime(&ms, t0, t1) == cudaErrorInvalidResourceHandle);
	CM_CHECK(cudaEventRecord(t0, s) == cudaSuccess && cudaEventRecord(t1, s) == cudaSuccess);
	CM_CHECK(cudaEventRecord(quiet, s) == cudaSuccess && cudaStreamSynchronize(s) == cudaSuccess);
	CM_CHECK(cudaEventElapsedTime(&ms, t0, t1) == cudaSuccess && ms >= 0);
	CM_CHECK(cudaEventElapsedTime(&ms, t0, quiet) == cudaErrorInvalidResourceHandle);
	(void)cudaGetLastError();
	CM_CHECK(cudaEventDestroy(t0) == cudaSuccess && cudaEventQuery(t0) == cudaErrorInvalidResourceHandle);
	CM_CHECK(cudaStreamDestroy(s) == cudaSuccess && cudaStreamSynchronize(s) == cudaErrorInvalidResourceHandle);
}

static void test_events(void **state)
{
	(void)state;
	assert_int_equal(cm_child_run(child_events, 0, NULL), 0);
}

/* ---- CUDA IPC between two processes -------------------------------------- */

static int to_b[2], to_a[2]; /* pipes: owner -> importer, importer -> owner */

static void put(int fd, const void *p, size_t n)
{
	CM_CHECK(write(fd, p, n) == (ssize_t)n);
}

static void get(int fd, void *p, size_t n)
{
	CM_CHECK(read(fd, p, n) == (ssize_t)n);
}

/* The owner: exports a buffer of 1..64 (its own process cannot open it),
 * waits for the importer, frees (mode 1: while the importer still maps it;
 * mode 2: frees, allocates again, exports the new one). */
static void owner(int mode)
{
	unsigned char host[64];
	cudaIpcMemHandle_t h;
	void *p, *q, *dummy;
	char go;

	for (int i = 0; i < 64; i++)
		host[i] = (unsigned char)(i + 1);
	CM_CHECK(cudaMalloc(&p, 64) == cudaSuccess);
	CM_CHECK(cudaMemcpyAsync(p, host, 64, cudaMemcpyHostToDevice, 0) == cudaSuccess);
	CM_CHECK(cudaStreamSynchronize(0) == cudaSuccess && cudaIpcGetMemHandle(&h, p) == cudaSuccess);
	CM_CHECK(cudaIpcGetMemHandle(&h, (char *)p + 8) == cudaErrorInvalidValue); /* not its base */
	CM_CHECK(cudaIpcGetMemHandle(&h, p) == cudaSuccess);
	CM_CHECK(cudaIpcOpenMemHandle(&dummy, h, cudaIpcMemLazyEnablePeerAccess) == cudaErrorDeviceUninitialized);
	put(to_b[1], &h, sizeof(h));
	get(to_a[0], &go, 1); /* mode 0: closed; 1, 2: still mapped */
	CM_CHECK(cudaFree(p) == cudaSuccess); /* mode 1 ends here, in the model's rule check */
	CM_CHECK(cudaFree(p) == cudaErrorInvalidValue);
	if (mode == 2) {
		CM_CHECK(cudaMalloc(&q, 64) == cudaSuccess && cudaIpcGetMemHandle(&h, q) == cudaSuccess);
		go = q == p;
		put(to_b[1], &h, sizeof(h));
		put(to_b[1], &go, 1);
	}
	get(to_a[0], &go, 1);
}

/* The importer: opens the owner's buffer twice (one mapping, two
 * references), reads it, closes both (a third close is an error). */
static void importer(int mode)
{
	unsigned char host[64];
	cudaIpcMemHandle_t h;
	void *p, *p2;
	char go = 1, same;

	get(to_b[0], &h, sizeof(h));
	CM_CHECK(cudaIpcOpenMemHandle(&p, h, 0) == cudaErrorInvalidValue); /* flags must be LazyEnable */
	CM_CHECK(cudaIpcOpenMemHandle(&p, h, cudaIpcMemLazyEnablePeerAccess) == cudaSuccess);
	CM_CHECK(cudaIpcOpenMemHandle(&p2, h, cudaIpcMemLazyEnablePeerAccess) == cudaSuccess && p2 == p);
	CM_CHECK(cudaMemcpyAsync(host, p, 64, cudaMemcpyDeviceToHost, 0) == cudaSuccess);
	CM_CHECK(cudaStreamSynchronize(0) == cudaSuccess && host[0] == 1 && host[63] == 64);
	CM_CHECK(cudaIpcCloseMemHandle(p) == cudaSuccess);
	if (mode == 0) {
		CM_CHECK(cudaIpcCloseMemHandle(p) == cudaSuccess);
		CM_CHECK(cudaIpcCloseMemHandle(p) == cudaErrorInvalidValue);
	}
	put(to_a[1], &go, 1);
	if (mode == 2) { /* still mapping the freed one: the new one at its address is refused */
		get(to_b[0], &h, sizeof(h));
		get(to_b[0], &same, 1);
		CM_CHECK(cudaIpcOpenMemHandle(&p2, h, cudaIpcMemLazyEnablePeerAccess) ==
		      (same ? cudaErrorAlreadyMapped : cudaSuccess));
	}
	put(to_a[1], &go, 1);
}

/* Owner and importer in two fresh processes; *owner_rc, *importer_rc:
 * their exit statuses. */
static void ipc_pair(int mode, const char *const *env, int *owner_rc, int *importer_rc)
{
	pid_t b;
	int status;

	assert_int_equal(pipe(to_b), 0);
	assert_int_equal(pipe(to_a), 0);
	b = fork();
	if (b == 0) {
		close(to_b[1]);
		close(to_a[0]);
		for (const char *const *e = env; e && *e; e++)
			putenv((char *)*e);
		importer(mode);
		_exit(0);
	}
	close(to_b[0]);
	close(to_a[1]);
	*owner_rc = cm_child_run(owner, mode, env);
	close(to_b[1]);
	close(to_a[0]);
	waitpid(b, &status, 0);
	*importer_rc = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static void test_ipc(void **state)
{
	static const char *const log_only[] = { "CB_CUDA_MODEL_VIOLATION=log", NULL };
	int a, b;

	(void)state;
	ipc_pair(0, NULL, &a, &b); /* opened, closed, then freed: all well */
	assert_int_equal(a, 0);
	assert_int_equal(b, 0);
	ipc_pair(1, NULL, &a, &b); /* freed while the importer maps it: the rule ends the owner */
	assert_int_equal(a, CM_EXIT_VIOLATION);
	ipc_pair(2, log_only, &a, &b); /* and a later open at the same address: already mapped */
	assert_int_equal(a, 0);
	assert_int_equal(b, 0);
}

/* ---- streams ------------------------------------------------------------- */

/* Work on the legacy default stream and on a non-blocking stream is
 * unordered: touching the same memory from both while the first is queued
 * is a broken rule. */
static void child_unordered(int unused)
{
	cudaStream_t s;
	void *p;

	(void)unused;
	CM_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) == cudaSuccess);
	CM_CHECK(cudaMalloc(&p, 4096) == cudaSuccess);
	CM_CHECK(cudaMemset(p, 0, 4096) == cudaSuccess); /* held back 300 ms */
	CM_CHECK(cudaMemsetAsync((char *)p + 1024, 1, 16, s) == cudaSuccess);
}

static void test_unordered_streams(void **state)
{
	static const char *const lag[] = { "CB_CUDA_MODEL_LEGACY_LAG_MS=300", NULL };

	(void)state;
	assert_int_equal(cm_child_run(child_unordered, 0, lag), CM_EXIT_VIOLATION);
}

/* ---- devices ------------------------------------------------------------- */

static void child_no_gpu(int unused)
{
	int n = -1;

	(void)unused;
	CM_CHECK(cudaGetDeviceCount(&n) == cudaErrorNoDevice && n == 0);
}

static void child_two_gpus(int p2p)
{
	char id[16];
	int n = 0, dev = -1, can = -1;

	CM_CHECK(cudaGetDeviceCount(&n) == cudaSuccess && n == 2);
	CM_CHECK(cudaDeviceGetPCIBusId(id, sizeof(id), 1) == cudaSuccess);
	CM_CHECK(cudaDeviceGetByPCIBusId(&dev, id) == cudaSuccess && dev == 1);
	CM_CHECK(cudaDeviceCanAccessPeer(&can, 0, 1) == cudaSuccess && can == p2p);
}

static void test_devices(void **state)
{
	static const char *const none[] = { "CB_CUDA_MODEL_GPUS=0", NULL };
	static const char *const two[] = { "CB_CUDA_MODEL_GPUS=2", NULL };
	static const char *const two_no_p2p[] = { "CB_CUDA_MODEL_GPUS=2", "CB_CUDA_MODEL_P2P=0", NULL };
	static const char *const bad_fault[] = { "CB_CUDA_MODEL_FAULT=ipc_opne", NULL };

	(void)state;
	assert_int_equal(cm_child_run(child_no_gpu, 0, none), 0);
	assert_int_equal(cm_child_run(child_two_gpus, 1, two), 0);
	assert_int_equal(cm_child_run(child_two_gpus, 0, two_no_p2p), 0);
	assert_int_equal(cm_child_run(child_no_gpu, 0, bad_fault), 2); /* a malformed fault: exit 2 */
}

/* ---- NCCL ---------------------------------------------------------------- */

static int id_pipe[2];

/* Rank r of 2 (its GPU: r, or 0 when shared): a non-blocking init polled to
 * its end; with a GPU each, an allreduce and a send/recv exchange. */
static void nccl_rank(int arg)
{
	int r = arg & 1, shared = arg >> 1;
	ncclConfig_t cfg = NCCL_CONFIG_INITIALIZER;
	ncclUniqueId id;
	ncclComm_t comm;
	ncclResult_t st = ncclInProgress, ret;
	cudaStream_t s;
	float host[3], *buf;

	if (r == 0) {
		CM_CHECK(ncclGetUniqueId(&id) == ncclSuccess);
		put(id_pipe[1], &id, sizeof(id));
	} else {
		get(id_pipe[0], &id, sizeof(id));
	}
	CM_CHECK(cudaSetDevice(shared ? 0 : r) == cudaSuccess);
	cfg.blocking = 0;
	ret = ncclCommInitRankConfig(&comm, 2, id, r, &cfg);
	CM_CHECK(ret == ncclInProgress || ret == ncclSuccess || ret == ncclInvalidUsage);
	while (st == ncclInProgress)
		CM_CHECK(ncclCommGetAsyncError(comm, &st) == ncclSuccess);
	if (shared) {
		CM_CHECK(st == ncclInvalidUsage && strstr(ncclGetLastError(NULL), "Duplicate GPU detected"));
		CM_CHECK(ncclCommAbort(comm) == ncclSuccess);
		return;
	}
	CM_CHECK(st == ncclSuccess);
	CM_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) == cudaSuccess);
	CM_CHECK(cudaMalloc((void **)&buf, 2 * sizeof(host)) == cudaSuccess);
	for (int i = 0; i < 3; i++)
		host[i] = (float)(r + 1) * (float)(i + 1);
	CM_CHECK(cudaMemcpyAsync(buf, host, sizeof(host), cudaMemcpyHostToDevice, s) == cudaSuccess);
	ret = ncclAllReduce(buf, buf, 3, ncclFloat32, ncclSum, comm, s);
	CM_CHECK(ret == ncclSuccess || ret == ncclInProgress);
	CM_CHECK(ncclGroupStart() == ncclSuccess);
	CM_CHECK(ncclSend(buf, 3, ncclFloat32, 1 - r, comm, s) == ncclSuccess);
	CM_CHECK(ncclRecv(buf + 3, 3, ncclFloat32, 1 - r, comm, s) == ncclSuccess);
	ret = ncclGroupEnd();
	CM_CHECK(ret == ncclSuccess || ret == ncclInProgress);
	CM_CHECK(cudaMemcpyAsync(host, buf + 3, sizeof(host), cudaMemcpyDeviceToHost, s) == cudaSuccess);
	CM_CHECK(cudaStreamSynchronize(s) == cudaSuccess);
	CM_CHECK(host[0] == 3 && host[1] == 6 && host[2] == 9);
	for (st = ncclCommFinalize(comm); st == ncclInProgress;)
		CM_CHECK(ncclCommGetAsyncError(comm, &st) == ncclSuccess);
	CM_CHECK(st == ncclSuccess && ncclCommDestroy(comm) == ncclSuccess);
	CM_CHECK(ncclAllReduce(buf, buf, 3, ncclFloat32, ncclSum, comm, s) == ncclInvalidArgument);
}

static void nccl_pair(int shared, const char *const *env, int rc[2])
{
	pid_t pid[2];
	int status;

	assert_int_equal(pipe(id_pipe), 0);
	for (int r = 0; r < 2; r++) {
		pid[r] = fork();
		if (pid[r] == 0)
			_exit(cm_child_run(nccl_rank, r | shared << 1, env));
	}
	close(id_pipe[0]);
	close(id_pipe[1]);
	for (int r = 0; r < 2; r++) {
		waitpid(pid[r], &status, 0);
		rc[r] = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	}
}

/* NCCL >= 2.5 refuses two ranks on one GPU (ncclInvalidUsage); with a GPU
 * each, the collective and the grouped exchange move the right bytes. */
static void test_nccl(void **state)
{
	static const char *const one[] = { "CB_CUDA_MODEL_GPUS=1", NULL };
	static const char *const two[] = { "CB_CUDA_MODEL_GPUS=2", NULL };
	int rc[2];

	(void)state;
	nccl_pair(1, one, rc);
	assert_int_equal(rc[0], 0);
	assert_int_equal(rc[1], 0);
	nccl_pair(0, two, rc);
	assert_int_equal(rc[0], 0);
	assert_int_equal(rc[1], 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_slot_and_sticky), cmocka_unit_test(test_events),
		cmocka_unit_test(test_ipc),             cmocka_unit_test(test_unordered_streams),
		cmocka_unit_test(test_devices),         cmocka_unit_test(test_nccl),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
