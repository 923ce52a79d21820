/* Unit tests: collbench-compare's bands, join, summary line,
 * the reader's validation of summary CSV and metadata text, and what makes
 * two runs incomparable (timing mode, wait strategy). */
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

#include "cb_compare.h"
#include "cb_compat.h"
#include "cb_results.h"
#include "cb_results_load.h"

#define assert_near(a, b, eps) assert_true(fabs((double)(a) - (double)(b)) <= (eps))

static const char header[] =
	"schema,backend,algo,nranks,bytes,count,dtype,op,in_place,iters,time_us,algbw_GBps,"
	"busbw_GBps,status,repeats,time_us_rep_min,time_us_rep_max,busbw_GBps_rep_min,"
	"busbw_GBps_rep_max\n";

static struct cb_res_row ok_row(double t, double tlo, double thi, double busbw, double blo,
				double bhi)
{
	struct cb_res_row row;
	struct cb_summary *r = &row.v;

	memset(&row, 0, sizeof(row));
	cb_schema_clear(&cb_schema_summary, r);
	strcpy(r->backend, "host");
	strcpy(r->algo, "ring");
	strcpy(r->dtype, "float");
	strcpy(r->op, "sum");
	r->nranks = 2;
	r->bytes = 1000;
	r->time_us = t, r->time_us_rep_min = tlo, r->time_us_rep_max = thi;
	r->algbw = 1000 / t / 1e3;
	r->busbw = busbw, r->busbw_rep_min = blo, r->busbw_rep_max = bhi;
	return row;
}

static void test_row_band(void **state)
{
	struct cb_res_row r = ok_row(10, 8, 20, 1.0, 0.5, 1.25);
	struct cb_band b;

	(void)state;
	assert_int_equal(cb_row_band(&r, CB_METRIC_BUSBW, &b), 0);
	assert_near(b.lo, 0.5, 0), assert_near(b.hi, 1.25, 0);
	assert_int_equal(cb_row_band(&r, CB_METRIC_TIME, &b), 0);
	assert_near(b.lo, 8, 0), assert_near(b.hi, 20, 0);
	/* algbw 0.1 GB/s; slowest repeat (20 us) -> 0.05, fastest (8 us) -> 0.125 */
	assert_int_equal(cb_row_band(&r, CB_METRIC_ALGBW, &b), 0);
	assert_near(b.value, 0.1, 1e-12);
	assert_near(b.lo, 0.05, 1e-12), assert_near(b.hi, 0.125, 1e-12);
	/* no repeat columns: a point */
	r = ok_row(10, NAN, NAN, 1.0, NAN, NAN);
	assert_int_equal(cb_row_band(&r, CB_METRIC_BUSBW, &b), 0);
	assert_true(b.lo == 1.0 && b.hi == 1.0);
	assert_int_equal(cb_row_band(&r, CB_METRIC_ALGBW, &b), 0);
	assert_true(b.lo == b.value && b.hi == b.value);
	/* a value outside its band (an edited file): band ignored, says so */
	r = ok_row(10, 8, 20, 0.4, 0.5, 1.25);
	assert_int_equal(cb_row_band(&r, CB_METRIC_BUSBW, &b), 1);
	assert_true(b.lo == 0.4 && b.hi == 0.4);
	/* just outside by CSV rounding: kept, clamped */
	r = ok_row(10, 8, 20, 1.0, 1.000001, 1.25);
	assert_int_equal(cb_row_band(&r, CB_METRIC_BUSBW, &b), 0);
	assert_near(b.lo, 1.0, 0);
	/* copy: no busbw */
	r = ok_row(10, 8, 20, NAN, NAN, NAN);
	assert_int_equal(cb_row_band(&r, CB_METRIC_BUSBW, &b), -1);
	assert_true(isnan(b.value));
}

/* --stat median: one preempted iteration doubles the mean of the current run
 * but not its median; the mean calls it a regression, the median does not. */
