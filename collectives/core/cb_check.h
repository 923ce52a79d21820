/* cb_check: deterministic inputs, the exact reference result, and the
 * comparison that fills the #wrong column.
 *
 * Inputs depend only on (rank, element index, dtype, op, nranks), never on the
 * message size, so a reference computed once for the largest count serves every
 * smaller count of a sweep. They are chosen so that every partial result of the
 * reduction is exact in the dtype, whatever the order of the reduction:
 *   - integers: pseudo-random values over the whole range (odd ones for prod);
 *     wrapping arithmetic is associative and commutative, so any order is exact;
 *   - floating point, sum/avg: small integers in [-2, 2] (partial sums of up to
 *     64 ranks stay within 128, exact even in bfloat16);
 *   - floating point, min/max: integers in [-100, 100];
 *   - floating point, prod: +-1 on every rank but ranks 0 and 1, which also
 *     give +-2 and +-0.5, so every partial product is a power of two in [1/4, 4].
 * The reference is computed in wider precision (uint64 wrap arithmetic, double)
 * and rounded once to the dtype, following the semantics in cb_dtype.h; min and
 * max pick operands by the same rule as the host reduce and the CUDA kernels
 * (cb_minmax.h: a NaN loses to a number, -0 < +0). Inputs never hold a NaN,
 * so a NaN in an output is always wrong (the poison, below, is one).
 * Exactness holds while partial sums (at most 2 * nranks) are exact: up to 128
 * ranks for bfloat16, 1024 for half; collbench runs at most 64 ranks per check.
 * eps(dt) below is the gap between 1.0 and the next value: 2^-10 (half),
 * 2^-7 (bfloat16), 2^-23 (float), 2^-52 (double).
 */
#ifndef CB_CHECK_H
#define CB_CHECK_H

#include <stddef.h>

#include "cb_dtype.h"

/* Writes rank's input elements with global indices [first, first + count) to
 * buf (count elements of dt). rank in [0, nranks). Never fails. */
void cb_fill_input(void *buf, size_t first, size_t count, enum cb_dtype dt,
		   enum cb_op op, int rank, int nranks);

/* Writes the exact allreduce result over ranks 0..nranks-1 for the elements
 * [first, first + count) to buf. Costs O(count * nranks). Never fails. */
void cb_fill_reference(void *buf, size_t first, size_t count, enum cb_dtype dt,
		       enum cb_op op, int nranks);

/* Number of elements i in [0, count) where out[i] differs from ref[i].
 * Comparison is bitwise-exact except for avg on floating dtypes, where a
 * library may pre-multiply by 1/nranks (NCCL does) and so round differently:
 * there |out - ref| <= 2 * nranks * eps(dt) is accepted (inputs are <= 2 in
 * magnitude, so that bounds the rounding of nranks scaled additions).
 * NaN never matches. */
size_t cb_count_wrong(const void *out, const void *ref, size_t count,
		      enum cb_dtype dt, enum cb_op op, int nranks);

/* Fills count elements with a poison pattern before a check iteration, so that
 * an element the algorithm never wrote counts as wrong: all-ones bytes for the
 * floating dtypes (a NaN, which never matches); 0xa5 bytes for integers (a
 * single element may equal its reference by chance, a whole unwritten chunk
 * cannot). Never fails. */
void cb_fill_poison(void *buf, size_t count, enum cb_dtype dt);

#endif
