/* Unit tests: the table with both modes on each line (cb_report_modes.h):
 * the header names the out-of-place and in-place groups above their own
 * columns, each half holds its own mode's numbers, a mode that did not
 * measure shows its state in its half (not a number) and its reason in the
 * status, and the columns stay under the header with a long algorithm name. */
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

#include "cb_report.h"
#include "cb_report_modes.h"

static struct cb_summary row(const char *algo, int in_place, double time_us, double busbw,
			     unsigned long long tx)
{
	struct cb_summary s;

	memset(&s, 0, sizeof(s));
	snprintf(s.algo, sizeof(s.algo), "%s", algo);
	snprintf(s.dtype, sizeof(s.dtype), "float");
	snprintf(s.op, sizeof(s.op), "sum");
	s.bytes = 4096, s.count = 1024, s.in_place = in_place;
	s.time_us = time_us, s.algbw = busbw / 2, s.busbw = busbw, s.wrong = 0, s.tx_total = tx;
	s.status.state = CB_ROW_OK;
	return s;
}

/* The whitespace-separated fields of line into f (at most n); their count. */
static int fields(char *line, char **f, int n)
{
	int k = 0;

	for (char *save = NULL, *t = strtok_r(line, " \n", &save); t && k < n;
	     t = strtok_r(NULL, " \n", &save))
		f[k++] = t;
	return k;
}

/* Line i (0-based) of text, copied into buf. */
static char *line_of(const char *text, int i, char *buf, size_t len)
{
	const char *p = text, *e;

	while (i-- > 0 && p)
		p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL;
	assert_non_null(p);
	e = strchr(p, '\n');
	snprintf(buf, len, "%.*s", (int)(e ? e - p : (long)strlen(p)), p);
	return buf;
}

/* the end column of the last character of the first occurrence at or after
 * from of word in line */
static long end_of(const char *line, const char *word, long from)
{
	const char *p = strstr(line + from, word);

	assert_non_null(p);
	return p - line + (long)strlen(word);
}

static void test_header(void **state)
{
	char h[2048], l[512];
	long oop, ip, t1, t2;

	(void)state;
	cb_report_modes_header(h, sizeof(h), 6);
	/* every line a comment */
	for (int i = 0; i < 4; i++)
		assert_int_equal(line_of(h, i, l, sizeof(l))[0], '#');
	assert_non_null(strstr(line_of(h, 0, l, sizeof(l)), "median, txrx_max and imbal"));
	oop = strstr(line_of(h, 1, l, sizeof(l)), "out-of-place") - l;
	ip = strstr(l, " in-place ") - l;
	assert_true(oop > 0 && ip > oop);
	/* the groups' labels sit over their own time..tx_total columns */
	t1 = end_of(line_of(h, 2, l, sizeof(l)), "time", 0);
	t2 = end_of(l, "time", t1);
	assert_true(oop < t2 - 4 && oop > t1 - 12);
	assert_true(ip > t2 - 12);
	assert_non_null(strstr(l, "#wrong"));
	assert_non_null(strstr(l, "status"));
}

/* each half holds its mode's numbers, in the header's columns */
static void test_line_both(void **state)
{
	struct cb_summary a = row("ring", 0, 12.5, 3, 100), b = row("ring", 1, 20.25, 1.5, 200);
	char h[2048], l[1024], hl[512], *f[32];
	long end_time2;

	(void)state;
	assert_true(cb_report_modes_pair(&a, &b));
	assert_false(cb_report_modes_pair(&b, &a));
	cb_report_modes_line(l, sizeof(l), 6, &a, &b);
	cb_report_modes_header(h, sizeof(h), 6);
	line_of(h, 2, hl, sizeof(hl));
	end_time2 = end_of(hl, "time", end_of(hl, "time", 0));
	assert_int_equal(end_of(l, "20.25", 0), end_time2); /* right-aligned under "time" */
	assert_int_equal(fields(l, f, 32), 16);
	assert_string_equal(f[0], "ring");
	assert_string_equal(f[5], "12.50");
	assert_string_equal(f[7], "3.000");
	assert_string_equal(f[9], "100");
	assert_string_equal(f[10], "20.25");
	assert_string_equal(f[12], "1.500");
	assert_string_equal(f[14], "200");
	assert_string_equal(f[15], "ok");
}