static void test_median_view(void **state)
{
	struct cb_res_row base = ok_row(10, 9.8, 10.2, 2.0, 1.96, 2.04);
	struct cb_res_row cur = ok_row(20, 12, 30, 1.0, 0.667, 1.667), vb, vc;
	struct cb_band b, c;

	(void)state;
	base.v.time_us_median = 10, base.v.time_us_median_rep_min = 9.9, base.v.time_us_median_rep_max = 10.1;
	cur.v.time_us_median = 10.2, cur.v.time_us_median_rep_min = 10, cur.v.time_us_median_rep_max = 10.5;
	assert_int_equal(cb_row_band(&base, CB_METRIC_BUSBW, &b), 0);
	assert_int_equal(cb_row_band(&cur, CB_METRIC_BUSBW, &c), 0);
	assert_int_equal(cb_verdict_of(&b, &c, NAN, 0.10, 0.20, 1), CB_V_REGRESSION);
	assert_int_equal(cb_row_median_view(&base, &vb), 1);
	assert_int_equal(cb_row_median_view(&cur, &vc), 1);
	assert_near(vc.v.time_us, 10.2, 1e-12);
	assert_near(vc.v.busbw, 1.0 * 20 / 10.2, 1e-12);        /* busbw of the median time */
	assert_near(vc.v.busbw_rep_min, vc.v.busbw * 10.2 / 10.5, 1e-12); /* slowest median */
	assert_int_equal(cb_row_band(&vb, CB_METRIC_BUSBW, &b), 0);
	assert_int_equal(cb_row_band(&vc, CB_METRIC_BUSBW, &c), 0);
	assert_int_equal(cb_verdict_of(&b, &c, NAN, 0.10, 0.20, 1), CB_V_SAME);
	/* a row without the median columns stays as it is */
	cur.v.time_us_median = NAN;
	assert_int_equal(cb_row_median_view(&cur, &vc), 0);
	assert_near(vc.v.time_us, 20, 0);
}

/* Parses text (header + rows) into res; returns the status. */
static enum cb_status parse(const char *rows, struct cb_results *res, char *err)
{
	char buf[4096];

	snprintf(buf, sizeof(buf), "%s%s", header, rows);
	memset(res, 0, sizeof(*res));
	err[0] = '\0';
	return cb_results_parse_csv(buf, strlen(buf), "t.csv", res, err, 512);
}

#define ROW(algo, bytes, busbw, lo, hi, status) \
	"collbench-summary-1,host," algo ",2," bytes ",1,float,sum,0,20,10,1," busbw "," status \
	",3,9,11," lo "," hi "\n"

static void test_parse_valid_sorted(void **state)
{
	struct cb_results r;
	char err[512];

	(void)state;
	assert_int_equal(parse(ROW("ring", "4096", "2", "1.5", "2.5", "ok")
			       ROW("ps", "1024", "1", "0.9", "1.1", "ok")
			       ROW("ring", "1024", "", "", "", "skipped:no reason"),
			       &r, err), CB_OK);
	assert_int_equal(r.nrows, 3);
	assert_string_equal(r.rows[0].v.algo, "ps");
	assert_string_equal(r.rows[1].v.algo, "ring");
	assert_true(r.rows[1].v.bytes == 1024 && r.rows[1].v.status.state == CB_ROW_SKIPPED);
	assert_string_equal(r.rows[1].v.status.reason, "no reason");
	assert_true(isnan(r.rows[1].v.busbw));
	assert_true(r.rows[2].v.bytes == 4096 && r.rows[2].v.repeats == 3);
	assert_near(r.rows[2].v.busbw_rep_max, 2.5, 0);
	assert_true(r.rows[2].v.count == CB_NO_U64); /* a column the reader does not read */
	cb_results_free(&r);
	/* header only: valid, no rows */
	assert_int_equal(parse("", &r, err), CB_OK);
	assert_int_equal(r.nrows, 0);
	cb_results_free(&r);
}

/* Each malformed input: CB_ERR_ARG and a message holding want. */
static void expect_bad(const char *text, int with_header, const char *want)
{
	struct cb_results r;
	char err[512] = "", buf[4096];
	enum cb_status st;

	snprintf(buf, sizeof(buf), "%s%s", with_header ? header : "", text);
	memset(&r, 0, sizeof(r));
	st = cb_results_parse_csv(buf, strlen(buf), "t.csv", &r, err, sizeof(err));
	if (st != CB_ERR_ARG || !strstr(err, want))
		fail_msg("input '%s': status %d, message '%s', expected '%s'", text, st, err, want);
	assert_null(r.rows);
}

