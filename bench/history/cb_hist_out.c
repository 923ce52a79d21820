/* cb_hist_out: trend and change-point output (contract in cb_hist_out.h). */
#define _GNU_SOURCE
#include "cb_hist_out.h"

#include <csv.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cb_coll.h"

const char *cb_hist_fmt_name(enum cb_hist_fmt f)
{
	static const char *const names[] = { "table", "csv", "markdown", "tsv" };

	return f <= CB_HIST_FMT_TSV ? names[f] : "?";
}

/* "%.4g", or "" (CSV, TSV) / "-" (table, markdown) for NaN. */
static const char *num(char *buf, size_t len, double v, enum cb_hist_fmt fmt)
{
	if (isnan(v))
		snprintf(buf, len, "%s", fmt == CB_HIST_FMT_CSV || fmt == CB_HIST_FMT_TSV ? "" : "-");
	else
		snprintf(buf, len, fmt == CB_HIST_FMT_TSV ? "%.9g" : "%.4g", v);
	return buf;
}

static void csv_str(FILE *f, const char *s, int last)
{
	csv_fwrite(f, s, strlen(s));
	fputc(last ? '\n' : ',', f);
}

static void csv_key(FILE *f, const struct cb_hist_key *k)
{
	const struct cb_summary *x = &k->row.v;

	fprintf(f, "%s,%s,%d,%llu,%s,%s,%d,%s,%s,", x->backend, x->algo, x->nranks, x->bytes,
		x->dtype, x->op, x->in_place, k->transport,
		x->collective[0] ? x->collective : cb_coll_get(CB_COLL_ALLREDUCE)->name);
}

#define CSV_KEY "backend,algo,nranks,bytes,dtype,op,in_place,transport,collective"

/* The last CSV column: the series' library configuration, "NAME=VALUE ..."
 * ("" for none), then the line's end. */
static void csv_libconf(FILE *f, const struct cb_hist_key *k)
{
	char conf[CB_LIBCONF_MAX];

	cb_libconf_line(k->libconf, conf, sizeof(conf));
	csv_str(f, conf, 1);
}

void cb_hist_coincides(const struct cb_hist_change *c, char *buf, size_t len)
{
	size_t k = 0;

	buf[0] = '\0';
	if (c->commit_changed)
		k += (size_t)snprintf(buf, len, "commit %s -> %s", c->prev->git_commit,
				      c->at->git_commit);
	if (c->versions_changed && k < len)
		snprintf(buf + k, len - k, "%sversions %s -> %s", k ? "; " : "", c->prev->versions,
			 c->at->versions);
	if (!buf[0])
		snprintf(buf, len, "no commit or version change");
}

/* The change starting at point i of a, or NULL; *mean is the mean of the
 * segment holding point i. */
static const struct cb_hist_change *at_point(const struct cb_hist_analysis *a, size_t i,
					     double *mean)
{
	size_t seg = 0;

	while (seg < a->nc && a->c[seg].cp.index <= i)
		seg++;
	/* segment seg runs from change seg - 1 (or 0) to change seg (or the end) */
	*mean = seg < a->nc ? a->c[seg].cp.mean_before :
		a->nc ? a->c[a->nc - 1].cp.mean_after : NAN;
	if (a->nc == 0) {
		double s = 0;

		for (size_t j = 0; j < a->s->n; j++)
			s += a->s->pts[j].value;
		*mean = s / (double)a->s->n;
	}
	return seg > 0 && a->c[seg - 1].cp.index == i ? &a->c[seg - 1] : NULL;
}

