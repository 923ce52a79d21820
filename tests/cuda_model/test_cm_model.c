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
#include "cm_model.h"

#define CHECK(c)                                                                          \
	do {                                                                              \
		if (!(c)) {                                                               \
			fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #c); \
			_exit(1);                                                         \
		}                                                                         \
	} while (0)

typedef CUresult (*value_fn)(CUstream, CUdeviceptr, cuuint64_t, unsigned int);

/* Runs fn(arg) in a fresh process with the environment settings env
 * ("NAME=VALUE", NULL-terminated); its exit status (128 + signal if
 * killed). */
static int in_child(void (*fn)(int), int arg, const char *const *env)
{
	pid_t pid = fork();
	int status = 0;

	if (pid == 0) {
		for (; env && *env; env++)
			putenv((char *)*env);
		fn(arg);
		_exit(0);
	}
	waitpid(pid, &status, 0);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static value_fn driver(const char *name)
{
	void *fn = NULL;
	enum cudaDriverEntryPointQueryResult q;

	CHECK(cudaGetDriverEntryPointByVersion(name, &fn, 12000, cudaEnableDefault, &q) == cudaSuccess);
	CHECK(q == cudaDriverEntryPointSuccess && fn);
	return (value_fn)fn;
}

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
	CHECK(cudaStreamCreateWithFlags(&a, cudaStreamNonBlocking) == cudaSuccess);
	CHECK(cudaStreamCreateWithFlags(&b, cudaStreamNonBlocking) == cudaSuccess);
	CHECK(cudaEventCreate(&ev) == cudaSuccess);
	CHECK(cudaMalloc((void **)&word, 8) == cudaSuccess && cudaMalloc((void **)&x, 64) == cudaSuccess);
	CHECK(cudaMemsetAsync(word, 0, 8, a) == cudaSuccess && cudaMemsetAsync(x, 0, 64, a) == cudaSuccess);
	CHECK(cudaStreamSynchronize(a) == cudaSuccess); /* before b writes the word */
	CHECK(driver("cuStreamWaitValue64")((CUstream)a, (CUdeviceptr)word, 7, CU_STREAM_WAIT_VALUE_GEQ) == 0);
	CHECK(cudaEventRecord(ev, a) == cudaSuccess);
	CHECK(cudaEventQuery(ev) == cudaErrorNotReady);
	CHECK(cudaPeekAtLastError() == cudaErrorNotReady);
	CHECK(cb_cuda_reduce(x, x, x, 16, CB_FLOAT, CB_SUM, 1, a) == cudaErrorNotReady);
	CHECK(cudaGetLastError() == cudaSuccess); /* the launch check read it */
	CHECK(cb_cuda_reduce(x, x, x, 16, CB_FLOAT, CB_SUM, 1, a) == cudaSuccess);
	CHECK(driver("cuStreamWriteValue64")((CUstream)b, (CUdeviceptr)word, 7, 0) == 0);
	CHECK(cudaEventSynchronize(ev) == cudaSuccess && cudaEventQuery(ev) == cudaSuccess);
	CHECK(cudaStreamSynchronize(a) == cudaSuccess && cudaGetLastError() == cudaSuccess);
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
	CHECK(cudaSetDevice(99) == cudaErrorInvalidDevice);
	CHECK(cudaGetLastError() == cudaErrorInvalidDevice && cudaGetLastError() == cudaSuccess);
	CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) == cudaSuccess);
	CHECK(cb_cuda_reduce(host, host, host, 16, CB_FLOAT, CB_SUM, 1, s) == cudaSuccess);
	CHECK(cudaStreamSynchronize(s) == cudaErrorIllegalAddress);
	CHECK(cudaMalloc(&p, 64) == cudaErrorIllegalAddress);
	CHECK(cudaGetLastError() == cudaErrorIllegalAddress && cudaGetLastError() == cudaErrorIllegalAddress);
}

static void test_slot_and_sticky(void **state)
{
	(void)state;
	assert_int_equal(in_child(child_not_ready, 0, NULL), 0);
	assert_int_equal(in_child(child_sticky, 0, NULL), 0);
}

/* ---- events ------------------------------------------------------------ */

