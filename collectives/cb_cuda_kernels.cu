// Device kernels of the cuda backend: the fused reduce (remote load + local
// load + store) and the avg finalize. Memory-bound: 16-byte loads and stores,
// several vectors in flight per thread, a grid-stride loop over a grid of a
// few blocks per multiprocessor. Scalar kernels take the unaligned head and
// tail (cb_vec_split in cb_cuda_plan.h).
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <stdint.h>

#include "cb_cuda_kernels.h"
#include "cb_cuda_plan.h"

namespace {

constexpr unsigned kThreads = 512;
constexpr unsigned kUnroll = 4;

// Arithmetic per dtype. Integers combine in the unsigned type of the same
// width (wrap-around, never signed overflow); half and bfloat16 in float,
// rounded once; min/max compare in the dtype's own order.
template <typename T> struct Unsigned { using type = T; };
template <> struct Unsigned<int8_t> { using type = uint8_t; };
template <> struct Unsigned<int32_t> { using type = uint32_t; };
template <> struct Unsigned<int64_t> { using type = uint64_t; };

template <typename T> struct Arith {
	using U = typename Unsigned<T>::type;
	__device__ static T sum(T a, T b) { return (T)(U)((U)a + (U)b); }
	__device__ static T prod(T a, T b) { return (T)(U)((U)a * (U)b); }
	__device__ static T div(T a, int n) { return (T)(a / n); } /* C division: toward zero */
};
// uint8 * uint8 promotes to int: 255 * 255 fits, the cast back wraps.
template <> struct Arith<float> {
	__device__ static float sum(float a, float b) { return a + b; }
	__device__ static float prod(float a, float b) { return a * b; }
	__device__ static float div(float a, int n) { return a / (float)n; }
};
template <> struct Arith<double> {
	__device__ static double sum(double a, double b) { return a + b; }
	__device__ static double prod(double a, double b) { return a * b; }
	__device__ static double div(double a, int n) { return a / (double)n; }
};

template <typename T> struct Widened {
	__device__ static float in(T x);
	__device__ static T out(float x);
};
template <> struct Widened<__half> {
	__device__ static float in(__half x) { return __half2float(x); }
	__device__ static __half out(float x) { return __float2half_rn(x); }
};
template <> struct Widened<__nv_bfloat16> {
	__device__ static float in(__nv_bfloat16 x) { return __bfloat162float(x); }
	__device__ static __nv_bfloat16 out(float x) { return __float2bfloat16_rn(x); }
};

template <typename T, int OP> __device__ __forceinline__ T apply(T a, T b)
{
	if (OP == CB_SUM || OP == CB_AVG)
		return Arith<T>::sum(a, b);
	if (OP == CB_PROD)
		return Arith<T>::prod(a, b);
	if (OP == CB_MIN)
		return b < a ? b : a;
	return a < b ? b : a;
}

template <typename T, int OP> struct Combine {
	__device__ static T run(T a, T b) { return apply<T, OP>(a, b); }
	__device__ static T finish(T a, int n) { return Arith<T>::div(a, n); }
};
template <typename H, int OP> struct Combine16 {
	__device__ static H run(H a, H b)
	{
		return Widened<H>::out(apply<float, OP>(Widened<H>::in(a), Widened<H>::in(b)));
	}
	__device__ static H finish(H a, int n) { return Widened<H>::out(Widened<H>::in(a) / (float)n); }
};
template <int OP> struct Combine<__half, OP> : Combine16<__half, OP> {};
template <int OP> struct Combine<__nv_bfloat16, OP> : Combine16<__nv_bfloat16, OP> {};

template <typename T, int OP>
__global__ void reduce_vec(uint4 *__restrict__ dst, const uint4 *a, const uint4 *b, size_t nvec)
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
__global__ void reduce_scalar(T *dst, const T *a, const T *b, size_t n)
{
	size_t stride = (size_t)gridDim.x * blockDim.x;

	for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
		dst[i] = Combine<T, OP>::run(a[i], b[i]);
}

template <typename T>
__global__ void finalize_avg(T *buf, size_t n, int nranks)
{
	size_t stride = (size_t)gridDim.x * blockDim.x;

	for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
		buf[i] = Combine<T, CB_AVG>::finish(buf[i], nranks);
}

template <typename T, int OP>
cudaError_t launch_reduce(void *dst, const void *a, const void *b, size_t count,
			  unsigned max_blocks, cudaStream_t s)
{
	struct cb_vec_plan p = cb_vec_split((uintptr_t)dst, (uintptr_t)a, (uintptr_t)b, count,
					    sizeof(T));
	T *d = static_cast<T *>(dst);
	const T *x = static_cast<const T *>(a), *y = static_cast<const T *>(b);
	size_t body = p.nvec * (16 / sizeof(T));

	if (p.head)
		reduce_scalar<T, OP><<<cb_grid_blocks(p.head, kThreads, 1, max_blocks), kThreads, 0, s>>>(
			d, x, y, p.head);
	if (p.nvec)
		reduce_vec<T, OP><<<cb_grid_blocks(p.nvec, kThreads, kUnroll, max_blocks), kThreads, 0, s>>>(
			reinterpret_cast<uint4 *>(d + p.head), reinterpret_cast<const uint4 *>(x + p.head),
			reinterpret_cast<const uint4 *>(y + p.head), p.nvec);
	if (p.tail)
		reduce_scalar<T, OP><<<1, kThreads, 0, s>>>(d + p.head + body, x + p.head + body,
							    y + p.head + body, p.tail);
	return cudaGetLastError();
}

template <typename T>
cudaError_t launch_by_op(void *dst, const void *a, const void *b, size_t count, enum cb_op op,
			 unsigned max_blocks, cudaStream_t s)
{
	switch (op) {
	case CB_SUM: return launch_reduce<T, CB_SUM>(dst, a, b, count, max_blocks, s);
	case CB_PROD: return launch_reduce<T, CB_PROD>(dst, a, b, count, max_blocks, s);
	case CB_MIN: return launch_reduce<T, CB_MIN>(dst, a, b, count, max_blocks, s);
	case CB_MAX: return launch_reduce<T, CB_MAX>(dst, a, b, count, max_blocks, s);
	case CB_AVG: return launch_reduce<T, CB_AVG>(dst, a, b, count, max_blocks, s);
	default: return cudaErrorInvalidValue;
	}
}

template <typename T>
cudaError_t launch_finalize(void *buf, size_t count, int nranks, unsigned max_blocks,
			    cudaStream_t s)
{
	finalize_avg<T><<<cb_grid_blocks(count, kThreads, 1, max_blocks), kThreads, 0, s>>>(
		static_cast<T *>(buf), count, nranks);
	return cudaGetLastError();
}

} // namespace

