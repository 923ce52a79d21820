/* Unit tests: the results streams. cb_text's \xHH rule for bytes that are not
 * UTF-8 (JSON must stay valid and readable back), and cb_report on a stream
 * that fails part-way (a full disk, a closed pipe): every failure is an error,
 * never a silent loss; and every row of the CSV is a row of the table. */
#define _GNU_SOURCE
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "cb_report.h"
#include "cb_text.h"

static void test_utf8_validation(void **state)
{
	(void)state;
	assert_true(cb_text_is_utf8(""));
	assert_true(cb_text_is_utf8("/tmp/run-1"));
	assert_true(cb_text_is_utf8("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80")); /* é € 😀 */
	assert_false(cb_text_is_utf8("\xff"));
	assert_false(cb_text_is_utf8("caf\xe9"));          /* Latin-1 é */
	assert_false(cb_text_is_utf8("\xc0\xaf"));         /* overlong '/' */
	assert_false(cb_text_is_utf8("\xed\xa0\x80"));     /* a surrogate */
	assert_false(cb_text_is_utf8("\xf4\x90\x80\x80")); /* above U+10FFFF */
	assert_false(cb_text_is_utf8("\xe2\x82"));         /* cut short */
}

static void test_escape_rule(void **state)
{
	char *e;

	(void)state;
	e = cb_text_escape("/tmp/a\xff" "b/caf\xe9/\xc3\xa9");
	assert_non_null(e);
	/* each stray byte as \xHH, valid sequences (here é) kept */
	assert_string_equal(e, "/tmp/a\\xffb/caf\\xe9/\xc3\xa9");
	free(e);
	e = cb_text_escape("plain \\ text");
	assert_string_equal(e, "plain \\ text");
	free(e);
}

/* What the writers produce, the JSON library (and so the readers) accept. */
static void test_json_text_round_trip(void **state)
{
	json_t *o = json_object(), *back;
	char *dump;

	(void)state;
	assert_null(json_string("a\xff")); /* why the rule exists */
	assert_int_equal(json_object_set_new(o, "path", cb_json_text("/tmp/a\xff" "b")), 0);
	dump = json_dumps(o, JSON_COMPACT);
	assert_non_null(dump);
	back = json_loads(dump, 0, NULL);
	assert_non_null(back);
	assert_string_equal(json_string_value(json_object_get(back, "path")), "/tmp/a\\xffb");
	json_decref(back);
	json_decref(o);
	free(dump);
}

/* A stream that takes `room` bytes, then fails every write with ENOSPC. */
struct full_disk {
	size_t room, taken;
};

static ssize_t full_write(void *cookie, const char *buf, size_t size)
{
	struct full_disk *d = cookie;
	size_t n = size < d->room - d->taken ? size : d->room - d->taken;

	(void)buf;

	d->taken += n;
	if (n == 0) {
		errno = ENOSPC;
		return -1;
	}
	return (ssize_t)n; /* a short write, then the failure */
}

static FILE *open_full_disk(struct full_disk *d)
{
	cookie_io_functions_t io = { .write = full_write };

	return fopencookie(d, "w", io);
}

static struct cb_summary test_row(size_t bytes)
{
	struct cb_summary w;

	cb_schema_clear(&cb_schema_summary, &w);
	strcpy(w.backend, "host");
	strcpy(w.algo, "ring");
	w.nranks = 2;
	w.bytes = bytes;
	w.count = bytes / 4;
	strcpy(w.dtype, "float");
	strcpy(w.op, "sum");
	w.in_place = 0;
	w.iters = 20;
	w.warmup_iters = 5;
	w.repeats = 1;
	w.time_us = w.time_us_median = w.time_us_min = w.time_us_max = 10.0;
	w.time_us_rep_min = w.time_us_rep_max = 10.0;
	w.time_us_median_rep_min = w.time_us_median_rep_max = 10.0;
	w.algbw = w.busbw = w.busbw_rep_min = w.busbw_rep_max = 1.0;
	return w;
}

