/* cb_compare_out: the four output formats (contract in cb_compare_out.h). */
#define _GNU_SOURCE
#include "cb_compare_out.h"

#include <csv.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cb_text.h"

/* "%.4g", or "-" for NaN. */
static const char *num(char *buf, size_t len, double v)
{
	if (isnan(v))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.4g", v);
	return buf;
}

/* "[lo, hi]" of a band, "" when it is a point or absent. */
static const char *range(char *buf, size_t len, const struct cb_band *b)
{
	if (isnan(b->value) || (b->lo == b->value && b->hi == b->value))
		buf[0] = '\0';
	else
		snprintf(buf, len, "[%.4g, %.4g]", b->lo, b->hi);
	return buf;
}

static const char *change(char *buf, size_t len, double ch)
{
	if (isnan(ch))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%+.1f%%", 100 * ch);
	return buf;
}

/* The heading: the runs, the metric and statistic (no_median: rows read on
 * the mean, both sides, since one lacks the median), the tolerances. */
static void print_heading(FILE *f, const struct cb_out_info *in, const char *prefix,
			  size_t no_median)
{
	const struct cb_compare_opts *o = in->opts;
	char stat[64];

	fprintf(f, "%sbaseline %s, current %s\n", prefix, in->base_name, in->cur_name);
	if (no_median && o->stat == CB_STAT_MEDIAN)
		snprintf(stat, sizeof(stat), "%s (the mean in %zu row(s))", cb_stat_name(o->stat),
			 no_median);
	else
		snprintf(stat, sizeof(stat), "%s", cb_stat_name(o->stat));
	fprintf(f, "%smetric %s of the %s time (%s, %s is better; a row whose bandwidth is absent "
		"or 0 uses the next of busbw, algbw, time: see its metric), "
		"tolerance %g%%, noise cap %g%%, bands: [min, max] over the --repeat blocks%s%s\n",
		prefix, cb_metric_name(o->metric), stat,
		cb_metric_unit(o->metric), o->metric == CB_METRIC_TIME ? "lower" : "higher",
		100 * o->tolerance, 100 * o->noise_cap, o->min_bytes ? ", rows below --min-bytes ignored" : "",
		o->algos && *o->algos ? ", --algo filter" : "");
}

static void print_table(FILE *f, const struct cb_comparison *c, const struct cb_out_info *in)
{
	char name[128], v[4][48], ch[32];

	print_heading(f, in, "# ", c->no_median);
	fprintf(f, "# %-11s %-34s %-6s %10s %-22s %10s %-22s %8s  %s\n", "verdict", "row",
		"metric", "baseline", "  [min, max]", "current", "  [min, max]", "change", "note");
	for (size_t i = 0; i < c->nrows; i++) {
		const struct cb_cmp_row *r = &c->rows[i];

		cb_cmp_row_name(r, name, sizeof(name));
		fprintf(f, "  %-11s %-34s %-6s %10s %-22s %10s %-22s %8s  %s\n",
			cb_verdict_name(r->verdict), name, cb_metric_name(r->metric),
			num(v[0], 48, r->b.value), range(v[1], 48, &r->b), num(v[2], 48, r->c.value),
			range(v[3], 48, &r->c), change(ch, sizeof(ch), r->change), r->note);
	}
}

/* One CSV field, quoted by libcsv when it needs it. */
static void csv_field(FILE *f, const char *s, int last)
{
	if (strpbrk(s, ",\"\r\n"))
		csv_fwrite(f, s, strlen(s));
	else
		fputs(s, f);
	fputc(last ? '\n' : ',', f);
}