static void test_parse_malformed(void **state)
{
	(void)state;
	expect_bad("", 0, "empty file");
	expect_bad("a,b\n1,2\n", 0, "no column 'schema'");
	expect_bad("collbench-summary-1,host,ring\n", 1, "different number of fields");
	expect_bad("\"unterminated\n", 0, "not valid CSV");
	expect_bad(ROW("ring", "1024", "abc", "1", "2", "ok"), 1, "'abc' is not a number");
	expect_bad(ROW("ring", "1024", "nan", "1", "2", "ok"), 1, "not a number");
	expect_bad(ROW("ring", "1024", "inf", "1", "2", "ok"), 1, "not a number");
	expect_bad(ROW("ring", "1024", "0x10", "1", "2", "ok"), 1, "not a number");
	expect_bad(ROW("ring", "1024", "1e999", "1", "2", "ok"), 1, "out of range");
	expect_bad(ROW("ring", "1024", "1e300", "1", "2", "ok"), 1, "out of range");
	expect_bad(ROW("ring", "1024", "-1", "1", "2", "ok"), 1, "out of range");
	expect_bad(ROW("ring", "1024", "1.2.3", "1", "2", "ok"), 1, "not a number");
	expect_bad(ROW("ring", "99999999999999999999999", "1", "1", "2", "ok"), 1,
		   "out of range");
	expect_bad(ROW("ring", "-5", "1", "1", "2", "ok"), 1, "not a whole number");
	expect_bad(ROW("ring", "", "1", "1", "2", "ok"), 1, "bytes is empty");
	expect_bad(ROW("ri ng", "1024", "1", "1", "2", "ok"), 1, "not a valid name");
	expect_bad(ROW("ring", "1024", "1", "1", "2", "fine"), 1, "status 'fine'");
	expect_bad(ROW("ring", "1024", "1", "1", "2", "ok") ROW("ring", "1024", "1", "1", "2", "ok"),
		   1, "same row as line 2");
	expect_bad("collbench-summary-4,host,ring,2,8,2,float,sum,0,20,1,1,1,ok,1,1,1,1,1\n", 1,
		   "schema 'collbench-summary-4'");
	expect_bad("collbench-rank-2,host,ring,2,8,2,float,sum,0,20,1,1,1,ok,1,1,1,1,1\n", 1,
		   "not collbench-summary-3, collbench-summary-2 or collbench-summary-1");
	/* an ok row must have its time */
	expect_bad("collbench-summary-1,host,ring,2,8,2,float,sum,0,20,,1,1,ok,1,,,,\n", 1,
		   "time_us is empty");
}

static void test_parse_meta(void **state)
{
	const char good[] = "{\"schema\":\"collbench-meta-1\",\"backend\":\"host\",\"device\":\"\","
			    "\"host\":{\"cpu_model\":\"X\"},\"mpi\":{\"nranks\":4,"
			    "\"ranks_per_node\":2,\"nnodes\":2},\"status\":\"complete\"}";
	struct cb_res_launch l;
	char err[512];

	(void)state;
	assert_int_equal(cb_results_parse_meta(good, strlen(good), "m", &l, err, sizeof(err)),
			 CB_OK);
	assert_true(l.nranks == 4 && l.ranks_per_node == 2 && l.nnodes == 2 && l.complete);
	assert_string_equal(l.cpu_model, "X");
	/* the GPU model: "gpu_model" when present (device may hold bus ids) */
	{
		const char gpu[] = "{\"schema\":\"collbench-meta-1\",\"backend\":\"cuda\","
				   "\"device\":\"NVIDIA H200 (0000:1a:00.0)\",\"gpu_model\":"
				   "\"NVIDIA H200\",\"mpi\":{\"nranks\":1,\"ranks_per_node\":1}}";

		assert_int_equal(cb_results_parse_meta(gpu, strlen(gpu), "m", &l, err, sizeof(err)),
				 CB_OK);
		assert_string_equal(l.device, "NVIDIA H200");
		assert_false(l.complete);
	}
	assert_int_equal(cb_results_parse_meta("{", 1, "m", &l, err, sizeof(err)), CB_ERR_ARG);
	assert_non_null(strstr(err, "not valid JSON"));
	assert_int_equal(cb_results_parse_meta("[]", 2, "m", &l, err, sizeof(err)), CB_ERR_ARG);
	assert_int_equal(cb_results_parse_meta("{\"schema\":\"collbench-run-1\"}", 28, "m", &l,
					       err, sizeof(err)), CB_ERR_ARG);
	assert_non_null(strstr(err, "not a launch metadata file"));
}

