/* The CUDA model's errors: the per-thread last-error slot, the sticky error
 * of the context, error names and texts, the model's log and its rule
 * checks (contract in cm_model.h). */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "cm_model.h"

static _Thread_local cudaError_t slot;
static int sticky; /* cudaError_t, read and written atomically */
static pthread_once_t once = PTHREAD_ONCE_INIT;

static const struct {
	cudaError_t e;
	const char *name, *text;
} errors[] = {
	{ cudaSuccess, "cudaSuccess", "no error" },
	{ cudaErrorInvalidValue, "cudaErrorInvalidValue", "invalid argument" },
	{ cudaErrorMemoryAllocation, "cudaErrorMemoryAllocation", "out of memory" },
	{ cudaErrorNoDevice, "cudaErrorNoDevice", "no CUDA-capable device is detected" },
	{ cudaErrorInvalidDevice, "cudaErrorInvalidDevice", "invalid device ordinal" },
	{ cudaErrorDeviceUninitialized, "cudaErrorDeviceUninitialized", "invalid device context" },
	{ cudaErrorMapBufferObjectFailed, "cudaErrorMapBufferObjectFailed", "mapping of buffer object failed" },
	{ cudaErrorAlreadyMapped, "cudaErrorAlreadyMapped", "resource already mapped" },
	{ cudaErrorPeerAccessUnsupported, "cudaErrorPeerAccessUnsupported",
	  "peer access is not supported between these two devices" },
	{ cudaErrorInvalidResourceHandle, "cudaErrorInvalidResourceHandle", "invalid resource handle" },
	{ cudaErrorSymbolNotFound, "cudaErrorSymbolNotFound", "named symbol not found" },
	{ cudaErrorNotReady, "cudaErrorNotReady", "device not ready" },
	{ cudaErrorIllegalAddress, "cudaErrorIllegalAddress", "an illegal memory access was encountered" },
	{ cudaErrorLaunchOutOfResources, "cudaErrorLaunchOutOfResources", "too many resources requested for launch" },
	{ cudaErrorNotSupported, "cudaErrorNotSupported", "operation not supported" },
};

static const struct {
	CUresult r;
	const char *name, *text;
} cu_errors[] = {
	{ CUDA_SUCCESS, "CUDA_SUCCESS", "no error" },
	{ CUDA_ERROR_INVALID_VALUE, "CUDA_ERROR_INVALID_VALUE", "invalid argument" },
	{ CUDA_ERROR_INVALID_DEVICE, "CUDA_ERROR_INVALID_DEVICE", "invalid device ordinal" },
	{ CUDA_ERROR_INVALID_HANDLE, "CUDA_ERROR_INVALID_HANDLE", "invalid resource handle" },
	{ CUDA_ERROR_NOT_FOUND, "CUDA_ERROR_NOT_FOUND", "named symbol not found" },
	{ CUDA_ERROR_NOT_SUPPORTED, "CUDA_ERROR_NOT_SUPPORTED", "operation not supported" },
	{ CUDA_ERROR_ILLEGAL_ADDRESS, "CUDA_ERROR_ILLEGAL_ADDRESS", "an illegal memory access was encountered" },
};

long cm_env_long(const char *name, long def)
{
	const char *v = getenv(name);
	char *end;
	long x;

	if (!v || !*v)
		return def;
	x = strtol(v, &end, 10);
	if (*end) {
		fprintf(stderr, "cuda model: %s=%s is not an integer\n", name, v);
		exit(2);
	}
	return x;
}

int cm_world_rank(void)
{
	const char *names[] = { "OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK" };

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (getenv(names[i]))
			return (int)cm_env_long(names[i], -1);
	return -1;
}

/* Shared-memory objects the model names "cbm-<pid>-..." (cm_memory.c,
 * cm_nccl.c): those of processes that died without removing them (a killed
 * rank) are removed here, at the next start. */
