/* check_results: validates allreduce_perf's CSV output against the columns' contract
 * contract, for the MPI integration tests.
 *
 *   check_results SUMMARY.csv RANKS.csv NRANKS [ROOT] [--transport T] [--nhosts H]
 *                 [--plan FILE] [--coll NAME]
 *
 * Every row must be of the current schema and ok (wrong = 0) or an allowed
 * skip (mpi: half, bfloat16, avg; copy: in place; nccl: ranks sharing a
 * GPU; nccl.*: also what NCCL cannot run, "NCCL_ALGO=... : NCCL's reason").
 * The transport column says T for ps and ring (default: the backend's
 * one-sided transport, shm or ipc), library for mpi and nccl, local for
 * copy; nhosts is H (default 1) and every
 * per-rank row names a host in 0 .. H-1. For ps and ring, each rank's tx and rx must equal the
 * formulas of docs/output.md ("Traffic"), recomputed here from the count alone:
 *   ps (root R): root tx = rx = (n-1)S; every other rank tx = rx = S;
 *   ring: rx_r = 2S - |chunk r| - |chunk r+1|, tx_r = rx_{r+1}, where the
 *         first count % n chunks have one extra element;
 * and tx_total = 2(n-1)S, ps imbalance = n/2, ring imbalance = 1 when n
 * divides the count. mpi traffic must be empty, copy traffic 0. --plan
 * FILE: the run's plan file, whose rows are checked against its plan.
 * --coll NAME: a run of that collective (cb_coll.h; default allreduce):
 * its algorithms are the collective's, every plan's traffic its plan's sum,
 * busbw = algbw x the collective's factor (nccl-tests doc/PERFORMANCE.md:
 * 2(n-1)/n, (n-1)/n for reduce_scatter and all_gather, 1 for broadcast and
 * reduce), op "none" where the collective does not reduce, and the ps and
 * ring formulas above are allreduce's only.
 * Exit 0 when everything holds, 1 with one line per failure otherwise.
 *
 *   check_results --json FILE
 *
 * checks that FILE is one valid JSON text (UTF-8, as jansson reads it), for
 * the script tests' metadata. */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cb_csv.h"
#include "cb_dtype.h"
#include "cb_schema.h"
#include "cb_catalog.h"
#include "cb_plan_lib.h"
#include "cb_plan_file.h"

static int failures;
static const char *want_transport; /* NULL: the backend's one-sided one */
static int want_hosts = 1;
/* [n] each rank's host, as the per-rank rows say (plans that follow the
 * hosts, hier, are built on it); NULL with one host */
static int *rank_host;
static enum cb_coll coll = CB_COLL_ALLREDUCE;

#define FAIL(...)                                                   \
	do {                                                        \
		if (failures++ < 30) {                              \
			fprintf(stderr, "check_results: " __VA_ARGS__); \
			fputc('\n', stderr);                        \
		}                                                   \
	} while (0)

struct cols {
	int algo, nranks, bytes, count, dtype, op, in_place, wrong, busbw, algbw, tx_total, txrx_max,
		imbalance, status, transport, nhosts, backend, collective, t_mean, t_median, t_min,
		t_max, schema;
};

static const char *get(const struct cb_table *t, size_t r, int c)
{
	return c >= 0 ? t->rows[r][c] : "";
}

static int find_cols(const struct cb_table *t, struct cols *c)
{
	c->schema = cb_table_col(t, "schema");
	c->algo = cb_table_col(t, "algo");
	c->nranks = cb_table_col(t, "nranks");
	c->bytes = cb_table_col(t, "bytes");
	c->count = cb_table_col(t, "count");
	c->dtype = cb_table_col(t, "dtype");
	c->op = cb_table_col(t, "op");
	c->in_place = cb_table_col(t, "in_place");
	c->wrong = cb_table_col(t, "wrong");
	c->busbw = cb_table_col(t, "busbw_GBps");
	c->algbw = cb_table_col(t, "algbw_GBps");
	c->tx_total = cb_table_col(t, "tx_total_bytes");
	c->txrx_max = cb_table_col(t, "txrx_max_bytes");
	c->imbalance = cb_table_col(t, "imbalance");
	c->status = cb_table_col(t, "status");
	c->transport = cb_table_col(t, "transport");
	c->nhosts = cb_table_col(t, "nhosts");
	c->backend = cb_table_col(t, "backend");
	c->collective = cb_table_col(t, "collective");
	c->t_mean = cb_table_col(t, "time_us");
	c->t_median = cb_table_col(t, "time_us_median");
	c->t_min = cb_table_col(t, "time_us_min");
	c->t_max = cb_table_col(t, "time_us_max");
	for (const int *p = &c->algo; p <= &c->schema; p++)
		if (*p < 0)
			return -1;
	return 0;
}