/* The table fills its stream mid-run (part of a row written): that row, and
 * every later one, is an error; closing says so too. */
static void test_table_write_failure_mid_run(void **state)
{
	struct full_disk d = { 700, 0 }; /* the header fits, some rows do not */
	FILE *table = open_full_disk(&d);
	struct cb_report *r = NULL;
	struct cb_summary w = test_row(1024);
	int failed_at = -1;

	(void)state;
	assert_non_null(table);
	assert_int_equal(cb_report_open(&r, NULL, NULL, NULL, table), CB_OK);
	assert_int_equal(cb_report_start(r), CB_OK);
	assert_int_equal(cb_report_table_header(r), CB_OK);
	for (int i = 0; i < 10 && failed_at < 0; i++)
		if (cb_report_row(r, &w, NULL) != CB_OK)
			failed_at = i;
	assert_true(failed_at >= 1); /* at least one row fitted, then it failed */
	assert_true(d.taken == d.room); /* cut in the middle: the short write was seen */
	assert_int_equal(cb_report_row(r, &w, NULL), CB_ERR_IO); /* and stays failed */
	assert_int_equal(cb_report_close(r), CB_ERR_IO);
	fclose(table);
}

/* The same for a results file (--json here): a full disk is an error. */
static void test_file_write_failure(void **state)
{
	struct cb_report *r = NULL;
	struct cb_summary w = test_row(64);

	(void)state;
	assert_int_equal(cb_report_open(&r, NULL, NULL, "/dev/full", NULL), CB_OK);
	assert_int_equal(cb_report_start(r), CB_OK); /* nothing written yet: no header */
	assert_int_equal(cb_report_row(r, &w, NULL), CB_ERR_IO);
	assert_int_equal(cb_report_close(r), CB_ERR_IO);
}

/* Rows that were not measured (a failed set-up, a skipped row) are in the
 * table with their status, as they are in the CSV. */
static void test_every_row_in_table(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *table = open_memstream(&buf, &len);
	struct cb_report *r = NULL;
	struct cb_summary ok = test_row(1024), err = test_row(2048), skip = test_row(4096);

	(void)state;
	err.time_us = err.time_us_median = err.algbw = err.busbw = NAN;
	cb_row_status_set(&err.status, CB_ROW_ERROR, "set-up failed (%s)", "i/o error");
	skip.time_us = skip.time_us_median = skip.algbw = skip.busbw = NAN;
	cb_row_status_set(&skip.status, CB_ROW_SKIPPED, "MPI has no avg op");
	assert_int_equal(cb_report_open(&r, NULL, NULL, NULL, table), CB_OK);
	assert_int_equal(cb_report_start(r), CB_OK);
	assert_int_equal(cb_report_table_header(r), CB_OK);
	assert_int_equal(cb_report_row(r, &ok, NULL), CB_OK);
	assert_int_equal(cb_report_row(r, &err, NULL), CB_OK);
	assert_int_equal(cb_report_row(r, &skip, NULL), CB_OK);
	assert_int_equal(cb_report_close(r), CB_OK);
	fclose(table);
	assert_non_null(strstr(buf, " status\n"));
	assert_non_null(strstr(buf, "1024"));
	assert_non_null(strstr(buf, "  ok\n"));
	assert_non_null(strstr(buf, "2048"));
	assert_non_null(strstr(buf, "  error:set-up failed (i/o error)\n"));
	assert_non_null(strstr(buf, "4096"));
	assert_non_null(strstr(buf, "  skipped:MPI has no avg op\n"));
	assert_null(strstr(buf, "nan"));
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_utf8_validation),
		cmocka_unit_test(test_escape_rule),
		cmocka_unit_test(test_json_text_round_trip),
		cmocka_unit_test(test_table_write_failure_mid_run),
		cmocka_unit_test(test_file_write_failure),
		cmocka_unit_test(test_every_row_in_table),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
