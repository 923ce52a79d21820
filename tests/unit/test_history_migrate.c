/* Unit tests: a history written by an older collbench-history (schema
 * version 1, made here by that version's SQL) is updated at its first open
 * and keeps working: machine identities lose their memory part and machines
 * that then coincide are merged; runs are numbered in their old order (start
 * time, then id), their times normalised to UTC, and new runs come after
 * them; runs get their run keys from what is stored, so that copies of one
 * run ingested as new runs before are seen as one, and a copy ingested now
 * is already there. A history of schema version 5 (the dump of one that
 * version wrote) gets the collective in its rows' key: its rows are
 * allreduce's, its runs keep their keys, and a run of another collective
 * over the same key is stored beside them as a series of its own. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <sqlite3.h>
#include <sys/stat.h>

#include "cb_hist_db.h"
#include "cb_hist_ingest.h"
#include "cb_hist_query.h"
#include "cb_hist_run.h"

#define TEST_TMPDIR "/tmp/cb_hist_migrate_XXXXXX"
#include "test_tmpdir.h"
#include "test_run_dir.h"

/* Version 1's schema as it shipped, with the measured columns its opens
 * added (the ones these tests fill). */
static const char v1_schema[] =
	"CREATE TABLE history_info(key TEXT PRIMARY KEY, value TEXT NOT NULL);"
	"INSERT INTO history_info VALUES('format', 'collbench-history');"
	"CREATE TABLE machines(id INTEGER PRIMARY KEY, identity TEXT NOT NULL UNIQUE,"
	" label TEXT NOT NULL);"
	"CREATE TABLE runs(id INTEGER PRIMARY KEY, hash TEXT NOT NULL UNIQUE,"
	" time_utc TEXT NOT NULL, machine_id INTEGER NOT NULL REFERENCES machines(id),"
	" name TEXT NOT NULL, source TEXT NOT NULL, version TEXT NOT NULL,"
	" git_commit TEXT NOT NULL, versions TEXT NOT NULL, launcher TEXT NOT NULL,"
	" job_id TEXT NOT NULL, label TEXT NOT NULL, nrows INTEGER NOT NULL,"
	" ingested_utc TEXT NOT NULL);"
	"CREATE INDEX runs_machine_time ON runs(machine_id, time_utc, id);"
	"CREATE TABLE rows(run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
	" backend TEXT NOT NULL, algo TEXT NOT NULL, nranks INTEGER NOT NULL,"
	" bytes INTEGER NOT NULL, dtype TEXT NOT NULL, op TEXT NOT NULL,"
	" in_place INTEGER NOT NULL, transport TEXT NOT NULL DEFAULT '',"
	" status TEXT NOT NULL,"
	" PRIMARY KEY(run_id, backend, algo, nranks, bytes, dtype, op, in_place, transport));"
	"CREATE INDEX rows_key ON rows(backend, algo, nranks, bytes, dtype, op, in_place,"
	" transport, run_id);"
	"ALTER TABLE rows ADD COLUMN time_us REAL;"
	"ALTER TABLE rows ADD COLUMN time_us_median REAL;"
	"ALTER TABLE rows ADD COLUMN algbw_GBps REAL;"
	"ALTER TABLE rows ADD COLUMN busbw_GBps REAL;"
	"PRAGMA user_version = 1;";

static void exec(sqlite3 *raw, const char *sql)
{
	char *msg = NULL;

	if (sqlite3_exec(raw, sql, NULL, NULL, &msg) != SQLITE_OK)
		fail_msg("%s: %s", sql, msg);
}

/* Run id of machine mid at time t (hour h of a day) with one ring 64M row
 * of busbw b GB/s. */
static void v1_run(sqlite3 *raw, int id, int mid, const char *t, double b)
{
	char sql[1024];

	snprintf(sql, sizeof(sql), "INSERT INTO runs VALUES(%d, '%064d', '%s', %d, 'run%d', "
		 "'/tmp/run%d', '0.1.0', 'c0', 'collbench 0.1.0; Open MPI v4.1.4', 'mpirun', '', "
		 "'', 1, '2026-11-30T00:00:00Z');"
		 "INSERT INTO rows(run_id, backend, algo, nranks, bytes, dtype, op, in_place, "
		 "transport, status, time_us, time_us_median, algbw_GBps, busbw_GBps) VALUES(%d, "
		 "'host', 'ring', 2, 67108864, 'float', 'sum', 0, 'shm', 'ok', %.17g, %.17g, %.17g, "
		 "%.17g);", id, id, t, mid, id, id, id, 67108.864 / b, 67108.864 / b, b, b);
	exec(raw, sql);
}