/* The plan of algo's rows; NULL for an algorithm that is no plan. */
static const char *plan_of(const char *algo)
{
	const struct cb_algo_desc *d = cb_catalog_coll_algo(coll, algo);

	return d && d->plan ? d->plan->name : NULL;
}

/* docs/output.md's closed forms of ps and ring (uneven chunks
 * included), an independent check of the plans' sums: 1 when algo has one. */
static int closed_form(const char *algo, int n, int root, unsigned long long count, size_t esz,
		       int r, unsigned long long *tx, unsigned long long *rx)
{
	unsigned long long S = count * esz;

	*tx = *rx = 0;
	if (cb_coll_get(coll)->traffic) { /* the collective's own closed forms */
		size_t etx, erx;

		if (!cb_coll_get(coll)->traffic(algo, n, root, r, count, &etx, &erx))
			return 0;
		*tx = etx * esz, *rx = erx * esz;
		return 1;
	}
	if ((strcmp(algo, "ps") && strcmp(algo, "ring")) || coll != CB_COLL_ALLREDUCE)
		return 0;
	if (n == 1 || count == 0)
		return 1;
	if (strcmp(algo, "ps") == 0) {
		*tx = *rx = r == root ? (unsigned long long)(n - 1) * S : S;
	} else {
#define CHUNK(c) ((count / (unsigned)n + ((unsigned long long)(c) < count % (unsigned)n)) * esz)
		*rx = 2 * S - CHUNK(r) - CHUNK((r + 1) % n);
		*tx = 2 * S - CHUNK((r + 1) % n) - CHUNK((r + 2) % n);
#undef CHUNK
	}
	return 1;
}

/* Expected tx and rx (bytes) of every rank for algo on n ranks: the sum over
 * its plan (cb_plan_traffic), checked against the closed form where there is
 * one. tx, rx: [n]. 0 when algo is no plan or its plan cannot be built. */
static int expected(const char *algo, int n, int root, unsigned long long count, size_t esz,
		    uint64_t *tx, uint64_t *rx)
{
	const char *name = plan_of(algo);
	struct cb_plan_args a = { .n = n, .count = count, .esize = esz, .root = root, .servers = 1,
				  .rank_host = rank_host };
	struct cb_plan p;

	if (!name)
		return 0;
	if (cb_plan_make(cb_plan_coll_find(coll, name), &a, &p) != CB_OK) {
		FAIL("%s: no plan for n=%d count=%llu", algo, n, count);
		return 0;
	}
	cb_plan_traffic(&p, esz, tx, rx);
	cb_plan_free(&p);
	for (int r = 0; r < n; r++) {
		unsigned long long ctx, crx;

		if (closed_form(plan_of(algo), n, root, count, esz, r, &ctx, &crx) &&
		    (ctx != tx[r] || crx != rx[r]))
			FAIL("%s n=%d count=%llu rank %d: the plan moves %llu/%llu B, the closed "
			     "form %llu/%llu", algo, n, count, r, (unsigned long long)tx[r],
			     (unsigned long long)rx[r], ctx, crx);
	}
	return 1;
}

/* The transport column the rows of algo on backend must hold. */
static const char *row_transport(const char *backend, const char *algo)
{
	const struct cb_algo_desc *d = cb_catalog_coll_algo(coll, algo);
	const char *usual = d && d->moves ? d->moves : cb_transport_one_host(backend, algo);

	if (plan_of(algo))
		return want_transport ? want_transport : usual ? usual : "?";
	return usual ? usual : "?";
}

