/* cb_cuda_kernels: the device side of the cuda backend, callable from C.
 * Semantics are those of cb_dtype.h (the host kernels), element for element:
 * integer sum/prod wrap, avg combines as sum and divides once at the end,
 * half/bfloat16 combine in float and round once to the dtype, min/max as
 * cb_minmax.h. The element functions (cb_cuda_elem.cuh) are unit-tested on
 * the host against cb_reduce_host. */
#ifndef CB_CUDA_KERNELS_H
#define CB_CUDA_KERNELS_H

#include <cuda_runtime_api.h>
#include <stddef.h>
#include <stdint.h>

#include "cb_dtype.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Enqueues dst[i] = a[i] op b[i], i < count (elements), on stream. a, b and dst
 * are device pointers of this GPU or of a peer mapped through CUDA IPC; dst
 * may alias a or b exactly. sm_count: the GPU's multiprocessors; each
 * kernel's grid is capped at the blocks they hold at once (occupancy API).
 * Returns the launches' own error (never one an earlier call left in the
 * last-error slot), cudaSuccess for count == 0. */
cudaError_t cb_cuda_reduce(void *dst, const void *a, const void *b, size_t count,
			   enum cb_dtype dt, enum cb_op op, int sm_count, cudaStream_t stream);

/* Enqueues the op's last step on count elements in place: avg divides by
 * nranks; other ops launch nothing. Errors as cb_cuda_reduce. */
cudaError_t cb_cuda_finalize(void *buf, size_t count, enum cb_dtype dt, enum cb_op op,
			     int nranks, int sm_count, cudaStream_t stream);

/* The most counters one cb_cuda_counter_add takes. */
#define CB_CUDA_ADDS_MAX 64

/* Enqueues *addr[i] += delta (modulo 2^64) for i < n (<= CB_CUDA_ADDS_MAX),
 * each a system-scope atomic after a system-scope fence, on stream: the
 * stream's earlier work is visible to a peer that reads the new value.
 * addr: device pointers of this GPU or mapped through CUDA IPC; the array
 * itself is host memory, copied at the call. Errors as cb_cuda_reduce. */
cudaError_t cb_cuda_counter_add(uint64_t *const *addr, int n, uint64_t delta,
				cudaStream_t stream);

#ifdef __cplusplus
}
#endif

#endif
