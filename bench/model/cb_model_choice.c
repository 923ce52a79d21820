/* The model's choice per point beside the measured fastest (contract in
 * cb_model_choice.h). */
#include "cb_model_choice.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cb_coll.h"
#include "cb_plan.h"

static int counted(const struct cb_check_row *c)
{
	return c->modelled && c->row->ok && c->row->t > 0 && !c->row->local;
}

/* 1 when x and y were priced from one plan (cb_plan_same), 0 when not or
 * either has none, -1 out of memory. */
static int same_plan(const struct cb_check_row *x, const struct cb_check_row *y)
{
	struct cb_plan p, q;
	enum cb_status st = cb_check_row_plan(x, &p);
	int same = 0;

	if (st == CB_OK) {
		st = cb_check_row_plan(y, &q);
		if (st == CB_OK) {
			same = cb_plan_same(&p, &q);
			cb_plan_free(&q);
		}
		cb_plan_free(&p);
	}
	return st == CB_ERR_NOMEM ? -1 : same;
}

/* The point of rows[first]: every counted row of it (done[] marks them).
 * Returns 0, or -1 out of memory. */
static int one_point(const struct cb_check_row *rows, size_t n, size_t first, char *done,
		     struct cb_choice *c)
{
	int same = 0;
	const struct cb_check_row *best = NULL, *chosen = NULL;
	double *err = malloc((n - first) * sizeof(*err));

	memset(c, 0, sizeof(*c));
	if (!err)
		return -1;
	for (size_t i = first; i < n; i++) {
		const struct cb_check_row *r = &rows[i];

		if (done[i] || !counted(r) || !cb_mrow_same_point(r->row, rows[first].row))
			continue;
		done[i] = 1;
		err[c->candidates++] = fabs(r->err);
		c->oversubscribed |= r->oversubscribed;
		if (!best || r->row->t < best->row->t)
			best = r;
		if (!chosen || r->t_model < chosen->t_model)
			chosen = r;
	}
	c->best = best->row;
	c->chosen = chosen;
	c->regret = chosen->row->t / best->row->t;
	c->latency_bound = 2 * best->t_latency >= best->t_model;
	c->err_median = cb_fit_median(err, (size_t)c->candidates);
	free(err);
	c->agree = 1;
	if (chosen == best)
		c->agree_by = "algorithm";
	else if (isfinite(best->row->t_hi) && chosen->row->t <= best->row->t_hi)
		c->agree_by = "band";
	else if ((same = same_plan(chosen, best)) == 1)
		c->agree_by = "plan";
	else
		c->agree = 0, c->agree_by = "";
	return same < 0 ? -1 : 0;
}

enum cb_status cb_model_choices(const struct cb_check_row *rows, size_t n, struct cb_choice **out,
				size_t *nout)
{
	char *done = calloc(n ? n : 1, 1);
	struct cb_choice *c = calloc(n ? n : 1, sizeof(*c));
	size_t k = 0;

	*out = NULL, *nout = 0;
	if (!done || !c) {
		free(done), free(c);
		return CB_ERR_NOMEM;
	}
	for (size_t i = 0; i < n; i++) {
		if (done[i] || !counted(&rows[i]))
			continue;
		if (one_point(rows, n, i, done, &c[k]) != 0) {
			free(done), free(c);
			return CB_ERR_NOMEM;
		}
		if (c[k].candidates >= 2)
			k++;
	}
	free(done);
	*out = c, *nout = k;
	return CB_OK;
}

/* Adds point c to group g (geometric sums kept in g->regret; errors in e). */
static void add_point(struct cb_regret *g, double *e, const struct cb_choice *c)
{
	g->regret += log(c->regret);
	e[g->points++] = c->err_median;
}

static void close_group(struct cb_regret *g, double *e)
{
	g->regret = g->points ? exp(g->regret / (double)g->points) : NAN;
	g->err_median = cb_fit_median(e, g->points);
}

void cb_choice_summary(const struct cb_choice *c, size_t n, struct cb_regret *all,
		       struct cb_regret *lat, struct cb_regret *bw, struct cb_regret *over)
{
	struct cb_regret *g[4] = { all, lat, bw, over };
	double *e = malloc(4 * (n ? n : 1) * sizeof(*e));