/* Per-rank rows of one summary row must match the formulas. */
static void check_ranks(const struct cb_table *rk, const char *algo, const char *bytes,
			const char *dtype, const char *op, const char *in_place, int n, int root,
			unsigned long long count, size_t esz)
{
	int ca = cb_table_col(rk, "algo"), cb = cb_table_col(rk, "bytes"),
	    cr = cb_table_col(rk, "rank"), ctx = cb_table_col(rk, "tx_bytes"),
	    crx = cb_table_col(rk, "rx_bytes"), cd = cb_table_col(rk, "dtype"),
	    co = cb_table_col(rk, "op"), ci = cb_table_col(rk, "in_place"),
	    ch = cb_table_col(rk, "host"), ct = cb_table_col(rk, "transport"),
	    cbe = cb_table_col(rk, "backend");
	int seen = 0;
	uint64_t *tx = calloc((size_t)n, sizeof(*tx)), *rx = calloc((size_t)n, sizeof(*rx));

	if (!tx || !rx || !expected(algo, n, root, count, esz, tx, rx)) {
		free(tx), free(rx);
		return;
	}
	for (size_t i = 0; i < rk->nrows; i++) {
		int r;

		if (strcmp(get(rk, i, ca), algo) || strcmp(get(rk, i, cb), bytes) ||
		    strcmp(get(rk, i, cd), dtype) || strcmp(get(rk, i, co), op) ||
		    strcmp(get(rk, i, ci), in_place))
			continue;
		seen++;
		r = atoi(get(rk, i, cr));
		if (!*get(rk, i, ch) || atoi(get(rk, i, ch)) < 0 || atoi(get(rk, i, ch)) >= want_hosts)
			FAIL("%s %s B rank %d: host '%s', expected 0 .. %d", algo, bytes, r,
			     get(rk, i, ch), want_hosts - 1);
		if (strcmp(get(rk, i, ct), row_transport(get(rk, i, cbe), algo)) != 0)
			FAIL("%s %s B rank %d: transport '%s', expected %s", algo, bytes, r,
			     get(rk, i, ct), row_transport(get(rk, i, cbe), algo));
		if (r < 0 || r >= n) {
			FAIL("%s %s B: rank '%s'", algo, bytes, get(rk, i, cr));
			continue;
		}
		if (strtoull(get(rk, i, ctx), NULL, 10) != tx[r] ||
		    strtoull(get(rk, i, crx), NULL, 10) != rx[r])
			FAIL("%s %s B %s/%s in_place=%s rank %d: tx/rx %s/%s, expected %llu/%llu", algo,
			     bytes, dtype, op, in_place, r, get(rk, i, ctx), get(rk, i, crx),
			     (unsigned long long)tx[r], (unsigned long long)rx[r]);
	}
	free(tx), free(rx);
	if (seen != n)
		FAIL("%s %s B %s/%s: %d per-rank rows, expected %d", algo, bytes, dtype, op, seen, n);
}

static int allowed_skip(const char *algo, const char *dtype, const char *op, const char *in_place,
			const char *status)
{
	int nccl = strncmp(algo, "nccl", 4) == 0 && (!algo[4] || algo[4] == '.'); /* nccl, nccl.* */

	if (nccl) /* one GPU per rank: a one-GPU box shares it */
		return strstr(status, "share a GPU") != NULL ||
		       strstr(status, "built without NCCL") != NULL ||
		       (coll == CB_COLL_ALLTOALL && !strcmp(in_place, "1") &&
			strstr(status, "run out of place") != NULL) ||
		       /* nccl.*: what NCCL or the box cannot run, in NCCL's words */
		       (algo[4] && (strstr(status, "NCCL_ALGO=") || strstr(status, "no NVLS kernel")));
	int mpi = strncmp(algo, "mpi", 3) == 0 && (!algo[3] || algo[3] == '.'); /* mpi, mpi.* */

	/* -G on a box whose GPUs lack atomics peer to peer (PCIe) */
	if (strstr(status, "-G: the GPUs lack native atomics peer to peer"))
		return 1;

	if (mpi && coll == CB_COLL_REDUCE_SCATTER && !strcmp(in_place, "1"))
		return strstr(status, "in place") != NULL;
	if (mpi && coll == CB_COLL_BROADCAST && !strcmp(in_place, "0"))
		return strstr(status, "one buffer") != NULL;
	if (mpi && strstr(status, "runs on 2 ranks only")) /* Open MPI's two_proc */
		return 1;
	if (mpi)
		return !strcmp(dtype, "half") || !strcmp(dtype, "bfloat16") || !strcmp(op, "avg");
	if (strcmp(algo, "copy") == 0)
		return strcmp(in_place, "1") == 0;
	return 0;
}