static void print_csv(FILE *f, const struct cb_comparison *c)
{
	fputs("verdict,backend,algo,nranks,bytes,dtype,op,in_place,metric,baseline,baseline_lo,"
	      "baseline_hi,current,current_lo,current_hi,change_pct,p_value,transport,note,"
	      "collective\n", f);
	for (size_t i = 0; i < c->nrows; i++) {
		const struct cb_cmp_row *r = &c->rows[i];
		const struct cb_summary *x = &(r->base ? r->base : r->cur)->v;
		const double v[8] = { r->b.value, r->b.lo, r->b.hi, r->c.value, r->c.lo, r->c.hi,
				      100 * r->change, r->p };

		fprintf(f, "%s,%s,%s,%d,%llu,%s,%s,%d,%s,", cb_verdict_name(r->verdict), x->backend,
			x->algo, x->nranks, x->bytes, x->dtype, x->op, x->in_place,
			cb_metric_name(r->metric));
		for (int k = 0; k < 8; k++)
			isnan(v[k]) ? (void)fputc(',', f) : (void)fprintf(f, "%.6g,", v[k]);
		csv_field(f, x->transport, 0);
		csv_field(f, r->note, 0);
		csv_field(f, x->collective, 1);
	}
}

static int severity_cmp(const void *a, const void *b)
{
	const struct cb_cmp_row *x = *(const struct cb_cmp_row *const *)a;
	const struct cb_cmp_row *y = *(const struct cb_cmp_row *const *)b;

	if (x->verdict != y->verdict)
		return (int)x->verdict - (int)y->verdict;
	return (x > y) - (x < y); /* stable: join-key order within a verdict */
}

/* note with '|' escaped, for a markdown table cell. */
static const char *md_cell(char *buf, size_t len, const char *note)
{
	size_t k = 0;

	for (; *note && k + 3 < len; note++) {
		if (*note == '|')
			buf[k++] = '\\';
		buf[k++] = *note;
	}
	buf[k] = '\0';
	return buf;
}

static enum cb_status print_markdown(FILE *f, const struct cb_comparison *c,
				     const struct cb_out_info *in)
{
	const struct cb_cmp_row **order = malloc((c->nrows + 1) * sizeof(*order));
	char name[128], v[4][48], ch[32], note[224];

	if (!order)
		return CB_ERR_NOMEM;
	for (size_t i = 0; i < c->nrows; i++)
		order[i] = &c->rows[i];
	qsort(order, c->nrows, sizeof(*order), severity_cmp);
	fprintf(f, "### collbench-compare: %s\n\n", in->gate == CB_GATE_FAIL ? "REGRESSION" :
		in->gate == CB_GATE_UNKNOWN ? "UNKNOWN (within the noise: run again)" : "no regression");
	print_heading(f, in, "", c->no_median);
	fprintf(f, "\n| verdict | row | metric | baseline | current | change | note |\n"
		"|---|---|---|---:|---:|---:|---|\n");
	for (size_t i = 0; i < c->nrows; i++) {
		const struct cb_cmp_row *r = order[i];
		int bold = r->verdict == CB_V_FAILED || r->verdict == CB_V_REGRESSION ||
			   r->verdict == CB_V_VANISHED || (r->verdict == CB_V_UNKNOWN && r->worse);

		cb_cmp_row_name(r, name, sizeof(name));
		fprintf(f, "| %s%s%s | %s | %s | %s %s | %s %s | %s | %s |\n", bold ? "**" : "",
			cb_verdict_name(r->verdict), bold ? "**" : "", name,
			cb_metric_name(r->metric), num(v[0], 48, r->b.value), range(v[1], 48, &r->b),
			num(v[2], 48, r->c.value), range(v[3], 48, &r->c),
			change(ch, sizeof(ch), r->change), md_cell(note, sizeof(note), r->note));
	}
	fputc('\n', f);
	free(order);
	return CB_OK;
}

static json_t *jnum(double v)
{
	return isnan(v) ? json_null() : json_real(v);
}