static void trend_heading(FILE *f, enum cb_hist_fmt fmt, const struct cb_hist_out_info *in)
{
	const char *p = fmt == CB_HIST_FMT_MARKDOWN ? "" : "# ";

	if (fmt == CB_HIST_FMT_CSV) {
		fprintf(f, CSV_KEY ",metric,stat,run_id,time_utc,run,git_commit,label,value,lo,hi,"
			"segment_mean,change,library_config\n");
		return;
	}
	fprintf(f, "%s%smachine: %s\n", fmt == CB_HIST_FMT_MARKDOWN ? "### collbench-history "
		"trend\n\n" : "", p, in->machine);
	fprintf(f, "%s%s time over iterations; band: [min, max] over the --repeat blocks; change "
		"points: E-divisive means, t-test p <= %g, window %zu, noise floor %g%%\n", p,
		cb_stat_name(in->stat), in->cpd->max_pvalue, in->cpd->window,
		100 * in->cpd->noise_floor);
	if (fmt == CB_HIST_FMT_MARKDOWN)
		fprintf(f, "\n| series | metric | run | time (UTC) | commit | value | band | "
			"segment mean | change |\n|---|---|---:|---|---|---:|---|---:|---|\n");
	else if (fmt == CB_HIST_FMT_TABLE)
		fprintf(f, "%-30s %-6s %6s %-20s %-14s %10s %-21s %10s %s\n", "series", "metric",
			"run", "time_utc", "commit", "value", "band", "seg.mean", "change");
}

static void trend_point(FILE *f, enum cb_hist_fmt fmt, const struct cb_hist_analysis *a,
			size_t si, size_t i)
{
	const struct cb_hist_point *p = &a->s->pts[i];
	double mean;
	const struct cb_hist_change *c = at_point(a, i, &mean);
	char name[CB_HIST_NAME], v[32], lo[32], hi[32], m[32], bandtxt[80] = "", ch[64] = "";

	cb_hist_key_name(&a->s->key, name, sizeof(name));
	num(v, sizeof(v), p->value, fmt);
	num(lo, sizeof(lo), p->lo, fmt);
	num(hi, sizeof(hi), p->hi, fmt);
	num(m, sizeof(m), mean, fmt);
	if (c)
		snprintf(ch, sizeof(ch), "%s %+.1f%%", cb_hist_dir_name(c->dir), 100 * c->change);
	if (strcmp(lo, v) != 0 || strcmp(hi, v) != 0) /* a band, not a point, as printed */
		snprintf(bandtxt, sizeof(bandtxt), "[%s, %s]", lo, hi);
	switch (fmt) {
	case CB_HIST_FMT_TSV:
		fprintf(f, "%zu\t%s\t%s\t%s\t%s\t%s\t%d\t%lld\n", si + 1, p->time_utc, v, lo, hi, m,
			c ? (c->dir == CB_HIST_REGRESSION ? 1 : 2) : 0, p->run_id);
		break;
	case CB_HIST_FMT_CSV:
		csv_key(f, &a->s->key);
		fprintf(f, "%s,%s,%lld,%s,", cb_metric_name(a->s->metric),
			cb_stat_name(a->s->stat), p->run_id, p->time_utc);
		csv_str(f, p->run_name, 0);
		csv_str(f, p->git_commit, 0);
		csv_str(f, p->label, 0);
		fprintf(f, "%s,%s,%s,%s,%s,", v, lo, hi, m, c ? cb_hist_dir_name(c->dir) : "");
		csv_libconf(f, &a->s->key);
		break;
	case CB_HIST_FMT_MARKDOWN:
		fprintf(f, "| %s | %s | %lld | %s | %s | %s | %s | %s | %s |\n", name,
			cb_metric_name(a->s->metric), p->run_id, p->time_utc, p->git_commit, v,
			bandtxt, m, c ? ch : "");
		break;
	default:
		fprintf(f, "%-30s %-6s %6lld %-20s %-14.14s %10s %-21s %10s %s\n", name,
			cb_metric_name(a->s->metric), p->run_id, p->time_utc, p->git_commit, v,
			bandtxt, m, ch);
	}
}

int cb_hist_print_trend(FILE *f, enum cb_hist_fmt fmt, const struct cb_hist_analysis *a,
			size_t n, const struct cb_hist_out_info *in)
{
	if (fmt == CB_HIST_FMT_TSV) {
		fprintf(f, "# machine\t%s\n", in->machine);
		for (size_t i = 0; i < n; i++) {
			char name[CB_HIST_NAME];

			cb_hist_key_name(&a[i].s->key, name, sizeof(name));
			fprintf(f, "# series %zu\t%s\t%s (%s)\n", i + 1, name,
				cb_metric_name(a[i].s->metric), cb_metric_unit(a[i].s->metric));
		}
	} else {
		trend_heading(f, fmt, in);
	}
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < a[i].s->n; j++)
			trend_point(f, fmt, &a[i], i, j);
	return ferror(f) ? -1 : 0;
}