static void check_traffic(const struct cb_table *t, const struct cols *c, size_t i, int n,
			  int root, size_t esz)
{
	const char *algo = get(t, i, c->algo);
	double total = strtod(get(t, i, c->tx_total), NULL), imb = strtod(get(t, i, c->imbalance), NULL);
	unsigned long long count = strtoull(get(t, i, c->count), NULL, 10);

	if (strcmp(algo, "mpi") == 0 || strcmp(algo, "nccl") == 0 || strncmp(algo, "nccl.", 5) == 0) {
		if (*get(t, i, c->tx_total) || *get(t, i, c->imbalance))
			FAIL("%s row %zu: traffic must be empty (unmeasured)", algo, i + 2);
		return;
	}
	if (strcmp(algo, "copy") == 0) {
		if (strcmp(get(t, i, c->tx_total), "0") != 0)
			FAIL("copy row %zu: tx_total %s, expected 0", i + 2, get(t, i, c->tx_total));
		return;
	}
	double S = (double)count * (double)esz, want = 0;
	uint64_t *tx = calloc((size_t)n, sizeof(*tx)), *rx = calloc((size_t)n, sizeof(*rx));

	if (tx && rx && expected(algo, n, root, count, esz, tx, rx)) {
		for (int r = 0; r < n; r++)
			want += (double)tx[r];
		if (total != want)
			FAIL("%s row %zu: tx_total %s, expected the plan's %.0f", algo, i + 2,
			     get(t, i, c->tx_total), want);
	}
	free(tx), free(rx);
	if (coll != CB_COLL_ALLREDUCE)
		return;
	if (plan_of(algo) && (!strcmp(plan_of(algo), "ps") || !strcmp(plan_of(algo), "ring")) &&
	    total != 2.0 * (n - 1) * S)
		FAIL("%s row %zu: tx_total %s, expected 2(n-1)S = %.0f", algo, i + 2,
		     get(t, i, c->tx_total), 2.0 * (n - 1) * S);
	if (n > 1 && S > 0 && strcmp(algo, "ps") == 0 && fabs(imb - n / 2.0) > 1e-4)
		FAIL("ps row %zu: imbalance %s, expected n/2 = %g", i + 2, get(t, i, c->imbalance),
		     n / 2.0);
	if (n > 1 && S > 0 && strcmp(algo, "ring") == 0 && count % (unsigned)n == 0 &&
	    fabs(imb - 1.0) > 1e-4)
		FAIL("ring row %zu: imbalance %s, expected 1", i + 2, get(t, i, c->imbalance));
}

/* busbw = algbw x the collective's factor, within the 6 digits a CSV keeps. */
static void check_bw(const struct cb_table *t, const struct cols *c, size_t i, int n,
		     const char *algo)
{
	double alg = strtod(get(t, i, c->algbw), NULL), bus = strtod(get(t, i, c->busbw), NULL);
	double f = coll == CB_COLL_ALLREDUCE ? 2.0 * (n - 1) / n
		   : cb_coll_get(coll)->split ? (double)(n - 1) / n : 1.0;

	if ((n > 1 || f == 1.0) && strcmp(algo, "copy") && fabs(bus - alg * f) > 2e-5 * fabs(alg * f) + 1e-9)
		FAIL("row %zu: busbw %s, algbw %s: expected algbw x %g for %s", i + 2,
		     get(t, i, c->busbw), get(t, i, c->algbw), f, cb_coll_get(coll)->name);
}

/* The times of an ok row in order: min <= median <= max, min <= mean <=
 * max (each printed to 6 significant digits: a relative slack of 1e-5). */
