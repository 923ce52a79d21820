/* Unit tests: nccl-tests' summary of a run (cb_nct.h, cb_nct_json.h): a
 * size's out-of-place and in-place rows are one line, the average is over
 * every measured row of both modes, the reference algorithm is the library's,
 * NCCL_TESTS_MIN_BW passes at 0.9 x its value (nccl-tests' slack), the
 * footer's lines are nccl-tests' "# %-20s : " form, and the JSON document
 * has nccl-tests' keys and nesting (src/util.cu, 2.19). */
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

#include "cb_nct.h"
#include "cb_nct_json.h"

/* A measured row of algo over transport tr: bytes, in_place, busbw, wrong. */
static struct cb_summary row(const char *algo, const char *tr, unsigned long long bytes,
			     int in_place, double busbw, unsigned long long wrong)
{
	struct cb_summary s;

	memset(&s, 0, sizeof(s));
	snprintf(s.algo, sizeof(s.algo), "%s", algo);
	snprintf(s.transport, sizeof(s.transport), "%s", tr);
	snprintf(s.dtype, sizeof(s.dtype), "float");
	snprintf(s.op, sizeof(s.op), "sum");
	s.bytes = bytes, s.count = bytes / 4, s.in_place = in_place, s.iters = 20;
	s.time_us = 10, s.algbw = busbw / 2, s.busbw = busbw, s.wrong = wrong;
	cb_row_status_set(&s.status, wrong ? CB_ROW_WRONG : CB_ROW_OK, wrong ? "wrong" : "");
	return s;
}

static void add(struct cb_nct *t, struct cb_summary s)
{
	cb_nct_add(t, &s, NULL, 0, NULL, 0);
}

/* out-of-place then in-place of a size: one entry; the size again: another */
static void test_pairs_and_mean(void **state)
{
	struct cb_nct t = { 0 };
	struct cb_summary skipped = row("nccl", "library", 64, 0, NAN, CB_NO_U64);

	(void)state;
	add(&t, row("nccl", "library", 8, 0, 1, 0));
	add(&t, row("nccl", "library", 8, 1, 2, 0));
	add(&t, row("nccl", "library", 8, 0, 3, 0));
	cb_row_status_set(&skipped.status, CB_ROW_SKIPPED, "not here");
	cb_nct_add(&t, &skipped, NULL, 0, NULL, 0);
	assert_int_equal(t.n, 1);
	assert_int_equal(t.a[0].n, 3);
	assert_true(t.a[0].e[0].mode[0].have && t.a[0].e[0].mode[1].have);
	assert_true(t.a[0].e[1].mode[0].have && !t.a[0].e[1].mode[1].have);
	assert_true(fabs(cb_nct_avg_busbw(&t.a[0]) - 2) < 1e-12); /* (1+2+3)/3: not the skipped */
	assert_int_equal(t.a[0].nbw, 3);
	cb_nct_free(&t);
}

/* the library's plain call, else a forced one, else the first algorithm */
static void test_reference(void **state)
{
	struct cb_nct t = { 0 };

	(void)state;
	assert_null(cb_nct_reference(&t));
	add(&t, row("ring", "shm", 8, 0, 1, 0));
	assert_string_equal(cb_nct_reference(&t)->name, "ring");
	add(&t, row("nccl.ring.simple", "library", 8, 0, 1, 0));
	assert_string_equal(cb_nct_reference(&t)->name, "nccl.ring.simple");
	add(&t, row("nccl", "library", 8, 0, 1, 0));
	assert_string_equal(cb_nct_reference(&t)->name, "nccl");
	cb_nct_free(&t);
}

/* nccl-tests: FAILED when the mean < 0.9 x NCCL_TESTS_MIN_BW */
static void test_gate(void **state)
{
	struct cb_nct t = { 0 };
	struct cb_nct_algo none;

	(void)state;
	add(&t, row("mpi", "library", 8, 0, 9, 0));
	assert_true(cb_nct_gate_ok(&t.a[0], -1));
	assert_true(cb_nct_gate_ok(&t.a[0], 10));     /* 9 >= 0.9 x 10 */
	assert_false(cb_nct_gate_ok(&t.a[0], 10.01));
	memset(&none, 0, sizeof(none));
	assert_true(cb_nct_gate_ok(&none, -1));
	assert_false(cb_nct_gate_ok(&none, 0));       /* nothing measured fails a set gate */
	cb_nct_free(&t);
}