static void remove_stale(void)
{
	DIR *d = opendir("/dev/shm");
	struct dirent *e;
	char name[300];

	if (!d)
		return;
	while ((e = readdir(d))) {
		long pid;

		if (strncmp(e->d_name, "cbm-", 4) != 0)
			continue;
		pid = strtol(e->d_name + 4, NULL, 10);
		if (pid <= 0 || (kill((pid_t)pid, 0) == -1 && errno == ESRCH)) {
			snprintf(name, sizeof(name), "/%s", e->d_name);
			shm_unlink(name);
		}
	}
	closedir(d);
}

static void init_once(void)
{
	remove_stale();
	cm_fault_parse();
}

void cm_init(void)
{
	pthread_once(&once, init_once);
}

cudaError_t cm_ret(cudaError_t e)
{
	if (e != cudaSuccess)
		slot = e;
	return e;
}

cudaError_t cm_sticky(void)
{
	return (cudaError_t)__atomic_load_n(&sticky, __ATOMIC_ACQUIRE);
}

void cm_set_sticky(cudaError_t e)
{
	int none = cudaSuccess;

	__atomic_compare_exchange_n(&sticky, &none, (int)e, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
}

cudaError_t cm_enter(void)
{
	cm_init();
	return cm_ret(cm_sticky());
}

cudaError_t cm_slot(void)
{
	return slot;
}

/* Runtime API, Error Handling: the slot is reset by cudaGetLastError; a
 * sticky error is returned again by every later call, this one included. */
cudaError_t cudaGetLastError(void)
{
	cudaError_t e = slot != cudaSuccess ? slot : cm_sticky();

	slot = cudaSuccess;
	return e;
}

cudaError_t cudaPeekAtLastError(void)
{
	return slot != cudaSuccess ? slot : cm_sticky();
}

const char *cudaGetErrorName(cudaError_t error)
{
	for (size_t i = 0; i < sizeof(errors) / sizeof(errors[0]); i++)
		if (errors[i].e == error)
			return errors[i].name;
	return "cudaErrorUnknown";
}

const char *cudaGetErrorString(cudaError_t error)
{
	for (size_t i = 0; i < sizeof(errors) / sizeof(errors[0]); i++)
		if (errors[i].e == error)
			return errors[i].text;
	return "unrecognized error code";
}

const char *cm_cu_name(CUresult r)
{
	for (size_t i = 0; i < sizeof(cu_errors) / sizeof(cu_errors[0]); i++)
		if (cu_errors[i].r == r)
			return cu_errors[i].name;
	return NULL;
}

const char *cm_cu_text(CUresult r)
{
	for (size_t i = 0; i < sizeof(cu_errors) / sizeof(cu_errors[0]); i++)
		if (cu_errors[i].r == r)
			return cu_errors[i].text;
	return NULL;
}

static void vlog(const char *what, const char *fmt, va_list ap)
{
	char msg[1024];

	vsnprintf(msg, sizeof(msg), fmt, ap);
	/* one write per message, so that lines of several ranks do not mix */
	fprintf(stderr, "cuda model: rank %d (pid %d): %s%s\n", cm_world_rank(), (int)getpid(), what,
		msg);
}

void cm_log(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vlog("", fmt, ap);
	va_end(ap);
}

void cm_violation(const char *rule, const char *fmt, ...)
{
	const char *how = getenv("CB_CUDA_MODEL_VIOLATION");
	char what[512];
	va_list ap;

	snprintf(what, sizeof(what), "broken rule (%s): ", rule);
	va_start(ap, fmt);
	vlog(what, fmt, ap);
	va_end(ap);
	if (!how || strcmp(how, "log") != 0)
		_exit(CM_EXIT_VIOLATION);
}

uint64_t cm_now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

void cm_backoff(unsigned long polls)
{
	struct timespec t = { 0, 0 };

	if (polls < 64)
		return;
	if (polls < 256) {
		sched_yield();
		return;
	}
	t.tv_nsec = polls < 1024 ? 5000 : 50000;
	nanosleep(&t, NULL);
}
