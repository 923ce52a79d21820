/* Unit tests: the schema table (bench/format/cb_schema.c) is the one source
 * of the result files' columns.
 *   - the table: unique names, the contract's column order (docs/output.md
 *     "Files" and the columns added since, byte for byte), JSON order;
 *   - the row state's one text form, and its parser;
 *   - a record written through the table reads back the same;
 *   - a real run of allreduce_perf (a singleton: one rank, no mpirun)
 *     writes exactly the table's header, columns and JSON keys and types.
 * (docs/output.md's column lists are checked against the table by test_readme.c.)
 *   test_schema BIN_DIR SOURCE_DIR */
#define _GNU_SOURCE
#include <jansson.h>
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

#include "cb_csv.h"
#include "cb_results.h"
#include "cb_schema.h"
#include "cb_schema_parse.h"

static const char *bin_dir, *src_dir;

/* The contract: the summary columns of docs/output.md, then those
 * added since, in this order; and the per-rank file's. A new column goes at
 * the end: these are prefixes of the table's headers. */
static const char summary_header[] =
	"schema,backend,algo,nranks,bytes,count,dtype,op,in_place,iters,time_us,"
	"time_us_median,time_us_min,time_us_max,algbw_GBps,busbw_GBps,wrong,"
	"tx_total_bytes,txrx_max_bytes,imbalance,status,"
	"warmup_iters,repeats,time_us_rep_min,time_us_rep_max,"
	"busbw_GBps_rep_min,busbw_GBps_rep_max,minflt_per_iter,"
	"time_us_median_rep_min,time_us_median_rep_max,transport,nhosts";
static const char rank_header[] =
	"schema,backend,algo,nranks,bytes,rank,tx_bytes,rx_bytes,time_us,dtype,op,in_place,"
	"transport,host";
/* JSON Lines keys, in the order the writer has always used (a prefix too) */
static const char json_keys[] =
	"schema,backend,algo,nranks,bytes,count,dtype,op,in_place,iters,time_us,"
	"time_us_median,time_us_min,time_us_max,algbw_GBps,busbw_GBps,status,wrong,"
	"tx_total_bytes,txrx_max_bytes,imbalance,warmup_iters,repeats,time_us_rep_min,"
	"time_us_rep_max,busbw_GBps_rep_min,busbw_GBps_rep_max,minflt_per_iter,"
	"time_us_median_rep_min,time_us_median_rep_max,transport,nhosts";

/* 1 when the header line (or key list) h starts with the columns of prefix,
 * whole columns only. */
static int starts_with_columns(const char *h, const char *prefix)
{
	size_t n = strlen(prefix);

	return strncmp(h, prefix, n) == 0 && (h[n] == ',' || h[n] == '\n' || h[n] == '\0');
}

static void test_table(void **state)
{
	const struct cb_schema *all[] = { &cb_schema_summary, &cb_schema_rank };
	char buf[2048];

	(void)state;
	assert_true(cb_schema_csv_header(&cb_schema_summary, buf, sizeof(buf)) > 0);
	assert_true(starts_with_columns(buf, summary_header));
	assert_true(cb_schema_csv_header(&cb_schema_rank, buf, sizeof(buf)) > 0);
	assert_true(starts_with_columns(buf, rank_header));
	assert_int_equal(cb_schema_csv_header(&cb_schema_summary, buf, 16), -1);
	for (size_t k = 0; k < 2; k++)
		for (size_t i = 0; i < all[k]->ncols; i++) {
			const struct cb_column *c = &all[k]->cols[i];

			assert_int_equal(cb_schema_find(all[k], c->name), (int)i); /* unique */
			assert_true(!c->json_after || cb_schema_find(all[k], c->json_after) >= 0);
			assert_true(!(c->flags & CB_COL_REQUIRED) || c->flags & CB_COL_READ);
			assert_true(c->doc && *c->doc && c->unit);
		}
}

static void test_row_status(void **state)
{
	struct cb_row_status s;
	char text[256];

	(void)state;
	cb_row_status_set(&s, CB_ROW_OK, "%s", "");
	cb_row_status_format(&s, text, sizeof(text));
	assert_string_equal(text, "ok");
	cb_row_status_set(&s, CB_ROW_SKIPPED, "MPI has no %s op", "avg");
	cb_row_status_format(&s, text, sizeof(text));
	assert_string_equal(text, "skipped:MPI has no avg op");
	/* a reason never breaks the CSV: no comma, no quote */
	cb_row_status_set(&s, CB_ROW_SKIPPED, "%s", "in place, \"offset\" differs");
	cb_row_status_format(&s, text, sizeof(text));
	assert_string_equal(text, "skipped:in place; 'offset' differs");
	cb_row_status_wrong(&s, 12);
	cb_row_status_format(&s, text, sizeof(text));
	assert_string_equal(text, "error:12 wrong elements");
	assert_true(cb_row_state_failed(s.state));
	assert_int_equal(cb_row_status_parse("error:12 wrong elements", &s), 0);
	assert_int_equal(s.state, CB_ROW_WRONG);
	assert_int_equal(cb_row_status_parse("error:set-up failed (mpi error)", &s), 0);
	assert_int_equal(s.state, CB_ROW_ERROR);
	assert_string_equal(s.reason, "set-up failed (mpi error)");
	assert_int_equal(cb_row_status_parse("skipped:", &s), 0);
	assert_int_equal(s.state, CB_ROW_SKIPPED);
	assert_int_equal(cb_row_status_parse("ok", &s), 0);
	assert_int_equal(s.state, CB_ROW_OK);
	assert_false(cb_row_state_failed(s.state));
	assert_int_equal(cb_row_status_parse("okay", &s), -1);
	assert_int_equal(cb_row_status_parse("skip:x", &s), -1);
	assert_int_equal(cb_row_status_parse("errors:x", &s), -1);
	assert_int_equal(cb_row_status_parse("", &s), -1);
}

