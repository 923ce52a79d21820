/* cb_dtype: names, half/bfloat16 conversions and the host reduce kernels.
 * Contract in cb_dtype.h. */
#include "cb_dtype.h"

#include <string.h>

#include "cb_minmax.h"

static const char *const cb_dtype_names[CB_DTYPE_COUNT] = {
	"int8", "uint8", "int32", "uint32", "int64", "uint64",
	"half", "bfloat16", "float", "double",
};

static const char *const cb_op_names[CB_OP_COUNT] = {
	"sum", "prod", "min", "max", "avg",
};

static const size_t cb_dtype_sizes[CB_DTYPE_COUNT] = {
	1, 1, 4, 4, 8, 8, 2, 2, 4, 8,
};

size_t cb_dtype_size(enum cb_dtype dt)
{
	return (unsigned)dt < CB_DTYPE_COUNT ? cb_dtype_sizes[dt] : 0;
}

const char *cb_dtype_name(enum cb_dtype dt)
{
	return (unsigned)dt < CB_DTYPE_COUNT ? cb_dtype_names[dt] : "unknown";
}

const char *cb_op_name(enum cb_op op)
{
	return (unsigned)op < CB_OP_COUNT ? cb_op_names[op] : "unknown";
}

int cb_dtype_parse(const char *name, enum cb_dtype *out)
{
	for (int i = 0; i < CB_DTYPE_COUNT; i++) {
		if (strcmp(name, cb_dtype_names[i]) == 0) {
			*out = (enum cb_dtype)i;
			return 0;
		}
	}
	return -1;
}

int cb_op_parse(const char *name, enum cb_op *out)
{
	for (int i = 0; i < CB_OP_COUNT; i++) {
		if (strcmp(name, cb_op_names[i]) == 0) {
			*out = (enum cb_op)i;
			return 0;
		}
	}
	return -1;
}

int cb_dtype_is_float(enum cb_dtype dt)
{
	return dt == CB_HALF || dt == CB_BFLOAT16 || dt == CB_FLOAT ||
	       dt == CB_DOUBLE;
}

/* ---- half and bfloat16 <-> float ------------------------------------ */

static inline uint32_t cb_f32_bits(float f)
{
	uint32_t x;

	memcpy(&x, &f, sizeof(x));
	return x;
}

static inline float cb_f32_from_bits(uint32_t x)
{
	float f;

	memcpy(&f, &x, sizeof(f));
	return f;
}

static inline float cb_h2f(uint16_t h)
{
	uint32_t sign = (uint32_t)(h & 0x8000) << 16;
	uint32_t e = (h >> 10) & 0x1f, m = h & 0x3ff;

	if (e == 0x1f)		/* inf, or NaN with its payload */
		return cb_f32_from_bits(sign | 0x7f800000 | (m << 13));
	if (e != 0)		/* normal: rebias 15 -> 127 */
		return cb_f32_from_bits(sign | ((e + 112) << 23) | (m << 13));
	if (m == 0)
		return cb_f32_from_bits(sign);
	/* subnormal m * 2^-24: normalise so the leading one is bit 10 */
	e = 113;
	while (!(m & 0x400)) {
		m <<= 1;
		e--;
	}
	return cb_f32_from_bits(sign | (e << 23) | ((m & 0x3ff) << 13));
}

/* Shifts m right by s (1..31) rounding to nearest, ties to even. */
static inline uint32_t cb_shift_rne(uint32_t m, unsigned s)
{
	uint32_t q = m >> s, rem = m & ((1u << s) - 1), half = 1u << (s - 1);

	return q + (rem > half || (rem == half && (q & 1)));
}

