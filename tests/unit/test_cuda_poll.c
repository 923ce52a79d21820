/* Unit test without a GPU: the cuda backend's event polling and error
 * reporting (collectives/runtime/cuda/cb_cuda_util.c), linked against a fake CUDA runtime
 * defined here instead of libcudart. The fake keeps a per-thread last-error
 * slot the way the issue found the real one to behave: a query that answers
 * cudaErrorNotReady leaves that code in the slot, and a launch check
 * (cudaGetLastError after a launch) would then read it as its own failure,
 * which aborted ps and ring in their first iterations. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>
#include <cuda.h>

#include "cb_cuda_util.h"

/* ---- the fake runtime ---------------------------------------------------- */

static cudaError_t slot;              /* the thread's last-error slot */
static const cudaError_t *script;     /* what the next queries answer */
static size_t script_len, script_pos;
static int have_driver_names;         /* 0: the driver lacks cuGetErrorName */

static void set_script(const cudaError_t *s, size_t n)
{
	script = s;
	script_len = n;
	script_pos = 0;
	slot = cudaSuccess;
}

cudaError_t cudaEventQuery(cudaEvent_t ev)
{
	cudaError_t r = script_pos < script_len ? script[script_pos++] : cudaSuccess;

	(void)ev;
	if (r != cudaSuccess)
		slot = r; /* not-ready too: the behaviour the backend must undo */
	return r;
}

cudaError_t cudaGetLastError(void)
{
	cudaError_t r = slot;

	slot = cudaSuccess;
	return r;
}

cudaError_t cudaPeekAtLastError(void)
{
	return slot;
}

const char *cudaGetErrorString(cudaError_t err)
{
	return err == cudaErrorNotReady ? "device not ready" : "fake error";
}

const char *cudaGetErrorName(cudaError_t err)
{
	return err == cudaErrorNotReady ? "cudaErrorNotReady" : "cudaErrorFake";
}

static CUresult fake_error_name(CUresult r, const char **s)
{
	*s = r == CUDA_ERROR_INVALID_VALUE ? "CUDA_ERROR_INVALID_VALUE" : "CUDA_ERROR_UNKNOWN";
	return CUDA_SUCCESS;
}

cudaError_t cudaGetDriverEntryPointByVersion(const char *symbol, void **fn, unsigned int version,
					     unsigned long long flags,
					     enum cudaDriverEntryPointQueryResult *status)
{
	(void)version, (void)flags;
	*fn = NULL;
	if (have_driver_names && (strcmp(symbol, "cuGetErrorName") == 0 ||
				  strcmp(symbol, "cuGetErrorString") == 0)) {
		*fn = (void *)fake_error_name;
		*status = cudaDriverEntryPointSuccess;
		return cudaSuccess;
	}
	*status = cudaDriverEntryPointSymbolNotFound;
	slot = cudaErrorSymbolNotFound;
	return cudaErrorSymbolNotFound;
}

/* What the kernel launcher used to do after a launch: read the slot. */
static cudaError_t launch_check(void)
{
	return cudaGetLastError();
}

/* ---- tests --------------------------------------------------------------- */

/* The fake behaves as the bug needs: an unhandled not-ready spoils the next
 * launch check. (If this fails, the other tests prove nothing.) */
static void test_fake_models_sticky_not_ready(void **state)
{
	static const cudaError_t s[] = { cudaErrorNotReady };

	(void)state;
	set_script(s, 1);
	assert_int_equal(cudaEventQuery(NULL), cudaErrorNotReady);
	assert_int_equal(launch_check(), cudaErrorNotReady);
}

/* Polling through not-ready several times, then done: the launch check after
 * it sees no error, in the middle of the wait too. */
static void test_poll_not_ready_leaves_slot_clean(void **state)
{
	static const cudaError_t s[] = { cudaErrorNotReady, cudaErrorNotReady,
					 cudaErrorNotReady, cudaSuccess };
	enum cb_status st = CB_ERR_INTERNAL;
	int pending = 0;

	(void)state;
	set_script(s, 4);
	for (;;) {
		enum cb_cuda_poll p = CB_CUDA_POLL(NULL, &st);

		assert_int_equal(launch_check(), cudaSuccess);
		if (p == CB_CUDA_DONE)
			break;
		assert_int_equal(p, CB_CUDA_PENDING);
		assert_int_equal(st, CB_OK);
		pending++;
	}
	assert_int_equal(pending, 3);
	assert_int_equal(st, CB_OK);
}

/* A real error is reported (CB_ERR_CUDA) and, once returned, not left for
 * the next launch check either. */
static void test_poll_error(void **state)
{
	static const cudaError_t s[] = { cudaErrorNotReady, cudaErrorIllegalAddress };
	enum cb_status st = CB_OK;

	(void)state;
	set_script(s, 2);
	assert_int_equal(CB_CUDA_POLL(NULL, &st), CB_CUDA_PENDING);
	assert_int_equal(CB_CUDA_POLL(NULL, &st), CB_CUDA_FAILED);
	assert_int_equal(st, CB_ERR_CUDA);
	assert_int_equal(cudaPeekAtLastError(), cudaSuccess);
}

static void test_status_helpers(void **state)
{
	(void)state;
	slot = cudaErrorInvalidValue;
	assert_int_equal(CB_CUDA(cudaSuccess), CB_OK);
	assert_int_equal(CB_CUDA(cudaErrorInvalidValue), CB_ERR_CUDA);
	assert_int_equal(cudaPeekAtLastError(), cudaSuccess);
	have_driver_names = 1;
	assert_int_equal(CB_CU(CUDA_SUCCESS), CB_OK);
	assert_int_equal(CB_CU(CUDA_ERROR_INVALID_VALUE), CB_ERR_CUDA);
	have_driver_names = 0; /* an old driver: still an error, no crash */
	assert_int_equal(CB_CU(CUDA_ERROR_INVALID_VALUE), CB_ERR_CUDA);
	/* an absent entry point is an answer, not an error for the next launch */
	assert_null(cb_cuda_driver_fn("cuNoSuchFunction"));
	assert_int_equal(cudaPeekAtLastError(), cudaSuccess);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fake_models_sticky_not_ready),
		cmocka_unit_test(test_poll_not_ready_leaves_slot_clean),
		cmocka_unit_test(test_poll_error),
		cmocka_unit_test(test_status_helpers),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
