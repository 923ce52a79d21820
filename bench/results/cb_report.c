#define _GNU_SOURCE
#include "cb_report.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cb_text.h"

struct cb_report {
	FILE *csv, *rank_csv, *json, *table;
	const char *path[3]; /* of csv, rank_csv, json: for messages */
	char *created[3];    /* files this run created, removed if it never starts */
	int started;
	int io_error;        /* a write failed (said once, naming the stream) */
};

/* the option of each file, for messages: index 0 csv, 1 rank_csv, 2 json */
static const char *const what[3] = { "--csv ", "--rank-csv ", "--json " };

static const char summary_header[] =
	"schema,backend,algo,nranks,bytes,count,dtype,op,in_place,iters,time_us,"
	"time_us_median,time_us_min,time_us_max,algbw_GBps,busbw_GBps,wrong,"
	"tx_total_bytes,txrx_max_bytes,imbalance,status,"
	"warmup_iters,repeats,time_us_rep_min,time_us_rep_max,"
	"busbw_GBps_rep_min,busbw_GBps_rep_max,minflt_per_iter,"
	"time_us_median_rep_min,time_us_median_rep_max\n";
static const char rank_header[] =
	"schema,backend,algo,nranks,bytes,rank,tx_bytes,rx_bytes,time_us,dtype,op,in_place\n";

/* Opens path for appending, creating it, without truncating: the caller
 * truncates only once every output opened, so a run that fails here leaves
 * an earlier run's files as they were. NULL for no path or an error. */
static FILE *open_one(const char *path, int *failed, char **created)
{
	int existed;
	FILE *f;

	if (!path || !*path)
		return NULL;
	existed = access(path, F_OK) == 0;
	f = fopen(path, "a");
	if (!f) {
		cb_log("cannot write %s: %m", path);
		*failed = 1;
	} else if (!existed) {
		*created = strdup(path);
	}
	return f;
}

static int start_file(FILE *f, const char *header)
{
	if (!f)
		return 0;
	if (ftruncate(fileno(f), 0) != 0 && errno != EINVAL) /* EINVAL: /dev/null, a FIFO */
		return -1;
	if (header && fputs(header, f) == EOF)
		return -1;
	return fflush(f);
}

enum cb_status cb_report_open(struct cb_report **out, const char *csv, const char *rank_csv,
			      const char *json, FILE *table)
{
	struct cb_report *r = calloc(1, sizeof(*r));
	int failed = 0;

	if (!r)
		return CB_ERR_NOMEM;
	r->table = table;
	r->path[0] = csv, r->path[1] = rank_csv, r->path[2] = json;
	r->csv = open_one(csv, &failed, &r->created[0]);
	r->rank_csv = open_one(rank_csv, &failed, &r->created[1]);
	r->json = open_one(json, &failed, &r->created[2]);
	if (failed) {
		cb_report_close(r);
		return CB_ERR_IO;
	}
	*out = r;
	return CB_OK;
}

enum cb_status cb_report_start(struct cb_report *r)
{
	if (start_file(r->csv, summary_header) || start_file(r->rank_csv, rank_header) ||
	    start_file(r->json, NULL)) {
		cb_log("cannot start the results files: %m");
		return CB_ERR_IO;
	}
	r->started = 1;
	return CB_OK;
}

/* A failed write, said once: which stream, and why (errno of the failure). */
static void write_failed(struct cb_report *r, const char *stream, const char *path)
{
	int e = errno;

	if (!r->io_error)
		cb_log("cannot write %s%s: %s; the results there are incomplete", stream,
		       path ? path : "", e ? strerror(e) : "write error");
	r->io_error = 1;
}

/* Writes line (a whole row or more) to the table stream and flushes it. */
static void put_table(struct cb_report *r, const char *line)
{
	if (!r->table)
		return;
	errno = 0;
	if (fputs(line, r->table) == EOF || fflush(r->table) != 0 || ferror(r->table))
		write_failed(r, "the result table on stdout", NULL);
}

#define TABLE_FMT "%6s %12s %12s %8s %6s %4s %11s %11s %8s %8s %7s %12s %12s %6s  %s\n"

enum cb_status cb_report_table_header(struct cb_report *r)
{
	char line[512];
	int k;

	k = snprintf(line, sizeof(line), "#" TABLE_FMT, "algo", "size", "count", "type",
		     "redop", "ip", "time", "median", "algbw", "busbw", "#wrong", "tx_total",
		     "txrx_max", "imbal", "status");
	snprintf(line + k, sizeof(line) - (size_t)k, "#" TABLE_FMT, "", "(B)", "(elements)", "", "",
		 "", "(us)", "(us)", "(GB/s)", "(GB/s)", "", "(B)", "(B)", "", "");
	put_table(r, line);
	return r->io_error ? CB_ERR_IO : CB_OK;
}