/* A record written through the table is read back the same by the reader. */
static void test_round_trip(void **state)
{
	struct cb_summary w;
	struct cb_results res = { 0 };
	char text[4096], err[256];
	int k;

	(void)state;
	cb_schema_clear(&cb_schema_summary, &w);
	strcpy(w.backend, "host"), strcpy(w.algo, "ps"), strcpy(w.dtype, "int8"), strcpy(w.op, "max");
	w.nranks = 3, w.bytes = w.count = 1000, w.in_place = 1, w.repeats = 2;
	w.time_us = 12.5, w.algbw = 0.08, w.busbw_rep_max = 0.1;
	w.wrong = 7;
	strcpy(w.transport, "p2p"), w.nhosts = 2;
	strcpy(w.collective, "reduce_scatter");
	cb_row_status_wrong(&w.status, 7);
	k = cb_schema_csv_header(&cb_schema_summary, text, sizeof(text));
	assert_true(k > 0);
	assert_true(cb_schema_csv_row(&cb_schema_summary, &w, text + k, sizeof(text) - (size_t)k) > 0);
	assert_int_equal(cb_results_parse_csv(text, strlen(text), "t.csv", &res, err, sizeof(err)),
			 CB_OK);
	assert_int_equal(res.nrows, 1);
	assert_string_equal(res.rows[0].v.algo, "ps");
	assert_string_equal(res.rows[0].v.dtype, "int8");
	assert_true(res.rows[0].v.nranks == 3 && res.rows[0].v.bytes == 1000);
	assert_true(res.rows[0].v.in_place == 1 && res.rows[0].v.repeats == 2);
	assert_string_equal(res.rows[0].v.transport, "p2p");
	assert_int_equal(res.rows[0].v.nhosts, 2);
	assert_string_equal(res.rows[0].v.collective, "reduce_scatter");
	assert_true(res.rows[0].v.time_us == 12.5 && res.rows[0].v.algbw == 0.08);
	assert_true(isnan(res.rows[0].v.busbw) && res.rows[0].v.busbw_rep_max == 0.1);
	assert_int_equal(res.rows[0].v.status.state, CB_ROW_WRONG);
	assert_string_equal(res.rows[0].v.status.reason, "7 wrong elements");
	cb_results_free(&res);
}

/* Runs allreduce_perf alone (one rank) into dir; 0 when it exited 0. */
static int run_perf(const char *dir)
{
	char cmd[8192];

	/* as tests/lib/lib.sh's cb_singleton: as root, and Open MPI's own leaks in
	 * the sanitizer build */
	setenv("OMPI_ALLOW_RUN_AS_ROOT", "1", 1);
	setenv("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1", 1);
	snprintf(cmd, sizeof(cmd), "suppressions=%s/tests/lib/lsan.supp:print_suppressions=0:"
		 "fast_unwind_on_malloc=0", src_dir);
	setenv("LSAN_OPTIONS", cmd, 1);
	setenv("OMPI_MCA_mca_base_component_disable_dlclose", "1", 1);
	snprintf(cmd, sizeof(cmd), "'%s/allreduce_perf' --algo ps,ring,mpi,copy --counts 0,7 -n 1 -w 0 "
		 "-d float,half -o sum,avg -q --csv '%s/s.csv' --rank-csv '%s/r.csv' "
		 "--json '%s/s.jsonl' >/dev/null", bin_dir, dir, dir, dir);
	return system(cmd);
}

/* Every row of the CSV at path has the header of s and fields that read
 * back under their columns; returns the table (rows for the JSON check). */
static void check_csv(const char *path, const struct cb_schema *s, struct cb_table *t)
{
	char err[512];

	assert_int_equal(cb_table_read(path, 1 << 20, t, err, sizeof(err)), CB_OK);
	assert_int_equal(t->ncols, s->ncols);
	for (size_t i = 0; i < s->ncols; i++)
		assert_string_equal(t->header[i], s->cols[i].name);
	assert_true(t->nrows > 0);
	for (size_t r = 0; r < t->nrows; r++) {
		union { struct cb_summary s; struct cb_rank_rec r; } rec;
		int st = cb_schema_find(s, "status");
		struct cb_row_status rs = { CB_ROW_SKIPPED, "" };

		if (st >= 0)
			assert_int_equal(cb_row_status_parse(t->rows[r][st], &rs), 0);
		cb_schema_clear(s, &rec);
		for (size_t i = 0; i < s->ncols; i++)
			if (cb_schema_parse_field(s, &s->cols[i], t->rows[r][i], &rec, rs.state, err,
						  sizeof(err)) != CB_OK)
				fail_msg("%s line %zu: %s", path, r + 2, err);
	}
}

