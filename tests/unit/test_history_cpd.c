/* Unit tests: the change-point detector (cb_cpd) and the t-test.
 *
 * Synthetic series: a level with run-to-run noise and a step of 5%, 10% or
 * 20% at a known point, over many seeds; the detection rate (a change within
 * 3 points of the step, in its direction) and the false positives (changes
 * elsewhere; on a flat series: any change) are printed as tables for three
 * significance levels and three noise models, and bounded.
 *
 * The noise models, from this machine (2-core VM, docs/history.md): the
 * median busbw of one row over back-to-back sweeps varied by 2-4% (sd) on
 * quiet rows (ring 1M, 4M; ps 1M), 7% for ring 64M in docs/regression.md "Choosing the
 * tolerance" (3.99, 4.12, 4.61, 4.57 GB/s), and while other jobs shared the
 * two cores 1 run in 4 or 5 ran at about half speed (sd 25-40%). */
#define _GNU_SOURCE
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "cb_cpd.h"
#include "cb_hist_analyze.h"

#define NOISE 0.07
#define SEEDS 200

/* collbench-history's defaults (--pvalue, --window, --min-change,
 * --noise-floor) */
static const struct cb_cpd_opts opts = { 1e-5, 50, 0, 0.01 };

/* splitmix64: a fixed sequence per seed on every platform */
static uint64_t next_u64(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static double uniform(uint64_t *s)
{
	return ((double)(next_u64(s) >> 11) + 0.5) / 9007199254740992.0;
}

/* Box-Muller */
static double gauss(uint64_t *s)
{
	return sqrt(-2 * log(uniform(s))) * cos(2 * M_PI * uniform(s));
}

/* Run-to-run noise: Gaussian of sd (a fraction of the level), and a share
 * `slow` of the runs at `factor` times the speed (a sweep that shared the
 * cores with other work). */
struct noise {
	double sd, slow, factor;
	const char *what;
};

/* n points of level 1 (times 1 + step from point at on) under noise z. */
static void make_noisy(double *x, size_t n, size_t at, double step, const struct noise *z,
		       uint64_t seed)
{
	uint64_t s = seed * 7919 + 1;

	for (size_t i = 0; i < n; i++) {
		x[i] = (i >= at ? 1 + step : 1) * (1 + z->sd * gauss(&s));
		if (uniform(&s) < z->slow)
			x[i] *= z->factor;
	}
}

static void make_series(double *x, size_t n, size_t at, double step, double rel, uint64_t seed)
{
	const struct noise z = { rel, 0, 1, "" };

	make_noisy(x, n, at, step, &z, seed);
}

static void test_t_pvalue(void **state)
{
	(void)state;
	/* Student's t critical values (two-sided) from any table */
	assert_true(fabs(cb_cpd_t_pvalue(2.228, 10) - 0.05) < 5e-4);
	assert_true(fabs(cb_cpd_t_pvalue(3.169, 10) - 0.01) < 1e-4);
	assert_true(fabs(cb_cpd_t_pvalue(2.086, 20) - 0.05) < 5e-4);
	assert_true(fabs(cb_cpd_t_pvalue(3.551, 40) - 0.001) < 2e-5);
	/* df = 1 is Cauchy: P(|T| >= 1) = 1/2 */
	assert_true(fabs(cb_cpd_t_pvalue(1.0, 1) - 0.5) < 1e-9);
	assert_true(fabs(cb_cpd_t_pvalue(-1.0, 1) - 0.5) < 1e-9);
	assert_true(cb_cpd_t_pvalue(0, 5) == 1);
	assert_true(cb_cpd_t_pvalue(50, 30) < 1e-20);
	assert_true(cb_cpd_t_pvalue(INFINITY, 3) == 0);
}

static void test_ttest(void **state)
{
	const double x[] = { 1, 2, 3, 11, 12, 13 };
	struct cb_cpd_change c;

	(void)state;
	cb_cpd_ttest(x, 0, 3, 6, 0, &c);
	assert_int_equal(c.index, 3);
	assert_true(c.mean_before == 2 && c.mean_after == 12);
	assert_true(c.std_before == 1 && c.std_after == 1);
	/* t = 10 / sqrt(1 * (1/3 + 1/3)) = 12.247, df 4: p = 2.5e-4 */
	assert_true(fabs(c.pvalue - 2.5e-4) < 0.2e-4);
	assert_true(fabs(cb_cpd_magnitude(&c) - 5) < 1e-12); /* 2/12 - 1 -> |..|, 12/2 - 1 = 5 */
	/* a floor below the spread changes nothing; above it, it is the sd */
	cb_cpd_ttest(x, 0, 3, 6, 0.05, &c);
	assert_true(fabs(c.pvalue - 2.5e-4) < 0.2e-4);
	cb_cpd_ttest(x, 0, 3, 6, 0.5, &c); /* sd 6: t = 10 / (6 sqrt(2/3)) = 2.04, df 4 */
	assert_true(fabs(c.pvalue - 0.111) < 0.002);
}

/* Zero variance is no certainty: two identical values and a third 0.03%
 * off, or any step between segments without spread, is no change point
 * unless it stands out of the noise floor. */
static void test_no_spread(void **state)
{
	double x[24] = { 4.0, 4.0, 4.0 * (1 - 3e-4) };
	struct cb_cpd_opts o = opts;
	struct cb_cpd_change *c, t;
	size_t n;

	(void)state;
	assert_int_equal(cb_cpd_detect(x, 3, &o, &c, &n), CB_OK);
	assert_int_equal(n, 0);
	cb_cpd_ttest(x, 0, 2, 3, 0, &t); /* no floor: no evidence either way */
	assert_true(t.pvalue == 1);
	o.noise_floor = 0;
	assert_int_equal(cb_cpd_detect(x, 3, &o, &c, &n), CB_OK);
	assert_int_equal(n, 0);
	/* 12 identical runs, then 12 others 0.5% lower: below a 1% floor */
	for (int i = 0; i < 24; i++)
		x[i] = i < 12 ? 4.0 : 4.0 * 0.995;
	o = opts;
	assert_int_equal(cb_cpd_detect(x, 24, &o, &c, &n), CB_OK);
	assert_int_equal(n, 0);
	/* 20% lower stands out of the floor */
	for (int i = 12; i < 24; i++)
		x[i] = 4.0 * 0.8;
	assert_int_equal(cb_cpd_detect(x, 24, &o, &c, &n), CB_OK);
	assert_int_equal(n, 1);
	assert_int_equal(c[0].index, 12);
	free(c);
}

static void test_constant_and_short(void **state)
{
	double x[40];
	struct cb_cpd_change *c;
	size_t n;

	(void)state;
	for (int i = 0; i < 40; i++)
		x[i] = 3.5;
	assert_int_equal(cb_cpd_detect(x, 40, &opts, &c, &n), CB_OK);
	assert_int_equal(n, 0);
	assert_int_equal(cb_cpd_detect(x, 1, &opts, &c, &n), CB_OK);
	assert_int_equal(n, 0);
	assert_int_equal(cb_cpd_detect(x, 0, &opts, &c, &n), CB_OK);
	assert_int_equal(n, 0);
	/* a clean step between two constant levels */
	for (int i = 20; i < 40; i++)
		x[i] = 3.0;
	assert_int_equal(cb_cpd_detect(x, 40, &opts, &c, &n), CB_OK);
	assert_int_equal(n, 1);
	assert_int_equal(c[0].index, 20);
	/* against the 1% floor: t = 0.5 / (0.035 sqrt(2/20)) = 45, df 38 */
	assert_true(c[0].mean_before == 3.5 && c[0].mean_after == 3.0 && c[0].pvalue < 1e-20);
	free(c);
}

static void test_bad_options(void **state)
{
	double x[4] = { 1, 2, 3, 4 };
	struct cb_cpd_opts o = opts;
	struct cb_cpd_change *c;
	size_t n;

	(void)state;
	o.max_pvalue = 0;
	assert_int_equal(cb_cpd_detect(x, 4, &o, &c, &n), CB_ERR_ARG);
	o = opts;
	o.window = 3;
	assert_int_equal(cb_cpd_detect(x, 4, &o, &c, &n), CB_ERR_ARG);
	o = opts;
	o.min_magnitude = NAN;
	assert_int_equal(cb_cpd_detect(x, 4, &o, &c, &n), CB_ERR_ARG);
	o = opts;
	o.noise_floor = -0.01;
	assert_int_equal(cb_cpd_detect(x, 4, &o, &c, &n), CB_ERR_ARG);
}

/* Two steps (down 20%, back up) in a long series crossing several windows,
 * the same answer every time (deterministic). */
static void test_two_steps_deterministic(void **state)
{
	double x[150];
	struct cb_cpd_change *a, *b;
	size_t na, nb;

	(void)state;
	make_series(x, 150, 60, 0, 0.02, 42);
	for (int i = 60; i < 110; i++)
		x[i] *= 0.8;
	assert_int_equal(cb_cpd_detect(x, 150, &opts, &a, &na), CB_OK);
	assert_int_equal(cb_cpd_detect(x, 150, &opts, &b, &nb), CB_OK);
	assert_int_equal(na, 2);
	assert_int_equal(nb, 2);
	assert_int_equal(a[0].index, 60);
	assert_int_equal(a[1].index, 110);
	assert_true(a[0].mean_after < a[0].mean_before && a[1].mean_after > a[1].mean_before);
	assert_memory_equal(a, b, na * sizeof(*a));
	free(a);
	free(b);
}

/* min_magnitude drops a significant but small step. */
static void test_min_magnitude(void **state)
{
	double x[60];
	struct cb_cpd_opts o = opts;
	struct cb_cpd_change *c;
	size_t n;

	(void)state;
	make_series(x, 60, 30, -0.05, 0.005, 7);
	assert_int_equal(cb_cpd_detect(x, 60, &o, &c, &n), CB_OK);
	assert_int_equal(n, 1);
	free(c);
	o.min_magnitude = 0.06;
	assert_int_equal(cb_cpd_detect(x, 60, &o, &c, &n), CB_OK);
	assert_int_equal(n, 0);
}

struct rates {
	double detected, elsewhere; /* fractions of the seeds */
};

/* Over SEEDS series of n points with a step at `at` under o: detected, a
 * change within 3 points of the step in its direction; elsewhere, any other
 * change (on a flat series: any change at all). */
static struct rates rate(size_t n, size_t at, double step, const struct noise *noise,
			 const struct cb_cpd_opts *o)
{
	double *x = malloc(n * sizeof(*x));
	size_t hit = 0, fp = 0;

	assert_non_null(x);
	for (uint64_t seed = 1; seed <= SEEDS; seed++) {
		struct cb_cpd_change *c;
		size_t nc, found = 0, other = 0;

		make_noisy(x, n, at, step, noise, seed);
		assert_int_equal(cb_cpd_detect(x, n, o, &c, &nc), CB_OK);
		for (size_t i = 0; i < nc; i++) {
			int near = step != 0 && c[i].index + 3 >= at && c[i].index <= at + 3 &&
				   (c[i].mean_after > c[i].mean_before) == (step > 0);

			found |= near;
			other += !near;
		}
		hit += found;
		fp += other > 0;
		free(c);
	}
	free(x);
	return (struct rates){ (double)hit / SEEDS, (double)fp / SEEDS };
}

static const double steps[] = { 0, -0.05, -0.10, -0.20 };
static const size_t lens[] = { 30, 60, 120 };

/* Prints the table for one level and noise into r[len][step]. */
static void rate_table(double p, const struct noise *noise, struct rates r[3][4])
{
	struct cb_cpd_opts o = opts;

	o.max_pvalue = p;
	printf("# p <= %g, noise: %s, window %zu, %d seeds, step in the middle\n"
	       "# points:      30              60             120\n# step   detected "
	       "elsewhere (for each length)\n", p, noise->what, o.window, SEEDS);
	for (int k = 0; k < 4; k++) {
		printf("# %4.0f%%  ", 100 * steps[k]);
		for (int l = 0; l < 3; l++) {
			r[l][k] = rate(lens[l], lens[l] / 2, steps[k], noise, &o);
			printf("  %5.1f%% %5.1f%%", 100 * r[l][k].detected, 100 * r[l][k].elsewhere);
		}
		printf("\n");
	}
}

/* The tables asked for by issue 15; the bounds sit below what was measured
 * and above what a broken detector gives. */
static void test_detection_rates(void **state)
{
	static const double levels[] = { 1e-3, 1e-4, 1e-5 };
	static const struct noise gauss7 = { NOISE, 0, 1, "Gaussian, sd 7% of the level" };
	static const struct noise quiet = { 0.03, 0, 1, "Gaussian, sd 3% of the level" };
	static const struct noise loaded = { 0.03, 0.2, 0.5, "Gaussian sd 3%, 1 run in 5 at half "
					     "speed (shared cores)" };
	struct rates r[3][3][4], rq[3][3][4], rl[3][3][4];

	(void)state;
	for (int i = 0; i < 3; i++)
		rate_table(levels[i], &gauss7, r[i]);
	for (int i = 0; i < 3; i++)
		rate_table(levels[i], &quiet, rq[i]);
	for (int i = 0; i < 3; i++)
		rate_table(levels[i], &loaded, rl[i]);
	for (int i = 0; i < 3; i++)
		for (int l = 0; l < 3; l++) {
			/* monotone in the step and (nearly) in the level */
			assert_true(r[i][l][1].detected <= r[i][l][3].detected);
			assert_true(rq[i][l][1].detected <= rq[i][l][3].detected);
			assert_true(i == 0 || r[i][l][3].detected <= r[i - 1][l][3].detected + 0.02);
		}
	/* at the default level (1e-5): no false change on a flat series */
	for (int l = 0; l < 3; l++) {
		assert_true(r[2][l][0].elsewhere == 0);
		assert_true(rq[2][l][0].elsewhere == 0);
		assert_true(rl[2][l][0].elsewhere <= 0.01);
		assert_true(rq[2][l][2].detected >= 0.95); /* 10% under 3% noise */
	}
	assert_true(r[2][1][3].detected >= 0.95);  /* 20% under 7% noise, 60 points */
	assert_true(r[2][2][3].detected >= 0.95);  /* and 120 */
	assert_true(r[2][1][2].detected >= 0.60);  /* 10% under 7% noise, 60 points */
	assert_true(rq[2][1][1].detected >= 0.80); /* 5% under 3% noise, 60 points */
}

/* A flat series with the noise measured here finds nothing at the default
 * level, for each of 100 seeds. */
static void test_flat_no_change(void **state)
{
	static const double sds[] = { 0.03, NOISE };
	double x[80];

	(void)state;
	for (int k = 0; k < 2; k++)
		for (uint64_t seed = 1; seed <= 100; seed++) {
			struct cb_cpd_change *c;
			size_t nc;

			make_series(x, 80, 0, 0, sds[k], 1000 + seed);
			assert_int_equal(cb_cpd_detect(x, 80, &opts, &c, &nc), CB_OK);
			assert_int_equal(nc, 0);
		}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_t_pvalue),
		cmocka_unit_test(test_ttest),
		cmocka_unit_test(test_constant_and_short),
		cmocka_unit_test(test_no_spread),
		cmocka_unit_test(test_bad_options),
		cmocka_unit_test(test_two_steps_deterministic),
		cmocka_unit_test(test_min_magnitude),
		cmocka_unit_test(test_detection_rates),
		cmocka_unit_test(test_flat_no_change),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
