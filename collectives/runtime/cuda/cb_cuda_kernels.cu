// Device kernels of the cuda backend: the fused reduce (remote load + local
// load + store) and the avg finalize. Memory-bound: 16-byte loads and stores,
// several vectors in flight per thread, a grid-stride loop over as many
// blocks as the multiprocessors hold at once (the occupancy API's answer for
// each kernel, not a guess). Scalar kernels take the unaligned head and tail
// (cb_vec_split in cb_cuda_plan.h). The arithmetic per element is in
// cb_cuda_elem.cuh. Kernels are launched with cudaLaunchKernelEx, whose
// return value is that launch's own error: no launch check reads the
// thread's last-error slot, where an earlier call may have left something.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <stdint.h>

#include "cb_cuda_elem.cuh"
#include "cb_cuda_kernels.h"
#include "cb_cuda_plan.h"

namespace {

using cb_elem::Combine;

constexpr unsigned kThreads = 512;
constexpr unsigned kUnroll = 4;

// No __restrict__: dst may alias a or b (cb_cuda_kernels.h), and a restrict
// qualifier would let the compiler turn every load into a non-coherent one.
template <typename T, int OP>
__global__ void __launch_bounds__(kThreads)
reduce_vec(uint4 *dst, const uint4 *a, const uint4 *b, size_t nvec)
{
	constexpr int per = 16 / sizeof(T);
	size_t stride = (size_t)gridDim.x * blockDim.x;

	for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < nvec;
	     i += stride * kUnroll) {
		uint4 va[kUnroll], vb[kUnroll];
#pragma unroll
		for (unsigned u = 0; u < kUnroll; u++) // all loads first: several in flight
			if (i + u * stride < nvec) {
				va[u] = a[i + u * stride];
				vb[u] = b[i + u * stride];
			}
#pragma unroll
		for (unsigned u = 0; u < kUnroll; u++) {
			if (i + u * stride >= nvec)
				break;
			const T *ta = reinterpret_cast<const T *>(&va[u]);
			const T *tb = reinterpret_cast<const T *>(&vb[u]);
			uint4 vo;
			T *to = reinterpret_cast<T *>(&vo);
#pragma unroll
			for (int k = 0; k < per; k++)
				to[k] = Combine<T, OP>::run(ta[k], tb[k]);
			dst[i + u * stride] = vo;
		}
	}
}

template <typename T, int OP>
__global__ void __launch_bounds__(kThreads)
reduce_scalar(T *dst, const T *a, const T *b, size_t n)
{
	size_t stride = (size_t)gridDim.x * blockDim.x;

	for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
		dst[i] = Combine<T, OP>::run(a[i], b[i]);
}

template <typename T>
__global__ void __launch_bounds__(kThreads) finalize_avg(T *buf, size_t n, int nranks)
{
	size_t stride = (size_t)gridDim.x * blockDim.x;

	for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
		buf[i] = Combine<T, CB_AVG>::finish(buf[i], nranks);
}

// One launch of Kernel over `items` work items (each thread takes up to
// `unroll` per pass), on a grid capped at the blocks of kThreads that the
// multiprocessors hold at once for this kernel (its registers and shared
// memory decide; asked once per kernel and cached, one GPU per process), so
// the grid-stride loop keeps every resident thread busy and no block waits
// for a second wave. Returns the launch's own error.
template <auto Kernel, typename... A>
cudaError_t launch(size_t items, unsigned unroll, int sm_count, cudaStream_t s, A... args)
{
	static int per_sm; // one per kernel
	cudaLaunchConfig_t cfg = {};
	cudaError_t err = cudaSuccess;
	unsigned cap;

	if (per_sm == 0)
		err = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, Kernel, kThreads, 0);
	if (err != cudaSuccess)
		return err;
	cap = (unsigned)(per_sm > 0 ? per_sm : 1) * (unsigned)(sm_count > 0 ? sm_count : 1);
	cfg.gridDim = dim3(cb_grid_blocks(items, kThreads, unroll, cap));
	cfg.blockDim = dim3(kThreads);
	cfg.stream = s;
	return cudaLaunchKernelEx(&cfg, Kernel, args...);
}

template <typename T, int OP>
cudaError_t launch_reduce(void *dst, const void *a, const void *b, size_t count, int sm_count,
			  cudaStream_t s)
{
	struct cb_vec_plan p = cb_vec_split((uintptr_t)dst, (uintptr_t)a, (uintptr_t)b, count,
					    sizeof(T));
	T *d = static_cast<T *>(dst);
	const T *x = static_cast<const T *>(a), *y = static_cast<const T *>(b);
	size_t body = p.nvec * (16 / sizeof(T));
	cudaError_t err = cudaSuccess;

	if (p.head)
		err = launch<reduce_scalar<T, OP>>(p.head, 1, sm_count, s, d, x, y, p.head);
	if (err == cudaSuccess && p.nvec)
		err = launch<reduce_vec<T, OP>>(p.nvec, kUnroll, sm_count, s,
			     reinterpret_cast<uint4 *>(d + p.head),
			     reinterpret_cast<const uint4 *>(x + p.head),
			     reinterpret_cast<const uint4 *>(y + p.head), p.nvec);
	if (err == cudaSuccess && p.tail)
		err = launch<reduce_scalar<T, OP>>(p.tail, 1, sm_count, s, d + p.head + body,
			     x + p.head + body, y + p.head + body, p.tail);
	return err;
}