static void test_parse_min_bw(void **state)
{
	char err[128];
	double v;
	const char *bad[] = { "abc", "-1", "1x", "inf", "nan", " " };

	(void)state;
	assert_int_equal(cb_nct_parse_min_bw(NULL, &v, err, sizeof(err)), 0);
	assert_true(v < 0);
	assert_int_equal(cb_nct_parse_min_bw("", &v, err, sizeof(err)), 0);
	assert_true(v < 0);
	assert_int_equal(cb_nct_parse_min_bw("12.5", &v, err, sizeof(err)), 0);
	assert_true(v == 12.5);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(cb_nct_parse_min_bw(bad[i], &v, err, sizeof(err)), -1);
		assert_non_null(strstr(err, "NCCL_TESTS_MIN_BW"));
	}
}

/* The footer as text: nccl-tests' lines once, the others never matching them */
static char *footer(const struct cb_nct *t, double min_bw)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(cb_nct_footer(f, t, min_bw, "all_reduce_perf"), 0);
	fclose(f);
	return buf;
}

static int count(const char *s, const char *what)
{
	int n = 0;

	for (const char *p = s; (p = strstr(p, what)); p++)
		n++;
	return n;
}

/* a library whose rows all skipped gives way to a measured algorithm, and
 * the footer says why; with nothing measured anywhere, the library again */
static void test_reference_skipped(void **state)
{
	struct cb_nct t = { 0 };
	struct cb_summary s = row("mpi", "library", 8, 0, 1, 0);

	(void)state;
	cb_row_status_set(&s.status, CB_ROW_SKIPPED, "MPI has no half datatype");
	s.busbw = NAN;
	add(&t, s);
	assert_string_equal(cb_nct_reference(&t)->name, "mpi");
	add(&t, row("ring", "shm", 8, 0, 2, 0));
	assert_string_equal(cb_nct_reference(&t)->name, "ring");
	{
		char *out = footer(&t, -1);

		assert_non_null(strstr(out, "of algorithm ring (the library's rows measured nothing"));
		assert_non_null(strstr(out, "# Avg bus bandwidth    : 2 \n"));
		free(out);
	}
	cb_nct_free(&t);
}

static void test_footer(void **state)
{
	struct cb_nct t = { 0 };
	char *s;

	(void)state;
	add(&t, row("ring", "shm", 8, 0, 5, 0));
	add(&t, row("mpi", "library", 8, 0, 1, 2));
	add(&t, row("mpi", "library", 8, 1, 3, 1));
	s = footer(&t, -1);
	assert_non_null(strstr(s, "\n# Out of bounds values : 3 FAILED\n"));
	assert_non_null(strstr(s, "\n# Avg bus bandwidth    : 2 \n#\n"));
	assert_non_null(strstr(s, "\n# Collective test concluded: all_reduce_perf\n"));
	assert_int_equal(count(s, "Avg bus bandwidth"), 1);
	assert_int_equal(count(s, "Out of bounds values"), 1);
	assert_non_null(strstr(s, "#  ring : #wrong 0 OK, avg busbw 5 GB/s over 1 rows\n"));
	free(s);
	s = footer(&t, 2.2); /* 2 >= 0.9 x 2.2 */
	assert_non_null(strstr(s, "\n# Avg bus bandwidth    : 2 OK\n"));
	free(s);
	s = footer(&t, 2.3);
	assert_non_null(strstr(s, "\n# Avg bus bandwidth    : 2 FAILED\n"));
	free(s);
	cb_nct_free(&t);
}

static json_t *get(json_t *o, const char *path)
{
	char key[128], *p;

	snprintf(key, sizeof(key), "%s", path);
	for (char *k = strtok_r(key, ".", &p); o && k; k = strtok_r(NULL, ".", &p))
		o = json_is_array(o) ? json_array_get(o, (size_t)atoi(k)) : json_object_get(o, k);
	assert_non_null(o);
	return o;
}