static void change_line(FILE *f, enum cb_hist_fmt fmt, const struct cb_hist_analysis *a,
			const struct cb_hist_change *c)
{
	char name[CB_HIST_NAME], co[1200], b[32], af[32], p[32];
	const char *dir = cb_hist_dir_name(c->dir), *metric = cb_metric_name(a->s->metric);

	cb_hist_key_name(&a->s->key, name, sizeof(name));
	cb_hist_coincides(c, co, sizeof(co));
	num(b, sizeof(b), c->cp.mean_before, fmt);
	num(af, sizeof(af), c->cp.mean_after, fmt);
	snprintf(p, sizeof(p), "%.2g", c->cp.pvalue);
	if (fmt == CB_HIST_FMT_CSV || fmt == CB_HIST_FMT_TSV) {
		csv_key(f, &a->s->key);
		fprintf(f, "%s,%s,%lld,", metric, c->at->time_utc, c->at->run_id);
		csv_str(f, c->at->run_name, 0);
		fprintf(f, "%s,%.4f,%s,%s,%zu,%zu,%s,", dir, 100 * c->change, b, af, c->cp.n_before,
			c->cp.n_after, p);
		csv_str(f, co, 0);
		csv_libconf(f, &a->s->key);
	} else if (fmt == CB_HIST_FMT_MARKDOWN) {
		fprintf(f, "| %s | %s | %s | %lld (%s) | **%s** | %+.1f%% | %s -> %s %s | %s | %s |\n",
			name, metric, c->at->time_utc, c->at->run_id, c->at->run_name, dir,
			100 * c->change, b, af, cb_metric_unit(a->s->metric), p, co);
	} else {
		fprintf(f, "%-30s %-6s %-20s %6lld %-11s %+7.1f%% %9s -> %-9s %-7s %s\n", name, metric,
			c->at->time_utc, c->at->run_id, dir, 100 * c->change, b, af, p, co);
	}
}

int cb_hist_print_changes(FILE *f, enum cb_hist_fmt fmt, const struct cb_hist_analysis *a,
			  size_t n, const struct cb_hist_out_info *in)
{
	size_t total = 0;

	if (fmt == CB_HIST_FMT_CSV || fmt == CB_HIST_FMT_TSV) {
		fprintf(f, CSV_KEY ",metric,time_utc,run_id,run,direction,change_pct,mean_before,"
			"mean_after,n_before,n_after,pvalue,coincides,library_config\n");
	} else {
		fprintf(f, "%s%smachine: %s\n", fmt == CB_HIST_FMT_MARKDOWN ?
			"### collbench-history change points\n\n" : "",
			fmt == CB_HIST_FMT_MARKDOWN ? "" : "# ", in->machine);
		if (fmt == CB_HIST_FMT_MARKDOWN)
			fprintf(f, "\n| series | metric | time (UTC) | run | direction | change | "
				"means | p | coincides with |\n|---|---|---|---|---|---:|---|---:|---|\n");
		else
			fprintf(f, "%-30s %-6s %-20s %6s %-11s %8s %22s %-7s %s\n", "series",
				"metric", "time_utc", "run", "direction", "change",
				"mean before -> after", "p", "coincides with");
	}
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < a[i].nc; j++, total++)
			change_line(f, fmt, &a[i], &a[i].c[j]);
	if (fmt == CB_HIST_FMT_TABLE || fmt == CB_HIST_FMT_MARKDOWN)
		fprintf(f, "%s%zu change point%s in %zu series\n", fmt == CB_HIST_FMT_MARKDOWN ?
			"\n" : "", total, total == 1 ? "" : "s", n);
	return ferror(f) ? -1 : 0;
}
