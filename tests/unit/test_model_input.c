/* Unit tests of the cost model's input adapter (cb_model_input.c) over the
 * results reader: the row's times (median, else mean; the repeats' band),
 * its launch (ranks per host, CPUs, oversubscription, the ps root), the ring
 * slice (--slicebytes, else the backend table's own), and rows without
 * metadata. Each test writes a small run folder. */
#define _GNU_SOURCE
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "cb_catalog.h"
#include "cb_coll.h"
#include "cb_model_input.h"

/* The summary columns up to the repeats' medians (schema collbench-summary-1). */
#define HEADER                                                                               \
	"schema,backend,algo,nranks,bytes,count,dtype,op,in_place,iters,time_us,"               \
	"time_us_median,time_us_min,time_us_max,algbw_GBps,busbw_GBps,wrong,tx_total_bytes,"  \
	"txrx_max_bytes,imbalance,status,warmup_iters,repeats,time_us_rep_min,"               \
	"time_us_rep_max,busbw_GBps_rep_min,busbw_GBps_rep_max,minflt_per_iter,"              \
	"time_us_median_rep_min,time_us_median_rep_max\n"

struct run {
	char dir[64];
};

static void put(const char *dir, const char *name, const char *text)
{
	char path[128];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	assert_true(fputs(text, f) >= 0);
	assert_int_equal(fclose(f), 0);
}

/* A sidecar of a launch of backend at n ranks, rph per node, cpus CPUs. */
static void put_meta(const char *dir, const char *name, const char *backend, int n, int rph,
		     int cpus, int over, const char *options)
{
	char text[1024];

	snprintf(text, sizeof(text),
		 "{\"schema\": \"collbench-meta-1\", \"backend\": \"%s\", \"device\": \"\",\n"
		 " \"host\": {\"cpu_model\": \"Test CPU\", \"cpus_online\": %d, \"hostname\": \"t\"},\n"
		 " \"mpi\": {\"nranks\": %d, \"ranks_per_node\": %d, \"nnodes\": %d, "
		 "\"oversubscribed\": %s},\n \"options\": \"%s\", \"status\": \"complete\"}\n",
		 backend, cpus, n, rph, (n + rph - 1) / rph, over ? "true" : "false", options);
	put(dir, name, text);
}

static int setup(void **state)
{
	struct run *r = calloc(1, sizeof(*r));

	if (!r)
		return -1;
	snprintf(r->dir, sizeof(r->dir), "/tmp/cb_model_input.XXXXXX");
	if (!mkdtemp(r->dir)) {
		free(r);
		return -1;
	}
	*state = r;
	return 0;
}

static int teardown(void **state)
{
	struct run *r = *state;
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", r->dir);
	if (system(cmd) != 0)
		return -1;
	free(r);
	return 0;
}

static const struct cb_mrow *find(const struct cb_minput *in, const char *backend,
				  const char *algo, int n)
{
	for (size_t i = 0; i < in->nrows; i++)
		if (strcmp(in->rows[i].backend, backend) == 0 &&
		    strcmp(in->rows[i].algo, algo) == 0 && in->rows[i].nranks == n)
			return &in->rows[i];
	fail_msg("no %s %s np%d row", backend, algo, n);
	return NULL;
}

/* Times in seconds from the median (and its repeats' band), launch facts
 * from the sidecar, the ring slice from --slicebytes or the backend. */
static void test_rows_and_launches(void **state)
{
	struct run *r = *state;
	struct cb_minput in;
	const struct cb_mrow *m;
	char err[512] = "";

	put(r->dir, "summary.csv",
	    HEADER
	    "collbench-summary-1,host,ring,2,1024,256,float,sum,0,20,12,10,9,30,0.1,0.1,0,,,,ok,5,3,11,13,,,0,9.5,10.5\n"
	    "collbench-summary-1,host,ps,4,1024,256,float,sum,1,20,12,,9,30,0.1,0.1,0,,,,ok,5,3,11,13,,,0,,\n"
	    "collbench-summary-1,cuda,ring,2,1024,256,float,sum,0,20,12,10,9,30,0.1,0.1,0,,,,error:boom,5,1,,,,,0,,\n");
	put_meta(r->dir, "np2.meta.json", "host", 2, 2, 2, 0, "root=0;slicebytes=0");
	put_meta(r->dir, "np4.meta.json", "host", 4, 2, 2, 1, "root=3;slicebytes=4096");
	put_meta(r->dir, "cuda.meta.json", "cuda", 2, 1, 8, 0, "root=0;slicebytes=0");
	assert_int_equal(cb_minput_load(r->dir, &in, err, sizeof(err)), CB_OK);
	assert_int_equal(in.nrows, 3);
	assert_int_equal(in.meta_missing, 0);

	m = find(&in, "host", "ring", 2);
	assert_true(m->ok);
	assert_string_equal(m->transport, "shm");
	assert_true(fabs(m->t - 10e-6) < 1e-15 && fabs(m->t_lo - 9.5e-6) < 1e-15 &&
		    fabs(m->t_hi - 10.5e-6) < 1e-15);
	assert_int_equal(m->esize, 4);
	assert_int_equal(m->ranks_per_host, 2);
	assert_int_equal(m->nhosts, 1);
	assert_int_equal(m->cpus_per_host, 2);
	assert_int_equal(m->slice_bytes, cb_catalog_backend("host")->pipeline_bytes);

	m = find(&in, "host", "ps", 4); /* no median: the mean and its band */
	assert_true(fabs(m->t - 12e-6) < 1e-15 && fabs(m->t_lo - 11e-6) < 1e-15);
	assert_int_equal(m->in_place, 1);
	assert_int_equal(m->nhosts, 2);
	assert_int_equal(m->oversubscribed, 1);
	assert_int_equal(m->root, 3);
	assert_int_equal(m->slice_bytes, 4096);

	m = find(&in, "cuda", "ring", 2);
	assert_false(m->ok);
	assert_string_equal(m->transport, "ipc");
	assert_int_equal(m->slice_bytes, CB_CUDA_PIPELINE_BYTES);
	cb_minput_free(&in);
}

