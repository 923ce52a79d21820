/* allpairs: a pairwise (all-pairs) selection of test cases. Over k factors,
 * factor f taking the values 0 .. size[f]-1, it picks rows such that every
 * pair of values of every two factors occurs together in at least one row:
 * the cross terms of a product covered with far fewer rows than the product
 * (for 5 factors of 10, 12, 6, 10 and 5 values, 126 rows instead of
 * 36000). Deterministic: the same sizes give the same rows.
 *
 * The greedy construction of AETG (Cohen, Dalal, Fredman and Patton, IEEE
 * TSE 23(7), 1997), without its random candidates: each row starts from the
 * first pair not yet covered, then takes for every other factor the value
 * that covers the most uncovered pairs with the values already chosen (ties:
 * the value used least so far, then the smallest). Each row covers at least
 * one new pair, so it ends; the number of rows is near the product of the
 * two largest sizes, the lower bound. */
#ifndef ALLPAIRS_H
#define ALLPAIRS_H

#include <stddef.h>

#define AP_MAXF 8   /* most factors */
#define AP_MAXV 32  /* most values of a factor */

/* The rows for k factors (2 .. AP_MAXF) of size[f] values each (1 ..
 * AP_MAXV): *rows receives an array of *nrows x k values (row i's value of
 * factor f at (*rows)[i * k + f]), the caller frees it. Returns 0, or -1
 * (k or a size out of range, out of memory; nothing allocated). */
int allpairs(int k, const int *size, int **rows, size_t *nrows);

#endif
