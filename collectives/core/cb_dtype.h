/* cb_dtype: element types (dtype), reduction operators (op) and the host
 * reduce kernels shared by every host-side algorithm and by the checker.
 *
 * Names follow nccl-tests (-d int8 ... bfloat16, -o sum prod min max avg).
 * Semantics, identical on every backend:
 *   - integer sum and prod wrap modulo 2^bits, as the unsigned type of the same
 *     width does (signed values are reinterpreted, never overflowed in C);
 *   - avg = the op's sum, then one division by the number of ranks in the
 *     dtype's own arithmetic: truncation toward zero for integers (signed
 *     division for signed types), a correctly rounded division for float and
 *     double, and float arithmetic rounded once to the dtype for half/bfloat16;
 *   - half (IEEE binary16) and bfloat16 are stored as uint16_t; on the host they
 *     are reduced "widened": converted to float, combined, rounded back to the
 *     dtype with round-to-nearest-even;
 *   - min and max on floating dtypes: IEEE 754-2019 minimumNumber/maximumNumber,
 *     as NCCL (a NaN loses to a number, -0 < +0; cb_minmax.h); the result is
 *     one of the operands, bit for bit.
 */
#ifndef CB_DTYPE_H
#define CB_DTYPE_H

#include <stddef.h>
#include <stdint.h>

enum cb_dtype {
	CB_INT8, CB_UINT8, CB_INT32, CB_UINT32, CB_INT64, CB_UINT64,
	CB_HALF, CB_BFLOAT16, CB_FLOAT, CB_DOUBLE,
	CB_DTYPE_COUNT
};

enum cb_op { CB_SUM, CB_PROD, CB_MIN, CB_MAX, CB_AVG, CB_OP_COUNT };

/* Bytes per element (1, 2, 4 or 8). */
size_t cb_dtype_size(enum cb_dtype dt);

/* Lower-case nccl-tests name ("int8", "bfloat16", ...). */
const char *cb_dtype_name(enum cb_dtype dt);
const char *cb_op_name(enum cb_op op);

/* Looks up a name; returns 0 and sets *out, or -1 if unknown (out untouched). */
int cb_dtype_parse(const char *name, enum cb_dtype *out);
int cb_op_parse(const char *name, enum cb_op *out);

/* 1 for half, bfloat16, float, double; 0 for the integer dtypes. */
int cb_dtype_is_float(enum cb_dtype dt);

/* IEEE binary16 and bfloat16 conversions. to_float is exact; from_float rounds
 * to nearest even, keeps signed zeros, infinities, and NaN (as a quiet NaN). */
float cb_half_to_float(uint16_t h);
uint16_t cb_float_to_half(float f);
float cb_bf16_to_float(uint16_t b);
uint16_t cb_float_to_bf16(float f);

/* Elementwise dst[i] = a[i] op b[i] for i in [0, count), count in elements.
 * avg combines as sum (see cb_finalize_host). dst may alias a or b exactly;
 * partial overlap is not allowed. Never fails. */
void cb_reduce_host(void *dst, const void *a, const void *b, size_t count,
		    enum cb_dtype dt, enum cb_op op);

/* The op's last step on a fully reduced buffer of count elements: avg divides
 * every element by nranks (semantics above); every other op leaves buf as is. */
void cb_finalize_host(void *buf, size_t count, enum cb_dtype dt, enum cb_op op,
		      int nranks);

#endif