/* results.1's out-of-place iterations 5 1 4 2 3 on 2 ranks: nccl-tests'
 * per-iteration report; sorted 1 2 3 4 5: p50 [n/2], p95 and p99
 * [min(n-1, ceil(n p/100) - 1)] */
static void check_per_iter(json_t *d)
{
	assert_true(json_real_value(get(d, "results.1.out_of_place_per_iter.min_us")) == 1);
	assert_true(json_real_value(get(d, "results.1.out_of_place_per_iter.max_us")) == 5);
	assert_true(json_real_value(get(d, "results.1.out_of_place_per_iter.avg_us")) == 3);
	assert_true(json_real_value(get(d, "results.1.out_of_place_per_iter.p50_us")) == 3);
	assert_true(json_real_value(get(d, "results.1.out_of_place_per_iter.p95_us")) == 5);
	assert_true(fabs(json_real_value(get(d, "results.1.out_of_place_per_iter.stdev_us")) -
			 sqrt(2)) < 1e-12);
	assert_true(fabs(json_real_value(get(d, "results.1.out_of_place_per_iter.cv_pct")) -
			 100 * sqrt(2) / 3) < 1e-9);
	assert_true(json_real_value(get(d, "results.1.out_of_place_per_iter.times_us.0")) == 5);
	assert_true(json_real_value(
			    get(d, "results.1.out_of_place_per_iter.per_process_max_times_us.1.4")) == 2);
	assert_string_equal(json_string_value(get(d, "config.per_iter_timing")), "true");
}

/* -m 4 -z 2 -C 1 under c: nccl-tests' config keys (aggregated_iterations,
 * blocking_collectives), a mode's time as "cpu_time" (src/util.cu). */
static void check_timing_modes(const struct cb_nct *t, struct cb_nct_config c)
{
	json_t *d;

	c.agg_iters = 4;
	c.blocking = 2;
	c.report_cputime = 1;
	d = cb_nct_json(t, &c);
	assert_non_null(d);
	assert_int_equal(json_integer_value(get(d, "config.aggregated_iterations")), 4);
	assert_string_equal(json_string_value(get(d, "config.blocking_collectives")), "true");
	assert_non_null(get(d, "results.0.out_of_place.cpu_time"));
	assert_null(json_object_get(get(d, "results.0.out_of_place"), "time"));
	json_decref(d);
}