static inline uint16_t cb_f2h(float f)
{
	uint32_t x = cb_f32_bits(f);
	uint16_t sign = (uint16_t)((x >> 16) & 0x8000);
	uint32_t ax = x & 0x7fffffff, e = ax >> 23, h;

	if (ax > 0x7f800000)	/* NaN: keep the top payload bits, set quiet */
		return (uint16_t)(sign | 0x7e00 | ((ax >> 13) & 0x3ff));
	if (ax >= 0x38800000) {	/* |f| >= 2^-14: half normal, or overflow */
		/* rebias 127 -> 15; a mantissa carry bumps the exponent */
		h = cb_shift_rne(ax - 0x38000000, 13);
		return (uint16_t)(sign | (h >= 0x7c00 ? 0x7c00 : h));
	}
	if (e < 102)		/* |f| < 2^-25: rounds to zero */
		return sign;
	/* half subnormal: |f| = (m | 2^23) * 2^(e-150), unit 2^-24 */
	h = cb_shift_rne((ax & 0x7fffff) | 0x800000, 126 - e);
	return (uint16_t)(sign | h);
}

static inline float cb_b2f(uint16_t b)
{
	return cb_f32_from_bits((uint32_t)b << 16);
}

static inline uint16_t cb_f2b(float f)
{
	uint32_t x = cb_f32_bits(f);

	if ((x & 0x7fffffff) > 0x7f800000)	/* NaN: set the quiet bit */
		return (uint16_t)((x >> 16) | 0x0040);
	/* same exponent range as float: round the low 16 bits away; a carry
	 * ripples into the exponent and past the largest finite to inf */
	return (uint16_t)((x + 0x7fff + ((x >> 16) & 1)) >> 16);
}

float cb_half_to_float(uint16_t h) { return cb_h2f(h); }
uint16_t cb_float_to_half(float f) { return cb_f2h(f); }
float cb_bf16_to_float(uint16_t b) { return cb_b2f(b); }
uint16_t cb_float_to_bf16(float f) { return cb_f2b(f); }

/* ---- host reduce ---------------------------------------------------- */

/* One elementwise loop; x and y name a[i] and b[i]. No restrict: dst may
 * alias a or b, and compilers vectorise with a runtime overlap check. */
#define CB_LOOP(T, EXPR)						\
	do {								\
		T *d_ = dst;						\
		const T *a_ = a, *b_ = b;				\
		for (size_t i = 0; i < count; i++) {			\
			T x = a_[i], y = b_[i];				\
			d_[i] = (T)(EXPR);				\
		}							\
	} while (0)

/* Kernels for one dtype: sum and prod in U (the unsigned type of the same
 * width for integers, so they wrap), min and max in T: MIN_B(x, y) and
 * MAX_B(x, y) say whether the result is y (cb_minmax.h for floating types). */
#define CB_DEFINE_REDUCE(NAME, T, U, MIN_B, MAX_B)			\
static void NAME(void *dst, const void *a, const void *b, size_t count,	\
		 enum cb_op op)						\
{									\
	switch (op) {							\
	case CB_SUM:							\
	case CB_AVG: CB_LOOP(U, x + y); break;				\
	case CB_PROD: CB_LOOP(U, x * y); break;				\
	case CB_MIN: CB_LOOP(T, MIN_B(x, y) ? y : x); break;		\
	case CB_MAX: CB_LOOP(T, MAX_B(x, y) ? y : x); break;		\
	default: break;							\
	}								\
}

#define CB_INT_MIN_B(x, y) ((y) < (x))
#define CB_INT_MAX_B(x, y) ((y) > (x))

/* 16-bit floats: widen to float per element, round back once. */
#define CB_DEFINE_REDUCE16(NAME, TO_F, FROM_F)				\
static void NAME(void *dst, const void *a, const void *b, size_t count,	\
		 enum cb_op op)						\
{									\
	switch (op) {							\
	case CB_SUM:							\
	case CB_AVG: CB_LOOP(uint16_t, FROM_F(TO_F(x) + TO_F(y))); break; \
	case CB_PROD: CB_LOOP(uint16_t, FROM_F(TO_F(x) * TO_F(y))); break; \
	case CB_MIN:							\
		CB_LOOP(uint16_t, cb_min_takes_b_f(TO_F(x), TO_F(y)) ? y : x); \
		break;							\
	case CB_MAX:							\
		CB_LOOP(uint16_t, cb_max_takes_b_f(TO_F(x), TO_F(y)) ? y : x); \
		break;							\
	default: break;							\
	}								\
}

