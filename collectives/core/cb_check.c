/* cb_check: deterministic inputs, the exact reference and the #wrong count.
 * Contract in cb_check.h. */
#include "cb_check.h"

#include <math.h>
#include <string.h>

#include "cb_minmax.h"

/* ---- inputs ----------------------------------------------------------- */

/* splitmix64's finaliser: a cheap, well-mixed 64-bit hash. */
static inline uint64_t cb_mix(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* The stream of one (rank, dtype): element i hashes seed + i * golden, as
 * splitmix64's i-th output, so it does not depend on where a buffer starts. */
static uint64_t cb_seed(int rank, enum cb_dtype dt)
{
	return cb_mix(0x636f6c6c62656e63ull ^ ((uint64_t)(unsigned)rank << 8) ^
		      (uint64_t)dt);
}

static inline uint64_t cb_hash(uint64_t seed, size_t i)
{
	return cb_mix(seed + (uint64_t)i * 0x9e3779b97f4a7c15ull);
}

/* A floating-point input pattern: tab[k] if tab, else lo + k, with
 * k uniform in [0, n). Every value is exact in every floating dtype. */
struct cb_fpat {
	const float *tab;
	uint32_t n;
	int lo;
};

/* {+-2, +-0.5} around {-1, 1}: ranks 0 and 1 draw from all six, other
 * ranks from the middle two, so partial products stay in [1/4, 4]. */
static const float cb_prod_vals[6] = { -2.0f, -0.5f, -1.0f, 1.0f, 0.5f, 2.0f };

static struct cb_fpat cb_fpat_for(enum cb_op op, int rank)
{
	struct cb_fpat p = { NULL, 5, -2 };	/* sum, avg: [-2, 2] */

	if (op == CB_MIN || op == CB_MAX) {
		p.n = 201;			/* [-100, 100] */
		p.lo = -100;
	} else if (op == CB_PROD) {
		p.tab = rank < 2 ? cb_prod_vals : cb_prod_vals + 2;
		p.n = rank < 2 ? 6 : 2;
	}
	return p;
}

static inline float cb_fpat_value(const struct cb_fpat *p, uint64_t h)
{
	uint32_t k = (uint32_t)(((h >> 32) * p->n) >> 32);

	return p->tab ? p->tab[k] : (float)(p->lo + (int)k);
}

#define CB_FILL(T, EXPR)						\
	do {								\
		T *o_ = buf;						\
		for (size_t i = 0; i < count; i++) {			\
			uint64_t h = cb_hash(seed, first + i);		\
			o_[i] = (T)(EXPR);				\
		}							\
	} while (0)

void cb_fill_input(void *buf, size_t first, size_t count, enum cb_dtype dt,
		   enum cb_op op, int rank, int nranks)
{
	uint64_t seed = cb_seed(rank, dt), odd = op == CB_PROD;
	struct cb_fpat p = cb_fpat_for(op, rank);

	(void)nranks;	/* the patterns hold for any world size up to 64 */
	switch (dt) {
	/* integers: the hash's low bits (odd for prod); signed dtypes get
	 * the same bit patterns as unsigned ones */
	case CB_INT8: case CB_UINT8: CB_FILL(uint8_t, h | odd); break;
	case CB_INT32: case CB_UINT32: CB_FILL(uint32_t, h | odd); break;
	case CB_INT64: case CB_UINT64: CB_FILL(uint64_t, h | odd); break;
	case CB_HALF:
		CB_FILL(uint16_t, cb_float_to_half(cb_fpat_value(&p, h)));
		break;
	case CB_BFLOAT16:
		CB_FILL(uint16_t, cb_float_to_bf16(cb_fpat_value(&p, h)));
		break;
	case CB_FLOAT: CB_FILL(float, cb_fpat_value(&p, h)); break;
	case CB_DOUBLE: CB_FILL(double, cb_fpat_value(&p, h)); break;
	default: break;
	}
}

/* ---- reference --------------------------------------------------------- */

#define CB_BLOCK 512

/* One rank's inputs for a block; each dtype is written and read through its
 * own member, so no object is accessed through a foreign type. */
union cb_block {
	uint8_t u8[CB_BLOCK];
	uint16_t u16[CB_BLOCK];
	uint32_t u32[CB_BLOCK];
	uint64_t u64[CB_BLOCK];
	float f[CB_BLOCK];
	double d[CB_BLOCK];
};

static void *cb_block_of(union cb_block *b, enum cb_dtype dt)
{
	switch (dt) {
	case CB_INT8: case CB_UINT8: return b->u8;
	case CB_HALF: case CB_BFLOAT16: return b->u16;
	case CB_INT32: case CB_UINT32: return b->u32;
	case CB_FLOAT: return b->f;
	case CB_DOUBLE: return b->d;
	default: return b->u64;
	}
}

static int cb_dtype_is_signed(enum cb_dtype dt)
{
	return dt == CB_INT8 || dt == CB_INT32 || dt == CB_INT64;
}

/* Widens n integers to uint64, sign-extending signed dtypes (mod 2^64). */
static void cb_widen_int(uint64_t *w, const void *src, size_t n,
			 enum cb_dtype dt)
{
	const int8_t *i8 = src;
	const uint8_t *u8 = src;
	const int32_t *i32 = src;
	const uint32_t *u32 = src;
	const int64_t *i64 = src;
	const uint64_t *u64 = src;

	for (size_t i = 0; i < n; i++) {
		switch (dt) {
		case CB_INT8: w[i] = (uint64_t)(int64_t)i8[i]; break;
		case CB_UINT8: w[i] = u8[i]; break;
		case CB_INT32: w[i] = (uint64_t)(int64_t)i32[i]; break;
		case CB_UINT32: w[i] = u32[i]; break;
		case CB_INT64: w[i] = (uint64_t)i64[i]; break;
		default: w[i] = u64[i]; break;
		}
	}
}

/* Widens n floating-point elements to double (exactly). */
static void cb_widen_fp(double *w, const void *src, size_t n, enum cb_dtype dt)
{
	const uint16_t *u16 = src;
	const float *f = src;
	const double *d = src;

	for (size_t i = 0; i < n; i++) {
		switch (dt) {
		case CB_HALF: w[i] = cb_half_to_float(u16[i]); break;
		case CB_BFLOAT16: w[i] = cb_bf16_to_float(u16[i]); break;
		case CB_FLOAT: w[i] = f[i]; break;
		default: w[i] = d[i]; break;
		}
	}
}

/* acc = acc op v in uint64 wrap arithmetic; min/max compare as signed when
 * flip is the sign bit (x ^ flip orders signed values as unsigned). */
static void cb_combine_int(uint64_t *acc, const uint64_t *v, size_t n,
			   enum cb_op op, uint64_t flip)
{
	for (size_t i = 0; i < n; i++) {
		int less = (v[i] ^ flip) < (acc[i] ^ flip);

		switch (op) {
		case CB_PROD: acc[i] *= v[i]; break;
		case CB_MIN: acc[i] = less ? v[i] : acc[i]; break;
		case CB_MAX: acc[i] = less ? acc[i] : v[i]; break;
		default: acc[i] += v[i]; break;
		}
	}
}

static void cb_combine_fp(double *acc, const double *v, size_t n,
			  enum cb_op op)
{
	for (size_t i = 0; i < n; i++) {
		switch (op) {
		case CB_PROD: acc[i] *= v[i]; break;
		/* the semantics of every backend (cb_minmax.h); widening to
		 * double is exact, so the choice is the dtype's own */
		case CB_MIN: acc[i] = cb_min_takes_b_d(acc[i], v[i]) ? v[i] : acc[i]; break;
		case CB_MAX: acc[i] = cb_max_takes_b_d(acc[i], v[i]) ? v[i] : acc[i]; break;
		default: acc[i] += v[i]; break;
		}
	}
}

/* uint64 -> int64 without implementation-defined conversion. */
static int64_t cb_u64_to_s64(uint64_t u)
{
	return u <= INT64_MAX ? (int64_t)u : -(int64_t)~u - 1;
}

/* avg of a wrapped sum: truncate to the dtype's width, read it as the
 * dtype (signed or not), divide as C does; returns the quotient's bits. */
static uint64_t cb_int_avg(uint64_t sum, enum cb_dtype dt, int nranks)
{
	unsigned bits = 8 * (unsigned)cb_dtype_size(dt);
	uint64_t mask = bits == 64 ? ~0ull : (1ull << bits) - 1, u = sum & mask;

	if (!cb_dtype_is_signed(dt))
		return u / (uint64_t)nranks;
	if (bits < 64 && (u >> (bits - 1)))
		u |= ~mask;			/* sign-extend */
	return (uint64_t)(cb_u64_to_s64(u) / nranks);
}

/* Rounds n wide results once to dt at dst (avg divides first). */
static void cb_narrow_int(void *dst, const uint64_t *acc, size_t n,
			  enum cb_dtype dt, enum cb_op op, int nranks)
{
	uint8_t *u8 = dst;
	uint32_t *u32 = dst;
	uint64_t *u64 = dst;

	for (size_t i = 0; i < n; i++) {
		uint64_t v = op == CB_AVG ? cb_int_avg(acc[i], dt, nranks) : acc[i];

		switch (cb_dtype_size(dt)) {
		case 1: u8[i] = (uint8_t)v; break;
		case 4: u32[i] = (uint32_t)v; break;
		default: u64[i] = v; break;
		}
	}
}

/* The sums are exact integers and every other result is exact in dt, so
 * the cast to float rounds nothing; avg then divides as cb_dtype.h says. */
static void cb_narrow_fp(void *dst, const double *acc, size_t n,
			 enum cb_dtype dt, enum cb_op op, int nranks)
{
	uint16_t *u16 = dst;
	float *f = dst;
	double *d = dst;
	float fdiv = op == CB_AVG ? (float)nranks : 1.0f;
	double ddiv = op == CB_AVG ? (double)nranks : 1.0;

	for (size_t i = 0; i < n; i++) {
		switch (dt) {
		case CB_HALF:
			u16[i] = cb_float_to_half((float)acc[i] / fdiv);
			break;
		case CB_BFLOAT16:
			u16[i] = cb_float_to_bf16((float)acc[i] / fdiv);
			break;
		case CB_FLOAT: f[i] = (float)acc[i] / fdiv; break;
		default: d[i] = acc[i] / ddiv; break;
		}
	}
}

void cb_fill_reference(void *buf, size_t first, size_t count, enum cb_dtype dt,
		       enum cb_op op, int nranks)
{
	union cb_block blk;
	void *tmp = cb_block_of(&blk, dt);
	uint64_t iacc[CB_BLOCK], iv[CB_BLOCK];
	double facc[CB_BLOCK], fv[CB_BLOCK];
	int fp = cb_dtype_is_float(dt);
	uint64_t flip = cb_dtype_is_signed(dt) ? 1ull << 63 : 0;
	size_t esize = cb_dtype_size(dt);

	if (nranks < 1)
		nranks = 1;
	for (size_t done = 0; done < count; done += CB_BLOCK) {
		size_t n = count - done < CB_BLOCK ? count - done : CB_BLOCK;

		for (int r = 0; r < nranks; r++) {
			cb_fill_input(tmp, first + done, n, dt, op, r, nranks);
			if (fp) {
				cb_widen_fp(r ? fv : facc, tmp, n, dt);
				if (r)
					cb_combine_fp(facc, fv, n, op);
			} else {
				cb_widen_int(r ? iv : iacc, tmp, n, dt);
				if (r)
					cb_combine_int(iacc, iv, n, op, flip);
			}
		}
		if (fp)
			cb_narrow_fp((char *)buf + done * esize, facc, n, dt, op,
				     nranks);
		else
			cb_narrow_int((char *)buf + done * esize, iacc, n, dt, op,
				      nranks);
	}
}

/* ---- comparison -------------------------------------------------------- */

/* Bitwise-equal and not a NaN (|x| > inf); ABS = INF = 0 for integers. */
#define CB_COUNT_EXACT(U, ABS, INF)					\
	do {								\
		const U *o_ = out, *r_ = ref;				\
		for (size_t i = 0; i < count; i++)			\
			wrong += o_[i] != r_[i] ||			\
				 (U)(o_[i] & (U)(ABS)) > (U)(INF);	\
	} while (0)

static size_t cb_count_exact(const void *out, const void *ref, size_t count,
			     enum cb_dtype dt)
{
	size_t wrong = 0;

	switch (dt) {
	case CB_INT8: case CB_UINT8: CB_COUNT_EXACT(uint8_t, 0, 0); break;
	case CB_INT32: case CB_UINT32: CB_COUNT_EXACT(uint32_t, 0, 0); break;
	case CB_INT64: case CB_UINT64: CB_COUNT_EXACT(uint64_t, 0, 0); break;
	case CB_HALF: CB_COUNT_EXACT(uint16_t, 0x7fff, 0x7c00); break;
	case CB_BFLOAT16: CB_COUNT_EXACT(uint16_t, 0x7fff, 0x7f80); break;
	case CB_FLOAT: CB_COUNT_EXACT(uint32_t, 0x7fffffff, 0x7f800000); break;
	case CB_DOUBLE:
		CB_COUNT_EXACT(uint64_t, 0x7fffffffffffffffull,
			       0x7ff0000000000000ull);
		break;
	default: break;
	}
	return wrong;
}

static int cb_near(double o, double r, double tol)
{
	if (isnan(o) || isnan(r))
		return 0;
	return o == r || fabs(o - r) <= tol;
}

/* avg on floating dtypes: |out - ref| <= 2 * nranks * eps(dt). */
static size_t cb_count_avg(const void *out, const void *ref, size_t count,
			   enum cb_dtype dt, int nranks)
{
	const uint16_t *o16 = out, *r16 = ref;
	const float *of = out, *rf = ref;
	const double *od = out, *rd = ref;
	double eps = dt == CB_HALF ? 0x1p-10 : dt == CB_BFLOAT16 ? 0x1p-7 :
		     dt == CB_FLOAT ? 0x1p-23 : 0x1p-52;
	double tol = 2.0 * nranks * eps;
	size_t wrong = 0;

	for (size_t i = 0; i < count; i++) {
		switch (dt) {
		case CB_HALF:
			wrong += !cb_near(cb_half_to_float(o16[i]),
					  cb_half_to_float(r16[i]), tol);
			break;
		case CB_BFLOAT16:
			wrong += !cb_near(cb_bf16_to_float(o16[i]),
					  cb_bf16_to_float(r16[i]), tol);
			break;
		case CB_FLOAT: wrong += !cb_near(of[i], rf[i], tol); break;
		default: wrong += !cb_near(od[i], rd[i], tol); break;
		}
	}
	return wrong;
}

size_t cb_count_wrong(const void *out, const void *ref, size_t count,
		      enum cb_dtype dt, enum cb_op op, int nranks)
{
	if (op == CB_AVG && cb_dtype_is_float(dt))
		return cb_count_avg(out, ref, count, dt, nranks);
	return cb_count_exact(out, ref, count, dt);
}

void cb_fill_poison(void *buf, size_t count, enum cb_dtype dt)
{
	memset(buf, cb_dtype_is_float(dt) ? 0xff : 0xa5,
	       count * cb_dtype_size(dt));
}
