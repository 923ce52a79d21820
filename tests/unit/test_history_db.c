/* Unit tests: the history database (schema creation and migration from an
 * empty file, refusals, idempotent ingest, a metric column added by the
 * next open), series and their values, and the gate's rule. */
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
#include <unistd.h>
#include <cmocka.h>
#include <sqlite3.h>

#include "cb_hist_analyze.h"
#include "cb_hist_cols.h"
#include "cb_hist_db.h"
#include "cb_hist_ingest.h"
#include "cb_hist_query.h"
#include "cb_hist_run.h"

#define TEST_TMPDIR "/tmp/cb_hist_test_XXXXXX"
#include "test_tmpdir.h"
#include "test_run_dir.h"

static void path_of(const char *name, char *out, size_t len)
{
	snprintf(out, len, "%s/%s", dir, name);
}

static long long query_int(struct cb_hist_db *db, const char *sql)
{
	sqlite3_stmt *s;
	long long v = -1;

	assert_int_equal(sqlite3_prepare_v2(db->sql, sql, -1, &s, NULL), SQLITE_OK);
	if (sqlite3_step(s) == SQLITE_ROW)
		v = sqlite3_column_int64(s, 0);
	sqlite3_finalize(s);
	return v;
}

/* The run fields every test run shares. */
static void run_header(struct cb_hist_run *r, int i, const char *label)
{
	memset(r, 0, sizeof(*r));
	snprintf(r->hash, sizeof(r->hash), "%064d", i);
	snprintf(r->time_utc, sizeof(r->time_utc), "2026-12-01T10:%02d:00Z", i);
	snprintf(r->name, sizeof(r->name), "run%d", i);
	snprintf(r->source, sizeof(r->source), "/tmp/run%d", i);
	snprintf(r->machine.identity, sizeof(r->machine.identity), "%s (cpu, 2 CPUs)",
		 label);
	snprintf(r->machine.label, sizeof(r->machine.label), "%s", label);
	snprintf(r->git_commit, sizeof(r->git_commit), "c%d", i / 10);
	snprintf(r->versions, sizeof(r->versions), "collbench 0.1.0; Open MPI v4.1.4");
}

/* A row of the key (host, algo, 2 ranks, 64 MiB, float, sum), status ok, the
 * other columns empty. */
static void key_row(struct cb_res_row *w, const char *algo)
{
	cb_schema_clear(&cb_schema_summary, &w->v);
	w->line = 0;
	strcpy(w->v.backend, "host");
	strcpy(w->v.algo, algo);
	strcpy(w->v.dtype, "float");
	strcpy(w->v.op, "sum");
	w->v.nranks = 2;
	w->v.in_place = 0;
	w->v.bytes = 64 << 20;
	cb_row_status_set(&w->v.status, CB_ROW_OK, "%s", "");
}

/* A run of one ring and one copy row (2 ranks, 64 MiB), busbw b GB/s. */
static void make_run(struct cb_hist_run *r, int i, double b, const char *label)
{
	static struct cb_res_row rows[2];

	run_header(r, i, label);
	for (int k = 0; k < 2; k++) {
		struct cb_summary *v = &rows[k].v;

		key_row(&rows[k], k ? "copy" : "ring");
		v->time_us = 1e3 * 64 * 1.048576 / b;  /* algbw = S / t */
		v->algbw = b;
		v->busbw = k ? NAN : b;               /* copy: no busbw */
		v->time_us_median = v->time_us / 1.25; /* median 1.25x faster */
	}
	r->rows = rows;
	r->nrows = 2;
}

/* Columns of the summary schema the history stores. */
static size_t stored_columns(void)
{
	size_t n = 0;

	for (size_t i = 0; i < cb_schema_summary.ncols; i++)
		n += (size_t)cb_hist_col_stored(&cb_schema_summary.cols[i]);
	return n;
}

