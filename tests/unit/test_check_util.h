/* Shared by cb_check's unit tests (test_check.c, test_check_wrong.c):
 * buffers and element access for every dtype. */
#ifndef TEST_CHECK_UTIL_H
#define TEST_CHECK_UTIL_H

#include <stdint.h>
#include <stdlib.h>

#include "cb_check.h"

#define N 1000

/* Buffers shared by the tests, allocated once: storage without a declared
 * type may hold any dtype. a, b, c: N elements; in, work: 64 ranks' worth. */
static unsigned char *buf_a, *buf_b, *buf_c, *buf_in, *buf_work;

static inline int buffers_alloc(void **state)
{
	(void)state;
	buf_a = malloc(N * 8);
	buf_b = malloc(N * 8);
	buf_c = malloc(N * 8);
	buf_in = malloc(64 * N * 8);
	buf_work = malloc(64 * N * 8);
	return buf_a && buf_b && buf_c && buf_in && buf_work ? 0 : -1;
}

static inline int buffers_free(void **state)
{
	(void)state;
	free(buf_a);
	free(buf_b);
	free(buf_c);
	free(buf_in);
	free(buf_work);
	return 0;
}

static const enum cb_dtype fp_dtypes[] __attribute__((unused)) = { CB_HALF, CB_BFLOAT16, CB_FLOAT,
					   CB_DOUBLE };
static const enum cb_dtype int_dtypes[] __attribute__((unused)) = { CB_INT8, CB_UINT8, CB_INT32,
					    CB_UINT32, CB_INT64, CB_UINT64 };

/* Element i of a floating-point buffer, widened to double. */
static inline double fp_at(const void *buf, size_t i, enum cb_dtype dt)
{
	switch (dt) {
	case CB_HALF: return cb_half_to_float(((const uint16_t *)buf)[i]);
	case CB_BFLOAT16: return cb_bf16_to_float(((const uint16_t *)buf)[i]);
	case CB_FLOAT: return ((const float *)buf)[i];
	default: return ((const double *)buf)[i];
	}
}

/* Stores v, rounded to dt (through float for half and bfloat16). */
static inline void fp_set(void *buf, size_t i, enum cb_dtype dt, double v)
{
	switch (dt) {
	case CB_HALF: ((uint16_t *)buf)[i] = cb_float_to_half((float)v); break;
	case CB_BFLOAT16: ((uint16_t *)buf)[i] = cb_float_to_bf16((float)v); break;
	case CB_FLOAT: ((float *)buf)[i] = (float)v; break;
	default: ((double *)buf)[i] = v; break;
	}
}

/* Element i of an integer buffer as its unsigned bits, zero-extended. */
static inline uint64_t bits_at(const void *buf, size_t i, enum cb_dtype dt)
{
	switch (cb_dtype_size(dt)) {
	case 1: return ((const uint8_t *)buf)[i];
	case 2: return ((const uint16_t *)buf)[i];
	case 4: return ((const uint32_t *)buf)[i];
	default: return ((const uint64_t *)buf)[i];
	}
}

#endif
