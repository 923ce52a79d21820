/* cb_results: summary CSV rows, validated (contract in cb_results.h). */
#define _GNU_SOURCE
#include "cb_results.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cb_csv.h"
#include "cb_report.h"

/* Largest accepted values: far beyond any real measurement, small enough
 * that arithmetic on them stays finite. */
#define MAX_TIME_US 1e12      /* 11.6 days per allreduce */
#define MAX_GBPS 1e9          /* 1 EB/s */
#define MAX_BYTES (1ULL << 62)
#define MAX_RANKS (1 << 24)
#define MAX_REPEATS 1000000

enum col {
	C_SCHEMA, C_BACKEND, C_ALGO, C_NRANKS, C_BYTES, C_DTYPE, C_OP, C_IN_PLACE, C_TIME,
	C_ALGBW, C_BUSBW, C_STATUS, /* required, in CB_RES_REQUIRED order */
	C_REPEATS, C_TIME_LO, C_TIME_HI, C_BUSBW_LO, C_BUSBW_HI, C_TIME_MED, C_TMED_LO, C_TMED_HI,
	C_COUNT
};

static const char *const col_names[C_COUNT] = {
	"schema", "backend", "algo", "nranks", "bytes", "dtype", "op", "in_place", "time_us",
	"algbw_GBps", "busbw_GBps", "status", "repeats", "time_us_rep_min", "time_us_rep_max",
	"busbw_GBps_rep_min", "busbw_GBps_rep_max", "time_us_median", "time_us_median_rep_min",
	"time_us_median_rep_max",
};
#define N_REQUIRED (C_STATUS + 1)

/* The reading context of one file: its name, column map and error buffer. */
struct ctx {
	const char *name;
	int col[C_COUNT]; /* -1: absent (optional columns only) */
	char *err;
	size_t errlen;
};