/* A launch's mpi.rank_host places each rank (kept when it names nranks hosts
 * in range, else unknown: NULL); no --slicebytes is slice_auto. */
static void test_rank_host(void **state)
{
	struct run *r = *state;
	struct cb_minput in;
	const struct cb_mrow *m;
	char err[512] = "";

	put(r->dir, "summary.csv",
	    HEADER
	    "collbench-summary-1,host,ring,4,1024,256,float,sum,0,20,12,10,9,30,0.1,0.1,0,,,,ok,5,1,,,,,0,,\n"
	    "collbench-summary-1,host,ring,2,1024,256,float,sum,0,20,12,10,9,30,0.1,0.1,0,,,,ok,5,1,,,,,0,,\n");
	put(r->dir, "np4.meta.json",
	    "{\"schema\": \"collbench-meta-1\", \"backend\": \"host\", \"device\": \"\",\n"
	    " \"host\": {\"cpu_model\": \"T\", \"cpus_online\": 2, \"hostname\": \"t\"},\n"
	    " \"mpi\": {\"nranks\": 4, \"ranks_per_node\": 2, \"nnodes\": 2, \"rank_host\": [0, 1, 0, 1]},\n"
	    " \"options\": \"root=0;slicebytes=0\", \"status\": \"complete\"}\n");
	put(r->dir, "np2.meta.json",
	    "{\"schema\": \"collbench-meta-1\", \"backend\": \"host\", \"device\": \"\",\n"
	    " \"host\": {\"cpu_model\": \"T\", \"cpus_online\": 2, \"hostname\": \"t\"},\n"
	    " \"mpi\": {\"nranks\": 2, \"ranks_per_node\": 1, \"nnodes\": 2, \"rank_host\": [0, 2]},\n"
	    " \"options\": \"root=0;slicebytes=4096\", \"status\": \"complete\"}\n");
	assert_int_equal(cb_minput_load(r->dir, &in, err, sizeof(err)), CB_OK);
	m = find(&in, "host", "ring", 4);
	assert_int_equal(m->nhosts, 2);
	assert_non_null(m->rank_host);
	assert_int_equal(m->rank_host[0], 0);
	assert_int_equal(m->rank_host[1], 1);
	assert_int_equal(m->rank_host[2], 0);
	assert_int_equal(m->rank_host[3], 1);
	assert_int_equal(m->slice_auto, 1);
	m = find(&in, "host", "ring", 2); /* host 2 of 2 hosts: out of range */
	assert_null(m->rank_host);
	assert_int_equal(m->slice_auto, 0);
	cb_minput_free(&in);
}

/* A CSV without its sidecar: one host of nranks, counted as missing. */
static void test_missing_metadata(void **state)
{
	struct run *r = *state;
	struct cb_minput in;
	char err[512] = "", path[128];

	put(r->dir, "x.csv",
	    HEADER
	    "collbench-summary-1,host,mpi,8,64,16,float,sum,0,20,3,3,2,4,0.02,0.04,0,,,,ok,5,1,,,,,0,,\n");
	snprintf(path, sizeof(path), "%s/x.csv", r->dir);
	assert_int_equal(cb_minput_load(path, &in, err, sizeof(err)), CB_OK);
	assert_int_equal(in.nrows, 1);
	assert_int_equal(in.meta_missing, 1);
	assert_string_equal(in.rows[0].transport, "mpi"); /* "library": the library's name */
	assert_int_equal(in.rows[0].ranks_per_host, 8);
	assert_int_equal(in.rows[0].cpus_per_host, 0);
	assert_true(isnan(in.rows[0].t_lo));
	cb_minput_free(&in);
}

/* Schema-2 rows keep their own transport: p2p is not shm (a group of its
 * own in the fit, matched on it by check). */
