/* cb_report: the results files and the table on stdout (contract in
 * cb_report.h); the files' lines come from the schema table. */
#define _GNU_SOURCE
#include "cb_report.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cb_coll.h"
#include "cb_nct.h"
#include "cb_report_modes.h"
#include "cb_straggler.h"

struct cb_report {
	FILE *csv, *rank_csv, *json, *table;
	const char *path[3]; /* of csv, rank_csv, json: for messages */
	char *created[3];    /* files this run created, removed if it never starts */
	int started;
	int io_error;        /* a write failed (said once, naming the stream) */
	int algo_width;      /* the table's algo column */
	struct cb_nct *nct;  /* rows kept for nccl-tests' footer; NULL: none */
	int both;            /* the table has both modes on each line (cb_report_modes.h) */
	int pending;         /* oop holds an out-of-place row awaiting its in-place one */
	struct cb_summary oop;
};

/* the option of each file, for messages: index 0 csv, 1 rank_csv, 2 json */
static const char *const what[3] = { "--csv ", "--rank-csv ", "--json " };

/* A CSV line of either schema fits (checked by cb_schema_csv_*) */
#define CB_LINE_MAX 2048

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

/* Empties f and writes the header of schema s (none for NULL: JSON Lines). */
static int start_file(FILE *f, const struct cb_schema *s)
{
	char header[CB_LINE_MAX];

	if (!f)
		return 0;
	if (ftruncate(fileno(f), 0) != 0 && errno != EINVAL) /* EINVAL: /dev/null, a FIFO */
		return -1;
	if (s && (cb_schema_csv_header(s, header, sizeof(header)) < 0 || fputs(header, f) == EOF))
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
	r->algo_width = CB_TABLE_ALGO_WIDTH;
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
	if (start_file(r->csv, &cb_schema_summary) || start_file(r->rank_csv, &cb_schema_rank) ||
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

#define TABLE_FMT "%*s %12s %12s %8s %6s %4s %11s %11s %8s %8s %7s %12s %12s %6s  %s\n"

void cb_report_set_algo_width(struct cb_report *r, int width)
{
	r->algo_width = width > CB_TABLE_ALGO_WIDTH ? width : CB_TABLE_ALGO_WIDTH;
}

enum cb_status cb_report_table_header(struct cb_report *r)
{
	char line[1024];
	int k;

	if (r->both) {
		cb_report_modes_header(line, sizeof(line), r->algo_width);
		put_table(r, line);
		return r->io_error ? CB_ERR_IO : CB_OK;
	}
	k = snprintf(line, sizeof(line), "#" TABLE_FMT, r->algo_width, "algo", "size", "count", "type",
		     "redop", "ip", "time", "median", "algbw", "busbw", "#wrong", "tx_total",
		     "txrx_max", "imbal", "status");
	snprintf(line + k, sizeof(line) - (size_t)k, "#" TABLE_FMT, r->algo_width, "", "(B)", "(elements)", "", "",
		 "", "(us)", "(us)", "(GB/s)", "(GB/s)", "", "(B)", "(B)", "", "");
	put_table(r, line);
	return r->io_error ? CB_ERR_IO : CB_OK;
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

static void write_summary_csv(struct cb_report *r, const struct cb_summary *s)
{
	char line[CB_LINE_MAX];

	if (!r->csv)
		return;
	if (cb_schema_csv_row(&cb_schema_summary, s, line, sizeof(line)) < 0)
		write_failed(r, what[0], r->path[0]);
	else
		put_line(r, r->csv, 0, line);
}

/* Rank k's record of summary row s. */
static void rank_record(const struct cb_summary *s, const struct cb_rank_values *v, int k,
			struct cb_rank_rec *out)
{
	memcpy(out->backend, s->backend, sizeof(out->backend));
	memcpy(out->algo, s->algo, sizeof(out->algo));
	out->nranks = s->nranks;
	out->bytes = s->bytes;
	out->rank = k;
	out->tx = v->tx ? v->tx[k] : CB_NO_U64;
	out->rx = v->rx ? v->rx[k] : CB_NO_U64;
	out->time_us = v->time_us[k];
	memcpy(out->dtype, s->dtype, sizeof(out->dtype));
	memcpy(out->op, s->op, sizeof(out->op));
	out->in_place = s->in_place;
	memcpy(out->transport, s->transport, sizeof(out->transport));
	out->host = v->host ? v->host[k] : CB_NO_INT;
	out->busy_us = v->busy_us ? v->busy_us[k] : NAN;
	out->wait_us = v->wait_us ? v->wait_us[k] : NAN;
	out->barrier_us = v->barrier_us ? v->barrier_us[k] : NAN;
	out->busy_cpu_us = v->busy_cpu_us ? v->busy_cpu_us[k] : NAN;
	memcpy(out->collective, s->collective, sizeof(out->collective));
	out->hw_tx = v->hw_tx ? v->hw_tx[k] : CB_NO_U64;
	out->hw_rx = v->hw_rx ? v->hw_rx[k] : CB_NO_U64;
}

static void write_rank_csv(struct cb_report *r, const struct cb_summary *s,
			   const struct cb_rank_values *v)
{
	char *buf = NULL, line[CB_LINE_MAX];
	size_t len = 0;
	FILE *m;

	if (!r->rank_csv || !v)
		return;
	/* all ranks of a row in one buffer: one write, no partial row set */
	m = open_memstream(&buf, &len);
	if (!m) {
		write_failed(r, what[1], r->path[1]);
		return;
	}
	for (int k = 0; k < s->nranks; k++) {
		struct cb_rank_rec rec;

		rank_record(s, v, k, &rec);
		if (cb_schema_csv_row(&cb_schema_rank, &rec, line, sizeof(line)) > 0)
			fputs(line, m);
	}
	if (fclose(m) != 0)
		write_failed(r, what[1], r->path[1]);
	else
		put_line(r, r->rank_csv, 1, buf);
	free(buf);
}

/* n doubles as a JSON array (NaN: null); NULL: null. */
static json_t *reals(const double *x, int n)
{
	json_t *a;

	if (!x)
		return json_null();
	a = json_array();
	for (int i = 0; a && i < n; i++)
		json_array_append_new(a, isnan(x[i]) ? json_null() : json_real(x[i]));
	return a;
}

/* The "iterations" object of a JSON line (cb_report.h). NULL: no memory. */
static json_t *iterations(const struct cb_iter_values *it)
{
	json_t *o = json_object(), *ranks = json_array(), *slow = json_array();
	size_t k = (size_t)it->k, w = (size_t)it->warmup;

	for (int i = 0; slow && i < it->k; i++)
		json_array_append_new(slow, json_integer(it->slowest[i]));
	for (int r = 0; ranks && r < it->nranks; r++)
		json_array_append_new(
			ranks, json_pack("{s:o,s:o,s:o,s:o}", "time_us",
					 reals(it->rank_time_us + r * k, it->k), "warmup_us",
					 reals(it->rank_warmup_us + r * w, it->warmup), "busy_us",
					 reals(it->rank_busy_us ? it->rank_busy_us + r * k : NULL, it->k),
					 "wait_us",
					 reals(it->rank_wait_us ? it->rank_wait_us + r * k : NULL, it->k)));
	if (!o || !ranks || !slow) {
		json_decref(o);
		json_decref(ranks);
		json_decref(slow);
		return NULL;
	}
	json_object_set_new(o, "time_us", reals(it->time_us, it->k));
	json_object_set_new(o, "warmup_us", reals(it->warmup_us, it->warmup));
	json_object_set_new(o, "slowest_rank", slow);
	json_object_set_new(o, "ranks", ranks);
	return o;
}

static void write_json(struct cb_report *r, const struct cb_summary *s,
		       const struct cb_rank_values *v)
{
	json_t *o;
	char *text;

	if (!r->json)
		return;
	o = cb_schema_json(&cb_schema_summary, s);
	if (o && v && v->iters && json_object_set_new(o, "iterations", iterations(v->iters)))
		json_decref(o), o = NULL;
	text = o ? json_dumps(o, JSON_COMPACT | JSON_REAL_PRECISION(9)) : NULL;
	json_decref(o);
	if (!text) {
		write_failed(r, what[2], r->path[2]);
		return;
	}
	put_line(r, r->json, 2, text);
	put_line(r, r->json, 2, "\n");
	free(text);
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

/* A count for the table: "-" when empty. */
static const char *u64_or_dash(char *buf, unsigned long long v)
{
	if (v == CB_NO_U64)
		return "-";
	snprintf(buf, 32, "%llu", v);
	return buf;
}

void cb_report_table_line(char *buf, size_t len, int algo_width,
			  const char *const f[CB_TABLE_COLS])
{
	snprintf(buf, len, " " TABLE_FMT, algo_width, f[0], f[1], f[2], f[3], f[4], f[5], f[6], f[7], f[8],
		 f[9], f[10], f[11], f[12], f[13], f[14]);
}

/* Every row, measured or not, with its status last: the table holds the
 * same rows as the CSV. */
static void print_table_row(struct cb_report *r, const struct cb_summary *s)
{
	char b[11][32], line[1024], status[CB_REASON_MAX + 16];
	const char *f[CB_TABLE_COLS];

	if (!r->table)
		return;
	snprintf(b[0], 32, "%llu", s->bytes);
	snprintf(b[1], 32, "%llu", s->count);
	snprintf(b[2], 32, "%d", s->in_place);
	cb_row_status_format(&s->status, status, sizeof(status));
	f[0] = s->algo, f[1] = b[0], f[2] = b[1], f[3] = s->dtype, f[4] = s->op, f[5] = b[2];
	f[6] = us(b[3], s->time_us), f[7] = us(b[4], s->time_us_median);
	f[8] = bw(b[5], s->algbw), f[9] = bw(b[6], s->busbw), f[10] = u64_or_dash(b[7], s->wrong);
	f[11] = u64_or_dash(b[8], s->tx_total), f[12] = u64_or_dash(b[9], s->txrx_max);
	f[13] = isnan(s->imbalance) ? "-" : (snprintf(b[10], 32, "%.3f", s->imbalance), b[10]);
	f[14] = status;
	cb_report_table_line(line, sizeof(line), r->algo_width, f);
	put_table(r, line);
}

/* The row's note: who was slowest and by how much, where the share and the
 * ratio name a straggler (cb_straggler.h); the CSV and JSON keep the figures
 * of every row. */
static void print_straggler(struct cb_report *r, const struct cb_summary *s)
{
	char line[256];

	if (!r->table || !s || !cb_straggler_row_named(s))
		return;
	snprintf(line, sizeof(line),
		 "#  ^ straggler%s: rank %d, slowest in %.0f%% of iterations, %.2fx the others' "
		 "mean time not waiting\n",
		 !r->both ? "" : s->in_place ? " (in-place)" : " (out-of-place)",
		 s->straggler_rank, 100 * s->straggler_share, s->straggler_ratio);
	put_table(r, line);
}

/* An nccl row's note: what NCCL chose for its timed calls (as rccl-tests'
 * -A names the algorithm and protocol of each size), or why that is unknown. */
static void print_nccl_choice(struct cb_report *r, const struct cb_summary *s)
{
	char line[320];
	const char *mode;

	if (!r->table || !s || !s->nccl_note[0])
		return;
	mode = !r->both ? "" : s->in_place ? " (in-place)" : " (out-of-place)";
	if (!s->nccl_algo[0]) /* "#  ^ nccl choice at 8 B: unknown: <why>" */
		snprintf(line, sizeof(line), "#  ^ %s choice at %llu B%s: %s\n", s->algo, s->bytes,
			 mode, s->nccl_note);
	else /* "#  ^ nccl chose Ring/LL/1ch at 8 B" */
		snprintf(line, sizeof(line), "#  ^ %s chose %s at %llu B%s\n", s->algo, s->nccl_note,
			 s->bytes, mode);
	put_table(r, line);
}

/* Both modes on a line: the line of oop (or NULL) and ip (or NULL), and
 * their straggler notes. */
static void print_pair(struct cb_report *r, const struct cb_summary *oop,
		       const struct cb_summary *ip)
{
	char line[1024];

	if (!r->table)
		return;
	cb_report_modes_line(line, sizeof(line), r->algo_width, oop, ip);
	put_table(r, line);
	print_straggler(r, oop);
	print_straggler(r, ip);
	print_nccl_choice(r, oop);
	print_nccl_choice(r, ip);
}

/* Both modes on a line: an out-of-place row waits for its in-place one (the
 * harness measures them back to back); a row without its pair prints alone. */
static void table_both(struct cb_report *r, const struct cb_summary *s)
{
	if (r->pending && (!s || !cb_report_modes_pair(&r->oop, s)))
		print_pair(r, &r->oop, NULL), r->pending = 0;
	if (!s)
		return;
	if (!s->in_place) {
		r->oop = *s, r->pending = 1;
		return;
	}
	print_pair(r, r->pending ? &r->oop : NULL, s);
	r->pending = 0;
}

void cb_report_set_modes(struct cb_report *r, int both)
{
	r->both = both;
}

enum cb_status cb_report_row(struct cb_report *r, const struct cb_summary *row,
			     const struct cb_rank_values *ranks)
{
	struct cb_summary copy = *row, *s = &copy;

	/* a row of a runtime that names no collective ran allreduce: every row
	 * written is a valid row of the schema */
	if (!s->collective[0])
		snprintf(s->collective, sizeof(s->collective), "%s",
			 cb_coll_get(CB_COLL_ALLREDUCE)->name);
	write_summary_csv(r, s);
	write_rank_csv(r, s, ranks);
	write_json(r, s, ranks);
	if (r->both) {
		table_both(r, s);
	} else {
		print_table_row(r, s);
		print_straggler(r, s);
		print_nccl_choice(r, s);
	}
	if (r->nct && ranks && ranks->iters)
		cb_nct_add(r->nct, s, ranks->iters->time_us, ranks->iters->k,
			   ranks->iters->rank_time_us, ranks->iters->nranks);
	else if (r->nct)
		cb_nct_add(r->nct, s, NULL, 0, NULL, 0);
	return r->io_error ? CB_ERR_IO : CB_OK;
}

void cb_report_set_nct(struct cb_report *r, struct cb_nct *t)
{
	r->nct = t;
}

enum cb_status cb_report_close(struct cb_report *r)
{
	int err;

	if (!r)
		return CB_OK;
	if (r->both)
		table_both(r, NULL); /* an out-of-place row whose pair never came */
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
