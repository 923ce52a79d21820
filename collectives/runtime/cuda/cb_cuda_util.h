/* cb_cuda_util: error reporting and event polling for the cuda backend (CUDA
 * runtime and driver API), kept apart from the backend so that a unit test
 * builds it against a fake runtime (tests/unit/test_cuda_poll.c, no GPU).
 *
 * Errors are logged once, where they happen, as
 *   "<file>:<line>: <call>: <description> (<symbolic name>)"
 * (driver errors by cuGetErrorName, never a raw CUresult number), and turned
 * into CB_ERR_CUDA; control flow stays at the call site:
 *     st = CB_CUDA(cudaMalloc(&p, bytes));
 */
#ifndef CB_CUDA_UTIL_H
#define CB_CUDA_UTIL_H

#include <cuda_runtime_api.h>

#include "cb_status.h"

/* CB_OK for cudaSuccess; else logs as above, clears the error from the
 * thread's last-error slot (it was returned here; a later launch check must
 * not see it again) and returns CB_ERR_CUDA. */
enum cb_status cb_cuda_status_at(cudaError_t err, const char *call, const char *file, int line);
#define CB_CUDA(call) cb_cuda_status_at((call), #call, __FILE__, __LINE__)

/* A driver API function resolved through the runtime
 * (cudaGetDriverEntryPointByVersion, CUDA 12.0 ABI), so the binary never
 * links libcuda and still starts on machines without a driver; NULL when the
 * driver lacks it. */
void *cb_cuda_driver_fn(const char *name);

/* CB_OK for CUDA_SUCCESS (0); else logs as above with the driver's own name
 * and description of the CUresult and returns CB_ERR_CUDA. */
enum cb_status cb_cu_status_at(int curesult, const char *call, const char *file, int line);
#define CB_CU(call) cb_cu_status_at((int)(call), #call, __FILE__, __LINE__)

enum cb_cuda_poll {
	CB_CUDA_DONE,    /* the event has completed */
	CB_CUDA_PENDING, /* not yet: poll again */
	CB_CUDA_FAILED,  /* an error, logged; *st says which */
};

/* One non-blocking query of ev (cudaEventQuery). cudaErrorNotReady is not an
 * error, but the runtime leaves it in the calling thread's last-error slot,
 * where the next launch check (cudaGetLastError) would read it as that
 * launch's failure; it is cleared here before returning CB_CUDA_PENDING, as
 * PyTorch's CUDAStream::query does. Every query that may answer not-ready
 * goes through this function. */
enum cb_cuda_poll cb_cuda_event_poll_at(cudaEvent_t ev, enum cb_status *st, const char *file,
					int line);
#define CB_CUDA_POLL(ev, st) cb_cuda_event_poll_at((ev), (st), __FILE__, __LINE__)

#endif