static void test_row_transport(void **state)
{
	struct run *r = *state;
	struct cb_minput in;
	char err[512] = "";

	put(r->dir, "summary.csv",
	    "schema,backend,algo,nranks,bytes,count,dtype,op,in_place,iters,time_us,"
	    "time_us_median,time_us_min,time_us_max,algbw_GBps,busbw_GBps,wrong,tx_total_bytes,"
	    "txrx_max_bytes,imbalance,status,warmup_iters,repeats,time_us_rep_min,"
	    "time_us_rep_max,busbw_GBps_rep_min,busbw_GBps_rep_max,minflt_per_iter,"
	    "time_us_median_rep_min,time_us_median_rep_max,transport,nhosts\n"
	    "collbench-summary-2,host,ring,2,1024,256,float,sum,0,20,12,10,9,30,0.1,0.1,0,,,,ok,5,1,,,,,0,,,p2p,1\n"
	    "collbench-summary-2,host,ps,2,1024,256,float,sum,0,20,12,10,9,30,0.1,0.1,0,,,,ok,5,1,,,,,0,,,shm,1\n"
	    "collbench-summary-2,host,copy,2,1024,256,float,sum,0,20,12,10,9,30,0.1,,0,,,,ok,5,1,,,,,0,,,local,1\n");
	put_meta(r->dir, "np2.meta.json", "host", 2, 2, 2, 0, "root=0;slicebytes=0");
	assert_int_equal(cb_minput_load(r->dir, &in, err, sizeof(err)), CB_OK);
	assert_int_equal(in.nrows, 3);
	assert_string_equal(find(&in, "host", "ring", 2)->transport, "p2p");
	/* copy moves nothing between ranks: the backend's one-sided group */
	assert_string_equal(find(&in, "host", "copy", 2)->transport, "shm");
	assert_string_equal(find(&in, "host", "ps", 2)->transport, "shm");
	cb_minput_free(&in);
}

/* Rows of every collective (schema 3) are read, each with its own
 * collective; -1 and -2 rows are allreduce's. */
static void test_other_collectives(void **state)
{
	struct run *r = *state;
	struct cb_minput in;
	char err[512] = "";
	int seen[CB_COLL_COUNT] = { 0 };

	put(r->dir, "summary.csv",
	    "schema,backend,algo,nranks,bytes,count,dtype,op,in_place,iters,time_us,algbw_GBps,"
	    "busbw_GBps,status,transport,nhosts,collective\n"
	    "collbench-summary-3,host,ring,2,1024,256,float,sum,0,20,12,0.1,0.1,ok,shm,1,allreduce\n"
	    "collbench-summary-3,host,ring,2,1024,256,float,sum,0,20,12,0.1,0.1,ok,shm,1,all_gather\n"
	    "collbench-summary-3,host,ps,2,1024,256,float,sum,0,20,12,0.1,0.1,ok,shm,1,reduce\n");
	put_meta(r->dir, "np2.meta.json", "host", 2, 2, 2, 0, "root=0;slicebytes=0");
	assert_int_equal(cb_minput_load(r->dir, &in, err, sizeof(err)), CB_OK);
	assert_int_equal(in.nrows, 3);
	for (size_t i = 0; i < in.nrows; i++) {
		assert_in_range(in.rows[i].coll, 0, CB_COLL_COUNT - 1);
		seen[in.rows[i].coll]++;
		if (in.rows[i].coll == CB_COLL_REDUCE)
			assert_string_equal(in.rows[i].algo, "ps");
	}
	assert_int_equal(seen[CB_COLL_ALLREDUCE], 1);
	assert_int_equal(seen[CB_COLL_ALL_GATHER], 1);
	assert_int_equal(seen[CB_COLL_REDUCE], 1);
	cb_minput_free(&in);
}

/* The reader's refusals come through with its message. */
static void test_reader_errors(void **state)
{
	struct run *r = *state;
	struct cb_minput in;
	char err[512] = "", path[128];

	snprintf(path, sizeof(path), "%s/none", r->dir);
	assert_int_equal(cb_minput_load(path, &in, err, sizeof(err)), CB_ERR_IO);
	assert_non_null(strstr(err, "none"));
	put(r->dir, "bad.csv", "not,a,summary\n1,2,3\n");
	snprintf(path, sizeof(path), "%s/bad.csv", r->dir);
	assert_int_equal(cb_minput_load(path, &in, err, sizeof(err)), CB_ERR_ARG);
	assert_non_null(strstr(err, "bad.csv"));
	assert_null(in.rows);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_rows_and_launches, setup, teardown),
		cmocka_unit_test_setup_teardown(test_rank_host, setup, teardown),
		cmocka_unit_test_setup_teardown(test_missing_metadata, setup, teardown),
		cmocka_unit_test_setup_teardown(test_row_transport, setup, teardown),
		cmocka_unit_test_setup_teardown(test_other_collectives, setup, teardown),
		cmocka_unit_test_setup_teardown(test_reader_errors, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
