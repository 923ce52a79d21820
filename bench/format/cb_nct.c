/* cb_nct: the rows kept per algorithm and nccl-tests' footer (contract in
 * cb_nct.h). */
#include "cb_nct.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cb_status.h"

/* nccl-tests' slack: a run fails NCCL_TESTS_MIN_BW below 0.9 x its value
 * (source: nccl-tests 2.19 src/common.cu, run(): bw < check_avg_bw*(0.9)) */
#define CB_NCT_MIN_BW_SLACK 0.9

static void nomem(struct cb_nct *t)
{
	if (!t->nomem)
		cb_log("out of memory: the footer and -J leave rows out");
	t->nomem = 1;
}

static struct cb_nct_algo *algo_of(struct cb_nct *t, const struct cb_summary *s)
{
	struct cb_nct_algo *a;

	for (size_t i = 0; i < t->n; i++)
		if (strcmp(t->a[i].name, s->algo) == 0)
			return &t->a[i];
	if (t->n == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 8;
		struct cb_nct_algo *p = realloc(t->a, cap * sizeof(*p));

		if (!p)
			return NULL;
		t->a = p, t->cap = cap;
	}
	a = &t->a[t->n++];
	memset(a, 0, sizeof(*a));
	memcpy(a->name, s->algo, sizeof(a->name));
	a->library = strcmp(s->transport, "library") == 0;
	return a;
}

/* The entry of s's line whose mode m is still empty (the last such, so a
 * size run again starts a new line), or a new one; NULL: no memory. */
static struct cb_nct_entry *entry_of(struct cb_nct_algo *a, const struct cb_summary *s, int m)
{
	struct cb_nct_entry *e;

	for (size_t i = a->n; i-- > 0;) {
		e = &a->e[i];
		if (e->bytes == s->bytes && e->count == s->count && !strcmp(e->dtype, s->dtype) &&
		    !strcmp(e->op, s->op))
			return e->mode[m].have ? NULL : e;
	}
	return NULL;
}

static struct cb_nct_entry *new_entry(struct cb_nct_algo *a, const struct cb_summary *s)
{
	struct cb_nct_entry *e;

	if (a->n == a->cap) {
		size_t cap = a->cap ? 2 * a->cap : 16;
		struct cb_nct_entry *p = realloc(a->e, cap * sizeof(*p));

		if (!p)
			return NULL;
		a->e = p, a->cap = cap;
	}
	e = &a->e[a->n++];
	memset(e, 0, sizeof(*e));
	e->bytes = s->bytes, e->count = s->count;
	memcpy(e->dtype, s->dtype, sizeof(e->dtype));
	memcpy(e->op, s->op, sizeof(e->op));
	return e;
}

/* Copies the iterations into d; 0, or -1 out of memory (d keeps none). */
static int keep_iters(struct cb_nct_mode *d, const double *iter_us, int k, const double *rank_us,
		      int nranks)
{
	if (!iter_us || k <= 0)
		return 0;
	d->iter_us = malloc((size_t)k * sizeof(double));
	d->rank_us = rank_us && nranks > 0 ? malloc((size_t)nranks * k * sizeof(double)) : NULL;
	if (!d->iter_us || (rank_us && nranks > 0 && !d->rank_us)) {
		free(d->iter_us), free(d->rank_us);
		d->iter_us = d->rank_us = NULL;
		return -1;
	}
	memcpy(d->iter_us, iter_us, (size_t)k * sizeof(double));
	if (d->rank_us)
		memcpy(d->rank_us, rank_us, (size_t)nranks * k * sizeof(double));
	d->k = k, d->nranks = d->rank_us ? nranks : 0;
	return 0;
}

void cb_nct_add(struct cb_nct *t, const struct cb_summary *s, const double *iter_us, int k,
		const double *rank_us, int nranks)
{
	struct cb_nct_algo *a = algo_of(t, s);
	int m = s->in_place ? 1 : 0;
	struct cb_nct_entry *e;
	struct cb_nct_mode *d;

	if (!a)
		return nomem(t);
	e = entry_of(a, s, m);
	if (!e && !(e = new_entry(a, s)))
		return nomem(t);
	d = &e->mode[m];
	/* a mode the algorithm cannot run (skipped) is null, as a mode not run */
	d->have = s->status.state != CB_ROW_SKIPPED;
	d->time_us = s->time_us, d->algbw = s->algbw, d->busbw = s->busbw;
	d->wrong = s->wrong, d->iters = s->iters;
	if (keep_iters(d, iter_us, k, rank_us, nranks) != 0)
		nomem(t);
	if (s->wrong != CB_NO_U64)
		a->wrong += s->wrong;
	if (cb_row_state_failed(s->status.state))
		a->failed++;
	/* nccl-tests adds a row's busbw whether or not its check passed */
	if ((s->status.state == CB_ROW_OK || s->status.state == CB_ROW_WRONG) && !isnan(s->busbw))
		a->busbw_sum += s->busbw, a->nbw++;
}

