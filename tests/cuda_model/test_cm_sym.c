/* The CUDA model's NCCL memory and windows (cm_nccl_sym.c), each check in a
 * fresh process (cm_child.h), on a one-rank communicator: what NCCL accepts
 * and what it refuses, and with which result, as NCCL 2.28 does
 * (dev_runtime.cc, allocator.cc, init.cc); the multicast attribute from the
 * topology. nccl.sym and nccl.ce (cuda_model.sh nccl_paths) stand on these. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>
#include <nccl.h>

#include "cm_child.h"
#include "cm_nccl.h"

/* A blocking communicator of one rank on device 0. */
static ncclComm_t one_rank(void)
{
	ncclUniqueId id;
	ncclComm_t comm = NULL;

	CM_CHECK(ncclGetUniqueId(&id) == ncclSuccess);
	CM_CHECK(ncclCommInitRankConfig(&comm, 1, id, 0, NULL) == ncclSuccess);
	return comm;
}

static int last_has(const char *text)
{
	const char *last = ncclGetLastError(NULL);

	return last && strstr(last, text);
}

/* ncclMemAlloc rounds up and ncclMemFree takes it back; ncclMemFree of
 * cudaMalloc memory has no cuMem handle: ncclUnhandledCudaError. */
static void child_memalloc(int arg)
{
	void *p = NULL, *q = NULL;

	(void)arg;
	CM_CHECK(ncclMemAlloc(NULL, 64) == ncclInvalidArgument);
	CM_CHECK(ncclMemAlloc(&p, 100) == ncclSuccess && p);
	CM_CHECK(cudaMemset(p, 1, (size_t)2 << 20) == cudaSuccess); /* the granule is there */
	CM_CHECK(cudaMalloc(&q, 4096) == cudaSuccess);
	CM_CHECK(ncclMemFree(q) == ncclUnhandledCudaError && last_has("ncclMemAlloc"));
	CM_CHECK(ncclMemFree((char *)p + 64) == ncclInvalidArgument);
	CM_CHECK(ncclMemFree(p) == ncclSuccess);
	CM_CHECK(ncclMemFree(NULL) == ncclSuccess);
}

/* A window needs cuMem memory (cudaMalloc's is refused) at an offset that is
 * a multiple of NCCL_WIN_REQUIRED_ALIGNMENT, within its allocation; a NULL
 * buffer registers nothing. */
static void child_rules(int arg)
{
	ncclComm_t comm = one_rank();
	ncclWindow_t w = NULL, none = (ncclWindow_t)0x1;
	char *p = NULL, *q = NULL;

	(void)arg;
	CM_CHECK(cudaMalloc((void **)&q, 8192) == cudaSuccess);
	CM_CHECK(ncclCommWindowRegister(comm, q, 4096, &w, NCCL_WIN_COLL_SYMMETRIC) ==
		 ncclUnhandledCudaError && last_has("ncclMemAlloc") && !w);
	CM_CHECK(ncclMemAlloc((void **)&p, 3 * NCCL_WIN_REQUIRED_ALIGNMENT) == ncclSuccess);
	CM_CHECK(ncclCommWindowRegister(comm, p + 64, 4096, &w, NCCL_WIN_COLL_SYMMETRIC) ==
		 ncclInvalidArgument && last_has("aligned") && !w);
	CM_CHECK(ncclCommWindowRegister(comm, p, (size_t)4 << 20, &w, NCCL_WIN_COLL_SYMMETRIC) ==
		 ncclInvalidArgument && last_has("past its allocation"));
	CM_CHECK(ncclCommWindowRegister(comm, NULL, 0, &none, NCCL_WIN_COLL_SYMMETRIC) ==
		 ncclSuccess && none == (ncclWindow_t)0x1);
	CM_CHECK(ncclCommWindowRegister(comm, p + NCCL_WIN_REQUIRED_ALIGNMENT, 4096, &w,
					NCCL_WIN_COLL_SYMMETRIC) == ncclSuccess && w);
	CM_CHECK(cm_nccl_window_symmetric(comm, p + NCCL_WIN_REQUIRED_ALIGNMENT + 8));
	CM_CHECK(!cm_nccl_window_symmetric(comm, p));
	CM_CHECK(ncclCommWindowDeregister(comm, w) == ncclSuccess);
	CM_CHECK(ncclCommDestroy(comm) == ncclSuccess);
}

/* A window's memory is not freed while registered; a window is deregistered
 * once, on its own communicator. */