/* nccl-tests' layout: version 3, config, results with both modes */
static void test_json(void **state)
{
	struct cb_nct t = { 0 };
	const char *argv[] = { "all_reduce_perf", "-b", "8" }, *env[] = { "NCCL_ALGO=ring" };
	struct cb_nct_device dev[2] = { { 0, 11, "h", -1 }, { 1, 0, "h", -1 } };
	struct cb_nct_config c = { argv, 3, env, 1, "2026-01-01 00:00:00", "2026-01-01 00:00:01",
				   8, 64, 8, 1, 5, 20, 1, -1, 1.0, dev, 2, 1, -1, 0, 3 };
	json_t *d;

	(void)state;
	add(&t, row("ring", "shm", 8, 0, 5, 0));
	add(&t, row("mpi", "library", 8, 0, 1, 0));
	add(&t, row("mpi", "library", 8, 1, 3, 0));
	add(&t, row("mpi", "library", 64, 1, 2, 0));
	{ /* 64 B out of place, with its iterations: nccl-tests' per-iteration report */
		struct cb_summary s = row("mpi", "library", 64, 0, 4, 0);
		const double it[5] = { 5, 1, 4, 2, 3 }, rk[10] = { 5, 1, 4, 2, 3, 4, 1, 4, 2, 2 };

		cb_nct_add(&t, &s, it, 5, rk, 2);
	}
	d = cb_nct_json(&t, &c);
	assert_non_null(d);
	assert_int_equal(json_integer_value(get(d, "version")), 3);
	assert_string_equal(json_string_value(get(d, "args.1")), "-b");
	assert_string_equal(json_string_value(get(d, "env.0")), "NCCL_ALGO=ring");
	assert_int_equal(json_integer_value(get(d, "config.step_bytes")), 8);
	assert_null(json_object_get(get(d, "config"), "step_factor"));
	assert_int_equal(json_integer_value(get(d, "config.devices.0.pid")), 11);
	assert_true(json_is_null(get(d, "config.devices.1.pid")));
	assert_string_equal(json_string_value(get(d, "config.blocking_collectives")), "false");
	assert_int_equal(json_integer_value(get(d, "config.graph")), 3); /* -G 3 */
	assert_int_equal(json_array_size(get(d, "results")), 2);
	assert_string_equal(json_string_value(get(d, "results.0.root")), "    -1");
	assert_true(json_real_value(get(d, "results.0.out_of_place.bus_bw")) == 1);
	assert_true(json_real_value(get(d, "results.0.in_place.bus_bw")) == 3);
	assert_true(json_real_value(get(d, "results.0.in_place.nwrong")) == 0);
	assert_null(json_object_get(get(d, "results.0"), "out_of_place_per_iter"));
	assert_int_equal(json_integer_value(get(d, "results.1.size")), 64);
	assert_true(json_real_value(get(d, "results.1.out_of_place.bus_bw")) == 4);
	check_per_iter(d);
	assert_int_equal(json_integer_value(get(d, "results.1.actual_iterations")), 20);
	assert_true(json_real_value(get(d, "average_bus_bandwidth.bandwidth")) == 2.5);
	assert_string_equal(json_string_value(get(d, "average_bus_bandwidth.okay")), "true");
	assert_string_equal(json_string_value(get(d, "out_of_bounds.okay")), "true");
	assert_int_equal(json_array_size(get(d, "errors")), 0);
	assert_string_equal(json_string_value(get(d, "collbench.algorithm")), "mpi");
	assert_string_equal(json_string_value(get(d, "collbench.algorithms.0.name")), "ring");
	assert_true(json_real_value(get(d, "collbench.algorithms.0.results.0.out_of_place.bus_bw")) == 5);
	assert_int_equal(json_integer_value(get(d, "config.aggregated_iterations")), 1);
	json_decref(d);
	check_timing_modes(&t, c);
	cb_nct_free(&t);
}

/* -J: a mode the algorithm skipped, or that did not run, is null (as a mode
 * nccl-tests did not run), and counts toward no average */
static void test_json_null_mode(void **state)
{
	struct cb_nct t = { 0 };
	struct cb_nct_config c = { NULL, 0, NULL, 0, "x", "y", 8, 64, 8, 1, 5, 20, 1, -1, -1, NULL, 0, 1, -1, 0, 0 };
	struct cb_summary skipped = row("mpi", "library", 8, 1, NAN, CB_NO_U64);
	json_t *d;

	(void)state;
	add(&t, row("mpi", "library", 8, 0, 4, 0));
	cb_row_status_set(&skipped.status, CB_ROW_SKIPPED, "no in place here");
	skipped.time_us = skipped.algbw = NAN;
	cb_nct_add(&t, &skipped, NULL, 0, NULL, 0);
	add(&t, row("mpi", "library", 64, 1, 2, 0)); /* out of place never ran */
	d = cb_nct_json(&t, &c);
	assert_non_null(d);
	assert_int_equal(json_array_size(get(d, "results")), 2);
	assert_true(json_real_value(get(d, "results.0.out_of_place.bus_bw")) == 4);
	assert_true(json_is_null(get(d, "results.0.in_place")));
	assert_true(json_is_null(get(d, "results.1.out_of_place")));
	assert_true(json_real_value(get(d, "results.1.in_place.bus_bw")) == 2);
	assert_true(json_real_value(get(d, "average_bus_bandwidth.bandwidth")) == 3); /* (4+2)/2 */
	json_decref(d);
	cb_nct_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pairs_and_mean), cmocka_unit_test(test_reference),
		cmocka_unit_test(test_reference_skipped),
		cmocka_unit_test(test_gate),           cmocka_unit_test(test_parse_min_bw),
		cmocka_unit_test(test_footer),         cmocka_unit_test(test_json),
		cmocka_unit_test(test_json_null_mode),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
