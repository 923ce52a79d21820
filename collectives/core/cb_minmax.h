/* cb_minmax: what min and max mean on floating-point values, defined once for
 * the host reduce (cb_dtype.c), the CUDA kernels (cb_cuda_elem.cuh) and the
 * checker's reference (bench/cb_check.c), so all three agree element for
 * element. Plain C, also compiled by nvcc for host and device.
 *
 * The semantics are IEEE 754-2019 minimumNumber / maximumNumber (C23
 * fminimum_num / fmaximum_num), chosen because they are NCCL's: NCCL 2.28
 * (src/device/reduce_kernel.h) reduces float and double with fminf/fmaxf and
 * half and bfloat16 with __hmin/__hmax (sm_80 and newer), which ignore a NaN
 * operand, and __hmin/__hmax order -0 below +0 (CUDA math API):
 *   - a NaN loses to a number: min(NaN, x) = min(x, NaN) = x, max alike;
 *   - two NaNs give a NaN (the first operand: which NaN is not part of the
 *     contract, and the checker asks only for a NaN);
 *   - -0 is below +0: min(-0, +0) = min(+0, -0) = -0, max gives +0;
 *   - otherwise the usual order.
 * The result is always one of the two operands, never a rounded value, so
 * 16-bit types compare widened and return their own bits; min and max are
 * commutative and associative (NaN payloads aside), so every algorithm and
 * reduction order gives the same bits. Integers use their own order.
 *
 * Each predicate says whether the result of op(a, b) is b (else it is a). */
#ifndef CB_MINMAX_H
#define CB_MINMAX_H

#include <math.h>

#ifdef __CUDACC__
#define CB_HD __host__ __device__
#else
#define CB_HD
#endif

#define CB_DEFINE_MINMAX(SUFFIX, T)						\
	static inline CB_HD int cb_min_takes_b_##SUFFIX(T a, T b)		\
	{									\
		if (b != b)		/* b NaN: a wins (a number or a NaN) */ \
			return 0;						\
		if (a != a)		/* a NaN, b a number */			\
			return 1;						\
		if (a == b)		/* equal; only zeros differ: -0 < +0 */	\
			return signbit(b) && !signbit(a);			\
		return b < a;							\
	}									\
	static inline CB_HD int cb_max_takes_b_##SUFFIX(T a, T b)		\
	{									\
		if (b != b)							\
			return 0;						\
		if (a != a)							\
			return 1;						\
		if (a == b)							\
			return signbit(a) && !signbit(b);			\
		return b > a;							\
	}

CB_DEFINE_MINMAX(f, float)
CB_DEFINE_MINMAX(d, double)

#undef CB_DEFINE_MINMAX

#endif
