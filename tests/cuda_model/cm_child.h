/* cm_child: what the CUDA model's own tests (test_cm_model.c,
 * test_cm_order.c) share: each check runs in a fresh process (the model
 * keeps state per process: a sticky error, worker threads), and a child
 * reports a failed check by exiting 1 with the check on stderr. */
#ifndef CM_CHILD_H
#define CM_CHILD_H

#include <cuda.h>
#include <stdio.h>
#include <sys/types.h>
#include <unistd.h>

/* In a child: a failed condition ends it with exit status 1, said on stderr. */
#define CM_CHECK(c)                                                                       \
	do {                                                                              \
		if (!(c)) {                                                               \
			fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #c); \
			_exit(1);                                                         \
		}                                                                         \
	} while (0)

/* cuStreamWaitValue64's and cuStreamWriteValue64's type. */
typedef CUresult (*cm_value_fn)(CUstream, CUdeviceptr, cuuint64_t, unsigned int);

/* Forks fn(arg) with the settings env ("NAME=VALUE", NULL-terminated; NULL:
 * none); returns its pid. The child exits 0 when fn returns. */
pid_t cm_child_spawn(void (*fn)(int), int arg, const char *const *env);

/* Waits for pid; its exit status (128 + signal if it was killed). */
int cm_child_reap(pid_t pid);

/* cm_child_reap(cm_child_spawn(fn, arg, env)). */
int cm_child_run(void (*fn)(int), int arg, const char *const *env);

/* The driver entry point name through cudaGetDriverEntryPointByVersion
 * (12.0 ABI), as the backend resolves it; a check fails (exit 1) where the
 * model lacks it. */
cm_value_fn cm_child_driver(const char *name);

#endif