static void check_times(const struct cb_table *t, const struct cols *c, size_t i)
{
	const int col[4] = { c->t_min, c->t_median, c->t_mean, c->t_max };
	double v[4];

	for (int k = 0; k < 4; k++) {
		if (!*get(t, i, col[k]))
			return; /* a row without times (copy in place, -n 0) */
		v[k] = strtod(get(t, i, col[k]), NULL);
	}
	for (int k = 1; k < 4; k++)
		if (v[k] < v[k == 3 ? 1 : 0] * (1 - 1e-5) || v[k] > v[3] * (1 + 1e-5))
			FAIL("row %zu: time_us_min %s, median %s, mean %s, max %s: not in order", i + 2,
			     get(t, i, c->t_min), get(t, i, c->t_median), get(t, i, c->t_mean),
			     get(t, i, c->t_max));
}

static void check_row(const struct cb_table *t, const struct cb_table *rk, const struct cols *c,
		      size_t i, int n, int root)
{
	const char *algo = get(t, i, c->algo), *status = get(t, i, c->status);
	const char *dtype = get(t, i, c->dtype), *op = get(t, i, c->op), *ip = get(t, i, c->in_place);
	enum cb_dtype dt;
	struct cb_row_status st = { CB_ROW_ERROR, "" };
	unsigned long long count = strtoull(get(t, i, c->count), NULL, 10);

	if (strcmp(get(t, i, c->schema), CB_SCHEMA_SUMMARY) != 0)
		FAIL("row %zu: schema '%s'", i + 2, get(t, i, c->schema));
	if (!cb_catalog_coll_algo(coll, algo)) {
		FAIL("row %zu: algorithm '%s' is none of the catalogue's (a plan file's: --plan FILE)",
		     i + 2, algo);
		return;
	}
	if (strcmp(get(t, i, c->collective), cb_coll_get(coll)->name) != 0)
		FAIL("row %zu: collective '%s', expected %s", i + 2, get(t, i, c->collective),
		     cb_coll_get(coll)->name);
	if (atoi(get(t, i, c->nranks)) != n)
		FAIL("row %zu: nranks %s, expected %d", i + 2, get(t, i, c->nranks), n);
	if (atoi(get(t, i, c->nhosts)) != want_hosts)
		FAIL("row %zu: nhosts %s, expected %d", i + 2, get(t, i, c->nhosts), want_hosts);
	if (strcmp(get(t, i, c->transport), row_transport(get(t, i, c->backend), algo)) != 0)
		FAIL("row %zu: %s transport '%s', expected %s", i + 2, algo, get(t, i, c->transport),
		     row_transport(get(t, i, c->backend), algo));
	if (cb_row_status_parse(status, &st) == 0 && st.state == CB_ROW_SKIPPED) {
		if (!allowed_skip(algo, dtype, op, ip, status))
			FAIL("row %zu: %s %s/%s unexpectedly %s", i + 2, algo, dtype, op, status);
		return;
	}
	if (st.state != CB_ROW_OK || strcmp(get(t, i, c->wrong), "0") != 0) {
		FAIL("row %zu: %s %s B %s/%s in_place=%s: status '%s', wrong '%s'", i + 2, algo,
		     get(t, i, c->bytes), dtype, op, ip, status, get(t, i, c->wrong));
		return;
	}
	if (cb_dtype_parse(dtype, &dt) != 0) {
		FAIL("row %zu: dtype '%s'", i + 2, dtype);
		return;
	}
	if (n == 1 && strcmp(algo, "copy") && !cb_coll_get(coll)->rooted &&
	    strtod(get(t, i, c->busbw), NULL) != 0)
		FAIL("row %zu: busbw %s with one rank, expected 0", i + 2, get(t, i, c->busbw));
	check_bw(t, c, i, n, algo);
	check_times(t, c, i);
	if (!cb_coll_get(coll)->reduces && strcmp(op, "none") != 0)
		FAIL("row %zu: op '%s' for %s, expected none", i + 2, op, cb_coll_get(coll)->name);
	check_traffic(t, c, i, n, root, cb_dtype_size(dt));
	if (plan_of(algo))
		check_ranks(rk, algo, get(t, i, c->bytes), dtype, op, ip, n, root, count,
			    cb_dtype_size(dt));
}

