/* A pairwise selection of test cases (contract in allpairs.h). */
#include "allpairs.h"

#include <stdlib.h>
#include <string.h>

/* Which pairs are covered: one flag per (f, g, value of f, value of g). */
struct cover {
	int k;
	const int *size;
	unsigned char *c; /* [k][k][AP_MAXV][AP_MAXV] */
	size_t left;      /* pairs not covered */
	int used[AP_MAXF][AP_MAXV];
};

static unsigned char *cell(struct cover *cv, int f, int g, int a, int b)
{
	if (f > g) {
		int t = f;

		f = g, g = t, t = a, a = b, b = t;
	}
	return &cv->c[(((size_t)f * AP_MAXF + (size_t)g) * AP_MAXV + (size_t)a) * AP_MAXV +
		      (size_t)b];
}

/* The first pair not covered: factors *f < *g with values *a, *b. */
static void first_uncovered(struct cover *cv, int *f, int *g, int *a, int *b)
{
	for (*f = 0; *f < cv->k; (*f)++)
		for (*g = *f + 1; *g < cv->k; (*g)++)
			for (*a = 0; *a < cv->size[*f]; (*a)++)
				for (*b = 0; *b < cv->size[*g]; (*b)++)
					if (!*cell(cv, *f, *g, *a, *b))
						return;
}

/* Uncovered pairs that value v of factor f makes with row's set factors. */
static int gain(struct cover *cv, const int *row, int f, int v)
{
	int n = 0;

	for (int g = 0; g < cv->k; g++)
		if (g != f && row[g] >= 0)
			n += !*cell(cv, f, g, v, row[g]);
	return n;
}

/* Completes row (its unset factors -1): the best value for each. */
static void complete(struct cover *cv, int *row)
{
	for (int f = 0; f < cv->k; f++) {
		int best = 0, bg = -1;

		if (row[f] >= 0)
			continue;
		for (int v = 0; v < cv->size[f]; v++) {
			int gv = gain(cv, row, f, v);

			if (gv > bg || (gv == bg && cv->used[f][v] < cv->used[f][best]))
				best = v, bg = gv;
		}
		row[f] = best;
	}
}

/* Marks row's pairs covered and its values used. */
static void mark(struct cover *cv, const int *row)
{
	for (int f = 0; f < cv->k; f++) {
		cv->used[f][row[f]]++;
		for (int g = f + 1; g < cv->k; g++) {
			unsigned char *c = cell(cv, f, g, row[f], row[g]);

			cv->left -= !*c;
			*c = 1;
		}
	}
}

int allpairs(int k, const int *size, int **rows, size_t *nrows)
{
	struct cover cv = { k, size, NULL, 0, { { 0 } } };
	size_t cap = 64, n = 0;
	int *out;

	if (k < 2 || k > AP_MAXF)
		return -1;
	for (int f = 0; f < k; f++) {
		if (size[f] < 1 || size[f] > AP_MAXV)
			return -1;
		for (int g = f + 1; g < k; g++)
			cv.left += (size_t)size[f] * (size_t)size[g];
	}
	cv.c = calloc((size_t)AP_MAXF * AP_MAXF * AP_MAXV * AP_MAXV, 1);
	out = malloc(cap * (size_t)k * sizeof(int));
	while (cv.c && out && cv.left) {
		int f = 0, g = 1, a = 0, b = 0, *row;

		if (n == cap) {
			int *more = realloc(out, 2 * cap * (size_t)k * sizeof(int));

			if (!more)
				break;
			out = more, cap *= 2;
		}
		row = out + n++ * (size_t)k;
		for (int i = 0; i < k; i++)
			row[i] = -1;
		first_uncovered(&cv, &f, &g, &a, &b);
		row[f] = a, row[g] = b;
		complete(&cv, row);
		mark(&cv, row);
	}
	free(cv.c);
	if (!out || cv.left) {
		free(out);
		return -1;
	}
	*rows = out;
	*nrows = n;
	return 0;
}