double cb_nct_avg_busbw(const struct cb_nct_algo *a)
{
	return a->nbw ? a->busbw_sum / a->nbw : NAN;
}

/* The first algorithm of t of kind k (0: a library's plain call, 1: a
 * library one, 2: any) with a measured row (measured 0: with or without). */
static const struct cb_nct_algo *first_of(const struct cb_nct *t, int k, int measured)
{
	for (size_t i = 0; i < t->n; i++) {
		const struct cb_nct_algo *a = &t->a[i];

		if ((k == 0 && (!a->library || strchr(a->name, '.'))) || (k == 1 && !a->library))
			continue;
		if (!measured || a->nbw)
			return a;
	}
	return NULL;
}

const struct cb_nct_algo *cb_nct_reference(const struct cb_nct *t)
{
	const struct cb_nct_algo *a = NULL;

	for (int measured = 1; measured >= 0 && !a; measured--)
		for (int k = 0; k < 3 && !a; k++)
			a = first_of(t, k, measured);
	return a;
}

/* What the footer says of the reference: the library's, or why not. */
static const char *reference_why(const struct cb_nct *t, const struct cb_nct_algo *ref)
{
	if (ref->library)
		return " (the library's)";
	return first_of(t, 1, 0) ? " (the library's rows measured nothing: skipped or failed)"
				 : " (no library algorithm ran)";
}

int cb_nct_gate_ok(const struct cb_nct_algo *a, double min_bw)
{
	double bw = cb_nct_avg_busbw(a);

	if (min_bw < 0)
		return 1;
	return !isnan(bw) && bw >= min_bw * CB_NCT_MIN_BW_SLACK;
}

/* nccl-tests' OK|FAILED of the out-of-bounds line; collbench also says
 * FAILED for a row that failed without a count (an error). */
static const char *oob_word(const struct cb_nct_algo *a)
{
	return a->wrong || a->failed ? "FAILED" : "OK";
}

static const char *gate_word(const struct cb_nct_algo *a, double min_bw)
{
	return min_bw < 0 ? "" : cb_nct_gate_ok(a, min_bw) ? "OK" : "FAILED";
}

int cb_nct_footer(FILE *f, const struct cb_nct *t, double min_bw, const char *prog)
{
	const struct cb_nct_algo *ref = cb_nct_reference(t);
	int w = 4;

	for (size_t i = 0; i < t->n; i++)
		w = (int)strlen(t->a[i].name) > w ? (int)strlen(t->a[i].name) : w;
	fprintf(f, "#\n# per algorithm: #wrong summed, mean busbw over its measured rows\n");
	for (size_t i = 0; i < t->n; i++) {
		const struct cb_nct_algo *a = &t->a[i];
		char bw[32] = "-";

		if (a->nbw)
			snprintf(bw, sizeof(bw), "%g", cb_nct_avg_busbw(a));
		fprintf(f, "#  %-*s : #wrong %llu %s, avg busbw %s GB/s over %d rows%s%s\n", w,
			a->name, a->wrong, oob_word(a), bw, a->nbw,
			min_bw < 0 ? "" : ", NCCL_TESTS_MIN_BW ", gate_word(a, min_bw));
	}
	if (ref) {
		fprintf(f, "# nccl-tests' summary, of algorithm %s%s:\n", ref->name,
			reference_why(t, ref));
		fprintf(f, "# %-20s : %llu %s\n", "Out of bounds values", ref->wrong, oob_word(ref));
		fprintf(f, "# %-20s : %g %s\n", "Avg bus bandwidth", cb_nct_avg_busbw(ref),
			gate_word(ref, min_bw));
	}
	fprintf(f, "#\n# Collective test concluded: %s\n#\n", prog);
	return fflush(f) != 0 || ferror(f) ? -1 : 0;
}

int cb_nct_parse_min_bw(const char *text, double *min_bw, char *err, size_t len)
{
	char *end;
	double v;

	*min_bw = -1;
	if (!text || !*text)
		return 0;
	errno = 0;
	v = strtod(text, &end);
	if (errno || end == text || *end || !isfinite(v) || v < 0) {
		snprintf(err, len, "NCCL_TESTS_MIN_BW='%.40s': not a bandwidth in GB/s (a number >= 0)",
			 text);
		return -1;
	}
	*min_bw = v;
	return 0;
}

void cb_nct_free(struct cb_nct *t)
{
	for (size_t i = 0; i < t->n; i++) {
		for (size_t j = 0; j < t->a[i].n; j++)
			for (int m = 0; m < 2; m++)
				free(t->a[i].e[j].mode[m].iter_us), free(t->a[i].e[j].mode[m].rank_us);
		free(t->a[i].e);
	}
	free(t->a);
	memset(t, 0, sizeof(*t));
}
