/* cb_straggler: the straggler tests (contract in cb_straggler.h). */
#include <math.h>

#include "cb_straggler.h"

/* The sum of the Binomial(k, p) terms from j = from on in direction step
 * (+1 up to k, -1 down to 0). Away from the mode k p the terms fall, so the
 * sum stops there once a term adds nothing to it. */
static double term_sum(long long k, long long from, int step, double p)
{
	double lk = lgamma((double)k + 1), lp = log(p), lq = log1p(-p), mode = (double)k * p;
	double sum = 0;

	for (long long j = from; j >= 0 && j <= k; j += step) {
		double t = exp(lk - lgamma((double)j + 1) - lgamma((double)(k - j) + 1) +
			       (double)j * lp + (double)(k - j) * lq);
		int falling = step > 0 ? (double)j > mode : (double)j < mode;

		sum += t;
		if (falling && t <= sum * 1e-17)
			break;
	}
	return sum;
}

double cb_binom_tail(long long k, long long c, double p)
{
	double tail;

	if (c <= 0)
		return 1;
	if (c > k)
		return 0;
	/* from c up where c is past the mode, else 1 - the terms below c */
	tail = (double)c > (double)k * p ? term_sum(k, c, 1, p) : 1 - term_sum(k, c - 1, -1, p);
	return tail < 0 ? 0 : tail > 1 ? 1 : tail;
}

int cb_straggler_named(int n, long long k, double share, double ratio)
{
	long long c;

	if (n < 2 || k < 1 || isnan(share) || isnan(ratio) || ratio < CB_STRAGGLER_RATIO)
		return 0;
	c = llround(share * (double)k);
	return (double)n * cb_binom_tail(k, c, 1.0 / n) < CB_STRAGGLER_ALPHA;
}

int cb_straggler_row_named(const struct cb_summary *s)
{
	long long reps = s->repeats > 0 ? s->repeats : 1;

	if (s->straggler_rank == CB_NO_INT || s->iters < 1)
		return 0;
	return cb_straggler_named(s->nranks, (long long)s->iters * reps, s->straggler_share,
				  s->straggler_ratio);
}