static void test_create_from_empty_file(void **state)
{
	char path[128];
	struct cb_hist_db db;
	char err[512];
	FILE *f;

	(void)state;
	path_of("empty.sqlite", path, sizeof(path));
	f = fopen(path, "w"); /* a 0-byte file is an empty SQLite database */
	assert_non_null(f);
	fclose(f);
	assert_int_equal(cb_hist_db_open(path, 1, &db, err, sizeof(err)), CB_OK);
	assert_int_equal(query_int(&db, "PRAGMA user_version"), CB_HIST_SCHEMA_VERSION);
	assert_int_equal(query_int(&db, "SELECT count(*) FROM sqlite_master WHERE type = 'table' "
				   "AND name IN ('history_info', 'machines', 'runs', 'rows')"), 4);
	/* run_id, transport (unless the schema has it) and the stored columns */
	assert_int_equal(query_int(&db, "SELECT count(*) FROM pragma_table_info('rows')"),
			 1 + (cb_schema_find(&cb_schema_summary, "transport") < 0) + stored_columns());
	assert_int_equal(query_int(&db, "SELECT count(*) FROM sqlite_master WHERE type = 'index' "
				   "AND name IN ('runs_machine_seq', 'rows_key')"), 2);
	cb_hist_db_close(&db);
	/* reopening changes nothing */
	assert_int_equal(cb_hist_db_open(path, 0, &db, err, sizeof(err)), CB_OK);
	assert_int_equal(query_int(&db, "PRAGMA user_version"), CB_HIST_SCHEMA_VERSION);
	cb_hist_db_close(&db);
}