static void child_events(int unused)
{
	cudaEvent_t t0, t1, quiet;
	cudaStream_t s;
	float ms = -1;

	(void)unused;
	CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) == cudaSuccess);
	CHECK(cudaEventCreate(&t0) == cudaSuccess && cudaEventCreate(&t1) == cudaSuccess);
	CHECK(cudaEventCreateWithFlags(&quiet, cudaEventDisableTiming) == cudaSuccess);
	CHECK(cudaEventQuery(t0) == cudaSuccess); /* never recorded */
	CHECK(cudaEventElapsedTime(&ms, t0, t1) == cudaErrorInvalidResourceHandle);
	CHECK(cudaEventRecord(t0, s) == cudaSuccess && cudaEventRecord(t1, s) == cudaSuccess);
	CHECK(cudaEventRecord(quiet, s) == cudaSuccess && cudaStreamSynchronize(s) == cudaSuccess);
	CHECK(cudaEventElapsedTime(&ms, t0, t1) == cudaSuccess && ms >= 0);
	CHECK(cudaEventElapsedTime(&ms, t0, quiet) == cudaErrorInvalidResourceHandle);
	(void)cudaGetLastError();
	CHECK(cudaEventDestroy(t0) == cudaSuccess && cudaEventQuery(t0) == cudaErrorInvalidResourceHandle);
	CHECK(cudaStreamDestroy(s) == cudaSuccess && cudaStreamSynchronize(s) == cudaErrorInvalidResourceHandle);
}

static void test_events(void **state)
{
	(void)state;
	assert_int_equal(in_child(child_events, 0, NULL), 0);
}

/* ---- CUDA IPC between two processes -------------------------------------- */

static int to_b[2], to_a[2]; /* pipes: owner -> importer, importer -> owner */

static void put(int fd, const void *p, size_t n)
{
	CHECK(write(fd, p, n) == (ssize_t)n);
}

