/* Unit tests: the published figures' table (cb_reference.h): reading it
 * (and refusing a bad one with its line and column), which entries match a
 * topology, the nearest platform when none does, and which rows measure an
 * entry's algorithm. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "cb_reference.h"

#define TEST_TMPDIR "/tmp/cb_test_reference.XXXXXX"
#include "test_tmpdir.h"

#define HEAD "gpu_family,gpu_model,gpu_count,interconnect,collective,algo,bytes,busbw_GBps," \
	     "nccl_version,measured,source_url,source_title,source_date,note\n"
#define E_H100 "H100,NVIDIA H100 80GB HBM3,8,nvlink4-nvswitch,allreduce,nvls,1073741824,466.35," \
	       "2.18.5,in-place,https://example.org/a,A,2024-09-24,n\n"
#define E_A100 "A100,NVIDIA A100-SXM4-80GB,8,nvlink3-nvswitch,allreduce,default,,230,,peak," \
	       "https://example.org/b,B,2024-09-25,\n"
#define E_H100PCIE "H100,NVIDIA H100 PCIe,2,nvlink4-direct,allreduce,default,4294967296," \
		   "116.26,,out-of-place,http://example.org/c,C,2024-01-27,\n"

/* Writes text to dir/name and loads it; returns the status, err filled. */
static enum cb_status load(const char *name, const char *text, struct cb_ref_table *t,
			   char *err, size_t len)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	return cb_ref_load(path, t, err, len);
}

static struct cb_topo topo(const char *model, int count, int nvlink, int nvswitch)
{
	struct cb_topo t = { .known = 1, .gpu_count = count, .nvlink_version = nvlink,
			     .nvlink_links = 18, .nvlink_link_GBps = 25, .nvswitch = nvswitch };

	snprintf(t.gpu_model, sizeof(t.gpu_model), "%s", model);
	return t;
}

static void test_load(void **state)
{
	struct cb_ref_table t;
	char err[512];

	(void)state;
	assert_int_equal(load("ok.csv", HEAD E_H100 E_A100, &t, err, sizeof(err)), CB_OK);
	assert_int_equal(t.n, 2);
	assert_string_equal(t.e[0].family, "H100");
	assert_int_equal(t.e[0].gpu_count, 8);
	assert_true(t.e[0].bytes == 1073741824ULL && t.e[0].busbw == 466.35);
	assert_true(t.e[1].bytes == CB_NO_U64); /* a peak entry */
	assert_int_equal(t.e[1].line, 3);
	cb_ref_free(&t);
}

/* Each fault named with its line and column; nothing left loaded. */
static void test_load_refused(void **state)
{
	static const struct { const char *text, *msg; } bad[] = {
		{ HEAD "H100,m,8,x,allreduce,nvls,,-3,,,https://e/a,A,2024-01-01,\n",
		  "line 2: busbw_GBps: not a positive number" },
		{ HEAD E_H100 "H100,m,0,x,allreduce,nvls,,3,,,https://e/a,A,2024-01-01,\n",
		  "line 3: gpu_count: not a positive integer" },
		{ HEAD "H100,m,8,x,allreduce,nvls,1.5,3,,,https://e/a,A,2024-01-01,\n",
		  "line 2: bytes: not a positive integer" },
		{ HEAD "H100,m,8,x,allreduce,nvls,,3,,,ftp://e/a,A,2024-01-01,\n",
		  "line 2: source_url: not an http(s) URL" },
		{ HEAD "H100,m,8,x,allreduce,nvls,,3,,,https://e/a,A,24-1-1,\n",
		  "line 2: source_date: not YYYY-MM-DD" },
		{ HEAD ",m,8,x,allreduce,nvls,,3,,,https://e/a,A,2024-01-01,\n",
		  "line 2: gpu_family: empty" },
		{ "gpu_family,gpu_count\nH100,8\n", "no column 'gpu_model'" },
		{ HEAD, "no entries" },
	};
	struct cb_ref_table t;
	char err[512];

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(load("bad.csv", bad[i].text, &t, err, sizeof(err)), CB_ERR_ARG);
		if (!strstr(err, bad[i].msg) || !strstr(err, "bad.csv"))
			fail_msg("case %zu: '%s' lacks '%s'", i, err, bad[i].msg);
		assert_true(t.n == 0 && t.e == NULL);
	}
}