static void test_refusals(void **state)
{
	char path[128], err[512];
	struct cb_hist_db db;
	sqlite3 *raw;
	FILE *f;

	(void)state;
	path_of("missing.sqlite", path, sizeof(path));
	assert_int_equal(cb_hist_db_open(path, 0, &db, err, sizeof(err)), CB_ERR_IO);
	assert_non_null(strstr(err, "no history there"));
	assert_int_equal(access(path, F_OK), -1); /* not created by a reader */
	path_of("garbage.sqlite", path, sizeof(path));
	f = fopen(path, "w");
	fputs("this is not a database, just text long enough to have a header .......\n", f);
	fclose(f);
	assert_int_equal(cb_hist_db_open(path, 1, &db, err, sizeof(err)), CB_ERR_ARG);
	/* another program's database: not touched */
	path_of("other.sqlite", path, sizeof(path));
	assert_int_equal(sqlite3_open(path, &raw), SQLITE_OK);
	assert_int_equal(sqlite3_exec(raw, "CREATE TABLE t(x)", NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(raw);
	assert_int_equal(cb_hist_db_open(path, 1, &db, err, sizeof(err)), CB_ERR_ARG);
	assert_non_null(strstr(err, "not a collbench history"));
	/* a newer schema: refused, not downgraded */
	path_of("newer.sqlite", path, sizeof(path));
	assert_int_equal(cb_hist_db_open(path, 1, &db, err, sizeof(err)), CB_OK);
	assert_int_equal(sqlite3_exec(db.sql, "PRAGMA user_version = 99", NULL, NULL, NULL),
			 SQLITE_OK);
	cb_hist_db_close(&db);
	assert_int_equal(cb_hist_db_open(path, 1, &db, err, sizeof(err)), CB_ERR_ARG);
	assert_non_null(strstr(err, "newer"));
}

/* A stored column missing (a database from before the schema had it) is
 * added at the next open. */
static void test_metric_column_added(void **state)
{
	char path[128], err[512];
	struct cb_hist_db db;

	(void)state;
	path_of("column.sqlite", path, sizeof(path));
	assert_int_equal(cb_hist_db_open(path, 1, &db, err, sizeof(err)), CB_OK);
	assert_int_equal(sqlite3_exec(db.sql, "ALTER TABLE rows DROP COLUMN \"repeats\"", NULL, NULL,
				      NULL), SQLITE_OK);
	cb_hist_db_close(&db);
	assert_int_equal(cb_hist_db_open(path, 0, &db, err, sizeof(err)), CB_OK);
	assert_int_equal(query_int(&db, "SELECT count(*) FROM pragma_table_info('rows') WHERE "
				   "name = 'repeats'"), 1);
	cb_hist_db_close(&db);
}

static void test_ingest_idempotent(void **state)
{
	char path[128], err[512];
	struct cb_hist_db db;
	struct cb_hist_run r;
	long long id, id2;
	int added;

	(void)state;
	path_of("ingest.sqlite", path, sizeof(path));
	assert_int_equal(cb_hist_db_open(path, 1, &db, err, sizeof(err)), CB_OK);
	make_run(&r, 1, 4.0, "vm");
	assert_int_equal(cb_hist_db_ingest(&db, &r, &id, &added, err, sizeof(err)), CB_OK);
	assert_int_equal(added, 1);
	assert_int_equal(cb_hist_db_ingest(&db, &r, &id2, &added, err, sizeof(err)), CB_OK);
	assert_int_equal(added, 0);
	assert_int_equal(id, id2);
	assert_int_equal(query_int(&db, "SELECT count(*) FROM runs"), 1);
	assert_int_equal(query_int(&db, "SELECT count(*) FROM rows"), 2);
	assert_int_equal(query_int(&db, "SELECT count(*) FROM rows WHERE busbw_GBps IS NULL"), 1);
	cb_hist_db_close(&db);
}

/* Series: one per key and machine, the median view and the copy fallback. */
static void test_series(void **state)
{
	char path[128], err[512];
	struct cb_hist_db db;
	struct cb_hist_run r;
	struct cb_hist_filter all = { .nranks = -1, .in_place = -1, .bytes = -1 };
	struct cb_hist_machine_sel m;
	struct cb_hist_series *s;
	long long id;
	size_t n;
	int added;

	(void)state;
	path_of("series.sqlite", path, sizeof(path));
	assert_int_equal(cb_hist_db_open(path, 1, &db, err, sizeof(err)), CB_OK);
	for (int i = 0; i < 5; i++) {
		make_run(&r, i, 4.0 + i, "vm");
		assert_int_equal(cb_hist_db_ingest(&db, &r, &id, &added, err, sizeof(err)), CB_OK);
	}
	make_run(&r, 9, 8.0, "other"); /* another machine */
	assert_int_equal(cb_hist_db_ingest(&db, &r, &id, &added, err, sizeof(err)), CB_OK);
	assert_int_equal(cb_hist_machine_find(&db, NULL, NULL, &m, err, sizeof(err)), CB_ERR_ARG);
	assert_non_null(strstr(err, "several machines"));
	assert_int_equal(cb_hist_machine_find(&db, "nope", NULL, &m, err, sizeof(err)), CB_ERR_ARG);
	assert_int_equal(cb_hist_machine_find(&db, "vm", NULL, &m, err, sizeof(err)), CB_OK);
	assert_int_equal(cb_hist_newest_run(&db, m.id), 5);
	assert_int_equal(cb_hist_series_load(&db, m.id, &all, CB_METRIC_BUSBW, CB_STAT_MEDIAN, &s, &n,
					     err, sizeof(err)), CB_OK);
	assert_int_equal(n, 2); /* copy, ring: key order */
	assert_string_equal(s[0].key.row.v.algo, "copy");
	assert_int_equal(s[0].metric, CB_METRIC_ALGBW);
	assert_int_equal(s[1].metric, CB_METRIC_BUSBW);
	assert_int_equal(s[1].n, 5); /* the other machine's run is not in it */
	for (size_t i = 0; i < 5; i++)
		assert_true(fabs(s[1].pts[i].value - 1.25 * (4.0 + (double)i)) < 1e-9);
	cb_hist_series_free(s, n);
	assert_int_equal(cb_hist_series_load(&db, m.id, &all, CB_METRIC_TIME, CB_STAT_MEAN, &s, &n,
					     err, sizeof(err)), CB_OK);
	assert_true(fabs(s[1].pts[0].value - 1e3 * 64 * 1.048576 / 4.0) < 1e-6);
	cb_hist_series_free(s, n);
	cb_hist_db_close(&db);
}

#define FIELD(c, v, type) ((type *)(void *)((char *)(v) + (c)->offset))

/* Sets stored column i of v to a value of its own (key names stay as
 * key_row set them). */
static void distinct_value(const struct cb_column *c, size_t i, struct cb_summary *v)
{
	switch (c->type) {
	case CB_COL_NAME:
		if (!*FIELD(c, v, char))
			snprintf(FIELD(c, v, char), CB_NAME_MAX, "n%zu", i);
		break;
	case CB_COL_INT: *FIELD(c, v, int) = 3 + (int)i; break;
	case CB_COL_BOOL: *FIELD(c, v, int) = 1; break;
	case CB_COL_U64: *FIELD(c, v, unsigned long long) = 1000 + i; break;
	case CB_COL_REAL: *FIELD(c, v, double) = 1.5 + (double)i; break;
	default: break;
	}
}

/* Every stored column of the schema table goes in and comes back: what the
 * history keeps is the schema's, with no list of its own. */
static void test_every_column_round_trip(void **state)
{
	const struct cb_schema *sc = &cb_schema_summary;
	char path[128], err[512];
	struct cb_hist_filter all = { .nranks = -1, .in_place = -1, .bytes = -1 };
	struct cb_hist_db db;
	struct cb_hist_run r;
	struct cb_hist_machine_sel m;
	struct cb_hist_series *s;
	struct cb_res_row row;
	long long id;
	size_t n;
	int added;

	(void)state;
	path_of("roundtrip.sqlite", path, sizeof(path));
	run_header(&r, 1, "vm");
	key_row(&row, "ring");
	for (size_t i = 0; i < sc->ncols; i++)
		if (cb_hist_col_stored(&sc->cols[i]))
			distinct_value(&sc->cols[i], i, &row.v);
	r.rows = &row;
	r.nrows = 1;
	assert_int_equal(cb_hist_db_open(path, 1, &db, err, sizeof(err)), CB_OK);
	assert_int_equal(cb_hist_db_ingest(&db, &r, &id, &added, err, sizeof(err)), CB_OK);
	assert_int_equal(cb_hist_machine_find(&db, NULL, NULL, &m, err, sizeof(err)), CB_OK);
	assert_int_equal(cb_hist_series_load(&db, m.id, &all, CB_METRIC_TIME, CB_STAT_MEAN, &s, &n,
					     err, sizeof(err)), CB_OK);
	assert_int_equal(n, 1);
	assert_int_equal(s[0].n, 1);
	for (size_t i = 0; i < sc->ncols; i++) {
		const struct cb_column *c = &sc->cols[i];

		if (!cb_hist_col_stored(c))
			continue;
		if (c->type == CB_COL_STATUS)
			assert_int_equal(s[0].pts[0].row.v.status.state, row.v.status.state);
		else if (c->type == CB_COL_NAME)
			assert_string_equal(FIELD(c, &s[0].pts[0].row.v, char), FIELD(c, &row.v, char));
		else
			assert_memory_equal(FIELD(c, &s[0].pts[0].row.v, char), FIELD(c, &row.v, char),
					    c->type == CB_COL_REAL ? sizeof(double) :
					    c->type == CB_COL_U64 ? sizeof(unsigned long long) :
					    sizeof(int));
	}
	cb_hist_series_free(s, n);
	cb_hist_db_close(&db);
}

/* transport: the schema's column where it has one, else "". */
static void test_transport(void **state)
{
	int i = cb_schema_find(&cb_schema_summary, "transport");
	struct cb_res_row row;
	char t[CB_NAME_MAX];

	(void)state;
	key_row(&row, "ring");
	if (i >= 0)
		strcpy(FIELD(&cb_schema_summary.cols[i], &row.v, char), "p2p");
	cb_hist_transport(&row.v, t, sizeof(t));
	assert_string_equal(t, i >= 0 ? "p2p" : "");
}

/* The gate: the last change a regression and the newest run in the series. */
static void test_gate_rule(void **state)
{
	struct cb_hist_point pts[10];
	struct cb_hist_series s = { .metric = CB_METRIC_BUSBW, .pts = pts, .n = 10 };
	struct cb_hist_change c[2];

	(void)state;
	memset(pts, 0, sizeof(pts));
	memset(c, 0, sizeof(c));
	for (int i = 0; i < 10; i++)
		pts[i].run_id = i + 1;
	c[0].dir = CB_HIST_IMPROVEMENT;
	c[0].cp.index = 3;
	c[1].dir = CB_HIST_REGRESSION;
	c[1].cp.index = 7;
	assert_int_equal(cb_hist_gate_fails(&s, c, 2, 10, 0), 1);
	assert_int_equal(cb_hist_gate_fails(&s, c, 2, 10, 3), 1);   /* 3 runs since */
	assert_int_equal(cb_hist_gate_fails(&s, c, 2, 10, 2), 0);   /* older than 2 runs */
	assert_int_equal(cb_hist_gate_fails(&s, c, 2, 11, 0), 0);   /* not in the newest run */
	assert_int_equal(cb_hist_gate_fails(&s, c, 1, 10, 0), 0);   /* last is an improvement */
	assert_int_equal(cb_hist_gate_fails(&s, c, 0, 10, 0), 0);
	/* a row that failed in the newest run fails, ok or skipped does not */
	s.last_run = 11;
	cb_row_status_set(&s.last_status, CB_ROW_ERROR, "%s", "MPI_ERR_TRUNCATE");
	assert_int_equal(cb_hist_gate_row_failed(&s, 11), 1);
	assert_int_equal(cb_hist_gate_row_failed(&s, 12), 0);      /* not the newest run */
	cb_row_status_wrong(&s.last_status, 3);
	assert_int_equal(cb_hist_gate_row_failed(&s, 11), 1);
	cb_row_status_set(&s.last_status, CB_ROW_SKIPPED, "%s", "not supported");
	assert_int_equal(cb_hist_gate_row_failed(&s, 11), 0);
	cb_row_status_set(&s.last_status, CB_ROW_OK, "%s", "");
	assert_int_equal(cb_hist_gate_row_failed(&s, 11), 0);
}

#define ROW3(algo, coll) \
	"collbench-summary-3,host," algo ",2,1024,256,float,sum,0,20,10,0.1,0.1,ok,shm,1," coll "\n"

/* Loads and ingests run folder name (put_run) into db; returns added. */
static int ingest_folder(struct cb_hist_db *db, const char *name)
{
	char run[128], err[512];
	struct cb_hist_run r;
	long long id;
	int added;

	path_of(name, run, sizeof(run));
	if (cb_hist_run_load(run, NULL, &r, err, sizeof(err)) != CB_OK ||
	    cb_hist_db_ingest(db, &r, &id, &added, err, sizeof(err)) != CB_OK)
		fail_msg("%s: %s", name, err);
	cb_hist_run_free(&r);
	return added;
}

/* Runs of every collective are ingested, each row keyed by its collective:
 * a reduce_scatter row and an allreduce row of one algorithm and size are
 * two series, never one; a run whose rows differ from another's in their
 * collective only is another run; --coll selects one collective. */
static void test_collective(void **state)
{
	const struct cb_hist_filter all = { .nranks = -1, .in_place = -1, .bytes = -1 };
	struct cb_hist_filter rs = all;
	char path[128], err[512], name[CB_HIST_NAME];
	struct cb_hist_machine_sel m;
	struct cb_hist_series *s;
	struct cb_hist_db db;
	size_t n;

	(void)state;
	path_of("coll.sqlite", path, sizeof(path));
	assert_int_equal(cb_hist_db_open(path, 1, &db, err, sizeof(err)), CB_OK);
	put_run_dir("ar3", ROW3("ring", "allreduce") ROW3("ps", "allreduce"));
	put_run_dir("rs3", ROW3("ring", "allreduce") ROW3("ring", "reduce_scatter"));
	put_run_dir("rs4", ROW3("ring", "reduce_scatter") ROW3("ps", "reduce_scatter"));
	assert_int_equal(ingest_folder(&db, "ar3"), 1);
	assert_int_equal(ingest_folder(&db, "rs3"), 1);
	assert_int_equal(ingest_folder(&db, "rs4"), 1); /* ar3's rows but their collective */
	assert_int_equal(ingest_folder(&db, "rs3"), 0);
	assert_int_equal(query_int(&db, "SELECT count(*) FROM runs"), 3);
	assert_int_equal(query_int(&db, "SELECT count(*) FROM rows WHERE collective = "
				   "'reduce_scatter'"), 3);
	assert_int_equal(query_int(&db, "SELECT count(*) FROM rows WHERE collective = "
				   "'allreduce'"), 3);
	assert_int_equal(cb_hist_machine_find(&db, NULL, NULL, &m, err, sizeof(err)), CB_OK);
	assert_int_equal(cb_hist_series_load(&db, m.id, &all, CB_METRIC_BUSBW, CB_STAT_MEDIAN, &s,
					     &n, err, sizeof(err)), CB_OK);
	assert_int_equal(n, 4); /* allreduce ps, ring; reduce_scatter ps, ring */
	assert_string_equal(s[1].key.row.v.collective, "allreduce");
	assert_string_equal(s[1].key.row.v.algo, "ring");
	assert_int_equal(s[1].n, 2);
	assert_string_equal(s[3].key.row.v.collective, "reduce_scatter");
	assert_string_equal(s[3].key.row.v.algo, "ring");
	assert_int_equal(s[3].n, 2);
	cb_hist_key_name(&s[3].key, name, sizeof(name));
	assert_string_equal(name, "reduce_scatter ring np2 1K float sum");
	cb_hist_key_name(&s[1].key, name, sizeof(name));
	assert_string_equal(name, "ring np2 1K float sum");
	cb_hist_series_free(s, n);
	rs.collective = "reduce_scatter";
	assert_int_equal(cb_hist_series_load(&db, m.id, &rs, CB_METRIC_BUSBW, CB_STAT_MEDIAN, &s,
					     &n, err, sizeof(err)), CB_OK);
	assert_int_equal(n, 2);
	assert_string_equal(s[0].key.row.v.collective, "reduce_scatter");
	cb_hist_series_free(s, n);
	cb_hist_db_close(&db);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_create_from_empty_file),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_metric_column_added),
		cmocka_unit_test(test_ingest_idempotent),
		cmocka_unit_test(test_series),
		cmocka_unit_test(test_every_column_round_trip),
		cmocka_unit_test(test_transport),
		cmocka_unit_test(test_collective),
		cmocka_unit_test(test_gate_rule),
	};

	return cmocka_run_group_tests(tests, tmpdir_setup, tmpdir_teardown);
}
