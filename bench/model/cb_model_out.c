/* cb_model_out: result tables of collbench-model (contract in cb_model_out.h). */
#include "cb_model_out.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cb_coll.h"
#include "cb_size.h"

#define GB 1e9
/* the fit table's parameter columns: value, standard error, repeats' fits */
#define BAND "+-se [fast, slow]"
#define BAND_LEGEND "+-se: standard error from the residuals; [fast, slow]: the same fit on " \
	"every row's fastest and on its slowest repeat (-R; left out when both equal the " \
	"value, as with one repeat)"

/* A collective's name (enum cb_coll), "?" past the known ones. */
static const char *coll_name(int c)
{
	const struct cb_coll_desc *d = c >= 0 ? cb_coll_get((enum cb_coll)c) : NULL;

	return d ? d->name : "?";
}

static enum cb_status finish(FILE *f, enum cb_mfmt fmt, struct cb_mtab *t)
{
	enum cb_status st = cb_mtab_print(f, fmt, t);

	cb_mtab_free(t);
	return st;
}

static void size_cell(struct cb_mtab *t, double bytes)
{
	char buf[32];

	if (isinf(bytes)) {
		cb_mtab_cell(t, "%s", "inf");
		return;
	}
	cb_format_size((size_t)bytes, buf, sizeof(buf));
	cb_mtab_cell(t, "%s", buf);
}

/* Whether a and b are the same number to 1e-9 (relative). */
static int same(double a, double b)
{
	return fabs(a - b) <= 1e-9 * fmax(fabs(a), fabs(b));
}

/* "x +-se [fast, slow]" of a value scaled by mul: its standard error (left
 * out when undefined) and the same fit on every row's fastest and slowest
 * repeat (left out when both equal x, as with one repeat). */
static void band_cell(struct cb_mtab *t, double v, double se, const double *rep, double mul)
{
	char sebuf[32] = "", band[64] = "";

	if (isinf(v)) {
		cb_mtab_cell(t, "%s", "free");
		return;
	}
	if (isnan(v)) {
		cb_mtab_cell(t, "%s", "");
		return;
	}
	if (isfinite(se))
		snprintf(sebuf, sizeof(sebuf), " +-%.2g", se * mul);
	if (!isnan(rep[0]) && !(same(rep[0], v) && same(rep[1], v)))
		snprintf(band, sizeof(band), " [%.4g, %.4g]", rep[0] * mul, rep[1] * mul);
	cb_mtab_cell(t, "%.4g%s%s", v * mul, sebuf, band);
}

enum cb_status cb_out_fit(FILE *f, enum cb_mfmt fmt, const struct cb_fit_set *set)
{
	static const char *const head[] = { "backend", "transport", "collective", "algos",
					    "sizes", "rows",
					    "overhead_us " BAND, "alpha_us " BAND,
					    "beta_GBps " BAND, "gamma_GBps " BAND,
					    "fused_GBps " BAND, "fresh_GBps " BAND, "fit_error_pct" };
	struct cb_mtab t;
	enum cb_status st;

	cb_mtab_init(&t, head, 13);
	for (size_t g = 0; g < set->ngroups; g++) {
		const struct cb_fit_group *gr = &set->groups[g];

		for (int k = 0; k < (gr->fitted ? gr->p.ntiers : 1); k++) {
			const struct cb_fit_tier *tr = &gr->p.tier[k];
			char lo[32], hi[32];

			cb_mtab_cell(&t, "%s", gr->backend);
			cb_mtab_cell(&t, "%s", gr->transport);
			cb_mtab_cell(&t, "%s", coll_name(gr->coll));
			if (!gr->fitted) {
				cb_mtab_cell(&t, "%s", "refused");
				for (int c = 0; c < 8; c++)
					cb_mtab_cell(&t, "%s", "");
				cb_mtab_cell(&t, "%s", gr->why);
				continue;
			}
			cb_mtab_cell(&t, "%s", gr->algos);
			cb_format_size((size_t)tr->lo, lo, sizeof(lo));
			if (isinf(tr->hi))
				snprintf(hi, sizeof(hi), "up");
			else
				cb_format_size((size_t)tr->hi, hi, sizeof(hi));
			cb_mtab_cell(&t, "%s..%s", lo, hi);
			cb_mtab_cell(&t, "%zu", tr->nobs);
			band_cell(&t, gr->p.overhead, gr->p.overhead_se, gr->p.overhead_rep, 1e6);
			band_cell(&t, gr->p.alpha, gr->p.alpha_se, gr->p.alpha_rep, 1e6);
			band_cell(&t, tr->beta, tr->beta_se, tr->beta_rep, 1 / GB);
			band_cell(&t, tr->gamma, tr->gamma_se, tr->gamma_rep, 1 / GB);
			band_cell(&t, tr->fused, tr->fused_se, tr->fused_rep, 1 / GB);
			band_cell(&t, gr->p.fresh, gr->p.fresh_se, gr->p.fresh_rep, 1 / GB);
			cb_mtab_cell(&t, "median %.1f, max %.1f", 100 * gr->p.med_abs,
				     100 * gr->p.max_abs);
		}
	}
	st = finish(f, fmt, &t);
	if (st == CB_OK && fmt != CB_MFMT_CSV && fprintf(f, "\n%s\n", BAND_LEGEND) < 0)
		st = CB_ERR_IO;
	return st;
}

