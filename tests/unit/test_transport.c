/* Unit tests: the transport axis (collectives/catalog/cb_catalog.c) and what the
 * results files make of it:
 *   - which transports a backend offers, --transport's errors, what auto
 *     picks on one host and across hosts;
 *   - the transport a row of the previous summary schema (no transport
 *     column) is read as, and the join of such rows with current ones;
 *   - NCCL's forced rows in the catalogue (nccl.<algo>.<proto>). */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "cb_compare.h"
#include "cb_results.h"
#include "cb_catalog.h"

static void test_offers_and_refuses(void **state)
{
	const struct cb_backend_desc *host = cb_catalog_backend("host"),
				     *cuda = cb_catalog_backend("cuda");
	char buf[256];

	(void)state;
	assert_non_null(host);
	assert_non_null(cuda); /* the catalogue knows it where CUDA is not built too */
	for (int t = 0; t < CB_TRANSPORT_COUNT; t++)
		assert_non_null(cb_transport_get(t)->name);
	assert_null(cb_transport_get(CB_TRANSPORT_COUNT));
	assert_null(cb_transport_refuses(CB_TRANSPORT_AUTO, host, buf, sizeof(buf)));
	assert_null(cb_transport_refuses(CB_TRANSPORT_SHM, host, buf, sizeof(buf)));
	assert_null(cb_transport_refuses(CB_TRANSPORT_P2P, host, buf, sizeof(buf)));
	assert_non_null(cb_transport_refuses(CB_TRANSPORT_IPC, host, buf, sizeof(buf)));
	assert_string_equal(buf, "--transport ipc is not a transport of the host backend (its "
			    "buffers are host memory); it offers shm, p2p, or auto");
	assert_null(cb_transport_refuses(CB_TRANSPORT_IPC, cuda, buf, sizeof(buf)));
	assert_null(cb_transport_refuses(CB_TRANSPORT_P2P, cuda, buf, sizeof(buf)));
	assert_non_null(cb_transport_refuses(CB_TRANSPORT_SHM, cuda, buf, sizeof(buf)));
	assert_string_equal(buf, "--transport shm is not a transport of the cuda backend (its "
			    "buffers are GPU memory); it offers ipc, p2p, or auto");
}

/* auto: the backend's one-sided transport on one host, p2p across hosts;
 * anything forced stays what it is. */
static void test_resolve(void **state)
{
	const struct cb_backend_desc *host = cb_catalog_backend("host"),
				     *cuda = cb_catalog_backend("cuda");

	(void)state;
	assert_int_equal(cb_transport_resolve(CB_TRANSPORT_AUTO, host, 1), CB_TRANSPORT_SHM);
	assert_int_equal(cb_transport_resolve(CB_TRANSPORT_P2P, host, 1), CB_TRANSPORT_P2P);
	assert_int_equal(cb_transport_resolve(CB_TRANSPORT_AUTO, host, 0), CB_TRANSPORT_P2P);
	assert_int_equal(cb_transport_resolve(CB_TRANSPORT_SHM, host, 0), CB_TRANSPORT_SHM);
	assert_int_equal(cb_transport_resolve(CB_TRANSPORT_AUTO, cuda, 0), CB_TRANSPORT_P2P);
	assert_int_equal(cb_transport_resolve(CB_TRANSPORT_AUTO, cuda, 1), CB_TRANSPORT_IPC);
}

static void test_one_host(void **state)
{
	(void)state;
	assert_string_equal(cb_transport_one_host("host", "ring"), "shm");
	assert_string_equal(cb_transport_one_host("host", "ps"), "shm");
	assert_string_equal(cb_transport_one_host("cuda", "ring"), "ipc");
	assert_string_equal(cb_transport_one_host("host", "mpi"), "library");
	assert_string_equal(cb_transport_one_host("cuda", "nccl"), "library");
	assert_string_equal(cb_transport_one_host("host", "copy"), "local");
	assert_null(cb_transport_one_host("other", "ring2"));
}

/* The previous schema's columns (docs/output.md and the repeats). */
static const char header1[] =
	"schema,backend,algo,nranks,bytes,count,dtype,op,in_place,iters,time_us,algbw_GBps,"
	"busbw_GBps,status,repeats,time_us_rep_min,time_us_rep_max,busbw_GBps_rep_min,"
	"busbw_GBps_rep_max\n";
#define ROW1(backend, algo, busbw) \
	"collbench-summary-1," backend "," algo ",2,1024,1,float,sum,0,20,10,1," busbw \
	",ok,3,9,11,1,1\n"
/* ... and the current one's, with the transport and host count. */
static const char header2[] =
	"schema,backend,algo,nranks,bytes,count,dtype,op,in_place,iters,time_us,algbw_GBps,"
	"busbw_GBps,status,repeats,time_us_rep_min,time_us_rep_max,busbw_GBps_rep_min,"
	"busbw_GBps_rep_max,transport,nhosts\n";