/* A two-row baseline against currents: verdicts, counts, summary line. */
static void test_join_and_summary(void **state)
{
	struct cb_results b, c;
	struct cb_comparison cmp;
	struct cb_compare_opts o = { .metric = CB_METRIC_BUSBW, .stat = CB_STAT_MEDIAN,
				     .tolerance = 0.05, .noise_cap = 0.10 };
	char err[512], line[256];

	(void)state;
	assert_int_equal(parse(ROW("ring", "1024", "10", "9.9", "10.1", "ok")
			       ROW("ps", "1024", "5", "4.9", "5.1", "ok")
			       ROW("mpi", "1024", "5", "4.9", "5.1", "ok")
			       ROW("nccl", "1024", "", "", "", "skipped:host"), &b, err), CB_OK);
	assert_int_equal(parse(ROW("ring", "1024", "8", "7.9", "8.1", "ok")
			       ROW("ps", "1024", "5", "4.9", "5.1", "error:3 wrong elements")
			       ROW("copy", "1024", "", "", "", "ok")
			       ROW("nccl", "1024", "", "", "", "skipped:host"), &c, err), CB_OK);
	assert_int_equal(cb_compare_runs(&b, &c, NULL, NULL, &o, &cmp, err, sizeof(err)), CB_OK);
	assert_int_equal(cmp.nrows, 4); /* nccl skipped in both: counted, not listed */
	assert_int_equal(cmp.count[CB_V_REGRESSION], 1);
	assert_int_equal(cmp.count[CB_V_FAILED], 1);
	assert_int_equal(cmp.count[CB_V_VANISHED], 1); /* mpi: measured, now absent */
	assert_int_equal(cmp.count[CB_V_MISSING], 1);  /* copy: new */
	assert_int_equal(cmp.count[CB_V_SKIPPED], 1);
	assert_int_equal(cb_compare_gate(&cmp, 0), CB_GATE_FAIL);
	cb_compare_summary(&cmp, line, sizeof(line));
	assert_string_equal(line, "3 regressions (1 failed, 1 vanished), 0 improvements, 0 same, "
			    "1 missing, 1 skipped");
	cb_comparison_free(&cmp);
	/* filters: only mpi -> vanished, a failure; allowed, it is missing: strict
	 * fails on it */
	o.algos = "mpi";
	assert_int_equal(cb_compare_runs(&b, &c, NULL, NULL, &o, &cmp, err, sizeof(err)), CB_OK);
	assert_int_equal(cmp.nrows, 1);
	assert_int_equal(cb_compare_gate(&cmp, 0), CB_GATE_FAIL);
	cb_comparison_free(&cmp);
	o.allow_missing = 1;
	assert_int_equal(cb_compare_runs(&b, &c, NULL, NULL, &o, &cmp, err, sizeof(err)), CB_OK);
	assert_int_equal(cb_compare_gate(&cmp, 0), CB_GATE_PASS);
	assert_int_equal(cb_compare_gate(&cmp, 1), CB_GATE_FAIL);
	cb_compare_summary(&cmp, line, sizeof(line));
	assert_string_equal(line, "0 regressions, 0 improvements, 0 same, 1 missing");
	cb_comparison_free(&cmp);
	o.allow_missing = 0;
	/* identical: all same */
	o.algos = NULL;
	assert_int_equal(cb_compare_runs(&b, &b, NULL, NULL, &o, &cmp, err, sizeof(err)), CB_OK);
	cb_compare_summary(&cmp, line, sizeof(line));
	assert_string_equal(line, "0 regressions, 0 improvements, 3 same, 0 missing, 1 skipped");
	assert_int_equal(cb_compare_gate(&cmp, 1), CB_GATE_PASS);
	cb_comparison_free(&cmp);
	cb_results_free(&b);
	cb_results_free(&c);
}

/* The header of a collbench-summary-2 file (transport, nhosts) and of a -3
 * one (collective, the last column), and a ring row of each. */
static const char header2[] =
	"schema,backend,algo,nranks,bytes,count,dtype,op,in_place,iters,time_us,algbw_GBps,"
	"busbw_GBps,status,repeats,time_us_rep_min,time_us_rep_max,busbw_GBps_rep_min,"
	"busbw_GBps_rep_max,transport,nhosts\n";
static const char header3[] =
	"schema,backend,algo,nranks,bytes,count,dtype,op,in_place,iters,time_us,algbw_GBps,"
	"busbw_GBps,status,repeats,time_us_rep_min,time_us_rep_max,busbw_GBps_rep_min,"
	"busbw_GBps_rep_max,transport,nhosts,collective\n";
#define ROW2(busbw) \
	"collbench-summary-2,host,ring,2,1024,1,float,sum,0,20,10,1," busbw ",ok,3,9,11," busbw \
	"," busbw ",shm,1\n"