static void child_lifetime(int arg)
{
	ncclComm_t comm = one_rank();
	ncclWindow_t w = NULL, d = NULL;
	void *p = NULL;

	(void)arg;
	CM_CHECK(ncclMemAlloc(&p, 4096) == ncclSuccess);
	CM_CHECK(ncclCommWindowRegister(comm, p, 4096, &w, NCCL_WIN_DEFAULT) == ncclSuccess && w);
	CM_CHECK(!cm_nccl_window_symmetric(comm, p)); /* NCCL_WIN_DEFAULT */
	CM_CHECK(ncclMemFree(p) == ncclInvalidUsage && last_has("still registered"));
	CM_CHECK(ncclCommWindowDeregister(NULL, w) == ncclInvalidArgument);
	CM_CHECK(ncclCommWindowDeregister(comm, w) == ncclSuccess);
	CM_CHECK(ncclCommWindowDeregister(comm, d) == ncclSuccess);
	CM_CHECK(ncclMemFree(p) == ncclSuccess);
	CM_CHECK(ncclCommDestroy(comm) == ncclSuccess);
}

/* Without symmetric support (NCCL_WIN_ENABLE=0 here) NCCL registers any
 * device memory locally and no window is symmetric. */
static void child_no_support(int arg)
{
	ncclComm_t comm = one_rank();
	ncclWindow_t w = NULL;
	void *q = NULL;

	(void)arg;
	CM_CHECK(cudaMalloc(&q, 4096) == cudaSuccess);
	CM_CHECK(ncclCommWindowRegister(comm, (char *)q + 64, 256, &w, NCCL_WIN_COLL_SYMMETRIC) ==
		 ncclSuccess && w);
	CM_CHECK(!cm_nccl_window_symmetric(comm, (char *)q + 64));
	CM_CHECK(ncclCommWindowDeregister(comm, w) == ncclSuccess);
	CM_CHECK(ncclCommDestroy(comm) == ncclSuccess);
}

/* ncclCommRegister: local, on device memory (cudaMalloc's too); a handle
 * is deregistered once, and not as a window; NCCL_LOCAL_REGISTER=0 (arg 1)
 * registers nothing. */
static void child_local(int arg)
{
	ncclComm_t comm = one_rank();
	void *q = NULL, *h = NULL, *host[8];

	CM_CHECK(cudaMalloc(&q, 4096) == cudaSuccess);
	CM_CHECK(ncclCommRegister(comm, q, 4096, &h) == ncclSuccess);
	if (arg) {
		CM_CHECK(h == NULL);
		CM_CHECK(ncclCommDestroy(comm) == ncclSuccess);
		return;
	}
	CM_CHECK(h != NULL);
	CM_CHECK(ncclCommRegister(comm, host, sizeof(host), &h) == ncclInvalidArgument);
	CM_CHECK(ncclCommWindowDeregister(comm, h) == ncclInvalidArgument);
	CM_CHECK(ncclCommDeregister(comm, h) == ncclSuccess);
	CM_CHECK(ncclCommDeregister(comm, h) == ncclInvalidArgument && last_has("Could not find"));
	CM_CHECK(ncclCommDestroy(comm) == ncclSuccess);
}

/* CU_DEVICE_ATTRIBUTE_MULTICAST_SUPPORTED: 1 on 8xH100 (arg 1), else 0. */
static void child_multicast(int arg)
{
	int v = -1;

	CM_CHECK(cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_MULTICAST_SUPPORTED, 0) ==
		 CUDA_SUCCESS);
	CM_CHECK(v == arg);
}

static void test_memalloc(void **state)
{
	(void)state;
	assert_int_equal(cm_child_run(child_memalloc, 0, NULL), 0);
}

static void test_rules(void **state)
{
	(void)state;
	assert_int_equal(cm_child_run(child_rules, 0, NULL), 0);
}

static void test_lifetime(void **state)
{
	(void)state;
	assert_int_equal(cm_child_run(child_lifetime, 0, NULL), 0);
}

static void test_no_support(void **state)
{
	static const char *const env[] = { "NCCL_WIN_ENABLE=0", NULL };

	(void)state;
	assert_int_equal(cm_child_run(child_no_support, 0, env), 0);
}

static void test_local(void **state)
{
	static const char *const off[] = { "NCCL_LOCAL_REGISTER=0", NULL };

	(void)state;
	assert_int_equal(cm_child_run(child_local, 0, NULL), 0);
	assert_int_equal(cm_child_run(child_local, 1, off), 0);
}

static void test_multicast(void **state)
{
	static const char *const h100[] = { "CB_CUDA_MODEL_TOPO=8xH100", NULL };
	static const char *const pcie[] = { "CB_CUDA_MODEL_TOPO=pcie", NULL };

	(void)state;
	assert_int_equal(cm_child_run(child_multicast, 1, h100), 0);
	assert_int_equal(cm_child_run(child_multicast, 0, pcie), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_memalloc),   cmocka_unit_test(test_rules),
		cmocka_unit_test(test_lifetime),   cmocka_unit_test(test_no_support),
		cmocka_unit_test(test_local),      cmocka_unit_test(test_multicast),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