static json_t *json_row(const struct cb_cmp_row *r)
{
	const struct cb_summary *x = &(r->base ? r->base : r->cur)->v;

	return json_pack("{s:s,s:s,s:s,s:s,s:s,s:i,s:I,s:s,s:s,s:b,s:s,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o}",
			 "verdict", cb_verdict_name(r->verdict), "collective", x->collective,
			 "backend", x->backend, "algo",
			 x->algo, "transport", x->transport, "nranks", x->nranks, "bytes", (json_int_t)x->bytes, "dtype",
			 x->dtype, "op", x->op, "in_place", x->in_place, "metric",
			 cb_metric_name(r->metric), "baseline", jnum(r->b.value), "baseline_lo",
			 jnum(r->b.lo), "baseline_hi", jnum(r->b.hi), "current", jnum(r->c.value),
			 "current_lo", jnum(r->c.lo), "current_hi", jnum(r->c.hi), "change_pct",
			 jnum(100 * r->change), "p_value", jnum(r->p), "note", cb_json_text(r->note));
}

static enum cb_status print_json(FILE *f, const struct cb_comparison *c,
				 const struct cb_out_info *in)
{
	static const char *const gate_names[] = { "pass", "fail", "unknown" };
	const size_t *n = c->count;
	json_t *rows = json_array(), *o;
	char line[256];
	int rc;

	for (size_t i = 0; rows && i < c->nrows; i++)
		if (json_array_append_new(rows, json_row(&c->rows[i])) != 0)
			json_decref(rows), rows = NULL;
	if (!rows)
		return CB_ERR_NOMEM;
	cb_compare_summary(c, line, sizeof(line));
	/* paths are bytes: cb_text's rule keeps the JSON valid */
	o = json_pack("{s:s,s:o,s:o,s:s,s:f,s:f,s:I,s:b,s:b,s:b,s:s,s:o,"
		      "s:{s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I},s:s}",
		      "schema", "collbench-compare-1", "baseline", cb_json_text(in->base_name),
		      "current", cb_json_text(in->cur_name), "metric",
		      cb_metric_name(in->opts->metric), "tolerance_pct", 100 * in->opts->tolerance,
		      "noise_cap_pct", 100 * in->opts->noise_cap, "min_bytes",
		      (json_int_t)in->opts->min_bytes, "strict", in->opts->strict, "allow_missing",
		      in->opts->allow_missing, "regressed", in->gate == CB_GATE_FAIL, "gate",
		      gate_names[in->gate], "rows", rows, "summary", "regressions",
		      (json_int_t)(n[CB_V_REGRESSION] + n[CB_V_FAILED] + n[CB_V_VANISHED]), "failed",
		      (json_int_t)n[CB_V_FAILED], "vanished", (json_int_t)n[CB_V_VANISHED],
		      "improvements", (json_int_t)n[CB_V_IMPROVEMENT], "same", (json_int_t)n[CB_V_SAME],
		      "unknown", (json_int_t)n[CB_V_UNKNOWN], "unknown_worse",
		      (json_int_t)c->unknown_worse, "missing", (json_int_t)n[CB_V_MISSING], "skipped",
		      (json_int_t)n[CB_V_SKIPPED], "summary_line", line);
	if (!o)
		return CB_ERR_NOMEM;
	rc = json_dumpf(o, f, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	json_decref(o);
	fputc('\n', f);
	return rc == 0 ? CB_OK : CB_ERR_IO;
}

enum cb_status cb_compare_print(FILE *f, enum cb_format fmt, const struct cb_comparison *c,
				const struct cb_out_info *in)
{
	enum cb_status st = CB_OK;
	char line[256];

	switch (fmt) {
	case CB_FMT_TABLE: print_table(f, c, in); break;
	case CB_FMT_CSV: print_csv(f, c); break;
	case CB_FMT_MARKDOWN: st = print_markdown(f, c, in); break;
	case CB_FMT_JSON: st = print_json(f, c, in); break;
	}
	if (st == CB_OK && (fmt == CB_FMT_TABLE || fmt == CB_FMT_MARKDOWN)) {
		cb_compare_summary(c, line, sizeof(line));
		fprintf(f, "%s\n", line);
	}
	if (fflush(f) != 0 || ferror(f))
		st = CB_ERR_IO;
	return st;
}