/* A number for CSV: "" for NaN (unmeasured), else %.6g. */
static const char *num(char *buf, size_t len, double v)
{
	if (isnan(v))
		buf[0] = '\0';
	else
		snprintf(buf, len, "%.6g", v);
	return buf;
}

static const char *u64_or_empty(char *buf, size_t len, int measured, uint64_t v)
{
	if (!measured)
		buf[0] = '\0';
	else
		snprintf(buf, len, "%llu", (unsigned long long)v);
	return buf;
}

/* Writes a complete line in one call and flushes it; file i of path[]. */
static void put_line(struct cb_report *r, FILE *f, int i, const char *line)
{
	if (!f)
		return;
	errno = 0;
	if (fputs(line, f) == EOF || fflush(f) != 0)
		write_failed(r, what[i], r->path[i]);
}

static void write_summary_csv(struct cb_report *r, const struct cb_row *w)
{
	char line[2048], b[16][32], wrong[32];

	if (!r->csv)
		return;
	if (w->wrong < 0)
		wrong[0] = '\0';
	else
		snprintf(wrong, sizeof(wrong), "%lld", w->wrong);
	/* statuses never hold commas or quotes: reasons are written that way */
	snprintf(line, sizeof(line),
		 "%s,%s,%s,%d,%zu,%zu,%s,%s,%d,%d,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%d,%d,%s,%s,%s,%s,%s,"
		 "%s,%s\n",
		 CB_SCHEMA_SUMMARY, w->backend, w->algo, w->nranks, w->bytes, w->count,
		 cb_dtype_name(w->dt), cb_op_name(w->op), w->in_place, w->iters,
		 num(b[0], 32, w->time_us.mean), num(b[1], 32, w->time_us.median),
		 num(b[2], 32, w->time_us.min), num(b[3], 32, w->time_us.max),
		 num(b[4], 32, w->algbw), num(b[5], 32, w->busbw), wrong,
		 u64_or_empty(b[6], 32, w->traffic_measured, w->tx_total),
		 u64_or_empty(b[7], 32, w->traffic_measured, w->txrx_max),
		 num(b[8], 32, w->imbalance), w->status, w->warmup, w->repeats,
		 num(b[9], 32, w->time_us_rep_min), num(b[10], 32, w->time_us_rep_max),
		 num(b[11], 32, w->busbw_rep_min), num(b[12], 32, w->busbw_rep_max),
		 num(b[13], 32, w->minflt_per_iter), num(b[14], 32, w->time_us_median_rep_min),
		 num(b[15], 32, w->time_us_median_rep_max));
	put_line(r, r->csv, 0, line);
}

static void write_rank_csv(struct cb_report *r, const struct cb_row *w)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m;

	if (!r->rank_csv || !w->rank_time_us)
		return;
	/* all ranks of a row in one buffer: one write, no partial row set */
	m = open_memstream(&buf, &len);
	if (!m) {
		write_failed(r, what[1], r->path[1]);
		return;
	}
	for (int k = 0; k < w->nranks; k++) {
		char tx[32], rx[32], t[32];

		fprintf(m, "%s,%s,%s,%d,%zu,%d,%s,%s,%s,%s,%s,%d\n", CB_SCHEMA_RANK, w->backend,
			w->algo, w->nranks, w->bytes, k,
			u64_or_empty(tx, 32, w->traffic_measured && w->tx, w->tx ? w->tx[k] : 0),
			u64_or_empty(rx, 32, w->traffic_measured && w->rx, w->rx ? w->rx[k] : 0),
			num(t, 32, w->rank_time_us[k]), cb_dtype_name(w->dt), cb_op_name(w->op),
			w->in_place);
	}
	if (fclose(m) != 0)
		write_failed(r, what[1], r->path[1]);
	else
		put_line(r, r->rank_csv, 1, buf);
	free(buf);
}

static json_t *jnum(double v)
{
	return isnan(v) ? json_null() : json_real(v);
}