static enum cb_status fail(struct ctx *x, size_t line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static enum cb_status fail(struct ctx *x, size_t line, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (line)
		snprintf(x->err, x->errlen, "%s: line %zu: %s", x->name, line, msg);
	else
		snprintf(x->err, x->errlen, "%s: %s", x->name, msg);
	return CB_ERR_ARG;
}

/* Maps column names to indexes; every required column exactly once. */
static enum cb_status map_columns(struct ctx *x, const struct cb_table *t)
{
	for (int c = 0; c < C_COUNT; c++) {
		x->col[c] = -1;
		for (size_t i = 0; i < t->ncols; i++) {
			if (strcmp(t->header[i], col_names[c]) != 0)
				continue;
			if (x->col[c] >= 0)
				return fail(x, 1, "column '%s' appears twice", col_names[c]);
			x->col[c] = (int)i;
		}
		if (c < N_REQUIRED && x->col[c] < 0)
			return fail(x, 1, "no column '%s': not a collbench summary CSV "
				    "(needs: " CB_RES_REQUIRED ")", col_names[c]);
	}
	return CB_OK;
}

static const char *field(const struct ctx *x, char **row, enum col c)
{
	return x->col[c] >= 0 ? row[x->col[c]] : "";
}

/* A strict decimal: [+-]digits[.digits][(e|E)[+-]digits], fully consumed,
 * finite, within [lo, hi]. Empty: *out = NaN and returns CB_OK only when
 * empty_ok. */
static enum cb_status get_num(struct ctx *x, size_t line, char **row, enum col c, double lo,
			      double hi, int empty_ok, double *out)
{
	const char *s = field(x, row, c);
	char *end;

	*out = NAN;
	if (!*s) {
		if (empty_ok)
			return CB_OK;
		return fail(x, line, "column %s is empty", col_names[c]);
	}
	if (strspn(s, "0123456789+-.eE") != strlen(s))
		return fail(x, line, "column %s: '%.40s' is not a number", col_names[c], s);
	errno = 0;
	*out = strtod(s, &end);
	if (end == s || *end)
		return fail(x, line, "column %s: '%.40s' is not a number", col_names[c], s);
	if (errno == ERANGE || !isfinite(*out) || *out < lo || *out > hi)
		return fail(x, line, "column %s: %.40s is out of range [%g, %g]", col_names[c], s,
			    lo, hi);
	return CB_OK;
}

/* A non-negative integer column (digits only) within [lo, hi]. */
static enum cb_status get_int(struct ctx *x, size_t line, char **row, enum col c,
			      unsigned long long lo, unsigned long long hi,
			      unsigned long long *out)
{
	const char *s = field(x, row, c);
	char *end;

	if (!*s)
		return fail(x, line, "column %s is empty", col_names[c]);
	if (strspn(s, "0123456789") != strlen(s))
		return fail(x, line, "column %s: '%.40s' is not a whole number", col_names[c], s);
	errno = 0;
	*out = strtoull(s, &end, 10);
	if (errno == ERANGE || *end || *out < lo || *out > hi)
		return fail(x, line, "column %s: %.40s is out of range [%llu, %llu]", col_names[c],
			    s, lo, hi);
	return CB_OK;
}

/* A name field: 1..CB_RES_NAME-1 characters of [A-Za-z0-9_.+-]. */
static enum cb_status get_name(struct ctx *x, size_t line, char **row, enum col c, char *dst)
{
	const char *s = field(x, row, c);
	size_t n = strlen(s);

	if (n == 0 || n >= CB_RES_NAME ||
	    strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.+-") != n)
		return fail(x, line, "column %s: '%.40s' is not a valid name", col_names[c], s);
	memcpy(dst, s, n + 1);
	return CB_OK;
}

static enum cb_status get_status(struct ctx *x, size_t line, char **row, struct cb_res_row *r)
{
	const char *s = field(x, row, C_STATUS);

	if (strcmp(s, "ok") == 0)
		r->state = CB_ROW_OK;
	else if (strncmp(s, "skipped:", 8) == 0)
		r->state = CB_ROW_SKIPPED;
	else if (strncmp(s, "error:", 6) == 0)
		r->state = CB_ROW_ERROR;
	else
		return fail(x, line, "status '%.40s' is not ok, skipped:<reason> or error:<reason>",
			    s);
	snprintf(r->status, sizeof(r->status), "%s", s);
	return CB_OK;
}

/* Key, status and the numbers compare uses, of one row. */
static enum cb_status parse_row(struct ctx *x, size_t line, char **row, struct cb_res_row *r)
{
	unsigned long long v;
	enum cb_status st;

	memset(r, 0, sizeof(*r));
	r->line = line;
	if (strcmp(field(x, row, C_SCHEMA), CB_SCHEMA_SUMMARY) != 0)
		return fail(x, line, "schema '%.40s' is not " CB_SCHEMA_SUMMARY
			    " (a different format or version)", field(x, row, C_SCHEMA));
	st = get_name(x, line, row, C_BACKEND, r->backend);
	if (st == CB_OK) st = get_name(x, line, row, C_ALGO, r->algo);
	if (st == CB_OK) st = get_name(x, line, row, C_DTYPE, r->dtype);
	if (st == CB_OK) st = get_name(x, line, row, C_OP, r->op);
	if (st == CB_OK && (st = get_int(x, line, row, C_NRANKS, 1, MAX_RANKS, &v)) == CB_OK)
		r->nranks = (int)v;
	if (st == CB_OK) st = get_int(x, line, row, C_BYTES, 0, MAX_BYTES, &r->bytes);
	if (st == CB_OK && (st = get_int(x, line, row, C_IN_PLACE, 0, 1, &v)) == CB_OK)
		r->in_place = (int)v;
	if (st == CB_OK && x->col[C_REPEATS] >= 0 && *field(x, row, C_REPEATS) &&
	    (st = get_int(x, line, row, C_REPEATS, 1, MAX_REPEATS, &v)) == CB_OK)
		r->repeats = (int)v;
	if (st == CB_OK) st = get_status(x, line, row, r);
	if (st != CB_OK)
		return st;
	st = get_num(x, line, row, C_TIME, 0, MAX_TIME_US, r->state != CB_ROW_OK, &r->time_us);
	if (st == CB_OK)
		st = get_num(x, line, row, C_ALGBW, 0, MAX_GBPS, r->state != CB_ROW_OK, &r->algbw);
	if (st == CB_OK) st = get_num(x, line, row, C_BUSBW, 0, MAX_GBPS, 1, &r->busbw);
	if (st == CB_OK) st = get_num(x, line, row, C_TIME_LO, 0, MAX_TIME_US, 1, &r->time_us_rep_min);
	if (st == CB_OK) st = get_num(x, line, row, C_TIME_HI, 0, MAX_TIME_US, 1, &r->time_us_rep_max);
	if (st == CB_OK) st = get_num(x, line, row, C_BUSBW_LO, 0, MAX_GBPS, 1, &r->busbw_rep_min);
	if (st == CB_OK) st = get_num(x, line, row, C_BUSBW_HI, 0, MAX_GBPS, 1, &r->busbw_rep_max);
	if (st == CB_OK) st = get_num(x, line, row, C_TIME_MED, 0, MAX_TIME_US, 1, &r->time_us_median);
	if (st == CB_OK)
		st = get_num(x, line, row, C_TMED_LO, 0, MAX_TIME_US, 1, &r->time_us_median_rep_min);
	if (st == CB_OK)
		st = get_num(x, line, row, C_TMED_HI, 0, MAX_TIME_US, 1, &r->time_us_median_rep_max);
	return st;
}

int cb_res_key_cmp(const struct cb_res_row *a, const struct cb_res_row *b)
{
	int d = strcmp(a->backend, b->backend);

	if (!d) d = (a->nranks > b->nranks) - (a->nranks < b->nranks);
	if (!d) d = strcmp(a->dtype, b->dtype);
	if (!d) d = strcmp(a->op, b->op);
	if (!d) d = a->in_place - b->in_place;
	if (!d) d = strcmp(a->algo, b->algo);
	if (!d) d = (a->bytes > b->bytes) - (a->bytes < b->bytes);
	return d;
}

static int qsort_cmp(const void *a, const void *b)
{
	int d = cb_res_key_cmp(a, b);
	const struct cb_res_row *x = a, *y = b;

	return d ? d : (x->line > y->line) - (x->line < y->line);
}

/* Sorts the rows by key; two rows with one key are an error. */
static enum cb_status sort_unique(struct ctx *x, struct cb_res_row *rows, size_t n)
{
	qsort(rows, n, sizeof(*rows), qsort_cmp);
	for (size_t i = 1; i < n; i++)
		if (cb_res_key_cmp(&rows[i - 1], &rows[i]) == 0)
			return fail(x, rows[i].line, "same row as line %zu (%s %s np%d %llu B %s %s "
				    "in_place=%d): one input must not hold a row twice",
				    rows[i - 1].line, rows[i].backend, rows[i].algo, rows[i].nranks,
				    rows[i].bytes, rows[i].dtype, rows[i].op, rows[i].in_place);
	return CB_OK;
}

/* Validates a parsed table into res->rows. */
static enum cb_status from_table(const struct cb_table *t, const char *name,
				 struct cb_results *res, char *err, size_t errlen)
{
	struct ctx x = { .name = name, .err = err, .errlen = errlen };
	enum cb_status st = map_columns(&x, t);

	if (st != CB_OK)
		return st;
	res->rows = calloc(t->nrows ? t->nrows : 1, sizeof(*res->rows));
	if (!res->rows) {
		snprintf(err, errlen, "%s: out of memory", name);
		return CB_ERR_NOMEM;
	}
	for (size_t i = 0; i < t->nrows && st == CB_OK; i++)
		st = parse_row(&x, i + 2, t->rows[i], &res->rows[i]);
	if (st == CB_OK)
		st = sort_unique(&x, res->rows, t->nrows);
	if (st != CB_OK) {
		free(res->rows);
		res->rows = NULL;
		return st;
	}
	res->nrows = t->nrows;
	return CB_OK;
}

/* Prefixes a cb_csv message with the file name. */
static void csv_error(const char *name, const char *msg, char *err, size_t errlen)
{
	snprintf(err, errlen, "%s: %s", name, msg);
}

enum cb_status cb_results_parse_csv(const char *buf, size_t len, const char *name,
				    struct cb_results *res, char *err, size_t errlen)
{
	struct cb_table t;
	char msg[256];
	enum cb_status st = cb_table_parse(buf, len, &t, msg, sizeof(msg));

	if (st != CB_OK) {
		csv_error(name, msg, err, errlen);
		return st;
	}
	st = from_table(&t, name, res, err, errlen);
	cb_table_free(&t);
	return st;
}

enum cb_status cb_results_read_csv(const char *path, struct cb_results *res, char *err,
				   size_t errlen)
{
	struct cb_table t;
	char msg[256];
	enum cb_status st = cb_table_read(path, (size_t)256 << 20, &t, msg, sizeof(msg));

	if (st != CB_OK) {
		if (st == CB_ERR_IO && strncmp(msg, "cannot open", 11) == 0)
			snprintf(err, errlen, "%s", msg);
		else
			csv_error(path, msg, err, errlen);
		return st;
	}
	st = from_table(&t, path, res, err, errlen);
	cb_table_free(&t);
	return st;
}

void cb_results_free(struct cb_results *res)
{
	free(res->rows);
	free(res->launches);
	memset(res, 0, sizeof(*res));
}