static void get(int fd, void *p, size_t n)
{
	CHECK(read(fd, p, n) == (ssize_t)n);
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
	CHECK(cudaMalloc(&p, 64) == cudaSuccess);
	CHECK(cudaMemcpyAsync(p, host, 64, cudaMemcpyHostToDevice, 0) == cudaSuccess);
	CHECK(cudaStreamSynchronize(0) == cudaSuccess && cudaIpcGetMemHandle(&h, p) == cudaSuccess);
	CHECK(cudaIpcGetMemHandle(&h, (char *)p + 8) == cudaErrorInvalidValue); /* not its base */
	CHECK(cudaIpcGetMemHandle(&h, p) == cudaSuccess);
	CHECK(cudaIpcOpenMemHandle(&dummy, h, cudaIpcMemLazyEnablePeerAccess) == cudaErrorDeviceUninitialized);
	put(to_b[1], &h, sizeof(h));
	get(to_a[0], &go, 1); /* mode 0: closed; 1, 2: still mapped */
	CHECK(cudaFree(p) == cudaSuccess); /* mode 1 ends here, in the model's rule check */
	CHECK(cudaFree(p) == cudaErrorInvalidValue);
	if (mode == 2) {
		CHECK(cudaMalloc(&q, 64) == cudaSuccess && cudaIpcGetMemHandle(&h, q) == cudaSuccess);
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
	CHECK(cudaIpcOpenMemHandle(&p, h, 0) == cudaErrorInvalidValue); /* flags must be LazyEnable */
	CHECK(cudaIpcOpenMemHandle(&p, h, cudaIpcMemLazyEnablePeerAccess) == cudaSuccess);
	CHECK(cudaIpcOpenMemHandle(&p2, h, cudaIpcMemLazyEnablePeerAccess) == cudaSuccess && p2 == p);
	CHECK(cudaMemcpyAsync(host, p, 64, cudaMemcpyDeviceToHost, 0) == cudaSuccess);
	CHECK(cudaStreamSynchronize(0) == cudaSuccess && host[0] == 1 && host[63] == 64);
	CHECK(cudaIpcCloseMemHandle(p) == cudaSuccess);
	if (mode == 0) {
		CHECK(cudaIpcCloseMemHandle(p) == cudaSuccess);
		CHECK(cudaIpcCloseMemHandle(p) == cudaErrorInvalidValue);
	}
	put(to_a[1], &go, 1);
	if (mode == 2) { /* still mapping the freed one: the new one at its address is refused */
		get(to_b[0], &h, sizeof(h));
		get(to_b[0], &same, 1);
		CHECK(cudaIpcOpenMemHandle(&p2, h, cudaIpcMemLazyEnablePeerAccess) ==
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
	*owner_rc = in_child(owner, mode, env);
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
	CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) == cudaSuccess);
	CHECK(cudaMalloc(&p, 4096) == cudaSuccess);
	CHECK(cudaMemset(p, 0, 4096) == cudaSuccess); /* held back 300 ms */
	CHECK(cudaMemsetAsync((char *)p + 1024, 1, 16, s) == cudaSuccess);
}

static void test_unordered_streams(void **state)
{
	static const char *const lag[] = { "CB_CUDA_MODEL_LEGACY_LAG_MS=300", NULL };

	(void)state;
	assert_int_equal(in_child(child_unordered, 0, lag), CM_EXIT_VIOLATION);
}

/* ---- devices ------------------------------------------------------------- */

static void child_no_gpu(int unused)
{
	int n = -1;

	(void)unused;
	CHECK(cudaGetDeviceCount(&n) == cudaErrorNoDevice && n == 0);
}

static void child_two_gpus(int p2p)
{
	char id[16];
	int n = 0, dev = -1, can = -1;

	CHECK(cudaGetDeviceCount(&n) == cudaSuccess && n == 2);
	CHECK(cudaDeviceGetPCIBusId(id, sizeof(id), 1) == cudaSuccess);
	CHECK(cudaDeviceGetByPCIBusId(&dev, id) == cudaSuccess && dev == 1);
	CHECK(cudaDeviceCanAccessPeer(&can, 0, 1) == cudaSuccess && can == p2p);
}

static void test_devices(void **state)
{
	static const char *const none[] = { "CB_CUDA_MODEL_GPUS=0", NULL };
	static const char *const two[] = { "CB_CUDA_MODEL_GPUS=2", NULL };
	static const char *const two_no_p2p[] = { "CB_CUDA_MODEL_GPUS=2", "CB_CUDA_MODEL_P2P=0", NULL };
	static const char *const bad_fault[] = { "CB_CUDA_MODEL_FAULT=ipc_opne", NULL };

	(void)state;
	assert_int_equal(in_child(child_no_gpu, 0, none), 0);
	assert_int_equal(in_child(child_two_gpus, 1, two), 0);
	assert_int_equal(in_child(child_two_gpus, 0, two_no_p2p), 0);
	assert_int_equal(in_child(child_no_gpu, 0, bad_fault), 2); /* a malformed fault: exit 2 */
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
		CHECK(ncclGetUniqueId(&id) == ncclSuccess);
		put(id_pipe[1], &id, sizeof(id));
	} else {
		get(id_pipe[0], &id, sizeof(id));
	}
	CHECK(cudaSetDevice(shared ? 0 : r) == cudaSuccess);
	cfg.blocking = 0;
	ret = ncclCommInitRankConfig(&comm, 2, id, r, &cfg);
	CHECK(ret == ncclInProgress || ret == ncclSuccess || ret == ncclInvalidUsage);
	while (st == ncclInProgress)
		CHECK(ncclCommGetAsyncError(comm, &st) == ncclSuccess);
	if (shared) {
		CHECK(st == ncclInvalidUsage && strstr(ncclGetLastError(NULL), "Duplicate GPU detected"));
		CHECK(ncclCommAbort(comm) == ncclSuccess);
		return;
	}
	CHECK(st == ncclSuccess);
	CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) == cudaSuccess);
	CHECK(cudaMalloc((void **)&buf, 2 * sizeof(host)) == cudaSuccess);
	for (int i = 0; i < 3; i++)
		host[i] = (float)(r + 1) * (float)(i + 1);
	CHECK(cudaMemcpyAsync(buf, host, sizeof(host), cudaMemcpyHostToDevice, s) == cudaSuccess);
	ret = ncclAllReduce(buf, buf, 3, ncclFloat32, ncclSum, comm, s);
	CHECK(ret == ncclSuccess || ret == ncclInProgress);
	CHECK(ncclGroupStart() == ncclSuccess);
	CHECK(ncclSend(buf, 3, ncclFloat32, 1 - r, comm, s) == ncclSuccess);
	CHECK(ncclRecv(buf + 3, 3, ncclFloat32, 1 - r, comm, s) == ncclSuccess);
	ret = ncclGroupEnd();
	CHECK(ret == ncclSuccess || ret == ncclInProgress);
	CHECK(cudaMemcpyAsync(host, buf + 3, sizeof(host), cudaMemcpyDeviceToHost, s) == cudaSuccess);
	CHECK(cudaStreamSynchronize(s) == cudaSuccess);
	CHECK(host[0] == 3 && host[1] == 6 && host[2] == 9);
	for (st = ncclCommFinalize(comm); st == ncclInProgress;)
		CHECK(ncclCommGetAsyncError(comm, &st) == ncclSuccess);
	CHECK(st == ncclSuccess && ncclCommDestroy(comm) == ncclSuccess);
	CHECK(ncclAllReduce(buf, buf, 3, ncclFloat32, ncclSum, comm, s) == ncclInvalidArgument);
}

static void nccl_pair(int shared, const char *const *env, int rc[2])
{
	pid_t pid[2];
	int status;

	assert_int_equal(pipe(id_pipe), 0);
	for (int r = 0; r < 2; r++) {
		pid[r] = fork();
		if (pid[r] == 0)
			_exit(in_child(nccl_rank, r | shared << 1, env));
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