extern "C" cudaError_t cb_cuda_reduce(void *dst, const void *a, const void *b, size_t count,
				      enum cb_dtype dt, enum cb_op op, unsigned max_blocks,
				      cudaStream_t s)
{
	if (count == 0)
		return cudaSuccess;
	switch (dt) {
	case CB_INT8: return launch_by_op<int8_t>(dst, a, b, count, op, max_blocks, s);
	case CB_UINT8: return launch_by_op<uint8_t>(dst, a, b, count, op, max_blocks, s);
	case CB_INT32: return launch_by_op<int32_t>(dst, a, b, count, op, max_blocks, s);
	case CB_UINT32: return launch_by_op<uint32_t>(dst, a, b, count, op, max_blocks, s);
	case CB_INT64: return launch_by_op<int64_t>(dst, a, b, count, op, max_blocks, s);
	case CB_UINT64: return launch_by_op<uint64_t>(dst, a, b, count, op, max_blocks, s);
	case CB_HALF: return launch_by_op<__half>(dst, a, b, count, op, max_blocks, s);
	case CB_BFLOAT16: return launch_by_op<__nv_bfloat16>(dst, a, b, count, op, max_blocks, s);
	case CB_FLOAT: return launch_by_op<float>(dst, a, b, count, op, max_blocks, s);
	case CB_DOUBLE: return launch_by_op<double>(dst, a, b, count, op, max_blocks, s);
	default: return cudaErrorInvalidValue;
	}
}

extern "C" cudaError_t cb_cuda_finalize(void *buf, size_t count, enum cb_dtype dt, enum cb_op op,
					int nranks, unsigned max_blocks, cudaStream_t s)
{
	if (op != CB_AVG || count == 0 || nranks <= 1)
		return cudaSuccess;
	switch (dt) {
	case CB_INT8: return launch_finalize<int8_t>(buf, count, nranks, max_blocks, s);
	case CB_UINT8: return launch_finalize<uint8_t>(buf, count, nranks, max_blocks, s);
	case CB_INT32: return launch_finalize<int32_t>(buf, count, nranks, max_blocks, s);
	case CB_UINT32: return launch_finalize<uint32_t>(buf, count, nranks, max_blocks, s);
	case CB_INT64: return launch_finalize<int64_t>(buf, count, nranks, max_blocks, s);
	case CB_UINT64: return launch_finalize<uint64_t>(buf, count, nranks, max_blocks, s);
	case CB_HALF: return launch_finalize<__half>(buf, count, nranks, max_blocks, s);
	case CB_BFLOAT16: return launch_finalize<__nv_bfloat16>(buf, count, nranks, max_blocks, s);
	case CB_FLOAT: return launch_finalize<float>(buf, count, nranks, max_blocks, s);
	case CB_DOUBLE: return launch_finalize<double>(buf, count, nranks, max_blocks, s);
	default: return cudaErrorInvalidValue;
	}
}