/* rank_host from the per-rank rows' host column: one host per rank. */
static int read_hosts(const struct cb_table *rk, int n)
{
	int cr = cb_table_col(rk, "rank"), ch = cb_table_col(rk, "host");

	rank_host = malloc((size_t)n * sizeof(int));
	if (!rank_host || cr < 0 || ch < 0) {
		fprintf(stderr, "check_results: no rank and host columns\n");
		return -1;
	}
	for (int r = 0; r < n; r++)
		rank_host[r] = -1;
	for (size_t i = 0; i < rk->nrows; i++) {
		int r = atoi(get(rk, i, cr)), x = atoi(get(rk, i, ch));

		if (r < 0 || r >= n || (rank_host[r] >= 0 && rank_host[r] != x)) {
			fprintf(stderr, "check_results: rank %d: host %d, and %d before\n", r, x,
				r >= 0 && r < n ? rank_host[r] : -1);
			return -1;
		}
		rank_host[r] = x;
	}
	return 0;
}

/* The run's plan file, among the plan algorithms. */
static int add_plan(const char *path)
{
	struct cb_plan_file *f;
	char err[512];

	if (cb_plan_file_load(path, &f, err, sizeof(err)) != CB_OK ||
	    cb_plan_file_add(f, err, sizeof(err)) != CB_OK) {
		fprintf(stderr, "check_results: %s\n", err);
		cb_plan_file_free(f);
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	const char *plan_file = NULL;
	struct cb_table sum, rk;
	struct cols c;
	char err[256];
	int n, root;

	if (argc == 3 && strcmp(argv[1], "--json") == 0) {
		json_error_t je;
		json_t *j = json_load_file(argv[2], JSON_REJECT_DUPLICATES, &je);

		if (!j)
			fprintf(stderr, "check_results: %s: line %d: %s\n", argv[2], je.line, je.text);
		json_decref(j);
		return j ? 0 : 1;
	}
	if (argc < 4) {
		fprintf(stderr, "usage: check_results SUMMARY.csv RANKS.csv NRANKS [ROOT] "
			"[--transport T] [--nhosts H] [--plan FILE] [--coll NAME]\n");
		return 2;
	}
	n = atoi(argv[3]);
	root = argc > 4 && argv[4][0] != '-' ? atoi(argv[4]) : 0;
	for (int a = 4; a < argc; a++) {
		if (!strcmp(argv[a], "--transport") && a + 1 < argc)
			want_transport = argv[++a];
		else if (!strcmp(argv[a], "--nhosts") && a + 1 < argc)
			want_hosts = atoi(argv[++a]);
		else if (!strcmp(argv[a], "--plan") && a + 1 < argc)
			plan_file = argv[++a];
		else if (!strcmp(argv[a], "--coll") && a + 1 < argc && cb_coll_find(argv[a + 1]) >= 0)
			coll = (enum cb_coll)cb_coll_find(argv[++a]);
		else if (a > 4 || argv[a][0] == '-') {
			fprintf(stderr, "check_results: unknown argument '%s'\n", argv[a]);
			return 2;
		}
	}
	if (plan_file && add_plan(plan_file) != 0)
		return 2;
	if (cb_table_read(argv[1], (size_t)1 << 30, &sum, err, sizeof(err)) != CB_OK ||
	    cb_table_read(argv[2], (size_t)1 << 30, &rk, err, sizeof(err)) != CB_OK) {
		fprintf(stderr, "check_results: %s\n", err);
		return 2;
	}
	if (find_cols(&sum, &c) != 0 || sum.nrows == 0) {
		fprintf(stderr, "check_results: %s lacks contract columns or rows\n", argv[1]);
		return 1;
	}
	if (want_hosts > 1 && read_hosts(&rk, n) != 0)
		return 1;
	for (size_t i = 0; i < sum.nrows; i++)
		check_row(&sum, &rk, &c, i, n, root);
	free(rank_host);
	printf("check_results: %zu summary rows, %zu per-rank rows, %d failure(s)\n", sum.nrows,
	       rk.nrows, failures);
	cb_table_free(&sum);
	cb_table_free(&rk);
	return failures ? 1 : 0;
}