enum cb_status cb_out_check(FILE *f, enum cb_mfmt fmt, const struct cb_check_row *rows,
			    size_t n)
{
	static const char *const head[] = { "backend", "transport", "algo", "nranks", "bytes",
		"dtype", "op", "in_place", "collective", "time_us", "time_us_model",
		"error_pct", "bw_GBps", "bw_GBps_model", "rounds_model", "txrx_max_bytes", "far",
		"note" };
	struct cb_mtab t;

	cb_mtab_init(&t, head, 18);
	for (size_t i = 0; i < n; i++) {
		const struct cb_check_row *c = &rows[i];
		const struct cb_mrow *r = c->row;

		if (!r->ok)
			continue;
		cb_mtab_cell(&t, "%s", r->backend);
		cb_mtab_cell(&t, "%s", r->transport);
		cb_mtab_cell(&t, "%s", r->algo);
		cb_mtab_cell(&t, "%d", r->nranks);
		cb_mtab_cell(&t, "%llu", r->bytes);
		cb_mtab_cell(&t, "%s", r->dtype);
		cb_mtab_cell(&t, "%s", r->op);
		cb_mtab_cell(&t, "%d", r->in_place);
		cb_mtab_cell(&t, "%s", coll_name(r->coll));
		cb_mtab_num(&t, r->t * 1e6, 6);
		cb_mtab_num(&t, c->modelled ? c->t_model * 1e6 : NAN, 6);
		if (c->modelled)
			cb_mtab_cell(&t, "%+.1f", 100 * c->err);
		else
			cb_mtab_cell(&t, "%s", "");
		cb_mtab_num(&t, r->t > 0 ? cb_row_busbw(r, r->t) : NAN, 6); /* as measured */
		cb_mtab_num(&t, c->modelled ? c->busbw_model : NAN, 6);
		cb_mtab_num(&t, c->modelled ? c->rounds : NAN, 6);
		cb_mtab_num(&t, r->txrx_max, 15);
		cb_mtab_cell(&t, "%s", c->far ? "far" : "");
		cb_mtab_cell(&t, "%s", c->note);
	}
	return finish(f, fmt, &t);
}

static const struct {
	double lo, hi;
	const char *name;
} ranges[] = {
	{ 0, 4096, "< 4K" }, { 4096, 65536, "4K..64K" }, { 65536, 1 << 20, "64K..1M" },
	{ 1 << 20, 16 << 20, "1M..16M" }, { 16 << 20, INFINITY, ">= 16M" },
	{ 65536, INFINITY, "all >= 64K" },
};
#define NRANGES (sizeof(ranges) / sizeof(ranges[0]))

static int same_group(const struct cb_mrow *a, const struct cb_mrow *b)
{
	return strcmp(a->backend, b->backend) == 0 && strcmp(a->transport, b->transport) == 0 &&
	       a->coll == b->coll && strcmp(a->algo, b->algo) == 0 && a->nranks == b->nranks;
}

/* Adds the summary lines of the group of row g (rows[g] first of its group). */
static void summary_group(struct cb_mtab *t, const struct cb_check_row *rows, size_t n, size_t g,
			  double *e)
{
	for (size_t k = 0; k < NRANGES; k++) {
		size_t m = 0, far = 0;
		int over = 0;

		for (size_t i = g; i < n; i++) {
			const struct cb_mrow *r = rows[i].row;

			if (!rows[i].modelled || !same_group(r, rows[g].row) ||
			    (double)r->bytes < ranges[k].lo || (double)r->bytes >= ranges[k].hi)
				continue;
			e[m++] = fabs(rows[i].err);
			far += rows[i].far;
			over |= strstr(rows[i].note, "oversubscribed") != NULL;
		}
		if (m == 0)
			continue;
		cb_mtab_cell(t, "%s", rows[g].row->backend);
		cb_mtab_cell(t, "%s", rows[g].row->algo);
		cb_mtab_cell(t, "%d", rows[g].row->nranks);
		cb_mtab_cell(t, "%s", coll_name(rows[g].row->coll));
		cb_mtab_cell(t, "%s", ranges[k].name);
		cb_mtab_cell(t, "%zu", m);
		cb_mtab_cell(t, "%.1f", 100 * cb_fit_median(e, m));
		cb_mtab_cell(t, "%.1f", 100 * e[m - 1]);
		cb_mtab_cell(t, "%zu", far);
		cb_mtab_cell(t, "%s", over ? "oversubscribed" : "");
	}
}

