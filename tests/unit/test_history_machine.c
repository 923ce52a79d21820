/* Unit tests: a machine's identity (cb_machine: the text a run's metadata
 * gives, from "machine" or from "host" in older files, and this machine's,
 * made by the same code) and collbench-history's choice of this machine
 * among several when --machine is not given. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "cb_hist_db.h"
#include "cb_hist_ingest.h"
#include "cb_hist_query.h"
#include "cb_machine.h"

#define TEST_TMPDIR "/tmp/cb_hist_machine_XXXXXX"
#include "test_tmpdir.h"

/* The identity of a metadata object given as JSON text. */
static int identity_of(const char *json, const char *gpu, char *out, size_t len)
{
	json_t *root = json_loads(json, 0, NULL);
	char label[256];
	int rc;

	assert_non_null(root);
	rc = cb_machine_identity(json_object_get(root, "machine"), json_object_get(root, "host"),
				 gpu, out, len, label, sizeof(label));
	json_decref(root);
	return rc;
}

static void test_identity_text(void **state)
{
	char id[512];

	(void)state;
	assert_int_equal(identity_of("{\"machine\": {\"label\": \"box\", \"cpu_model\": \"X\", "
				     "\"cpus\": 8, \"mem_gib\": 31}}", "", id, sizeof(id)), 0);
	assert_string_equal(id, "box (X, 8 CPUs)");
	assert_int_equal(identity_of("{\"machine\": {\"label\": \"box\", \"cpus\": 8}}", "H200",
				     id, sizeof(id)), 0);
	assert_string_equal(id, "box (?, 8 CPUs, GPU H200)");
	/* older files: the host facts, the name up to its first dot */
	assert_int_equal(identity_of("{\"host\": {\"hostname\": \"n1.example.org\", \"cpu_model\": "
				     "\"Y\", \"cpus_online\": 2, \"mem_bytes\": 25276063744}}", "",
				     id, sizeof(id)), 0);
	assert_string_equal(id, "n1 (Y, 2 CPUs)");
	assert_int_equal(identity_of("{\"machine\": 3}", "", id, sizeof(id)), -1);
}

/* Memory is no part of the identity: the same machine with its usable
 * memory on both sides of a rounding edge (23.49 and 23.51 GiB: 23 and 24
 * rounded to GiB), in new and in older metadata, and across the two. */
static void test_identity_memory_edge(void **state)
{
	char a[512], b[512], c[512], d[512];

	(void)state;
	assert_int_equal(identity_of("{\"machine\": {\"label\": \"vm\", \"cpu_model\": \"X\", "
				     "\"cpus\": 2, \"mem_gib\": 23}}", "", a, sizeof(a)), 0);
	assert_int_equal(identity_of("{\"machine\": {\"label\": \"vm\", \"cpu_model\": \"X\", "
				     "\"cpus\": 2, \"mem_gib\": 24}}", "", b, sizeof(b)), 0);
	assert_string_equal(a, b);
	assert_int_equal(identity_of("{\"host\": {\"hostname\": \"vm\", \"cpu_model\": \"X\", "
				     "\"cpus_online\": 2, \"mem_bytes\": 25222382797}}", "", c,
				     sizeof(c)), 0);
	assert_int_equal(identity_of("{\"host\": {\"hostname\": \"vm\", \"cpu_model\": \"X\", "
				     "\"cpus_online\": 2, \"mem_bytes\": 25243857633}}", "", d,
				     sizeof(d)), 0);
	assert_string_equal(c, d);
	assert_string_equal(a, c);
}

/* Identities as older versions wrote them convert to today's form. */
static void test_identity_upgrade(void **state)
{
	static const char *const cases[][2] = {
		{ "vm (Intel(R) Xeon(R) Processor, 2 CPUs, 24 GiB)",
		  "vm (Intel(R) Xeon(R) Processor, 2 CPUs)" },
		{ "g (AMD EPYC, 64 CPUs, 1007 GiB, GPU NVIDIA H200)", "g (AMD EPYC, 64 CPUs, GPU NVIDIA H200)" },
		{ "box (?, 8 CPUs, ? GiB, GPU H200)", "box (?, 8 CPUs, GPU H200)" },
		/* a CPU model with " CPUs" in it: the memory part after the CPU count */
		{ "x (Two CPUs, 4 GiB fast, 2 CPUs, 8 GiB)", "x (Two CPUs, 4 GiB fast, 2 CPUs)" },
	};
	char out[512];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_int_equal(cb_machine_identity_upgrade(cases[i][0], out, sizeof(out)), 1);
		assert_string_equal(out, cases[i][1]);
		/* today's form stays as it is */
		assert_int_equal(cb_machine_identity_upgrade(cases[i][1], out, sizeof(out)), 0);
		assert_string_equal(out, cases[i][1]);
	}
	assert_int_equal(cb_machine_identity_upgrade("vm (X, 2 CPUs, lots GiB)", out, sizeof(out)), 0);
	assert_string_equal(out, "vm (X, 2 CPUs, lots GiB)");
}