static void test_family_and_match(void **state)
{
	struct cb_ref_table t;
	struct cb_topo h = topo("NVIDIA H100 80GB HBM3", 8, 4, 1);
	char err[512], ic[64];

	(void)state;
	assert_true(cb_ref_family_in("H100", "NVIDIA H100 80GB HBM3"));
	assert_true(cb_ref_family_in("h100", "NVIDIA H100"));
	assert_false(cb_ref_family_in("H10", "NVIDIA H100 80GB HBM3"));
	assert_false(cb_ref_family_in("H100", "NVIDIA GH100X"));
	assert_false(cb_ref_family_in("", "NVIDIA H100"));
	cb_ref_interconnect(&h, ic, sizeof(ic));
	assert_string_equal(ic, "nvlink4-nvswitch");
	h.nvswitch = 0;
	cb_ref_interconnect(&h, ic, sizeof(ic));
	assert_string_equal(ic, "nvlink4-direct");
	h = (struct cb_topo){ .known = 1, .pcie_gen = 5 };
	cb_ref_interconnect(&h, ic, sizeof(ic));
	assert_string_equal(ic, "pcie5");
	h.known = 0;
	cb_ref_interconnect(&h, ic, sizeof(ic));
	assert_string_equal(ic, "unknown");

	assert_int_equal(load("m.csv", HEAD E_H100 E_A100 E_H100PCIE, &t, err, sizeof(err)), CB_OK);
	h = topo("NVIDIA H100 80GB HBM3", 8, 4, 1);
	assert_true(cb_ref_matches(&t.e[0], &h));
	assert_false(cb_ref_matches(&t.e[1], &h));
	assert_false(cb_ref_matches(&t.e[2], &h));
	h.gpu_count = 4;
	assert_false(cb_ref_matches(&t.e[0], &h));
	h = topo("NVIDIA H100 PCIe", 2, 4, 0);
	assert_true(cb_ref_matches(&t.e[2], &h));
	h.known = 0;
	assert_false(cb_ref_matches(&t.e[2], &h));
	cb_ref_free(&t);
}

/* Nearest: family, then interconnect, then count, then NVLink version. */
static void test_nearest(void **state)
{
	struct cb_ref_table t;
	struct cb_topo h;
	char err[512], why[256];

	(void)state;
	assert_int_equal(load("n.csv", HEAD E_A100 E_H100PCIE E_H100, &t, err, sizeof(err)), CB_OK);
	h = topo("NVIDIA H100 80GB HBM3", 4, 4, 1);   /* 4 GPUs: the 8 x H100 NVSwitch one */
	assert_int_equal(cb_ref_nearest(&t, &h, why, sizeof(why)), 2);
	assert_string_equal(why, "4 GPUs, not 8");
	h = topo("NVIDIA H100 NVL", 2, 4, 1);         /* the interconnect before the count */
	assert_int_equal(cb_ref_nearest(&t, &h, why, sizeof(why)), 2);
	assert_string_equal(why, "2 GPUs, not 8");
	h = (struct cb_topo){ .known = 1, .gpu_count = 2, .pcie_gen = 5 };
	strcpy(h.gpu_model, "NVIDIA H100 PCIe");      /* no NVLink: then the count */
	assert_int_equal(cb_ref_nearest(&t, &h, why, sizeof(why)), 1);
	assert_string_equal(why, "interconnect pcie5, not nvlink4-direct");
	h = topo("NVIDIA Z9", 8, 3, 1);               /* no family: the same interconnect */
	assert_int_equal(cb_ref_nearest(&t, &h, why, sizeof(why)), 0);
	assert_string_equal(why, "GPU NVIDIA Z9, not A100");
	h = topo("NVIDIA Z9", 8, 5, 1);               /* nor it: count, then NVLink version */
	assert_int_equal(cb_ref_nearest(&t, &h, why, sizeof(why)), 2);
	cb_ref_free(&t);
	t.n = 0;
	assert_int_equal(cb_ref_nearest(&t, &h, why, sizeof(why)), -1);
}

static void test_algo_is(void **state)
{
	(void)state;
	assert_true(cb_ref_algo_is("nccl", "default"));
	assert_false(cb_ref_algo_is("nccl.ring.simple", "default"));
	assert_true(cb_ref_algo_is("nccl.ring.ll128", "ring"));
	assert_true(cb_ref_algo_is("nccl.nvls.simple", "nvls"));
	assert_false(cb_ref_algo_is("nccl.nvlstree.simple", "nvls"));
	assert_false(cb_ref_algo_is("ring", "ring"));     /* ours, not NCCL's */
	assert_false(cb_ref_algo_is("mpi.ring", "ring"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_load),    cmocka_unit_test(test_load_refused),
		cmocka_unit_test(test_family_and_match), cmocka_unit_test(test_nearest),
		cmocka_unit_test(test_algo_is),
	};

	return cmocka_run_group_tests(tests, tmpdir_setup, tmpdir_teardown);
}