/* A version-1 history at path: the VM under two identities (its memory 24
 * and 23 GiB rounded), a GPU box, and their runs. */
static void make_v1(const char *path)
{
	sqlite3 *raw;

	assert_int_equal(sqlite3_open(path, &raw), SQLITE_OK);
	exec(raw, v1_schema);
	exec(raw, "INSERT INTO machines VALUES(1, 'vm (X, 2 CPUs, 24 GiB)', 'vm');"
	     "INSERT INTO machines VALUES(2, 'vm (X, 2 CPUs, 23 GiB)', 'vm');"
	     "INSERT INTO machines VALUES(3, 'g (Y, 8 CPUs, 64 GiB, GPU H200)', 'g');");
	v1_run(raw, 1, 1, "2026-11-01T10:00:00Z", 4.0);
	v1_run(raw, 2, 1, "2026-11-02T10:00:00Z", 4.1);
	v1_run(raw, 3, 2, "2026-11-03T10:00:00Z", 4.0);
	v1_run(raw, 4, 3, "2026-11-03T11:00:00Z", 90);
	v1_run(raw, 5, 1, "2026-11-01 13:00:00+01:00", 4.0); /* as its metadata wrote it */
	v1_run(raw, 6, 3, "2026-11-03T11:00:00Z", 90); /* run 4 again: its files in CRLF */
	sqlite3_close(raw);
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

static void open_v1(const char *name, struct cb_hist_db *db)
{
	char path[256], err[1024];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	make_v1(path);
	if (cb_hist_db_open(path, 0, db, err, sizeof(err)) != CB_OK)
		fail_msg("open: %s", err);
	assert_int_equal(query_int(db, "PRAGMA user_version"), CB_HIST_SCHEMA_VERSION);
}

/* Run 6 is run 4 again: equal keys, noted by check; a copy ingested now (its
 * own hash, no command known for the stored one) is already there. */
static void test_copies_keyed(void **state)
{
	static struct cb_res_row row;
	struct cb_hist_db db;
	struct cb_hist_run r;
	char err[1024], *text = NULL;
	size_t len = 0, problems;
	long long id;
	int added;
	FILE *out;

	(void)state;
	open_v1("copies.sqlite", &db);
	assert_int_equal(query_int(&db, "SELECT count(*) FROM runs WHERE run_key IS NULL OR "
				   "length(run_key) != 64"), 0);
	assert_int_equal(query_int(&db, "SELECT count(DISTINCT run_key) FROM runs"), 5);
	out = open_memstream(&text, &len);
	assert_int_equal(cb_hist_db_check(&db, out, &problems, err, sizeof(err)), CB_OK);
	fclose(out);
	assert_int_equal(problems, 0);
	assert_non_null(strstr(text, "note: run 6 is run 4 again"));
	free(text);
	memset(&r, 0, sizeof(r));
	snprintf(r.hash, sizeof(r.hash), "%064d", 77);
	snprintf(r.command_key, sizeof(r.command_key), "%064d", 5);
	snprintf(r.time_utc, sizeof(r.time_utc), "2026-11-03T11:00:00Z");
	snprintf(r.machine.identity, sizeof(r.machine.identity), "g (Y, 8 CPUs, GPU H200)");
	cb_schema_clear(&cb_schema_summary, &row.v);
	strcpy(row.v.backend, "host");
	strcpy(row.v.algo, "ring");
	strcpy(row.v.dtype, "float");
	strcpy(row.v.op, "sum");
	strcpy(row.v.transport, "shm");
	row.v.nranks = 2;
	row.v.bytes = 64 << 20;
	row.v.time_us = row.v.time_us_median = 67108.864 / 90;
	row.v.algbw = row.v.busbw = 90;
	r.rows = &row;
	r.nrows = 1;
	assert_int_equal(cb_hist_db_ingest(&db, &r, &id, &added, err, sizeof(err)), CB_OK);
	assert_int_equal(added, 0);
	assert_int_equal(id, 4);
	cb_hist_db_close(&db);
}

/* Identities lose their memory; the VM's two are one machine, one series. */
static void test_machines_merged(void **state)
{
	const struct cb_hist_filter any = { .nranks = -1, .in_place = -1, .bytes = -1 };
	struct cb_hist_db db;
	struct cb_hist_machine_sel m;
	struct cb_hist_series *s;
	char err[1024];
	size_t n, problems;

	(void)state;
	open_v1("merge.sqlite", &db);
	assert_int_equal(query_int(&db, "SELECT count(*) FROM machines"), 2);
	assert_int_equal(query_int(&db, "SELECT count(*) FROM machines WHERE identity LIKE "
				   "'%GiB%'"), 0);
	assert_int_equal(cb_hist_machine_find(&db, "vm (X, 2 CPUs)", NULL, &m, err, sizeof(err)),
			 CB_OK);
	assert_int_equal(m.id, 1);
	assert_int_equal(cb_hist_series_load(&db, m.id, &any, CB_METRIC_BUSBW, CB_STAT_MEDIAN, &s,
					     &n, err, sizeof(err)), CB_OK);
	assert_int_equal(n, 1);
	assert_int_equal(s[0].n, 4);
	cb_hist_series_free(s, n);
	assert_int_equal(cb_hist_machine_find(&db, "g", NULL, &m, err, sizeof(err)), CB_OK);
	assert_string_equal(m.identity, "g (Y, 8 CPUs, GPU H200)");
	assert_int_equal(cb_hist_db_check(&db, stdout, &problems, err, sizeof(err)), CB_OK);
	assert_int_equal(problems, 0);
	cb_hist_db_close(&db);
}

/* seq follows the old order (time, then id); times are in UTC; the newest
 * run is the last in that order, and a new run comes after it whatever its
 * date. */
static void test_order_kept(void **state)
{
	static struct cb_res_row row;
	struct cb_hist_db db;
	struct cb_hist_run r;
	char err[1024];
	long long id;
	int added;

	(void)state;
	open_v1("order.sqlite", &db);
	assert_int_equal(query_int(&db, "SELECT count(*) FROM runs WHERE time_utc = "
				   "'2026-11-01T12:00:00Z' AND id = 5"), 1);
	/* machine 1: runs 1 (11-01 10:00), 5 (11-01 12:00), 2 (11-02), 3 (11-03) */
	assert_int_equal(query_int(&db, "SELECT seq FROM runs WHERE id = 1"), 1);
	assert_int_equal(query_int(&db, "SELECT seq FROM runs WHERE id = 5"), 2);
	assert_int_equal(query_int(&db, "SELECT seq FROM runs WHERE id = 2"), 3);
	assert_int_equal(query_int(&db, "SELECT seq FROM runs WHERE id = 3"), 4);
	assert_int_equal(query_int(&db, "SELECT seq FROM runs WHERE id = 4"), 1);
	assert_int_equal(cb_hist_newest_run(&db, 1), 3);
	/* a new run dated before all of them is the newest all the same */
	memset(&r, 0, sizeof(r));
	snprintf(r.hash, sizeof(r.hash), "%064d", 99);
	snprintf(r.time_utc, sizeof(r.time_utc), "2020-01-01T00:00:00Z");
	snprintf(r.machine.identity, sizeof(r.machine.identity), "vm (X, 2 CPUs)");
	snprintf(r.machine.label, sizeof(r.machine.label), "vm");
	cb_schema_clear(&cb_schema_summary, &row.v);
	strcpy(row.v.backend, "host");
	strcpy(row.v.algo, "ring");
	strcpy(row.v.dtype, "float");
	strcpy(row.v.op, "sum");
	row.v.nranks = 2;
	row.v.bytes = 64 << 20;
	r.rows = &row;
	r.nrows = 1;
	assert_int_equal(cb_hist_db_ingest(&db, &r, &id, &added, err, sizeof(err)), CB_OK);
	assert_int_equal(added, 1);
	assert_int_equal(query_int(&db, "SELECT seq FROM runs ORDER BY id DESC LIMIT 1"), 5);
	assert_int_equal(cb_hist_newest_run(&db, 1), id);
	cb_hist_db_close(&db);
}

/* A history of schema version 5 as collbench-history of that version
 * wrote it (sqlite3 .dump of `collbench-history ingest` of the run put_v5_run
 * makes, at commit acca16e; its run key is that version's), and its
 * user_version, which .dump does not write. */
static const char v5_dump[] =
	"CREATE TABLE history_info(key TEXT PRIMARY KEY, value TEXT NOT NULL);"
	"INSERT INTO history_info VALUES('format','collbench-history');"
	"CREATE TABLE machines(id INTEGER PRIMARY KEY, identity TEXT NOT NULL UNIQUE,"
	" label TEXT NOT NULL);"
	"INSERT INTO machines VALUES(1,'t (T, 2 CPUs)','t');"
	"CREATE TABLE runs(id INTEGER PRIMARY KEY, hash TEXT NOT NULL UNIQUE, time_utc TEXT NOT"
	" NULL, machine_id INTEGER NOT NULL REFERENCES machines(id), name TEXT NOT NULL, source"
	" TEXT NOT NULL, version TEXT NOT NULL, git_commit TEXT NOT NULL, versions TEXT NOT NULL,"
	" launcher TEXT NOT NULL, job_id TEXT NOT NULL, label TEXT NOT NULL, nrows INTEGER NOT"
	" NULL, ingested_utc TEXT NOT NULL, seq INTEGER, run_key TEXT, command_key TEXT, libconf"
	" TEXT NOT NULL DEFAULT '');"
	"INSERT INTO runs VALUES(1,'4b7f2f8a34ff7e7e4286ebfd7e0a263a1e8afc535f1bc4209fe655e3b6a1"
	"360d','2026-12-02T10:00:00Z',1,'run5','run5','','','collbench ?; ?','','','',2,"
	"'2026-12-02T02:28:03Z',1,'a1f18a98ed381d941e66c609f97416129855eacba53d43d16d5aa9e9b6d7"
	"4b60','01ba4719c80b6fe911b091a7c05124b64eeece964e09c058ef8f9805daca546b','');"
	"CREATE TABLE rows(run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE, backend"
	" TEXT NOT NULL, algo TEXT NOT NULL, nranks INTEGER NOT NULL, bytes INTEGER NOT NULL,"
	" dtype TEXT NOT NULL, op TEXT NOT NULL, in_place INTEGER NOT NULL, transport TEXT NOT"
	" NULL DEFAULT '', status TEXT NOT NULL, \"time_us\" REAL, \"time_us_median\" REAL,"
	" \"algbw_GBps\" REAL, \"busbw_GBps\" REAL, \"tx_total_bytes\" INTEGER,"
	" \"txrx_max_bytes\" INTEGER, \"repeats\" INTEGER, \"time_us_rep_min\" REAL,"
	" \"time_us_rep_max\" REAL, \"busbw_GBps_rep_min\" REAL, \"busbw_GBps_rep_max\" REAL,"
	" \"time_us_median_rep_min\" REAL, \"time_us_median_rep_max\" REAL, \"nhosts\" INTEGER,"
	" PRIMARY KEY(run_id, backend, algo, nranks, bytes, dtype, op, in_place, transport));"
	"INSERT INTO \"rows\" VALUES(1,'host','ring',2,1024,'float','sum',0,'shm','ok',10.0,NULL,"
	"0.1024000000000000049,0.1024000000000000049,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,"
	"1);"
	"INSERT INTO \"rows\" VALUES(1,'host','ring',2,2048,'float','sum',0,'shm','ok',16.0,NULL,"
	"0.12800000000000000266,0.12800000000000000266,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,"
	"NULL,1);"
	"CREATE INDEX rows_key ON rows(backend, algo, nranks, bytes, dtype, op, in_place,"
	" transport, run_id);"
	"CREATE INDEX runs_machine_seq ON runs(machine_id, seq, id);"
	"CREATE INDEX runs_key ON runs(run_key);"
	"PRAGMA user_version = 5;";

/* Run folder dir/name: v5_dump's run (rows in the other order: other files,
 * the same run) with its rows of collective coll. */
static void put_v5_run(const char *name, const char *coll)
{
	char rows[256];

	snprintf(rows, sizeof(rows),
		 "collbench-summary-3,host,ring,2,2048,512,float,sum,0,20,16,0.128,0.128,ok,shm,1,%s\n"
		 "collbench-summary-3,host,ring,2,1024,256,float,sum,0,20,10,0.1024,0.1024,ok,shm,1,"
		 "%s\n", coll, coll);
	put_run_dir(name, rows);
}

/* Ingests run folder name into db; returns added, its id into *id. */
static int ingest_v5_run(struct cb_hist_db *db, const char *name, long long *id)
{
	char path[256], err[1024];
	struct cb_hist_run r;
	int added;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (cb_hist_run_load(path, NULL, &r, err, sizeof(err)) != CB_OK ||
	    cb_hist_db_ingest(db, &r, id, &added, err, sizeof(err)) != CB_OK)
		fail_msg("%s: %s", name, err);
	cb_hist_run_free(&r);
	return added;
}

/* Version 5 -> 6: the rows are allreduce's, the primary key has the
 * collective, the run keeps its key (its copy is already there), and a
 * reduce_scatter run over the same keys is two more series. */
static void test_collective_keyed(void **state)
{
	const struct cb_hist_filter any = { .nranks = -1, .in_place = -1, .bytes = -1 };
	char path[256], err[1024];
	struct cb_hist_series *s;
	struct cb_hist_db db;
	size_t n, problems;
	long long id;
	sqlite3 *raw;

	(void)state;
	snprintf(path, sizeof(path), "%s/v5.sqlite", dir);
	assert_int_equal(sqlite3_open(path, &raw), SQLITE_OK);
	exec(raw, v5_dump);
	sqlite3_close(raw);
	if (cb_hist_db_open(path, 0, &db, err, sizeof(err)) != CB_OK)
		fail_msg("open: %s", err);
	assert_int_equal(query_int(&db, "PRAGMA user_version"), CB_HIST_SCHEMA_VERSION);
	assert_int_equal(query_int(&db, "SELECT count(*) FROM rows WHERE collective = "
				   "'allreduce' AND time_us IN (10, 16) AND nhosts = 1"), 2);
	assert_int_equal(query_int(&db, "SELECT count(*) FROM sqlite_master WHERE name = "
				   "'rows_v5'"), 0);
	assert_int_equal(query_int(&db, "SELECT count(*) FROM pragma_index_info((SELECT name FROM"
				   " sqlite_master WHERE type = 'index' AND tbl_name = 'rows' AND name"
				   " LIKE 'sqlite_autoindex%')) WHERE name = 'collective'"), 1);
	assert_int_equal(cb_hist_db_check(&db, stdout, &problems, err, sizeof(err)), CB_OK);
	assert_int_equal(problems, 0);
	put_v5_run("again", "allreduce");
	assert_int_equal(ingest_v5_run(&db, "again", &id), 0);
	assert_int_equal(id, 1);
	put_v5_run("rs", "reduce_scatter");
	assert_int_equal(ingest_v5_run(&db, "rs", &id), 1);
	assert_int_equal(cb_hist_series_load(&db, 1, &any, CB_METRIC_BUSBW, CB_STAT_MEDIAN, &s, &n,
					     err, sizeof(err)), CB_OK);
	assert_int_equal(n, 4);
	for (size_t i = 0; i < n; i++) {
		assert_int_equal(s[i].n, 1);
		assert_string_equal(s[i].key.row.v.collective, i < 2 ? "allreduce" : "reduce_scatter");
		assert_int_equal(s[i].pts[0].run_id, i < 2 ? 1 : id);
	}
	cb_hist_series_free(s, n);
	cb_hist_db_close(&db);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_machines_merged),
		cmocka_unit_test(test_order_kept),
		cmocka_unit_test(test_copies_keyed),
		cmocka_unit_test(test_collective_keyed),
	};

	return cmocka_run_group_tests(tests, tmpdir_setup, tmpdir_teardown);
}
