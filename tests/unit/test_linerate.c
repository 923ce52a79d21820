/* Unit tests: a row's percent of the line rate and of the copy roofline
 * (cb_linerate.h) and the metadata's "topology" object (cb_topo.h). The
 * expected bounds are worked by hand from the rules in cb_linerate.h. */
#define _GNU_SOURCE
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "cb_linerate.h"
#include "cb_schema.h"
#include "cb_topo.h"

#define NEAR(a, b) assert_true(fabs((a) - (b)) < 1e-9 * fabs((double)(b)) + 1e-12)

/* 8 x H100 SXM: NVLink 4, 18 links x 25 GB/s per direction, NVSwitch, NVLS. */
static struct cb_topo h100(void)
{
	struct cb_topo t = { .known = 1, .gpu_count = 8, .nvlink_version = 4,
			     .nvlink_links = 18, .nvlink_link_GBps = 25, .nvswitch = 1,
			     .nvls = 1, .pcie_gen = 5, .pcie_width = 16 };

	strcpy(t.source, "test");
	strcpy(t.gpu_model, "NVIDIA H100 80GB HBM3");
	return t;
}

/* An ok allreduce row of algo on n ranks, one host, with busbw. */
static struct cb_summary row(const char *algo, int n, double busbw)
{
	struct cb_summary s;

	cb_schema_clear(&cb_schema_summary, &s);
	strcpy(s.algo, algo);
	strcpy(s.collective, "allreduce");
	s.nranks = n;
	s.nhosts = 1;
	s.busbw = busbw;
	s.algbw = busbw * n / (2.0 * (n - 1));
	return s;
}

static void test_pcie_lanes(void **state)
{
	(void)state;
	NEAR(cb_pcie_lane_GBps(1), 0.25);
	NEAR(cb_pcie_lane_GBps(3) * 16, 15.753846153846155); /* 8 GT/s x 128/130 x 16 / 8 */
	NEAR(cb_pcie_lane_GBps(4) * 16, 31.50769230769231);
	NEAR(cb_pcie_lane_GBps(5) * 16, 63.01538461538462);
	NEAR(cb_pcie_lane_GBps(6) * 16, 121.0);              /* 64 GT/s x 242/256 x 16 / 8 */
	assert_true(cb_pcie_lane_GBps(0) == 0 && cb_pcie_lane_GBps(9) == 0);
}

/* ring and the default nccl row: busbw against 450 GB/s per direction. */
static void test_nvlink_ring(void **state)
{
	struct cb_topo t = h100();
	struct cb_summary s = row("nccl.ring.simple", 8, 360);
	char why[128];

	(void)state;
	NEAR(cb_line_bound_GBps(&t, &s, NULL, why, sizeof(why)), 450);
	assert_string_equal(why, "NVLink 18 x 25 GB/s");
	NEAR(cb_pct_line(&t, &s, NULL, why, sizeof(why)), 80);
	s = row("ring", 2, 45);
	NEAR(cb_pct_line(&t, &s, NULL, why, sizeof(why)), 10);
	s = row("nccl", 8, 360); /* NCCL's own choice, not known: the link bound */
	NEAR(cb_pct_line(&t, &s, NULL, why, sizeof(why)), 80);
}

/* NVLS allreduce: 450 x 2(n-1)/(n+1): 700 GB/s at n = 8, 300 at n = 2; the
 * published 480 GB/s busbw is above the link rate and below this bound. */
static void test_nvls(void **state)
{
	struct cb_topo t = h100();
	struct cb_summary s = row("nccl.nvls.simple", 8, 480);
	char why[128];

	(void)state;
	NEAR(cb_line_bound_GBps(&t, &s, NULL, why, sizeof(why)), 700);
	assert_non_null(strstr(why, "NVLS"));
	NEAR(cb_pct_line(&t, &s, NULL, why, sizeof(why)), 100 * 480.0 / 700);
	s = row("nccl.nvlstree.simple", 2, 150);
	NEAR(cb_line_bound_GBps(&t, &s, NULL, why, sizeof(why)), 300);
	/* the default row when NCCL says it chose NVLS */
	s = row("nccl", 8, 480);
	NEAR(cb_line_bound_GBps(&t, &s, "NVLS", why, sizeof(why)), 700);
	NEAR(cb_line_bound_GBps(&t, &s, "Ring", why, sizeof(why)), 450);
	/* no NVLS on the box (A100): the link bound */
	t.nvls = 0;
	s = row("nccl.nvls.simple", 8, 200);
	NEAR(cb_line_bound_GBps(&t, &s, NULL, why, sizeof(why)), 450);
	/* another collective: the link bound */
	t.nvls = 1;
	strcpy(s.collective, "all_gather");
	NEAR(cb_line_bound_GBps(&t, &s, NULL, why, sizeof(why)), 450);
}