#define ROW3(coll, busbw) \
	"collbench-summary-3,host,ring,2,1024,1,float,sum,0,20,10,1," busbw ",ok,3,9,11," busbw \
	"," busbw ",shm,1," coll "\n"

/* Parses hdr + rows into res; returns the status, err the message. */
static enum cb_status parse_with(const char *hdr, const char *rows, struct cb_results *res,
				 char *err)
{
	char buf[4096];

	snprintf(buf, sizeof(buf), "%s%s", hdr, rows);
	memset(res, 0, sizeof(*res));
	err[0] = '\0';
	return cb_results_parse_csv(buf, strlen(buf), "t.csv", res, err, 512);
}

/* Rows of -1 and -2 files are allreduce's; a -3 row names its collective,
 * one cb_coll.h knows, in a column the header must have. */
static void test_parse_collective(void **state)
{
	struct cb_results r;
	char err[512];

	(void)state;
	assert_int_equal(parse_with(header2, ROW2("1"), &r, err), CB_OK);
	assert_string_equal(r.rows[0].v.collective, "allreduce");
	cb_results_free(&r);
	assert_int_equal(parse(ROW("ring", "1024", "1", "1", "1", "ok"), &r, err), CB_OK);
	assert_string_equal(r.rows[0].v.collective, "allreduce");
	cb_results_free(&r);
	/* one ring row per collective: two rows, not the same row twice */
	assert_int_equal(parse_with(header3, ROW3("all_gather", "1") ROW3("allreduce", "2"), &r,
				    err), CB_OK);
	assert_int_equal(r.nrows, 2);
	assert_string_equal(r.rows[0].v.collective, "all_gather");
	assert_string_equal(r.rows[1].v.collective, "allreduce");
	cb_results_free(&r);
	assert_int_not_equal(parse_with(header2, "collbench-summary-3,host,ring,2,1024,1,float,sum,"
					"0,20,10,1,1,ok,3,9,11,1,1,shm,1\n", &r, err), CB_OK);
	if (!strstr(err, "t.csv: line 2: a collbench-summary-3 row, but the header has no column "
			 "'collective'"))
		fail_msg("-3 row without the collective column: '%s'", err);
	assert_int_not_equal(parse_with(header3, ROW3("allgather", "1"), &r, err), CB_OK);
	if (!strstr(err, "line 2: collective 'allgather' is none of allreduce, reduce_scatter, "
			 "all_gather, broadcast, reduce, alltoall"))
		fail_msg("unknown collective: '%s'", err);
	assert_int_not_equal(parse_with(header3, ROW3("", "1"), &r, err), CB_OK);
	if (!strstr(err, "column collective: '' is not a valid name"))
		fail_msg("empty collective: '%s'", err);
}

/* An all_gather ring row never meets an allreduce ring row: each is a row
 * of one side, as a row the other file lacks. */
static void test_join_collectives(void **state)
{
	struct cb_results b, c;
	struct cb_comparison cmp;
	struct cb_compare_opts o = { .metric = CB_METRIC_BUSBW, .stat = CB_STAT_MEDIAN,
				     .tolerance = 0.05, .noise_cap = 0.10 };
	char err[512], line[256];

	(void)state;
	assert_int_equal(parse_with(header2, ROW2("10"), &b, err), CB_OK); /* allreduce */
	assert_int_equal(parse_with(header3, ROW3("all_gather", "1"), &c, err), CB_OK);
	assert_int_equal(cb_compare_runs(&b, &c, NULL, NULL, &o, &cmp, err, sizeof(err)), CB_OK);
	assert_int_equal(cmp.nrows, 2);
	for (size_t i = 0; i < cmp.nrows; i++)
		assert_true(!cmp.rows[i].base != !cmp.rows[i].cur);
	assert_int_equal(cmp.count[CB_V_VANISHED], 1); /* allreduce: measured, now absent */
	assert_int_equal(cmp.count[CB_V_MISSING], 1);  /* all_gather: new */
	assert_int_equal(cmp.count[CB_V_REGRESSION], 0);
	cb_cmp_row_name(&cmp.rows[0], line, sizeof(line));
	assert_string_equal(line, "all_gather ring np2 1K float sum");
	cb_cmp_row_name(&cmp.rows[1], line, sizeof(line));
	assert_string_equal(line, "ring np2 1K float sum");
	cb_comparison_free(&cmp);
	cb_results_free(&c);
	/* the same collective joins across schemas: -2's allreduce with -3's */
	assert_int_equal(parse_with(header3, ROW3("allreduce", "5"), &c, err), CB_OK);
	assert_int_equal(cb_compare_runs(&b, &c, NULL, NULL, &o, &cmp, err, sizeof(err)), CB_OK);
	assert_int_equal(cmp.nrows, 1);
	assert_int_equal(cmp.count[CB_V_REGRESSION], 1);
	cb_comparison_free(&cmp);
	cb_results_free(&c);
	cb_results_free(&b);
}