CB_DEFINE_REDUCE(cb_reduce_i8, int8_t, uint8_t, CB_INT_MIN_B, CB_INT_MAX_B)
CB_DEFINE_REDUCE(cb_reduce_u8, uint8_t, uint8_t, CB_INT_MIN_B, CB_INT_MAX_B)
CB_DEFINE_REDUCE(cb_reduce_i32, int32_t, uint32_t, CB_INT_MIN_B, CB_INT_MAX_B)
CB_DEFINE_REDUCE(cb_reduce_u32, uint32_t, uint32_t, CB_INT_MIN_B, CB_INT_MAX_B)
CB_DEFINE_REDUCE(cb_reduce_i64, int64_t, uint64_t, CB_INT_MIN_B, CB_INT_MAX_B)
CB_DEFINE_REDUCE(cb_reduce_u64, uint64_t, uint64_t, CB_INT_MIN_B, CB_INT_MAX_B)
CB_DEFINE_REDUCE(cb_reduce_f32, float, float, cb_min_takes_b_f, cb_max_takes_b_f)
CB_DEFINE_REDUCE(cb_reduce_f64, double, double, cb_min_takes_b_d, cb_max_takes_b_d)
CB_DEFINE_REDUCE16(cb_reduce_f16, cb_h2f, cb_f2h)
CB_DEFINE_REDUCE16(cb_reduce_bf16, cb_b2f, cb_f2b)

void cb_reduce_host(void *dst, const void *a, const void *b, size_t count,
		    enum cb_dtype dt, enum cb_op op)
{
	switch (dt) {
	case CB_INT8: cb_reduce_i8(dst, a, b, count, op); break;
	case CB_UINT8: cb_reduce_u8(dst, a, b, count, op); break;
	case CB_INT32: cb_reduce_i32(dst, a, b, count, op); break;
	case CB_UINT32: cb_reduce_u32(dst, a, b, count, op); break;
	case CB_INT64: cb_reduce_i64(dst, a, b, count, op); break;
	case CB_UINT64: cb_reduce_u64(dst, a, b, count, op); break;
	case CB_HALF: cb_reduce_f16(dst, a, b, count, op); break;
	case CB_BFLOAT16: cb_reduce_bf16(dst, a, b, count, op); break;
	case CB_FLOAT: cb_reduce_f32(dst, a, b, count, op); break;
	case CB_DOUBLE: cb_reduce_f64(dst, a, b, count, op); break;
	default: break;
	}
}

/* In-place p[i] = EXPR(p[i]) over buf; x names p[i]. */
#define CB_MAP(T, EXPR)							\
	do {								\
		T *p_ = buf;						\
		for (size_t i = 0; i < count; i++) {			\
			T x = p_[i];					\
			p_[i] = (T)(EXPR);				\
		}							\
	} while (0)

void cb_finalize_host(void *buf, size_t count, enum cb_dtype dt, enum cb_op op,
		      int nranks)
{
	/* x / 1 is exact in every dtype; nranks < 1 is not a world size */
	if (op != CB_AVG || nranks <= 1)
		return;
	switch (dt) {
	case CB_INT8: CB_MAP(int8_t, x / nranks); break;
	case CB_UINT8: CB_MAP(uint8_t, x / nranks); break;
	case CB_INT32: CB_MAP(int32_t, x / nranks); break;
	case CB_UINT32: CB_MAP(uint32_t, x / (uint32_t)nranks); break;
	case CB_INT64: CB_MAP(int64_t, x / nranks); break;
	case CB_UINT64: CB_MAP(uint64_t, x / (uint64_t)nranks); break;
	case CB_HALF:
		CB_MAP(uint16_t, cb_f2h(cb_h2f(x) / (float)nranks));
		break;
	case CB_BFLOAT16:
		CB_MAP(uint16_t, cb_f2b(cb_b2f(x) / (float)nranks));
		break;
	case CB_FLOAT: CB_MAP(float, x / (float)nranks); break;
	case CB_DOUBLE: CB_MAP(double, x / (double)nranks); break;
	default: break;
	}
}
