/* Unit tests: the gate's rule beyond the tolerance (cb_compare.h): the
 * noise cap bounds how far a band widens the tolerance, the three outcomes
 * (decided, unknown: run again), the Mann-Whitney p-value of per-iteration
 * samples, and the samples read back from a run's JSON lines. */
#define _GNU_SOURCE
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <cmocka.h>

#include "cb_compare.h"
#include "cb_results.h"
#include "cb_results_load.h"
#include "cb_samples.h"

#define TEST_TMPDIR "/tmp/collbench-test-compare-gate.XXXXXX"
#include "test_tmpdir.h"

static struct cb_band band(double v, double lo, double hi)
{
	return (struct cb_band){ v, lo, hi };
}

/* The rule without samples, the noise cap at twice the tolerance (the
 * default of collbench-compare). */
static enum cb_verdict verdict(const struct cb_band *b, const struct cb_band *c, double tol,
			       int higher)
{
	return cb_verdict_of(b, c, NAN, tol, 2 * tol, higher);
}

static void test_verdict_rule(void **state)
{
	struct cb_band b = band(10, 9.8, 10.2), p = band(10, 10, 10);
	struct cb_band c;

	(void)state;
	assert_int_equal(verdict(&b, &b, 0.05, 1), CB_V_SAME);
	c = band(8, 7.9, 8.1); /* 20% lower, bands apart */
	assert_int_equal(verdict(&b, &c, 0.05, 1), CB_V_REGRESSION);
	c = band(8, 7.0, 9.9); /* 20% lower: its noise reaches the baseline's, but
				* the noise may widen the tolerance to the cap only */
	assert_int_equal(verdict(&b, &c, 0.05, 1), CB_V_REGRESSION);
	c = band(9.2, 8.0, 9.9); /* 8% lower, within the cap, bands overlap */
	assert_int_equal(verdict(&b, &c, 0.05, 1), CB_V_UNKNOWN);
	c = band(9.6, 9.55, 9.65); /* 4% lower, bands apart: within tolerance */
	assert_int_equal(verdict(&b, &c, 0.05, 1), CB_V_SAME);
	c = band(12, 11.9, 12.1);
	assert_int_equal(verdict(&b, &c, 0.05, 1), CB_V_IMPROVEMENT);
	c = band(12, 10.1, 12.1); /* overlaps b.hi = 10.2, but 20% beyond the cap */
	assert_int_equal(verdict(&b, &c, 0.05, 1), CB_V_IMPROVEMENT);
	c = band(10.8, 10.1, 11); /* 8% higher, overlapping: unknown */
	assert_int_equal(verdict(&b, &c, 0.05, 1), CB_V_UNKNOWN);
	/* points: the tolerance alone decides; exactly at the edge is same */
	c = band(9.5, 9.5, 9.5);
	assert_int_equal(verdict(&p, &c, 0.05, 1), CB_V_SAME);
	c = band(9.49, 9.49, 9.49);
	assert_int_equal(verdict(&p, &c, 0.05, 1), CB_V_REGRESSION);
	assert_int_equal(verdict(&p, &p, 0, 1), CB_V_SAME);
}

static void test_verdict_time_mirrored(void **state)
{
	struct cb_band b = band(100, 98, 102), c = band(125, 124, 126);

	(void)state;
	assert_int_equal(verdict(&b, &c, 0.05, 0), CB_V_REGRESSION);
	assert_int_equal(verdict(&c, &b, 0.05, 0), CB_V_IMPROVEMENT);
	c = band(108, 101, 110); /* 8% slower, overlapping: unknown either way */
	assert_int_equal(verdict(&b, &c, 0.05, 0), CB_V_UNKNOWN);
	assert_int_equal(verdict(&b, &c, 0.05, 1), CB_V_UNKNOWN);
	c = band(125, 101, 126); /* 25% slower: beyond the cap whatever the bands */
	assert_int_equal(verdict(&b, &c, 0.05, 0), CB_V_REGRESSION);
}

/* Within the cap the samples decide when the bands do not; beyond the cap
 * nothing the noise says makes a change same or unknown; within the
 * tolerance no p-value makes it a regression. */