/* a skipped half: its state, not a number; the reason in the status */
static void test_line_skipped(void **state)
{
	struct cb_summary a = row("copy", 0, 1, 2, 0), b = row("copy", 1, NAN, NAN, CB_NO_U64);
	char l[1024], *f[32];

	(void)state;
	b.algbw = NAN, b.wrong = CB_NO_U64;
	cb_row_status_set(&b.status, CB_ROW_SKIPPED, "nothing to copy");
	cb_report_modes_line(l, sizeof(l), 6, &a, &b);
	assert_non_null(strstr(l, "out-of-place ok; in-place skipped:nothing to copy"));
	assert_true(fields(l, f, 32) > 15);
	assert_string_equal(f[10], "skipped");
	for (int i = 11; i < 15; i++)
		assert_string_equal(f[i], "-");
	/* the out-of-place half missing (never ran): dashes there */
	cb_report_modes_line(l, sizeof(l), 6, NULL, &a);
	assert_non_null(strstr(l, "  ok (in-place only)\n"));
	fields(l, f, 32);
	for (int i = 5; i < 10; i++)
		assert_string_equal(f[i], "-");
	assert_string_equal(f[10], "1.00");
}

/* a long name: the algo column widens, the rest stays under the header */
static void test_long_name(void **state)
{
	const char *name = "a_rather_long_plan_name_of_31ch";
	struct cb_summary a = row(name, 0, 1, 2, 3), b = row(name, 1, 4, 5, 6);
	char h[4096], l[1024], hl[512];
	int w = (int)strlen(name);

	(void)state;
	cb_report_modes_header(h, sizeof(h), w);
	cb_report_modes_line(l, sizeof(l), w, &a, &b);
	line_of(h, 2, hl, sizeof(hl));
	assert_int_equal(end_of(l, name, 0), end_of(hl, "algo", 0));
	assert_int_equal(end_of(l, "4.00", 0), end_of(hl, "time", end_of(hl, "time", 0)));
}

/* cb_report in both modes: a row per mode in the CSV, one table line per
 * pair; a row without its pair printed alone (at the latest on close); a
 * straggler note names its mode */
static void test_report_pairs(void **state)
{
	char csv[] = "/tmp/cb_report_modes_XXXXXX", *text = NULL, *f[32], line[1024];
	struct cb_summary a = row("ring", 0, 1, 2, 3), b = row("ring", 1, 4, 5, 6);
	struct cb_summary c = row("ps", 0, 7, 8, 9);
	struct cb_report *r;
	size_t len = 0;
	FILE *table = open_memstream(&text, &len), *in;
	int fd = mkstemp(csv), lines = 0, n;

	(void)state;
	assert_true(fd >= 0 && table);
	close(fd);
	b.nranks = 4, b.iters = 1000, b.repeats = 1;
	b.straggler_rank = 2, b.straggler_share = 0.9, b.straggler_ratio = 1.5;
	assert_int_equal(cb_report_open(&r, csv, NULL, NULL, table), CB_OK);
	cb_report_set_modes(r, 1);
	assert_int_equal(cb_report_table_header(r), CB_OK);
	assert_int_equal(cb_report_start(r), CB_OK);
	assert_int_equal(cb_report_row(r, &a, NULL), CB_OK);
	assert_int_equal(cb_report_row(r, &b, NULL), CB_OK);
	assert_int_equal(cb_report_row(r, &c, NULL), CB_OK); /* its in-place row never comes */
	assert_int_equal(cb_report_close(r), CB_OK);
	fclose(table);
	assert_non_null(strstr(text, "#  ^ straggler (in-place): rank 2,"));
	/* the table's rows: ring's pair on one line, then ps alone */
	for (char *save = NULL, *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		if (l[0] == '#')
			continue;
		snprintf(line, sizeof(line), "%s", l);
		n = fields(line, f, 32);
		assert_int_equal(n, lines ? 18 : 16);
		if (lines++ == 0) {
			assert_string_equal(f[0], "ring");
			assert_string_equal(f[5], "1.00");
			assert_string_equal(f[10], "4.00");
		} else {
			assert_string_equal(f[0], "ps");
			assert_string_equal(f[5], "7.00");
			assert_string_equal(f[10], "-");
			assert_string_equal(f[16], "(out-of-place");
		}
	}
	assert_int_equal(lines, 2);
	/* the CSV: a header and a row per mode */
	in = fopen(csv, "r");
	assert_non_null(in);
	for (lines = 0; fgets(line, sizeof(line), in);)
		lines++;
	fclose(in);
	assert_int_equal(lines, 4);
	unlink(csv);
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_header),
		cmocka_unit_test(test_line_both),
		cmocka_unit_test(test_line_skipped),
		cmocka_unit_test(test_long_name),
		cmocka_unit_test(test_report_pairs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
