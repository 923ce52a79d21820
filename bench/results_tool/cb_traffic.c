/* The mpi rows' measured traffic, from Open MPI's monitoring output into a
 * run's results files (contract in cb_traffic.h). */
#define _GNU_SOURCE
#include "cb_traffic.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cb_output.h"
#include "cb_report.h"

#define MAX_RANKS 4096

static enum cb_status refuse(enum cb_status st, char *err, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static enum cb_status refuse(enum cb_status st, char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
	return st;
}

/* 1 when line is a per-peer total torn apart by another process's output:
 * an E or I line that does not read as one, a total whose tag ran into
 * another ("IA2A ... bytes"), or the rest of one with its tag lost (it starts
 * with a blank). Other lines (headers, C, D, O2A, ...) are not totals. */
static int torn(const char *line, int parsed)
{
	int tag = (line[0] == 'E' || line[0] == 'I'), sep = (line[1] == ' ' || line[1] == '\t');

	if (tag && sep)
		return !parsed;
	if (!strstr(line, " bytes") || !strstr(line, "msgs sent"))
		return 0;
	return (tag && line[1] >= 'A' && line[1] <= 'Z') || line[0] == ' ' || line[0] == '\t';
}

/* Adds sign * each per-peer total of path to sent[from * n + to]; *lines
 * counts the monitoring lines seen. */
static enum cb_status add_totals(const char *path, int sign, int n, long double *sent,
				 long *lines, char *err, size_t len)
{
	FILE *f = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0;
	enum cb_status st = CB_OK;

	if (!f)
		return refuse(CB_ERR_IO, err, len, "cannot read %s: %s", path, strerror(errno));
	*lines = 0;
	while (st == CB_OK && getline(&line, &cap, f) > 0) {
		char kind, word[8];
		long from, to;
		unsigned long long b;
		int ok = sscanf(line, "%c %ld %ld %llu %7s", &kind, &from, &to, &b, word) == 5 &&
			 (kind == 'E' || kind == 'I') && strcmp(word, "bytes") == 0 &&
			 (line[1] == ' ' || line[1] == '\t');
		int cut = (int)strcspn(line, "\n");

		if (torn(line, ok))
			st = refuse(CB_ERR_ARG, err, len, "%s: a torn monitoring line (two ranks' "
				    "output ran together; write a file per rank, "
				    "pml_monitoring_enable_output 3): %.*s", path, cut < 60 ? cut : 60, line);
		else if (!ok)
			continue;
		else if (from < 0 || to < 0 || from >= n || to >= n)
			st = refuse(CB_ERR_ARG, err, len, "%s: rank %ld or %ld outside 0..%d", path, from,
				    to, n - 1);
		else
			sent[from * n + to] += (long double)sign * (long double)b;
		(*lines)++;
	}
	free(line);
	fclose(f);
	return st;
}

int cb_traffic_library(const char *algo)
{
	return strcmp(algo, "mpi") == 0 || strncmp(algo, "mpi.", 4) == 0;
}

enum cb_status cb_traffic_measure(const char *algo, int nranks, unsigned long long bytes,
				  long calls, const char *zero, const char *sized, FILE *out,
				  char *err, size_t errlen)
{
	int plain = strcmp(algo, "mpi") == 0;

	long double *sent;
	long seen, unused;
	enum cb_status st;

	if (nranks < 1 || nranks > MAX_RANKS || calls < 1)
		return refuse(CB_ERR_ARG, err, errlen, "nranks (1..%d) and calls must be positive",
			      MAX_RANKS);
	if (!cb_traffic_library(algo) || strlen(algo) >= sizeof(((struct cb_traffic_row *)0)->algo))
		return refuse(CB_ERR_ARG, err, errlen, "%s: not a library algorithm (mpi, mpi.*)",
			      algo);
	sent = calloc((size_t)nranks * (size_t)nranks, sizeof(*sent));
	if (!sent)
		return CB_ERR_NOMEM;
	st = add_totals(zero, -1, nranks, sent, &unused, err, errlen);
	if (st == CB_OK)
		st = add_totals(sized, 1, nranks, sent, &seen, err, errlen);
	if (st == CB_OK && !seen)
		st = refuse(CB_ERR_ARG, err, errlen, "no monitoring lines in %s (Open MPI's pml "
			    "monitoring not active?)", sized);
	for (int r = 0; st == CB_OK && r < nranks; r++) {
		long double tx = 0, rx = 0;

		for (int p = 0; p < nranks && st == CB_OK; p++) {
			if (sent[r * nranks + p] < 0 || sent[p * nranks + r] < 0)
				st = refuse(CB_ERR_ARG, err, errlen, "rank %d sent fewer bytes to rank %d "
					    "at %llu B than at 0 B", sent[r * nranks + p] < 0 ? r : p,
					    sent[r * nranks + p] < 0 ? p : r, bytes);
			tx += sent[r * nranks + p];
			rx += sent[p * nranks + r];
		}
		if (st == CB_OK && fprintf(out, "%d %llu %d %.0Lf %.0Lf %ld%s%s\n", nranks, bytes, r,
					   tx / calls, rx / calls, calls, plain ? "" : " ",
					   plain ? "" : algo) < 0)
			st = refuse(CB_ERR_IO, err, errlen, "write error: %s", strerror(errno));
	}
	free(sent);
	return st;
}

enum cb_status cb_traffic_load(const char *path, struct cb_traffic *t, char *err, size_t errlen)
{
	FILE *f = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0, no = 0;
	enum cb_status st = CB_OK;

	memset(t, 0, sizeof(*t));
	if (!f)
		return refuse(CB_ERR_IO, err, errlen, "cannot read %s: %s", path, strerror(errno));
	while (st == CB_OK && getline(&line, &cap, f) > 0) {
		struct cb_traffic_row r, *grown;
		long calls;
		char end;
		int k;

		no++;
		memset(&r, 0, sizeof(r));
		k = sscanf(line, "%d %llu %d %llu %llu %ld %31s %c", &r.nranks, &r.bytes, &r.rank,
			   &r.tx, &r.rx, &calls, r.algo, &end);
		if (k == 6)
			strcpy(r.algo, "mpi");
		if ((k != 6 && k != 7) || !cb_traffic_library(r.algo) || r.nranks < 1 || r.rank < 0 ||
		    r.rank >= r.nranks) {
			st = refuse(CB_ERR_ARG, err, errlen, "%s:%zu: not 'nranks bytes rank tx rx "
				    "calls [algo]'", path, no);
			break;
		}
		grown = realloc(t->rows, (t->n + 1) * sizeof(*grown));
		if (!grown) {
			st = CB_ERR_NOMEM;
			break;
		}
		t->rows = grown;
		t->rows[t->n++] = r;
	}
	free(line);
	fclose(f);
	if (st != CB_OK)
		cb_traffic_free(t);
	return st;
}

void cb_traffic_free(struct cb_traffic *t)
{
	free(t->rows);
	memset(t, 0, sizeof(*t));
}

/* The row figures of (nranks, bytes): 0 when t has none. */
struct figures {
	unsigned long long tx_total, txrx_max;
	double imbalance;
};

static int figures_of(const struct cb_traffic *t, const char *algo, int nranks,
		      unsigned long long bytes, struct figures *fg)
{
	unsigned long long sum = 0;
	int n = 0;

	memset(fg, 0, sizeof(*fg));
	for (size_t i = 0; i < t->n; i++) {
		const struct cb_traffic_row *r = &t->rows[i];

		if (r->nranks != nranks || r->bytes != bytes || strcmp(r->algo, algo) != 0)
			continue;
		fg->tx_total += r->tx;
		sum += r->tx + r->rx;
		if (r->tx + r->rx > fg->txrx_max)
			fg->txrx_max = r->tx + r->rx;
		n++;
	}
	fg->imbalance = sum > 0 ? (double)fg->txrx_max / ((double)sum / n) : NAN;
	return n > 0;
}

/* The rank's row of (algo, nranks, bytes, rank), or NULL. */
static const struct cb_traffic_row *rank_row(const struct cb_traffic *t, const char *algo,
					     int nranks, unsigned long long bytes, int rank)
{
	for (size_t i = 0; i < t->n; i++)
		if (t->rows[i].nranks == nranks && t->rows[i].bytes == bytes &&
		    t->rows[i].rank == rank && strcmp(t->rows[i].algo, algo) == 0)
			return &t->rows[i];
	return NULL;
}

/* Splits line (its newline removed) at sep into at most max fields. */
static int split(char *line, char sep, char **f, int max)
{
	int n = 0;

	for (char *p = line; n < max;) {
		f[n++] = p;
		p = strchr(p, sep);
		if (!p)
			break;
		*p++ = '\0';
	}
	return n;
}

#define MAX_COLS 96

/* The CSV form: the header's columns, then each row of algorithm mpi. */
struct csv_cols {
	int algo, nranks, bytes, rank, status, tx, rx, tx_total, txrx_max, imbalance;
};

static int col_of(char **h, int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (strcmp(h[i], name) == 0)
			return i;
	return -1;
}

static void csv_header(char *line, struct csv_cols *c)
{
	char *h[MAX_COLS];
	int n = split(line, ',', h, MAX_COLS);

	*c = (struct csv_cols){ col_of(h, n, "algo"), col_of(h, n, "nranks"), col_of(h, n, "bytes"),
				col_of(h, n, "rank"), col_of(h, n, "status"), col_of(h, n, "tx_bytes"),
				col_of(h, n, "rx_bytes"), col_of(h, n, "tx_total_bytes"),
				col_of(h, n, "txrx_max_bytes"), col_of(h, n, "imbalance") };
}

/* One CSV row into out, with the figures where it is a measured mpi row. A
 * quoted field (a reason with a comma) is in no ok row: such rows stay. */
static int csv_row(const struct cb_traffic *t, const struct csv_cols *c, const char *line,
		   FILE *out)
{
	char copy[4096], *f[MAX_COLS], num[3][32];
	const struct cb_traffic_row *r = NULL;
	struct figures fg;
	int n, have = 0;

	if (strchr(line, '"') || strlen(line) >= sizeof(copy) || c->algo < 0 || c->nranks < 0 ||
	    c->bytes < 0)
		return fputs(line, out) == EOF ? -1 : 0;
	strcpy(copy, line);
	copy[strcspn(copy, "\n")] = '\0';
	n = split(copy, ',', f, MAX_COLS);
	if (c->algo >= n || c->nranks >= n || c->bytes >= n || !cb_traffic_library(f[c->algo]))
		return fputs(line, out) == EOF ? -1 : 0;
	have = figures_of(t, f[c->algo], atoi(f[c->nranks]), strtoull(f[c->bytes], NULL, 10), &fg);
	if (have && c->rank >= 0 && c->rank < n && c->tx >= 0 && c->rx >= 0)
		r = rank_row(t, f[c->algo], atoi(f[c->nranks]), strtoull(f[c->bytes], NULL, 10),
			     atoi(f[c->rank]));
	if (r) {
		snprintf(num[0], 32, "%llu", r->tx);
		snprintf(num[1], 32, "%llu", r->rx);
		f[c->tx] = num[0], f[c->rx] = num[1];
	}
	if (have && c->tx_total >= 0 && c->txrx_max >= 0 && c->imbalance >= 0 && c->status >= 0 &&
	    c->status < n && strcmp(f[c->status], "ok") == 0) {
		snprintf(num[0], 32, "%llu", fg.tx_total);
		snprintf(num[1], 32, "%llu", fg.txrx_max);
		snprintf(num[2], 32, isnan(fg.imbalance) ? "" : "%.6g", fg.imbalance);
		f[c->tx_total] = num[0], f[c->txrx_max] = num[1], f[c->imbalance] = num[2];
	}
	for (int i = 0; i < n; i++)
		if (fprintf(out, "%s%s", i ? "," : "", f[i]) < 0)
			return -1;
	return fputc('\n', out) == EOF ? -1 : 0;
}

/* One JSON line (allreduce_perf's JSON Lines, cb_report.c's flags). */
static int json_row(const struct cb_traffic *t, const char *line, FILE *out)
{
	json_t *o = json_loads(line, JSON_DISABLE_EOF_CHECK, NULL);
	const char *algo = json_string_value(json_object_get(o, "algo"));
	const char *status = json_string_value(json_object_get(o, "status"));
	struct figures fg;
	char *text;
	int rc;

	if (!o || !algo || !cb_traffic_library(algo) || !status || strcmp(status, "ok") != 0 ||
	    !figures_of(t, algo, (int)json_integer_value(json_object_get(o, "nranks")),
			(unsigned long long)json_integer_value(json_object_get(o, "bytes")), &fg)) {
		json_decref(o);
		return fputs(line, out) == EOF ? -1 : 0;
	}
	json_object_set_new(o, "tx_total_bytes", json_integer((json_int_t)fg.tx_total));
	json_object_set_new(o, "txrx_max_bytes", json_integer((json_int_t)fg.txrx_max));
	json_object_set_new(o, "imbalance", isnan(fg.imbalance) ? json_null() : json_real(fg.imbalance));
	text = json_dumps(o, JSON_COMPACT | JSON_REAL_PRECISION(9));
	json_decref(o);
	rc = text && fprintf(out, "%s\n", text) >= 0 ? 0 : -1;
	free(text);
	return rc;
}

/* One line of the table (cb_report.h: CB_TABLE_COLS fields of an ok row). */
static int table_row(const struct cb_traffic *t, int nranks, const char *line, FILE *out)
{
	char copy[1024], *f[CB_TABLE_COLS + 1], num[3][32], buf[1024];
	struct figures fg;
	int n = 0;

	if (line[0] == '#' || strlen(line) >= sizeof(copy))
		return fputs(line, out) == EOF ? -1 : 0;
	strcpy(copy, line);
	for (char *p = strtok(copy, " \t\n"); p && n <= CB_TABLE_COLS; p = strtok(NULL, " \t\n"))
		f[n++] = p;
	if (n != CB_TABLE_COLS || !cb_traffic_library(f[0]) || strcmp(f[CB_TABLE_COLS - 1], "ok") ||
	    !figures_of(t, f[0], nranks, strtoull(f[1], NULL, 10), &fg))
		return fputs(line, out) == EOF ? -1 : 0;
	snprintf(num[0], 32, "%llu", fg.tx_total);
	snprintf(num[1], 32, "%llu", fg.txrx_max);
	snprintf(num[2], 32, isnan(fg.imbalance) ? "-" : "%.3f", fg.imbalance);
	f[11] = num[0], f[12] = num[1], f[13] = num[2];
	/* the algo column as wide as the line has it: right-aligned after a space */
	cb_report_table_line(buf, sizeof(buf), (int)(strspn(line, " ") + strlen(f[0])) - 1,
			     (const char *const *)f);
	return fputs(buf, out) == EOF ? -1 : 0;
}

enum cb_form { FORM_CSV, FORM_JSONL, FORM_TABLE };

static int ends_with(const char *s, const char *end)
{
	size_t n = strlen(s), k = strlen(end);

	return n >= k && strcmp(s + n - k, end) == 0;
}

/* Copies in to out line by line, each in the file's form. */
static int rewrite(const struct cb_traffic *t, int nranks, enum cb_form form, FILE *in, FILE *out)
{
	char *line = NULL;
	size_t cap = 0, no = 0;
	struct csv_cols cols = { -1, -1, -1, -1, -1, -1, -1, -1, -1, -1 };
	int rc = 0;

	while (rc == 0 && getline(&line, &cap, in) > 0) {
		if (form == FORM_CSV && no++ == 0) {
			char head[4096];

			snprintf(head, sizeof(head), "%s", line);
			head[strcspn(head, "\r\n")] = '\0';
			csv_header(head, &cols);
			rc = fputs(line, out) == EOF ? -1 : 0;
		} else if (form == FORM_CSV) {
			rc = csv_row(t, &cols, line, out);
		} else {
			rc = form == FORM_JSONL ? json_row(t, line, out) : table_row(t, nranks, line, out);
		}
	}
	free(line);
	return rc == 0 && !ferror(in) ? 0 : -1;
}

enum cb_status cb_traffic_apply(const struct cb_traffic *t, int nranks, const char *path,
				char *err, size_t errlen)
{
	enum cb_form form = ends_with(path, ".csv")     ? FORM_CSV
			    : ends_with(path, ".jsonl") ? FORM_JSONL
							: FORM_TABLE;
	char tmp[4096];
	FILE *in, *out;
	enum cb_status st;
	int ok;

	if (form == FORM_TABLE && !ends_with(path, ".txt"))
		return refuse(CB_ERR_ARG, err, errlen, "%s: not a .csv, .jsonl or .txt file", path);
	in = fopen(path, "r");
	if (!in)
		return refuse(CB_ERR_IO, err, errlen, "cannot read %s: %s", path, strerror(errno));
	st = cb_replace_open(path, tmp, sizeof(tmp), &out, err, errlen);
	if (st != CB_OK) {
		fclose(in);
		return st;
	}
	ok = rewrite(t, nranks, form, in, out) == 0;
	fclose(in);
	return cb_replace_commit(out, tmp, path, ok, err, errlen);
}