static void test_verdict_samples(void **state)
{
	struct cb_band b = band(10, 9, 11), c = band(9.2, 8.5, 9.9); /* 8% lower, overlapping */

	(void)state;
	assert_int_equal(cb_verdict_of(&b, &c, 1e-6, 0.05, 0.10, 1), CB_V_REGRESSION);
	assert_int_equal(cb_verdict_of(&b, &c, 0.01, 0.05, 0.10, 1), CB_V_UNKNOWN);
	assert_int_equal(cb_verdict_of(&b, &c, NAN, 0.05, 0.10, 1), CB_V_UNKNOWN);
	c = band(9.7, 9.6, 9.8); /* 3% lower: within the tolerance */
	assert_int_equal(cb_verdict_of(&b, &c, 1e-12, 0.05, 0.10, 1), CB_V_SAME);
	c = band(7.1, 5, 10.5); /* 29% lower, a band as wide as a loaded VM's */
	assert_int_equal(cb_verdict_of(&b, &c, 0.9, 0.10, 0.20, 1), CB_V_REGRESSION);
	assert_int_equal(cb_verdict_of(&b, &c, 0.9, 0.10, 0.30, 1), CB_V_UNKNOWN);
	/* a cap below the tolerance is the tolerance: the bands never widen it */
	c = band(9.2, 8.5, 9.9);
	assert_int_equal(cb_verdict_of(&b, &c, NAN, 0.05, 0, 1), CB_V_REGRESSION);
}

static void test_mann_whitney(void **state)
{
	/* ClickHouse's mannWhitneyUTest test vectors (tests/queries/0_stateless/
	 * 01560_mann_whitney.sql): two-sided p 0.5426959774289482 */
	static const double x[] = { 310, 195, 530, 155, 530, 245, 385, 450, 465, 545,
				    170, 180, 125, 180, 230, 75, 430, 480, 495, 295 };
	static const double y[] = { 116, 171, 176, 421, 111, 326, 481, 111, 346, 441,
				    261, 411, 206, 521, 456, 446, 296, 51, 426, 261 };
	double lo[20], hi[20], same[20];

	(void)state;
	assert_true(fabs(cb_mann_whitney_p(x, 20, y, 20) - 0.5426959774289482) < 1e-9);
	assert_true(fabs(cb_mann_whitney_p(y, 20, x, 20) - 0.5426959774289482) < 1e-9);
	for (int i = 0; i < 20; i++)
		lo[i] = 100 + i, hi[i] = 200 + i, same[i] = 7;
	assert_true(cb_mann_whitney_p(lo, 20, hi, 20) < 1e-6);
	assert_true(cb_mann_whitney_p(same, 20, same, 20) == 1);
	assert_true(cb_mann_whitney_p(lo, 20, lo, 20) > 0.9);
	assert_true(isnan(cb_mann_whitney_p(lo, 0, hi, 20)));
}

static const char header[] =
	"schema,backend,algo,nranks,bytes,count,dtype,op,in_place,iters,time_us,"
	"time_us_median,algbw_GBps,busbw_GBps,status,repeats,time_us_rep_min,time_us_rep_max,"
	"time_us_median_rep_min,time_us_median_rep_max\n";

/* A run folder dir/name: one ring row of 20 iterations at t0 + 0.01 i us,
 * with repeat bands [lo, hi]; its JSON line when jsonl (a median of median
 * when median > 0, else the true one). */