static void test_pcie(void **state)
{
	struct cb_topo t = { .known = 1, .gpu_count = 2, .pcie_gen = 4, .pcie_width = 16 };
	struct cb_summary s = row("ring", 2, 0.5 * 31.50769230769231);
	char why[128];

	(void)state;
	NEAR(cb_pct_line(&t, &s, NULL, why, sizeof(why)), 50);
	assert_string_equal(why, "PCIe gen4 x16");
	t.pcie_width = 0;
	assert_true(isnan(cb_pct_line(&t, &s, NULL, why, sizeof(why))));
	assert_string_equal(why, "no NVLink or PCIe link known");
}

/* Every row that has no bound says why. */
static void test_unbounded(void **state)
{
	struct cb_topo t = { 0 };
	struct cb_summary s = row("ring", 4, 10);
	char why[128];

	(void)state;
	assert_true(isnan(cb_pct_line(&t, &s, NULL, why, sizeof(why))));
	assert_string_equal(why, "topology unknown");
	strcpy(t.why_unknown, "host backend: no GPU");
	assert_true(isnan(cb_pct_line(&t, &s, NULL, why, sizeof(why))));
	assert_string_equal(why, "host backend: no GPU");
	t = h100();
	s.nhosts = 2;
	assert_true(isnan(cb_pct_line(&t, &s, NULL, why, sizeof(why))));
	assert_non_null(strstr(why, "several hosts"));
	s = row("ring", 1, 0);
	assert_true(isnan(cb_pct_line(&t, &s, NULL, why, sizeof(why))));
	s = row("copy", 4, NAN);
	assert_true(isnan(cb_pct_line(&t, &s, NULL, why, sizeof(why))));
	assert_string_equal(why, "no busbw");
	s = row("ring", 4, 10);
	cb_row_status_set(&s.status, CB_ROW_SKIPPED, "%s", "no");
	assert_true(isnan(cb_pct_line(&t, &s, NULL, why, sizeof(why))));
}

static void test_pct_copy(void **state)
{
	struct cb_summary s = row("ring", 4, 6);

	(void)state;
	NEAR(cb_pct_copy(&s, 12), 50);
	assert_true(isnan(cb_pct_copy(&s, NAN)));
	assert_true(isnan(cb_pct_copy(&s, 0)));
	s = row("copy", 4, NAN);
	assert_true(isnan(cb_pct_copy(&s, 12)));
	s = row("ring", 1, 0);
	assert_true(isnan(cb_pct_copy(&s, 12)));
}

/* The topology object round-trips; wrong types are refused. */
static void test_topo_json(void **state)
{
	struct cb_topo t = h100(), back;
	json_t *j = cb_topo_json(&t);
	json_error_t e;

	(void)state;
	assert_non_null(j);
	assert_true(json_is_true(json_object_get(j, "nvls")));
	assert_int_equal(cb_topo_from_json(j, &back), 0);
	assert_int_equal(memcmp(&t, &back, sizeof(t)), 0);
	json_decref(j);
	j = json_loads("{\"known\": true, \"gpu_model\": 3}", 0, &e);
	assert_int_equal(cb_topo_from_json(j, &back), -1);
	assert_int_equal(back.known, 0);
	json_decref(j);
	j = json_loads("{\"known\": false, \"why_unknown\": \"no NVML\"}", 0, &e);
	assert_int_equal(cb_topo_from_json(j, &back), 0);
	assert_string_equal(back.why_unknown, "no NVML");
	json_decref(j);
	assert_int_equal(cb_topo_from_json(NULL, &back), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pcie_lanes), cmocka_unit_test(test_nvlink_ring),
		cmocka_unit_test(test_nvls),       cmocka_unit_test(test_pcie),
		cmocka_unit_test(test_unbounded),  cmocka_unit_test(test_pct_copy),
		cmocka_unit_test(test_topo_json),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