static void write_json(struct cb_report *r, const struct cb_row *w)
{
	json_t *o;
	char *s;

	if (!r->json)
		return;
	o = json_pack("{s:s,s:s,s:s,s:i,s:I,s:I,s:s,s:s,s:b,s:i,s:o,s:o,s:o,s:o,s:o,s:o,s:s}",
		      "schema", CB_SCHEMA_SUMMARY, "backend", w->backend, "algo", w->algo,
		      "nranks", w->nranks, "bytes", (json_int_t)w->bytes, "count",
		      (json_int_t)w->count, "dtype", cb_dtype_name(w->dt), "op", cb_op_name(w->op),
		      "in_place", w->in_place, "iters", w->iters, "time_us", jnum(w->time_us.mean),
		      "time_us_median", jnum(w->time_us.median), "time_us_min", jnum(w->time_us.min),
		      "time_us_max", jnum(w->time_us.max), "algbw_GBps", jnum(w->algbw),
		      "busbw_GBps", jnum(w->busbw), "status", "");
	if (!o || json_object_set_new(o, "status", cb_json_text(w->status)) != 0) {
		json_decref(o);
		write_failed(r, what[2], r->path[2]);
		return;
	}
	json_object_set_new(o, "wrong", w->wrong < 0 ? json_null() : json_integer(w->wrong));
	json_object_set_new(o, "tx_total_bytes",
			    w->traffic_measured ? json_integer((json_int_t)w->tx_total) : json_null());
	json_object_set_new(o, "txrx_max_bytes",
			    w->traffic_measured ? json_integer((json_int_t)w->txrx_max) : json_null());
	json_object_set_new(o, "imbalance", jnum(w->imbalance));
	json_object_set_new(o, "warmup_iters", json_integer(w->warmup));
	json_object_set_new(o, "repeats", json_integer(w->repeats));
	json_object_set_new(o, "time_us_rep_min", jnum(w->time_us_rep_min));
	json_object_set_new(o, "time_us_rep_max", jnum(w->time_us_rep_max));
	json_object_set_new(o, "busbw_GBps_rep_min", jnum(w->busbw_rep_min));
	json_object_set_new(o, "busbw_GBps_rep_max", jnum(w->busbw_rep_max));
	json_object_set_new(o, "minflt_per_iter", jnum(w->minflt_per_iter));
	json_object_set_new(o, "time_us_median_rep_min", jnum(w->time_us_median_rep_min));
	json_object_set_new(o, "time_us_median_rep_max", jnum(w->time_us_median_rep_max));
	s = json_dumps(o, JSON_COMPACT | JSON_REAL_PRECISION(9));
	json_decref(o);
	if (!s) {
		write_failed(r, what[2], r->path[2]);
		return;
	}
	put_line(r, r->json, 2, s);
	put_line(r, r->json, 2, "\n");
	free(s);
}

/* A bandwidth for the table: "-" when empty, 3 significant digits when tiny. */
static const char *bw(char *buf, double v)
{
	if (isnan(v))
		return "-";
	snprintf(buf, 32, v != 0 && v < 0.01 ? "%.2e" : "%.3f", v);
	return buf;
}

/* A time for the table: "-" when the row was not measured. */
static const char *us(char *buf, double v)
{
	if (isnan(v))
		return "-";
	snprintf(buf, 32, "%.2f", v);
	return buf;
}

static const char *u64_or_dash(char *buf, int measured, uint64_t v)
{
	if (!measured)
		return "-";
	snprintf(buf, 32, "%llu", (unsigned long long)v);
	return buf;
}

/* Every row, measured or not, with its status last: the table holds the
 * same rows as the CSV. */
static void print_table_row(struct cb_report *r, const struct cb_row *w)
{
	char b[10][32], wrong[32], line[1024];

	if (!r->table)
		return;
	if (w->wrong < 0)
		snprintf(wrong, sizeof(wrong), "-");
	else
		snprintf(wrong, sizeof(wrong), "%lld", w->wrong);
	snprintf(b[0], 32, "%zu", w->bytes);
	snprintf(b[1], 32, "%zu", w->count);
	snprintf(b[2], 32, "%d", w->in_place);
	snprintf(line, sizeof(line), " " TABLE_FMT, w->algo, b[0], b[1], cb_dtype_name(w->dt),
		 cb_op_name(w->op), b[2], us(b[3], w->time_us.mean), us(b[4], w->time_us.median),
		 bw(b[5], w->algbw), bw(b[6], w->busbw), wrong,
		 u64_or_dash(b[7], w->traffic_measured, w->tx_total),
		 u64_or_dash(b[8], w->traffic_measured, w->txrx_max),
		 isnan(w->imbalance) ? "-" : (snprintf(b[9], 32, "%.3f", w->imbalance), b[9]),
		 w->status);
	put_table(r, line);
}

enum cb_status cb_report_row(struct cb_report *r, const struct cb_row *w)
{
	write_summary_csv(r, w);
	write_rank_csv(r, w);
	write_json(r, w);
	print_table_row(r, w);
	return r->io_error ? CB_ERR_IO : CB_OK;
}

enum cb_status cb_report_close(struct cb_report *r)
{
	int err;

	if (!r)
		return CB_OK;
	for (int i = 0; i < 3; i++) {
		FILE *f = i == 0 ? r->csv : i == 1 ? r->rank_csv : r->json;

		errno = 0;
		if (f && fclose(f) != 0 && r->started)
			write_failed(r, what[i], r->path[i]);
	}
	err = r->io_error;
	for (int i = 0; i < 3; i++) {
		if (r->created[i] && !r->started)
			unlink(r->created[i]); /* a run that never started leaves no empty file */
		free(r->created[i]);
	}
	free(r);
	return err ? CB_ERR_IO : CB_OK;
}