static void write_run(const char *name, double t0, double lo, double hi, int jsonl,
		      double median)
{
	char path[sizeof(dir) + 64];
	double sum = 0, mid = t0 + 0.095; /* the median of t0 + 0.01 i, i < 20 */
	FILE *f;

	for (int i = 0; i < 20; i++)
		sum += t0 + 0.01 * i;
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	assert_int_equal(mkdir(path, 0777), 0);
	snprintf(path, sizeof(path), "%s/%s/summary.csv", dir, name);
	assert_non_null(f = fopen(path, "w"));
	fprintf(f, "%scollbench-summary-1,host,ring,2,1024,256,float,sum,0,20,%.9g,%.9g,%.6g,%.6g,"
		"ok,2,%g,%g,%g,%g\n", header, sum / 20, mid, 1024 / (sum / 20) / 1e3,
		1024 / (sum / 20) / 1e3, lo, hi, lo, hi);
	assert_int_equal(fclose(f), 0);
	if (!jsonl)
		return;
	snprintf(path, sizeof(path), "%s/%s/np2.jsonl", dir, name);
	assert_non_null(f = fopen(path, "w"));
	fprintf(f, "{\"backend\":\"host\",\"algo\":\"ring\",\"transport\":\"shm\","
		"\"nranks\":2,\"bytes\":1024,\"dtype\":\"float\",\"op\":\"sum\","
		"\"in_place\":false,\"time_us_median\":%g,\"iterations\":{\"time_us\":[", median);
	for (int i = 0; i < 20; i++)
		fprintf(f, "%s%.9g", i ? "," : "", (median > 0 && i == 10 ? median + 1 : t0 + 0.01 * i));
	fprintf(f, "]}}\n\n");
	assert_int_equal(fclose(f), 0);
}

/* Compares dir/a with dir/b on time (tolerance 5%, cap 10%): the verdict of
 * the one row, and *with: rows with samples on both sides. */
static enum cb_verdict compare_dirs(const char *a, const char *b, size_t *with, char *note)
{
	struct cb_compare_opts o = { .metric = CB_METRIC_TIME, .stat = CB_STAT_MEDIAN,
				     .tolerance = 0.05, .noise_cap = 0.10 };
	struct cb_results rb, rc;
	struct cb_samples sb, sc;
	struct cb_comparison cmp;
	char path[2][sizeof(dir) + 16], err[512];
	enum cb_verdict v;

	snprintf(path[0], sizeof(path[0]), "%s/%s", dir, a);
	snprintf(path[1], sizeof(path[1]), "%s/%s", dir, b);
	assert_int_equal(cb_results_load(path[0], &rb, err, sizeof(err)), CB_OK);
	assert_int_equal(cb_results_load(path[1], &rc, err, sizeof(err)), CB_OK);
	assert_int_equal(cb_samples_load(&rb, &sb), CB_OK);
	assert_int_equal(cb_samples_load(&rc, &sc), CB_OK);
	snprintf(note, 512, "%s", sc.note);
	assert_int_equal(cb_compare_runs(&rb, &rc, &sb, &sc, &o, &cmp, err, sizeof(err)), CB_OK);
	assert_int_equal(cmp.nrows, 1);
	v = cmp.rows[0].verdict;
	*with = cmp.tested;
	cb_comparison_free(&cmp);
	cb_samples_free(&sb), cb_samples_free(&sc);
	cb_results_free(&rb), cb_results_free(&rc);
	return v;
}

/* 6% slower in every iteration, bands overlapping: the samples show it (a
 * regression); without them, or with samples that are not the summary's,
 * the noise cannot tell (unknown). */
static void test_samples_decide(void **state)
{
	char note[512];
	size_t with;

	(void)state;
	write_run("base", 10, 9, 11.5, 1, 0);
	write_run("slow", 10.6, 9.5, 12, 1, 0);
	write_run("slow_bare", 10.6, 9.5, 12, 0, 0);
	write_run("slow_other", 10.6, 9.5, 12, 1, 20);
	assert_int_equal(compare_dirs("base", "slow", &with, note), CB_V_REGRESSION);
	assert_int_equal(with, 1);
	assert_string_equal(note, "");
	assert_int_equal(compare_dirs("base", "slow_bare", &with, note), CB_V_UNKNOWN);
	assert_int_equal(with, 0);
	assert_int_equal(compare_dirs("base", "slow_other", &with, note), CB_V_UNKNOWN);
	assert_int_equal(with, 0);
	assert_non_null(strstr(note, "1 row(s) whose samples are not the summary's"));
	assert_int_equal(compare_dirs("base", "base", &with, note), CB_V_SAME);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_verdict_rule),
		cmocka_unit_test(test_verdict_time_mirrored),
		cmocka_unit_test(test_verdict_samples),
		cmocka_unit_test(test_mann_whitney),
		cmocka_unit_test(test_samples_decide),
	};

	return cmocka_run_group_tests(tests, tmpdir_setup, tmpdir_teardown);
}