/* This machine's text is the one its metadata object gives (the same code). */
static void test_here(void **state)
{
	struct cb_machine_host h;
	char here[512], id[512], label[256];
	json_t *m;

	(void)state;
	setenv("CB_MACHINE", "unit-here", 1);
	assert_int_equal(cb_machine_here("", here, sizeof(here), label, sizeof(label)), 0);
	assert_string_equal(label, "unit-here");
	cb_machine_host_read(&h);
	assert_true(h.cpus >= 1);
	m = cb_machine_json(&h, "");
	assert_non_null(m);
	assert_string_equal(json_string_value(json_object_get(m, "label_from")), "CB_MACHINE");
	assert_int_equal(cb_machine_identity(m, NULL, "", id, sizeof(id), label, sizeof(label)), 0);
	json_decref(m);
	assert_string_equal(id, here);
	assert_int_equal(strncmp(here, "unit-here (", 11), 0);
}

/* A run of one ring row on the machine of identity id (label label). */
static void ingest(struct cb_hist_db *db, int i, const char *id, const char *label)
{
	static struct cb_res_row row;
	struct cb_hist_run r;
	char err[512];
	long long rid;
	int added;

	memset(&r, 0, sizeof(r));
	snprintf(r.hash, sizeof(r.hash), "%064d", i);
	snprintf(r.time_utc, sizeof(r.time_utc), "2026-12-01T10:%02d:00Z", i);
	snprintf(r.name, sizeof(r.name), "run%d", i);
	snprintf(r.machine.identity, sizeof(r.machine.identity), "%s", id);
	snprintf(r.machine.label, sizeof(r.machine.label), "%s", label);
	cb_schema_clear(&cb_schema_summary, &row.v);
	strcpy(row.v.backend, "host");
	strcpy(row.v.algo, "ring");
	strcpy(row.v.dtype, "float");
	strcpy(row.v.op, "sum");
	row.v.nranks = 2;
	row.v.bytes = 1024;
	cb_row_status_set(&row.v.status, CB_ROW_OK, "%s", "");
	r.rows = &row;
	r.nrows = 1;
	assert_int_equal(cb_hist_db_ingest(db, &r, &rid, &added, err, sizeof(err)), CB_OK);
}

static void test_find_this_machine(void **state)
{
	struct cb_hist_db db;
	struct cb_hist_machine_sel m;
	char path[256], err[2048], here[512], gpu[512], label[256];

	(void)state;
	setenv("CB_MACHINE", "unit-here", 1);
	assert_int_equal(cb_machine_here("", here, sizeof(here), label, sizeof(label)), 0);
	snprintf(gpu, sizeof(gpu), "%.*s, GPU H200)", (int)strlen(here) - 1, here);
	snprintf(path, sizeof(path), "%s/h.sqlite", dir);
	assert_int_equal(cb_hist_db_open(path, 1, &db, err, sizeof(err)), CB_OK);
	ingest(&db, 1, "vm (cpu, 2 CPUs)", "vm");
	ingest(&db, 2, "cbnode1 (cpu, 4 CPUs)", "cbnode1");
	/* several machines, none of them this one: the error lists them */
	assert_int_equal(cb_hist_machine_find(&db, NULL, NULL, &m, err, sizeof(err)), CB_ERR_ARG);
	assert_non_null(strstr(err, "several machines, and this one ('unit-here ("));
	assert_non_null(strstr(err, "'cbnode1 (cpu, 4 CPUs)'"));
	/* this machine among them: chosen */
	ingest(&db, 3, here, "unit-here");
	assert_int_equal(cb_hist_machine_find(&db, NULL, NULL, &m, err, sizeof(err)), CB_OK);
	assert_string_equal(m.identity, here);
	/* and its GPU runs: the backend picks; without one, ambiguous */
	ingest(&db, 4, gpu, "unit-here");
	assert_int_equal(cb_hist_machine_find(&db, NULL, NULL, &m, err, sizeof(err)), CB_ERR_ARG);
	assert_non_null(strstr(err, "several identities"));
	assert_int_equal(cb_hist_machine_find(&db, NULL, "host", &m, err, sizeof(err)), CB_OK);
	assert_string_equal(m.identity, here);
	assert_int_equal(cb_hist_machine_find(&db, NULL, "cuda", &m, err, sizeof(err)), CB_OK);
	assert_string_equal(m.identity, gpu);
	/* --machine still names any machine */
	assert_int_equal(cb_hist_machine_find(&db, "vm", NULL, &m, err, sizeof(err)), CB_OK);
	assert_string_equal(m.label, "vm");
	/* another label here: not this machine any more */
	setenv("CB_MACHINE", "unit-elsewhere", 1);
	assert_int_equal(cb_hist_machine_find(&db, NULL, NULL, &m, err, sizeof(err)), CB_ERR_ARG);
	assert_non_null(strstr(err, "is not among them"));
	cb_hist_db_close(&db);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_identity_text),
		cmocka_unit_test(test_identity_memory_edge),
		cmocka_unit_test(test_identity_upgrade),
		cmocka_unit_test(test_here),
		cmocka_unit_test(test_find_this_machine),
	};

	return cmocka_run_group_tests(tests, tmpdir_setup, tmpdir_teardown);
}
