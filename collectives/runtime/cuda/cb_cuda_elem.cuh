// cb_cuda_elem.cuh: the element-wise arithmetic of the cuda kernels
// (cb_cuda_kernels.cu), __host__ __device__ so that
// tests/unit/test_cuda_elem.cu compiles the very same functions for the host
// and checks them against the host reduce (cb_reduce_host, cb_finalize_host) for every dtype x op: the
// only test of the GPU arithmetic that needs no GPU.
//
// Semantics of cb_dtype.h: integers combine in the unsigned type of the same
// width (wrap-around, never signed overflow); half and bfloat16 combine in
// float and round once to the dtype (round to nearest even); avg combines as
// sum and divides once at the end in the dtype's own arithmetic; min/max on
// floating dtypes follow cb_minmax.h and return one of the operands bit for
// bit (16-bit types compare widened).
#ifndef CB_CUDA_ELEM_CUH
#define CB_CUDA_ELEM_CUH

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <stdint.h>

#include "cb_dtype.h"
#include "cb_minmax.h"

namespace cb_elem {

template <typename T> struct Unsigned { using type = T; };
template <> struct Unsigned<int8_t> { using type = uint8_t; };
template <> struct Unsigned<int32_t> { using type = uint32_t; };
template <> struct Unsigned<int64_t> { using type = uint64_t; };

// Integers: sum and prod wrap (uint8 * uint8 promotes to int: 255 * 255
// fits, the cast back wraps); min/max in the dtype's own order; avg's
// division is C's, toward zero.
template <typename T> struct Arith {
	using U = typename Unsigned<T>::type;
	CB_HD static T sum(T a, T b) { return (T)(U)((U)a + (U)b); }
	CB_HD static T prod(T a, T b) { return (T)(U)((U)a * (U)b); }
	CB_HD static bool min_takes_b(T a, T b) { return b < a; }
	CB_HD static bool max_takes_b(T a, T b) { return b > a; }
	CB_HD static T div(T a, int n) { return (T)(a / n); }
};
// float and double: IEEE arithmetic, min/max as cb_minmax.h
template <typename F> struct ArithFP {
	CB_HD static F sum(F a, F b) { return a + b; }
	CB_HD static F prod(F a, F b) { return a * b; }
	CB_HD static F div(F a, int n) { return a / (F)n; }
};
template <> struct Arith<float> : ArithFP<float> {
	CB_HD static bool min_takes_b(float a, float b) { return cb_min_takes_b_f(a, b); }
	CB_HD static bool max_takes_b(float a, float b) { return cb_max_takes_b_f(a, b); }
};
template <> struct Arith<double> : ArithFP<double> {
	CB_HD static bool min_takes_b(double a, double b) { return cb_min_takes_b_d(a, b); }
	CB_HD static bool max_takes_b(double a, double b) { return cb_max_takes_b_d(a, b); }
};

// The 16-bit floating dtypes, widened to float and rounded back (the CUDA
// conversions are __host__ __device__ and round to nearest even).
template <typename H> struct Widened;
template <> struct Widened<__half> {
	CB_HD static float in(__half x) { return __half2float(x); }
	CB_HD static __half out(float x) { return __float2half_rn(x); }
};
template <> struct Widened<__nv_bfloat16> {
	CB_HD static float in(__nv_bfloat16 x) { return __bfloat162float(x); }
	CB_HD static __nv_bfloat16 out(float x) { return __float2bfloat16_rn(x); }
};

// a op b for one element; OP is an enum cb_op (CB_AVG combines as CB_SUM).
template <typename T, int OP> struct Combine {
	CB_HD static T run(T a, T b)
	{
		if (OP == CB_SUM || OP == CB_AVG)
			return Arith<T>::sum(a, b);
		if (OP == CB_PROD)
			return Arith<T>::prod(a, b);
		if (OP == CB_MIN)
			return Arith<T>::min_takes_b(a, b) ? b : a;
		return Arith<T>::max_takes_b(a, b) ? b : a;
	}
	CB_HD static T finish(T a, int n) { return Arith<T>::div(a, n); }
};
template <typename H, int OP> struct Combine16 {
	CB_HD static H run(H a, H b)
	{
		float x = Widened<H>::in(a), y = Widened<H>::in(b);

		if (OP == CB_MIN) // an operand, not a rounded value: its own bits
			return Arith<float>::min_takes_b(x, y) ? b : a;
		if (OP == CB_MAX)
			return Arith<float>::max_takes_b(x, y) ? b : a;
		return Widened<H>::out(Combine<float, OP>::run(x, y));
	}
	CB_HD static H finish(H a, int n) { return Widened<H>::out(Widened<H>::in(a) / (float)n); }
};
template <int OP> struct Combine<__half, OP> : Combine16<__half, OP> {};
template <int OP> struct Combine<__nv_bfloat16, OP> : Combine16<__nv_bfloat16, OP> {};

} // namespace cb_elem

#endif