template <typename T>
cudaError_t launch_by_op(void *dst, const void *a, const void *b, size_t count, enum cb_op op,
			 int sm_count, cudaStream_t s)
{
	switch (op) {
	case CB_SUM: return launch_reduce<T, CB_SUM>(dst, a, b, count, sm_count, s);
	case CB_PROD: return launch_reduce<T, CB_PROD>(dst, a, b, count, sm_count, s);
	case CB_MIN: return launch_reduce<T, CB_MIN>(dst, a, b, count, sm_count, s);
	case CB_MAX: return launch_reduce<T, CB_MAX>(dst, a, b, count, sm_count, s);
	case CB_AVG: return launch_reduce<T, CB_AVG>(dst, a, b, count, sm_count, s);
	default: return cudaErrorInvalidValue;
	}
}

template <typename T>
cudaError_t launch_finalize(void *buf, size_t count, int nranks, int sm_count, cudaStream_t s)
{
	return launch<finalize_avg<T>>(count, 1, sm_count, s, static_cast<T *>(buf), count, nranks);
}

struct counter_adds {
	unsigned long long *addr[CB_CUDA_ADDS_MAX];
	int n;
};

__global__ void counter_add(counter_adds a, unsigned long long delta)
{
	int i = (int)threadIdx.x;

	__threadfence_system();
	if (i < a.n)
		atomicAdd_system(a.addr[i], delta);
}

} // namespace

extern "C" cudaError_t cb_cuda_counter_add(uint64_t *const *addr, int n, uint64_t delta,
					   cudaStream_t s)
{
	cudaLaunchConfig_t cfg = {};
	counter_adds a = {};

	if (n <= 0)
		return cudaSuccess;
	if (n > CB_CUDA_ADDS_MAX)
		return cudaErrorInvalidValue;
	for (int i = 0; i < n; i++)
		a.addr[i] = reinterpret_cast<unsigned long long *>(addr[i]);
	a.n = n;
	cfg.gridDim = dim3(1);
	cfg.blockDim = dim3(CB_CUDA_ADDS_MAX);
	cfg.stream = s;
	return cudaLaunchKernelEx(&cfg, counter_add, a, (unsigned long long)delta);
}

extern "C" cudaError_t cb_cuda_reduce(void *dst, const void *a, const void *b, size_t count,
				      enum cb_dtype dt, enum cb_op op, int sm_count,
				      cudaStream_t s)
{
	if (count == 0)
		return cudaSuccess;
	switch (dt) {
	case CB_INT8: return launch_by_op<int8_t>(dst, a, b, count, op, sm_count, s);
	case CB_UINT8: return launch_by_op<uint8_t>(dst, a, b, count, op, sm_count, s);
	case CB_INT32: return launch_by_op<int32_t>(dst, a, b, count, op, sm_count, s);
	case CB_UINT32: return launch_by_op<uint32_t>(dst, a, b, count, op, sm_count, s);
	case CB_INT64: return launch_by_op<int64_t>(dst, a, b, count, op, sm_count, s);
	case CB_UINT64: return launch_by_op<uint64_t>(dst, a, b, count, op, sm_count, s);
	case CB_HALF: return launch_by_op<__half>(dst, a, b, count, op, sm_count, s);
	case CB_BFLOAT16: return launch_by_op<__nv_bfloat16>(dst, a, b, count, op, sm_count, s);
	case CB_FLOAT: return launch_by_op<float>(dst, a, b, count, op, sm_count, s);
	case CB_DOUBLE: return launch_by_op<double>(dst, a, b, count, op, sm_count, s);
	default: return cudaErrorInvalidValue;
	}
}

extern "C" cudaError_t cb_cuda_finalize(void *buf, size_t count, enum cb_dtype dt, enum cb_op op,
					int nranks, int sm_count, cudaStream_t s)
{
	if (op != CB_AVG || count == 0 || nranks <= 1)
		return cudaSuccess;
	switch (dt) {
	case CB_INT8: return launch_finalize<int8_t>(buf, count, nranks, sm_count, s);
	case CB_UINT8: return launch_finalize<uint8_t>(buf, count, nranks, sm_count, s);
	case CB_INT32: return launch_finalize<int32_t>(buf, count, nranks, sm_count, s);
	case CB_UINT32: return launch_finalize<uint32_t>(buf, count, nranks, sm_count, s);
	case CB_INT64: return launch_finalize<int64_t>(buf, count, nranks, sm_count, s);
	case CB_UINT64: return launch_finalize<uint64_t>(buf, count, nranks, sm_count, s);
	case CB_HALF: return launch_finalize<__half>(buf, count, nranks, sm_count, s);
	case CB_BFLOAT16: return launch_finalize<__nv_bfloat16>(buf, count, nranks, sm_count, s);
	case CB_FLOAT: return launch_finalize<float>(buf, count, nranks, sm_count, s);
	case CB_DOUBLE: return launch_finalize<double>(buf, count, nranks, sm_count, s);
	default: return cudaErrorInvalidValue;
	}
}