#define ROW2H(algo, transport, busbw, nhosts) \
	"collbench-summary-2,host," algo ",2,1024,1,float,sum,0,20,10,1," busbw ",ok,3,9,11,1,1," \
	transport "," nhosts "\n"
#define ROW2(algo, transport, busbw) ROW2H(algo, transport, busbw, "2")

static enum cb_status parse(const char *header, const char *rows, struct cb_results *res,
			    char *err)
{
	char buf[4096];

	snprintf(buf, sizeof(buf), "%s%s", header, rows);
	memset(res, 0, sizeof(*res));
	return cb_results_parse_csv(buf, strlen(buf), "t.csv", res, err, 512);
}

/* Rows of the previous schema read as their backend's one-sided transport
 * (ps, ring), library (mpi), local (copy), and join the rows of the current
 * schema that say so; a ring over p2p is another row. */
static void test_join_transport(void **state)
{
	struct cb_results b, c;
	struct cb_comparison cmp;
	struct cb_compare_opts o = { .metric = CB_METRIC_BUSBW, .stat = CB_STAT_MEAN,
				     .tolerance = 0.05, .noise_cap = 0.10 };
	char err[512], name[128];

	(void)state;
	assert_int_equal(parse(header1, ROW1("host", "ring", "1") ROW1("host", "mpi", "1")
			       ROW1("host", "copy", ""), &b, err), CB_OK);
	assert_string_equal(b.rows[0].v.transport, "local"); /* copy: rows sort by algo */
	assert_string_equal(b.rows[1].v.transport, "library");
	assert_string_equal(b.rows[2].v.transport, "shm");
	assert_true(b.rows[2].v.nhosts == CB_NO_INT);
	assert_int_equal(parse(header2, ROW2H("ring", "shm", "1", "1") ROW2("ring", "p2p", "1")
			       ROW2("mpi", "library", "1"), &c, err), CB_OK);
	assert_int_equal(c.nrows, 3);
	assert_true(c.rows[1].v.nhosts == 2);
	assert_int_equal(cb_compare_runs(&b, &c, NULL, NULL, &o, &cmp, err, sizeof(err)), CB_OK);
	assert_int_equal(cmp.count[CB_V_SAME], 2);    /* ring shm, mpi library */
	assert_int_equal(cmp.count[CB_V_MISSING], 1);  /* ring p2p: new */
	assert_int_equal(cmp.count[CB_V_VANISHED], 1); /* copy: measured, now absent */
	for (size_t i = 0; i < cmp.nrows; i++) {
		cb_cmp_row_name(&cmp.rows[i], name, sizeof(name));
		if (cmp.rows[i].verdict == CB_V_MISSING)
			assert_string_equal(name, "ring np2 1K float sum over p2p");
		else
			assert_null(strstr(name, "over"));
	}
	cb_comparison_free(&cmp), cb_results_free(&c), cb_results_free(&b);
	/* a transport column that is empty, or names nobody knows in an old file */
	assert_int_equal(parse(header2, ROW2("ring", "", "1"), &c, err), CB_ERR_ARG);
	assert_non_null(strstr(err, "column transport"));
	assert_int_equal(parse(header1, ROW1("other", "ring2", "1"), &c, err), CB_ERR_ARG);
	assert_non_null(strstr(err, "no transport is known for ring2 on backend other"));
}

/* expect_refused: the rows are refused with a message naming the file, the
 * line and what. */
static void expect_refused(const char *header, const char *rows, const char *line,
			   const char *what)
{
	struct cb_results r;
	char err[512] = "";

	assert_int_equal(parse(header, rows, &r, err), CB_ERR_ARG);
	if (!strstr(err, "t.csv: line ") || !strstr(err, line) || !strstr(err, what))
		fail_msg("message '%s' does not name %s and '%s'", err, line, what);
	assert_null(r.rows);
}

/* Transports nobody writes, rows their algorithm, backend or hosts cannot
 * have, and files whose rows disagree with their schema. */
