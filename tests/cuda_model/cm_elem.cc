// The arithmetic of the CUDA model's kernels: cb_cuda_elem.cuh's element
// functions, the very code of the GPU kernels (cb_cuda_kernels.cu), compiled
// for the host, in a plain loop over the elements (the kernels' vector and
// scalar paths apply the same function to every element). Contract in
// cm_model.h.
#include "cm_model.h"

#include "cb_cuda_elem.cuh"

namespace {

using cb_elem::Combine;

template <typename T, int OP> void reduce(void *dst, const void *a, const void *b, size_t n)
{
	T *d = static_cast<T *>(dst);
	const T *x = static_cast<const T *>(a), *y = static_cast<const T *>(b);

	for (size_t i = 0; i < n; i++) // dst may alias a or b exactly: element by element
		d[i] = Combine<T, OP>::run(x[i], y[i]);
}

template <typename T> int by_op(void *dst, const void *a, const void *b, size_t n, enum cb_op op)
{
	switch (op) {
	case CB_SUM: reduce<T, CB_SUM>(dst, a, b, n); return 1;
	case CB_PROD: reduce<T, CB_PROD>(dst, a, b, n); return 1;
	case CB_MIN: reduce<T, CB_MIN>(dst, a, b, n); return 1;
	case CB_MAX: reduce<T, CB_MAX>(dst, a, b, n); return 1;
	case CB_AVG: reduce<T, CB_AVG>(dst, a, b, n); return 1;
	default: return 0;
	}
}

template <typename T> int finish(void *buf, size_t n, int nranks)
{
	T *p = static_cast<T *>(buf);

	for (size_t i = 0; i < n; i++)
		p[i] = Combine<T, CB_AVG>::finish(p[i], nranks);
	return 1;
}

} // namespace

extern "C" int cm_elem_reduce(void *dst, const void *a, const void *b, size_t count,
			      enum cb_dtype dt, enum cb_op op)
{
	switch (dt) {
	case CB_INT8: return by_op<int8_t>(dst, a, b, count, op);
	case CB_UINT8: return by_op<uint8_t>(dst, a, b, count, op);
	case CB_INT32: return by_op<int32_t>(dst, a, b, count, op);
	case CB_UINT32: return by_op<uint32_t>(dst, a, b, count, op);
	case CB_INT64: return by_op<int64_t>(dst, a, b, count, op);
	case CB_UINT64: return by_op<uint64_t>(dst, a, b, count, op);
	case CB_HALF: return by_op<__half>(dst, a, b, count, op);
	case CB_BFLOAT16: return by_op<__nv_bfloat16>(dst, a, b, count, op);
	case CB_FLOAT: return by_op<float>(dst, a, b, count, op);
	case CB_DOUBLE: return by_op<double>(dst, a, b, count, op);
	default: return 0;
	}
}

extern "C" int cm_elem_finalize(void *buf, size_t count, enum cb_dtype dt, int nranks)
{
	switch (dt) {
	case CB_INT8: return finish<int8_t>(buf, count, nranks);
	case CB_UINT8: return finish<uint8_t>(buf, count, nranks);
	case CB_INT32: return finish<int32_t>(buf, count, nranks);
	case CB_UINT32: return finish<uint32_t>(buf, count, nranks);
	case CB_INT64: return finish<int64_t>(buf, count, nranks);
	case CB_UINT64: return finish<uint64_t>(buf, count, nranks);
	case CB_HALF: return finish<__half>(buf, count, nranks);
	case CB_BFLOAT16: return finish<__nv_bfloat16>(buf, count, nranks);
	case CB_FLOAT: return finish<float>(buf, count, nranks);
	case CB_DOUBLE: return finish<double>(buf, count, nranks);
	default: return 0;
	}
}
