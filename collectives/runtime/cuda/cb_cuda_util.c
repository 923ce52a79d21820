/* Error reporting and event polling of the cuda backend; contract in
 * cb_cuda_util.h. <cuda.h> is included for the driver API's types only. */
#include "cb_cuda_util.h"

#include <cuda.h>
#include <stddef.h>

typedef CUresult (*error_text_fn)(CUresult, const char **);

enum cb_status cb_cuda_status_at(cudaError_t err, const char *call, const char *file, int line)
{
	if (err == cudaSuccess)
		return CB_OK;
	cb_log("%s:%d: %s: %s (%s)", file, line, call, cudaGetErrorString(err),
	       cudaGetErrorName(err));
	(void)cudaGetLastError(); /* returned here: not for the next launch check */
	return CB_ERR_CUDA;
}

void *cb_cuda_driver_fn(const char *name)
{
	enum cudaDriverEntryPointQueryResult q = cudaDriverEntryPointSymbolNotFound;
	void *fn = NULL;

	if (cudaGetDriverEntryPointByVersion(name, &fn, 12000, cudaEnableDefault, &q) !=
	    cudaSuccess || q != cudaDriverEntryPointSuccess) {
		(void)cudaGetLastError(); /* "no such entry point" is an answer */
		return NULL;
	}
	return fn;
}

enum cb_status cb_cu_status_at(int curesult, const char *call, const char *file, int line)
{
	error_text_fn get_name = (error_text_fn)cb_cuda_driver_fn("cuGetErrorName");
	error_text_fn get_text = (error_text_fn)cb_cuda_driver_fn("cuGetErrorString");
	const char *name = NULL, *text = NULL;

	if (curesult == CUDA_SUCCESS)
		return CB_OK;
	if (!get_name || get_name((CUresult)curesult, &name) != CUDA_SUCCESS || !name)
		name = "unknown CUresult";
	if (!get_text || get_text((CUresult)curesult, &text) != CUDA_SUCCESS || !text)
		text = "no description from the driver";
	cb_log("%s:%d: %s: %s (%s, CUresult %d)", file, line, call, text, name, curesult);
	return CB_ERR_CUDA;
}

enum cb_cuda_poll cb_cuda_event_poll_at(cudaEvent_t ev, enum cb_status *st, const char *file,
					int line)
{
	cudaError_t err = cudaEventQuery(ev);

	*st = CB_OK;
	if (err == cudaSuccess)
		return CB_CUDA_DONE;
	if (err == cudaErrorNotReady) {
		(void)cudaGetLastError(); /* not an error: leave the slot clean */
		return CB_CUDA_PENDING;
	}
	/* the query's own failure, or an earlier sticky one (a kernel fault) */
	*st = cb_cuda_status_at(err, "cudaEventQuery", file, line);
	return CB_CUDA_FAILED;
}