/* One launch sidecar with these timing and wait settings ("" leaves the key
 * out, as older files do). */
static void launch(struct cb_results *r, const char *timing, const char *wait)
{
	char json[512], err[256], t[160] = "", w[64] = "";

	if (*timing)
		snprintf(t, sizeof(t), ",\"timing_mode\":\"%s\"", timing);
	if (*wait)
		snprintf(w, sizeof(w), ",\"wait\":{\"strategy\":\"%s\"}", wait);
	snprintf(json, sizeof(json), "{\"schema\":\"collbench-meta-1\",\"backend\":\"host\","
		 "\"mpi\":{\"nranks\":2,\"ranks_per_node\":2},\"status\":\"complete\"%s%s}", t, w);
	r->launches = calloc(1, sizeof(*r->launches));
	r->nlaunches = 1;
	assert_int_equal(cb_results_parse_meta(json, strlen(json), "x.meta.json", r->launches, err,
					       sizeof(err)), CB_OK);
}

/* Findings of cb_compat_check on base and cur, as text; *problems set. */
static char *compat(const struct cb_results *b, const struct cb_results *c, int *problems)
{
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);

	*problems = cb_compat_check(b, "b", c, "c", NULL, 0, m);
	fclose(m);
	return text;
}

/* Runs timed (--timing) or waiting (--wait) differently are incomparable;
 * a file from before --timing timed as iter; one from before --wait is
 * warned about when the other records it. */
static void test_compat_timing_wait(void **state)
{
	struct cb_results b = { 0 }, c = { 0 };
	int n;
	char *text;

	(void)state;
	launch(&b, "iter", "futex"), launch(&c, "loop", "futex");
	text = compat(&b, &c, &n);
	assert_int_equal(n, 1);
	assert_non_null(strstr(text, "error: timing modes (--timing, -m, -z, -C) differ: baseline "
				     "'iter', current 'loop'"));
	free(text), cb_results_free(&c);
	launch(&c, "iter\",\"agg_iters\":8,\"blocking\":3,\"report_cputime\":1,\"x\":\"", "futex");
	text = compat(&b, &c, &n); /* nccl-tests' timing modes: another figure */
	assert_int_equal(n, 1);
	assert_non_null(strstr(text, "baseline 'iter', current 'iter -m 8 -z 3 -C 1'"));
	free(text), cb_results_free(&c);
	launch(&c, "iter\",\"agg_iters\":1,\"blocking\":null,\"report_cputime\":0,\"x\":\"", "futex");
	text = compat(&b, &c, &n); /* their defaults: the same figure */
	assert_int_equal(n, 0);
	free(text), cb_results_free(&c);
	launch(&c, "", "spin"); /* no timing_mode: iter */
	text = compat(&b, &c, &n);
	assert_int_equal(n, 1);
	assert_non_null(strstr(text, "wait strategies (--wait) differ: baseline 'futex', "
				     "current 'spin'"));
	free(text), cb_results_free(&c);
	launch(&c, "iter", ""); /* from before --wait */
	text = compat(&b, &c, &n);
	assert_int_equal(n, 0);
	assert_non_null(strstr(text, "warning: x.meta.json: the metadata does not record the wait"));
	free(text), cb_results_free(&c), cb_results_free(&b);
	launch(&b, "", ""), launch(&c, "", ""); /* both old: nothing to say */
	text = compat(&b, &c, &n);
	assert_int_equal(n, 0);
	assert_string_equal(text, "");
	free(text), cb_results_free(&c), cb_results_free(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_row_band),
		cmocka_unit_test(test_median_view),
		cmocka_unit_test(test_parse_valid_sorted),
		cmocka_unit_test(test_parse_malformed),
		cmocka_unit_test(test_parse_meta),
		cmocka_unit_test(test_join_and_summary),
		cmocka_unit_test(test_parse_collective),
		cmocka_unit_test(test_join_collectives),
		cmocka_unit_test(test_compat_timing_wait),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