	for (int k = 0; k < 4; k++)
		memset(g[k], 0, sizeof(*g[k]));
	for (size_t i = 0; e && i < n; i++) {
		if (c[i].oversubscribed) {
			add_point(over, e + 3 * n, &c[i]);
			continue;
		}
		add_point(all, e, &c[i]);
		add_point(c[i].latency_bound ? lat : bw, e + (c[i].latency_bound ? 1 : 2) * n, &c[i]);
	}
	for (int k = 0; k < 4; k++)
		if (e)
			close_group(g[k], e + (size_t)k * n);
		else
			g[k]->points = 0, g[k]->regret = g[k]->err_median = NAN;
	free(e);
}

/* One line of the regret of group g. */
static void regret_line(FILE *f, const char *what, const struct cb_regret *g)
{
	if (g->points == 0) {
		fprintf(f, "%s: no point\n", what);
		return;
	}
	fprintf(f, "%s: %zu point(s), regret %.3fx (%.1f%% of the fastest's time lost), the "
		"model's median |error| %.0f%%\n", what, g->points, g->regret,
		100 * (g->regret - 1), 100 * g->err_median);
}

static void regret(FILE *f, const struct cb_choice *c, size_t n)
{
	struct cb_regret all, lat, bw, over;

	cb_choice_summary(c, n, &all, &lat, &bw, &over);
	fprintf(f, "regret: the measured time of the model's choice over the measured fastest's, "
		"geometric mean; error: median over the points of their rows' median |error|\n");
	regret_line(f, "with a CPU per rank (the target)", &all);
	regret_line(f, "  latency-bound (the model's time of the fastest at least half latency)",
		    &lat);
	regret_line(f, "  bandwidth-bound", &bw);
	regret_line(f, "oversubscribed (reported, not targeted)", &over);
}

/* "K of M points (P%)" of the points with oversubscribed <= over. */
static void rate(FILE *f, const struct cb_choice *c, size_t n, int over, const char *what)
{
	size_t m = 0, k = 0;

	for (size_t i = 0; i < n; i++)
		if (c[i].oversubscribed <= over)
			m++, k += c[i].agree;
	if (m)
		fprintf(f, "the model's choice is the measured fastest (or inside its repeats' band, "
			"or its plan) at %zu of %zu points%s (%.0f%%)\n", k, m, what, 100.0 * (double)k / (double)m);
	else
		fprintf(f, "no point%s with two or more modelled algorithms\n", what);
}

/* How many points agreed only because two names ran one plan. */
static void by_plan(FILE *f, const struct cb_choice *c, size_t n)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		k += strcmp(c[i].agree_by, "plan") == 0;
	if (k)
		fprintf(f, "of them %zu by the same plan under another name (agree_by plan: "
			"measured apart, the same moves)\n", k);
}

enum cb_status cb_out_choices(FILE *f, enum cb_mfmt fmt, const struct cb_choice *c, size_t n)
{
	static const char *const head[] = { "backend", "nranks", "bytes", "dtype", "op",
		"in_place", "collective", "algos", "fastest", "time_us", "model_choice", "its_time_us", "agree",
		"agree_by", "note", "regret", "regime" };
	struct cb_mtab t;
	enum cb_status st;

	cb_mtab_init(&t, head, 17);
	for (size_t i = 0; i < n; i++) {
		const struct cb_mrow *b = c[i].best, *m = c[i].chosen->row;

		cb_mtab_point(&t, b);
		cb_mtab_cell(&t, "%s", cb_coll_get((enum cb_coll)b->coll)->name);
		cb_mtab_cell(&t, "%d", c[i].candidates);
		cb_mtab_cell(&t, "%s", b->algo);
		cb_mtab_num(&t, b->t * 1e6, 6);
		cb_mtab_cell(&t, "%s", m->algo);
		cb_mtab_num(&t, m->t * 1e6, 6);
		cb_mtab_cell(&t, "%s", c[i].agree ? "yes" : "no");
		cb_mtab_cell(&t, "%s", c[i].agree_by);
		cb_mtab_cell(&t, "%s", c[i].oversubscribed ? "oversubscribed" : "");
		cb_mtab_num(&t, c[i].regret, 5);
		cb_mtab_cell(&t, "%s", c[i].latency_bound ? "latency" : "bandwidth");
	}
	st = cb_mtab_print(f, fmt, &t);
	cb_mtab_free(&t);
	if (st == CB_OK && fmt != CB_MFMT_CSV) {
		fputc('\n', f);
		regret(f, c, n);
		rate(f, c, n, 1, "");
		rate(f, c, n, 0, " with a CPU per rank");
		by_plan(f, c, n);
		if (ferror(f))
			st = CB_ERR_IO;
	}
	return st;
}