enum cb_status cb_out_check_summary(FILE *f, enum cb_mfmt fmt, const struct cb_check_row *rows,
				    size_t n, size_t *far_rows)
{
	static const char *const head[] = { "backend", "algo", "nranks", "collective", "sizes",
					    "rows", "median_abs_error_pct", "max_abs_error_pct",
					    "far", "note" };
	double *e = malloc((n ? n : 1) * sizeof(double));
	struct cb_mtab t;

	*far_rows = 0;
	if (!e)
		return CB_ERR_NOMEM;
	cb_mtab_init(&t, head, 10);
	for (size_t g = 0; g < n; g++) {
		size_t i = 0;

		*far_rows += rows[g].far;
		if (!rows[g].modelled)
			continue;
		while (i < g && !(rows[i].modelled && same_group(rows[i].row, rows[g].row)))
			i++;
		if (i == g) /* first row of its group */
			summary_group(&t, rows, n, g, e);
	}
	free(e);
	return finish(f, fmt, &t);
}

enum cb_status cb_out_predict_coll(FILE *f, enum cb_mfmt fmt, enum cb_coll coll,
				   const struct cb_pcoll_row *rows, size_t n)
{
	static const char *const head[] = { "collective", "nranks", "bytes", "size", "algo",
		"time_us", "fastest", "algbw_GBps", "busbw_GBps", "rank_max_bytes",
		"rank_min_bytes", "host_max_bytes", "host_min_bytes" };
	struct cb_mtab t;

	cb_mtab_init(&t, head, 13);
	for (size_t i = 0; i < n; i++) {
		const struct cb_pcoll_row *r = &rows[i];
		double best = INFINITY;

		for (size_t k = 0; k < n; k++) /* the point's rows are adjacent */
			if (rows[k].n == r->n && rows[k].bytes == r->bytes)
				best = fmin(best, rows[k].t);
		cb_mtab_cell(&t, "%s", cb_coll_get(coll)->name);
		cb_mtab_cell(&t, "%d", r->n);
		cb_mtab_cell(&t, "%.0f", r->bytes);
		size_cell(&t, r->bytes);
		cb_mtab_cell(&t, "%s", r->algo);
		cb_mtab_num(&t, r->t * 1e6, 6);
		cb_mtab_cell(&t, "%s", r->t <= best ? "yes" : "");
		cb_mtab_num(&t, r->bytes / r->t / GB, 5);
		cb_mtab_num(&t, r->bytes / r->t / GB * cb_coll_busbw_factor(coll, r->n), 5);
		cb_mtab_cell(&t, "%.0f", r->rank_max);
		cb_mtab_cell(&t, "%.0f", r->rank_min);
		cb_mtab_cell(&t, "%.0f", r->host_max);
		cb_mtab_cell(&t, "%.0f", r->host_min);
	}
	return finish(f, fmt, &t);
}

enum cb_status cb_out_crossover(FILE *f, enum cb_mfmt fmt, const struct cb_cross_row *rows,
				size_t n)
{
	static const char *const head[] = { "nranks", "crossover_bytes", "size", "first", "second",
		"kind", "meaning" };
	static const char *const kind[] = { "crossing", "second_everywhere", "first_everywhere" };
	struct cb_mtab t;

	cb_mtab_init(&t, head, 7);
	for (size_t i = 0; i < n; i++) {
		cb_mtab_cell(&t, "%d", rows[i].n);
		cb_mtab_cell(&t, "%.0f", rows[i].bytes);
		size_cell(&t, rows[i].bytes);
		cb_mtab_cell(&t, "%s", rows[i].first);
		cb_mtab_cell(&t, "%s", rows[i].second);
		cb_mtab_cell(&t, "%s", kind[rows[i].kind]);
		if (rows[i].kind == 0)
			cb_mtab_cell(&t, "%s is no slower up to this size, %s faster above",
				     rows[i].first, rows[i].second);
		else
			cb_mtab_cell(&t, "%s is %s", rows[i].kind == 1 ? rows[i].second : rows[i].first,
				     rows[i].kind == 1 ? "faster from the smallest size on"
						       : "no slower up to the largest size");
	}
	return finish(f, fmt, &t);
}