/* 1 when JSON value v is of the kind column c writes, given its CSV text. */
static int json_type_ok(const struct cb_column *c, const json_t *v, const char *csv)
{
	if (!*csv && (c->type != CB_COL_NAME || c->flags & CB_COL_EMPTY_OK) &&
	    c->type != CB_COL_SCHEMA)
		return json_is_null(v);
	switch (c->type) {
	case CB_COL_INT:
	case CB_COL_U64: return json_is_integer(v) && json_integer_value(v) == atoll(csv);
	case CB_COL_BOOL: return json_is_boolean(v) && json_is_true(v) == (atoi(csv) == 1);
	case CB_COL_REAL:
		return json_is_real(v) &&
		       fabs(json_real_value(v) - atof(csv)) <= 1e-5 * fabs(atof(csv));
	default: return json_is_string(v) && strcmp(json_string_value(v), csv) == 0;
	}
}

/* A measured row's "iterations" (cb_report.h): one time per timed
 * iteration (iters x repeats), one entry per rank with as many. */
static void check_iterations(const json_t *it, const struct cb_table *t, size_t r)
{
	const json_t *ranks = json_object_get(it, "ranks");
	size_t k = (size_t)atoi(t->rows[r][cb_schema_find(&cb_schema_summary, "iters")]) *
		   (size_t)atoi(t->rows[r][cb_schema_find(&cb_schema_summary, "repeats")]);
	size_t n = (size_t)atoi(t->rows[r][cb_schema_find(&cb_schema_summary, "nranks")]);

	assert_true(json_is_object(it));
	assert_int_equal(json_array_size(json_object_get(it, "time_us")), k);
	assert_int_equal(json_array_size(json_object_get(it, "slowest_rank")), k);
	assert_int_equal(json_array_size(ranks), n);
	for (size_t i = 0; i < n; i++)
		assert_int_equal(json_array_size(json_object_get(json_array_get(ranks, i), "time_us")),
				 k);
}

/* Each JSON line holds the summary row of the same CSV line: every column
 * as a key (and, for a measured row, "iterations"), in the JSON order of json_keys, with a value of the column's
 * kind equal to the CSV's. */
static void check_json(const char *path, const struct cb_table *t)
{
	const struct cb_schema *s = &cb_schema_summary;
	FILE *f = fopen(path, "r");
	char line[8192];
	size_t r = 0;

	assert_non_null(f);
	for (; fgets(line, sizeof(line), f); r++) {
		json_t *o = json_loads(line, 0, NULL), *v;
		const char *k;
		char keys[4096] = "";

		assert_non_null(o);
		assert_true(r < t->nrows);
		json_object_foreach(o, k, v) {
			int c = cb_schema_find(s, k);

			if (strcmp(k, "iterations") == 0) {
				check_iterations(v, t, r);
				continue;
			}
			assert_true(c >= 0);
			snprintf(keys + strlen(keys), sizeof(keys) - strlen(keys), "%s%s",
				 *keys ? "," : "", k);
			if (!json_type_ok(&s->cols[c], v, t->rows[r][c]))
				fail_msg("%s line %zu: key %s does not hold its column's value", path,
					 r + 1, k);
		}
		assert_true(starts_with_columns(keys, json_keys));
		json_decref(o);
	}
	fclose(f);
	assert_int_equal(r, t->nrows);
}

static void test_real_run(void **state)
{
	char dir[] = "/tmp/cb_schema_XXXXXX", path[256];
	struct cb_table sum, ranks;

	(void)state;
	assert_non_null(mkdtemp(dir));
	assert_int_equal(run_perf(dir), 0);
	snprintf(path, sizeof(path), "%s/s.csv", dir);
	check_csv(path, &cb_schema_summary, &sum);
	snprintf(path, sizeof(path), "%s/r.csv", dir);
	check_csv(path, &cb_schema_rank, &ranks);
	snprintf(path, sizeof(path), "%s/s.jsonl", dir);
	check_json(path, &sum);
	cb_table_free(&sum);
	cb_table_free(&ranks);
	snprintf(path, sizeof(path), "rm -rf '%s'", dir);
	assert_int_equal(system(path), 0);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_row_status),
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_real_run),
	};

	if (argc != 3) {
		fprintf(stderr, "usage: test_schema BIN_DIR SOURCE_DIR\n");
		return 2;
	}
	bin_dir = argv[1];
	src_dir = argv[2];
	return cmocka_run_group_tests(tests, NULL, NULL);
}