static void test_refused_rows(void **state)
{
	char buf[1024];
	struct cb_results r;
	char err[512];
	const char nul[] = "collbench-summary-2,host,ring,2,1024,1,float,sum,0,20,10,1,1,ok,3,9,11,"
			   "1,1,sh\0,1\n";

	(void)state;
	expect_refused(header2, ROW2("ring", "warp", "1"), "line 2", "transport 'warp'");
	expect_refused(header2, ROW2H("mpi", "shm", "1", "1"), "line 2",
		       "transport shm for algorithm mpi");
	expect_refused(header2, ROW2H("ring", "library", "1", "1"), "line 2",
		       "transport library for algorithm ring");
	expect_refused(header2, ROW2H("ring", "ipc", "1", "1"), "line 2",
		       "transport ipc on backend host");
	expect_refused(header2, ROW2H("ring", "shm", "1", "1") ROW2H("ps", "shm", "1", "2"),
		       "line 3", "transport shm reaches the ranks of one host, but nhosts is 2");
	expect_refused(header2, ROW2H("ring", "p2p", "1", "3"), "line 2",
		       "nhosts 3 is more than the 2 ranks");
	/* one schema per file; a schema-2 row has the schema-2 columns */
	snprintf(buf, sizeof(buf), "%s", ROW2H("ring", "shm", "1", "1"));
	memcpy(strstr(buf, "summary-2"), "summary-1", 9);
	snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), "%s", ROW2H("ps", "shm", "1", "1"));
	expect_refused(header2, buf, "line 3",
		       "schema collbench-summary-2, but line 2 is collbench-summary-1");
	snprintf(buf, sizeof(buf), "%s", ROW1("host", "ring", "1"));
	memcpy(strstr(buf, "summary-1"), "summary-2", 9);
	expect_refused(header1, buf, "line 2", "the header has no column 'transport'");
	/* a NUL byte inside a field is not text ("sh\0" is not "sh") */
	snprintf(buf, sizeof(buf), "%s", header2);
	memcpy(buf + strlen(buf), nul, sizeof(nul));
	memset(&r, 0, sizeof(r));
	assert_int_equal(cb_results_parse_csv(buf, strlen(header2) + sizeof(nul) - 1, "t.csv", &r,
					      err, sizeof(err)),
			 CB_ERR_ARG);
	if (!strstr(err, "t.csv: line 2: a field holds a NUL byte"))
		fail_msg("NUL byte: message '%s'", err);
	/* schema-1 files stay readable */
	assert_int_equal(parse(header1, ROW1("host", "ring", "1"), &r, err), CB_OK);
	cb_results_free(&r);
}

/* NCCL's forced rows (CB_NCCL_FORCED): per collective the pairs NCCL
 * builds, named nccl.<algo>.<proto> in lower case from the NCCL_ALGO and
 * NCCL_PROTO values they set, library rows of the cuda backend on request. */
static void test_nccl_forced_rows(void **state)
{
	static const char *const algos[] = { "Ring", "Tree", "NVLS", "NVLSTree", "CollNetDirect",
					     "CollNetChain", "PAT" };
	static const size_t want[CB_COLL_COUNT] = { [CB_COLL_ALLREDUCE] = 10,
						    [CB_COLL_REDUCE_SCATTER] = 6,
						    [CB_COLL_ALL_GATHER] = 6, [CB_COLL_BROADCAST] = 3,
						    [CB_COLL_REDUCE] = 3, [CB_COLL_ALLTOALL] = 0 };

	(void)state;
	for (int c = 0; c < CB_COLL_COUNT; c++) {
		size_t n, k = 0;
		const struct cb_algo_desc *const *a = cb_catalog_coll_algos((enum cb_coll)c, &n);

		for (size_t i = 0; i < n; i++) {
			char name[64];
			int known = 0;

			if (!a[i]->nccl_algo)
				continue;
			k++;
			snprintf(name, sizeof(name), "nccl.%s.%s", a[i]->nccl_algo, a[i]->nccl_proto);
			for (char *p = name; *p; p++)
				*p = (char)(*p >= 'A' && *p <= 'Z' ? *p - 'A' + 'a' : *p);
			assert_string_equal(a[i]->name, name);
			for (size_t j = 0; j < sizeof(algos) / sizeof(algos[0]); j++)
				known |= strcmp(a[i]->nccl_algo, algos[j]) == 0;
			assert_true(known);
			/* LL and LL128 exist for Ring and Tree only */
			assert_true(strcmp(a[i]->nccl_proto, "Simple") == 0 ||
				    strcmp(a[i]->nccl_algo, "Ring") == 0 || strcmp(a[i]->nccl_algo, "Tree") == 0);
			assert_true(a[i]->on_request);
			assert_string_equal(a[i]->moves, "library");
			assert_true(cb_algo_desc_runs_on(a[i], &cb_desc_cuda));
			assert_false(cb_algo_desc_runs_on(a[i], &cb_desc_host));
			assert_int_equal(a[i]->coll, c);
			/* the cost model prices NCCL's ring as the plan of that name */
			if (a[i]->schedule) {
				const struct cb_algo_desc *p = cb_catalog_coll_algo((enum cb_coll)c,
										    a[i]->schedule);

				assert_non_null(p);
				assert_non_null(p->plan);
				assert_string_equal(a[i]->nccl_algo, "Ring");
			}
		}
		assert_int_equal(k, want[c]);
	}
	assert_null(cb_catalog_coll_algo(CB_COLL_ALLREDUCE, "nccl.pat.simple"));
	assert_non_null(cb_catalog_coll_algo(CB_COLL_ALL_GATHER, "nccl.pat.simple"));
	assert_null(cb_catalog_coll_algo(CB_COLL_BROADCAST, "nccl.tree.ll"));
	assert_non_null(cb_catalog_coll_algo(CB_COLL_ALLREDUCE, "nccl.tree.ll128"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_offers_and_refuses),
		cmocka_unit_test(test_resolve),
		cmocka_unit_test(test_one_host),
		cmocka_unit_test(test_join_transport),
		cmocka_unit_test(test_refused_rows),
		cmocka_unit_test(test_nccl_forced_rows),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
