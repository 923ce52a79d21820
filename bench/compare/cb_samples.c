/* cb_samples: per-iteration samples and the Mann-Whitney test (contract in
 * cb_samples.h). */
#define _GNU_SOURCE
#include "cb_samples.h"

#include <dirent.h>
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cb_catalog.h"
#include "cb_coll.h"

/* Relative slack between the samples' median and the CSV's: the CSV holds 6
 * significant digits, the JSON 9. */
#define MEDIAN_SLACK 1e-5

/* What was left out, for the note. */
struct tally {
	size_t unmatched, mismatched, few;
	char files[480];
};

static void tally_file(struct tally *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void tally_file(struct tally *t, const char *fmt, ...)
{
	size_t k = strlen(t->files);
	va_list ap;

	if (k + 2 >= sizeof(t->files))
		return;
	if (k)
		t->files[k++] = ';', t->files[k++] = ' ';
	va_start(ap, fmt);
	vsnprintf(t->files + k, sizeof(t->files) - k, fmt, ap);
	va_end(ap);
}

static int dbl_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The string member key of o, or "". */
static const char *str_of(const json_t *o, const char *key)
{
	const char *v = json_string_value(json_object_get(o, key));

	return v ? v : "";
}

/* The row of res with line o's join key, or NULL. */
static const struct cb_res_row *find_row(const struct cb_results *res, const json_t *o)
{
	struct cb_res_row probe;
	struct cb_summary *v = &probe.v;
	const char *tr = json_string_value(json_object_get(o, "transport"));
	const json_t *ip = json_object_get(o, "in_place");

	memset(&probe, 0, sizeof(probe));
	snprintf(v->backend, sizeof(v->backend), "%s", str_of(o, "backend"));
	snprintf(v->algo, sizeof(v->algo), "%s", str_of(o, "algo"));
	snprintf(v->dtype, sizeof(v->dtype), "%s", str_of(o, "dtype"));
	snprintf(v->op, sizeof(v->op), "%s", str_of(o, "op"));
	if (!tr) /* a line of a file before the transport column: a one-host row */
		tr = cb_transport_one_host(v->backend, v->algo);
	snprintf(v->transport, sizeof(v->transport), "%s", tr ? tr : "");
	/* a line of a file before the collective column: allreduce */
	snprintf(v->collective, sizeof(v->collective), "%s",
		 json_is_string(json_object_get(o, "collective")) ? str_of(o, "collective")
								  : cb_coll_get(CB_COLL_ALLREDUCE)->name);
	v->nranks = (int)json_integer_value(json_object_get(o, "nranks"));
	v->bytes = (unsigned long long)json_integer_value(json_object_get(o, "bytes"));
	v->in_place = json_is_true(ip) || json_integer_value(ip) == 1;
	return bsearch(&probe, res->rows, res->nrows, sizeof(*res->rows),
		       (int (*)(const void *, const void *))cb_res_key_cmp);
}

/* Line o's time samples for row r, checked (cb_samples.h), into *out; 0, or
 * -1 (counted in t) when it gives none, -2 out of memory. */
static int take_samples(const json_t *o, const struct cb_res_row *r, struct cb_row_samples *out,
			struct tally *t)
{
	const json_t *a = json_object_get(json_object_get(o, "iterations"), "time_us");
	size_t n = json_array_size(a);
	double *x, *s, mid, want = r->v.time_us_median, sum = 0;
	int ok = n >= CB_SAMPLES_MIN;

	if (!ok) {
		t->few++;
		return -1;
	}
	x = malloc(2 * n * sizeof(double));
	if (!x)
		return -2;
	s = x + n;
	for (size_t i = 0; i < n && ok; i++) {
		x[i] = s[i] = json_number_value(json_array_get(a, i));
		ok = json_is_number(json_array_get(a, i)) && x[i] > 0 && isfinite(x[i]);
		sum += x[i];
	}
	qsort(s, n, sizeof(double), dbl_cmp);
	mid = isnan(want) ? sum / (double)n : n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
	want = isnan(want) ? r->v.time_us : want;
	if (!ok || !(fabs(mid - want) <= MEDIAN_SLACK * want)) {
		free(x);
		t->mismatched++;
		return -1;
	}
	out->t = x; /* the sorted copy behind it goes with it */
	out->n = n;
	return 0;
}

/* The lines of one JSON lines file into out; -1 out of memory, else 0. */
static int read_file(const char *path, const struct cb_results *res, struct cb_samples *out,
		     struct tally *t)
{
	FILE *f = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0, lineno = 0;
	ssize_t len;
	int rc = 0;

	if (!f) {
		tally_file(t, "%s: cannot read", path);
		return 0;
	}
	while (rc == 0 && (len = getline(&line, &cap, f)) > 0) {
		json_error_t jerr;
		json_t *o = json_loadb(line, (size_t)len, 0, &jerr);
		const struct cb_res_row *r = o ? find_row(res, o) : NULL;
		struct cb_row_samples *slot = r ? &out->row[r - res->rows] : NULL;

		lineno++;
		if (!o && strspn(line, " \t\r\n") != (size_t)len) {
			tally_file(t, "%s: line %zu: not JSON", path, lineno);
			break;
		}
		if (o && (!slot || slot->t))
			t->unmatched += !slot;
		else if (o && take_samples(o, r, slot, t) == -2)
			rc = -1;
		json_decref(o);
	}
	free(line);
	fclose(f);
	return rc;
}

static int is_jsonl(const struct dirent *d)
{
	size_t n = strlen(d->d_name);

	return n > 6 && strcmp(d->d_name + n - 6, ".jsonl") == 0;
}

/* Every JSON lines file of res (cb_samples.h: where they are). */
static int read_all(const struct cb_results *res, struct cb_samples *out, struct tally *t)
{
	const char *csv = res->csv, *slash = strrchr(csv, '/');
	const char *base = slash ? slash + 1 : csv;
	size_t k = strlen(csv);
	struct dirent **names;
	char path[CB_RES_PATH + 300];
	int n, rc = 0;

	if (strcmp(base, "summary.csv") != 0) {
		k -= k > 4 && strcmp(csv + k - 4, ".csv") == 0 ? 4 : 0;
		snprintf(path, sizeof(path), "%.*s.jsonl", (int)k, csv);
		return access(path, F_OK) == 0 ? read_file(path, res, out, t) : 0;
	}
	snprintf(path, sizeof(path), "%.*s", slash ? (int)(slash - csv) : 1, slash ? csv : ".");
	n = scandir(path, &names, is_jsonl, alphasort);
	for (int i = 0; i < n; i++) {
		char file[sizeof(path) + 300];

		snprintf(file, sizeof(file), "%s/%s", path, names[i]->d_name);
		if (rc == 0)
			rc = read_file(file, res, out, t);
		free(names[i]);
	}
	if (n > 0)
		free(names);
	return rc;
}

enum cb_status cb_samples_load(const struct cb_results *res, struct cb_samples *out)
{
	struct tally t;

	memset(out, 0, sizeof(*out));
	memset(&t, 0, sizeof(t));
	out->row = calloc(res->nrows + 1, sizeof(*out->row));
	if (!out->row)
		return CB_ERR_NOMEM;
	out->nrows = res->nrows;
	if (read_all(res, out, &t) != 0) {
		cb_samples_free(out);
		return CB_ERR_NOMEM;
	}
	for (size_t i = 0; i < out->nrows; i++)
		out->with += out->row[i].n > 0;
	if (t.mismatched || t.unmatched)
		tally_file(&t, "%zu row(s) whose samples are not the summary's, %zu line(s) of no "
			   "row of it (another run's file, or an edited summary.csv)", t.mismatched,
			   t.unmatched);
	snprintf(out->note, sizeof(out->note), "%s", t.files);
	return CB_OK;
}

void cb_samples_free(struct cb_samples *s)
{
	for (size_t i = 0; s->row && i < s->nrows; i++)
		free(s->row[i].t);
	free(s->row);
	memset(s, 0, sizeof(*s));
}

struct tagged {
	double v;
	int from_x;
};

static int tagged_cmp(const void *a, const void *b)
{
	return dbl_cmp(&((const struct tagged *)a)->v, &((const struct tagged *)b)->v);
}

double cb_mann_whitney_p(const double *x, size_t nx, const double *y, size_t ny)
{
	size_t n = nx + ny;
	struct tagged *a = nx && ny ? malloc(n * sizeof(*a)) : NULL;
	double r1 = 0, ties = 0, u1, var, z;

	if (!a)
		return NAN;
	for (size_t i = 0; i < n; i++)
		a[i] = (struct tagged){ i < nx ? x[i] : y[i - nx], i < nx };
	qsort(a, n, sizeof(*a), tagged_cmp);
	for (size_t i = 0, j; i < n; i = j) {
		double in_x = 0, t;

		for (j = i; j < n && a[j].v == a[i].v; j++)
			in_x += a[j].from_x;
		t = (double)(j - i);
		r1 += in_x * ((double)i + 1 + (double)j) / 2; /* ranks i+1..j: their mean */
		ties += t * t * t - t;
	}
	free(a);
	u1 = r1 - (double)nx * ((double)nx + 1) / 2;
	var = (double)nx * (double)ny / 12 *
	      ((double)n + 1 - ties / ((double)n * ((double)n - 1)));
	if (!(var > 0))
		return 1;
	z = (fabs(u1 - (double)nx * (double)ny / 2) - 0.5) / sqrt(var);
	return erfc(fmax(z, 0) / sqrt(2));
}
