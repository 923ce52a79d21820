/* cb_compare: join and verdicts (contract and rule in cb_compare.h). */
#define _GNU_SOURCE
#include "cb_compare.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cb_optable.h"

/* The verdict of a change beyond the tolerance: decided when it is beyond
 * the cap, the bands lie apart or the samples differ; else unknown. */
static enum cb_verdict beyond(int apart, int past_cap, double p, enum cb_verdict decided)
{
	return past_cap || apart || p < CB_COMPARE_ALPHA ? decided : CB_V_UNKNOWN;
}

enum cb_verdict cb_verdict_of(const struct cb_band *b, const struct cb_band *c, double p,
			      double tol, double cap, int higher_is_better)
{
	double v = c->value, lo = b->value * (1 - tol), hi = b->value * (1 + tol);
	double cap_lo, cap_hi;

	cap = fmax(cap, tol); /* the noise never narrows the tolerance */
	cap_lo = b->value * (1 - cap), cap_hi = b->value * (1 + cap);

	if (higher_is_better) {
		if (v < lo)
			return beyond(c->hi < b->lo, v < cap_lo, p, CB_V_REGRESSION);
		if (v > hi)
			return beyond(c->lo > b->hi, v > cap_hi, p, CB_V_IMPROVEMENT);
	} else {
		if (v > hi)
			return beyond(c->lo > b->hi, v > cap_hi, p, CB_V_REGRESSION);
		if (v < lo)
			return beyond(c->hi < b->lo, v < cap_lo, p, CB_V_IMPROVEMENT);
	}
	return CB_V_SAME;
}

/* The p-value of row's samples (NaN without enough on both sides). */
static double row_p(const struct cb_cmp_row *row, const struct cb_results *base,
		    const struct cb_results *cur, const struct cb_samples *bs,
		    const struct cb_samples *cs)
{
	const struct cb_row_samples *x, *y;

	if (!bs || !cs || !bs->row || !cs->row)
		return NAN;
	x = &bs->row[row->base - base->rows];
	y = &cs->row[row->cur - cur->rows];
	if (x->n < CB_SAMPLES_MIN || y->n < CB_SAMPLES_MIN)
		return NAN;
	return cb_mann_whitney_p(x->t, x->n, y->t, y->n);
}

static int kept(const struct cb_res_row *r, const struct cb_compare_opts *o)
{
	return r && r->v.bytes >= o->min_bytes && cb_list_selects(o->algos, r->v.algo);
}

/* Both sides ok: the metric (o->metric, or the one both rows can be judged
 * on), the bands, the change and the rule's verdict. */
static void judge_measured(struct cb_cmp_row *row, const struct cb_compare_opts *o,
			   struct cb_comparison *out)
{
	enum cb_metric mb = cb_row_metric(row->base, o->metric);
	enum cb_metric mc = cb_row_metric(row->cur, o->metric);
	enum cb_metric m = mb > mc ? mb : mc;
	enum cb_stat stat = o->stat;
	int bad = 0, no_median = 0;

	/* like with like: a side without the median puts both on the mean */
	if (stat == CB_STAT_MEDIAN &&
	    (!cb_row_has_median(row->base) || !cb_row_has_median(row->cur))) {
		stat = CB_STAT_MEAN;
		out->no_median++;
	}
	out->fallback += m != o->metric && m == CB_METRIC_ALGBW;
	out->fallback_time += m != o->metric && m == CB_METRIC_TIME;
	row->metric = m;
	cb_row_read(row->base, m, stat, &row->b, &bad, &no_median);
	cb_row_read(row->cur, m, stat, &row->c, &bad, &no_median);
	if (bad) {
		out->inconsistent++;
		snprintf(row->note, sizeof(row->note), "repeat band without the value: ignored");
	}
	/* no change in percent from a zero or absent baseline (never a NaN verdict:
	 * the rule compares finite values only) */
	row->change = row->b.value > 0 ? (row->c.value - row->b.value) / row->b.value : NAN;
	out->tested += !isnan(row->p);
	row->verdict = cb_verdict_of(&row->b, &row->c, row->p, o->tolerance, o->noise_cap,
				     m != CB_METRIC_TIME);
	row->worse = row->verdict == CB_V_REGRESSION ||
		     (row->verdict == CB_V_UNKNOWN && (m == CB_METRIC_TIME ? row->c.value > row->b.value
								     : row->c.value < row->b.value));
	out->unknown_worse += row->verdict == CB_V_UNKNOWN && row->worse;
	if (row->verdict == CB_V_UNKNOWN)
		snprintf(row->note, sizeof(row->note), "within the noise: run again (%s)",
			 isnan(row->p) ? "bands overlap, no samples" : "samples: p >= 0.001");
	else if (row->verdict != CB_V_SAME && !isnan(row->p) && !row->note[0])
		snprintf(row->note, sizeof(row->note), "samples: p %.2g", row->p);
}

/* The verdict of one joined pair (either side may be NULL), by status. */
static void judge(struct cb_cmp_row *row, const struct cb_compare_opts *o,
		  struct cb_comparison *out)
{
	const struct cb_res_row *b = row->base, *c = row->cur;
	enum cb_row_state bs = b ? b->v.status.state : CB_ROW_SKIPPED;
	enum cb_row_state cs = c ? c->v.status.state : CB_ROW_SKIPPED;
	char text[CB_REASON_MAX + 16];
	int ignored = 0, no_median = 0; /* one side only: shown, not judged */

	row->metric = o->metric;
	row->b.value = row->b.lo = row->b.hi = NAN;
	row->c = row->b;
	row->change = NAN;
	if (bs == CB_ROW_OK && cs == CB_ROW_OK) {
		judge_measured(row, o, out);
		return;
	}
	if (b && bs == CB_ROW_OK) {
		row->metric = cb_row_metric(b, o->metric);
		cb_row_read(b, row->metric, o->stat, &row->b, &ignored, &no_median);
	}
	if (c && cs == CB_ROW_OK) {
		row->metric = cb_row_metric(c, o->metric);
		cb_row_read(c, row->metric, o->stat, &row->c, &ignored, &no_median);
	}
	if (cb_row_state_failed(cs)) {
		row->verdict = CB_V_FAILED;
		cb_row_status_format(&c->v.status, text, sizeof(text));
		snprintf(row->note, sizeof(row->note), "current %.80s", text);
	} else if (cb_row_state_failed(bs) && cs == CB_ROW_OK) {
		row->verdict = CB_V_IMPROVEMENT;
		cb_row_status_format(&b->v.status, text, sizeof(text));
		snprintf(row->note, sizeof(row->note), "baseline %.80s", text);
	} else if (bs == CB_ROW_SKIPPED && cs == CB_ROW_SKIPPED && b && c) {
		row->verdict = CB_V_SKIPPED;
	} else if (bs == CB_ROW_OK && !o->allow_missing) {
		row->verdict = CB_V_VANISHED; /* measured before, skipped or absent now */
		snprintf(row->note, sizeof(row->note), "measured in baseline, %s",
			 c ? "skipped in current" : "not in current");
	} else {
		row->verdict = CB_V_MISSING;
		snprintf(row->note, sizeof(row->note), "%s", !b ? "only in current" :
			 !c ? "only in baseline" : bs == CB_ROW_SKIPPED ? "skipped in baseline" :
			 "skipped in current");
	}
}

enum cb_status cb_compare_runs(const struct cb_results *base, const struct cb_results *cur,
			       const struct cb_samples *bs, const struct cb_samples *cs,
			       const struct cb_compare_opts *o, struct cb_comparison *out,
			       char *err, size_t errlen)
{
	size_t i = 0, j = 0;

	memset(out, 0, sizeof(*out));
	out->rows = calloc(base->nrows + cur->nrows + 1, sizeof(*out->rows));
	if (!out->rows) {
		snprintf(err, errlen, "out of memory");
		return CB_ERR_NOMEM;
	}
	/* merge join: both row lists are sorted by key and unique */
	while (i < base->nrows || j < cur->nrows) {
		const struct cb_res_row *b = i < base->nrows ? &base->rows[i] : NULL;
		const struct cb_res_row *c = j < cur->nrows ? &cur->rows[j] : NULL;
		int d = !b ? 1 : !c ? -1 : cb_res_key_cmp(b, c);
		struct cb_cmp_row *row = &out->rows[out->nrows];

		i += d <= 0;
		j += d >= 0;
		if (!kept(d <= 0 ? b : c, o))
			continue;
		memset(row, 0, sizeof(*row));
		row->base = d <= 0 ? b : NULL;
		row->cur = d >= 0 ? c : NULL;
		row->p = row->base && row->cur ? row_p(row, base, cur, bs, cs) : NAN;
		judge(row, o, out);
		out->count[row->verdict]++;
		if (row->verdict != CB_V_SKIPPED)
			out->nrows++;
	}
	return CB_OK;
}

enum cb_gate cb_compare_gate(const struct cb_comparison *c, int strict)
{
	if (c->count[CB_V_REGRESSION] || c->count[CB_V_FAILED] || c->count[CB_V_VANISHED] ||
	    (strict && c->count[CB_V_MISSING]))
		return CB_GATE_FAIL;
	return c->unknown_worse ? CB_GATE_UNKNOWN : CB_GATE_PASS;
}

/* Appends to buf (len bytes, k used so far); returns the new k. */
static int add(char *buf, size_t len, int k, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int add(char *buf, size_t len, int k, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (k < 0 || (size_t)k >= len)
		return k;
	va_start(ap, fmt);
	n = vsnprintf(buf + k, len - (size_t)k, fmt, ap);
	va_end(ap);
	return n < 0 ? -1 : k + n;
}

void cb_compare_summary(const struct cb_comparison *c, char *buf, size_t len)
{
	const size_t *n = c->count;
	size_t reg = n[CB_V_REGRESSION] + n[CB_V_FAILED] + n[CB_V_VANISHED];
	size_t imp = n[CB_V_IMPROVEMENT];
	int k = add(buf, len, 0, "%zu regression%s", reg, reg == 1 ? "" : "s");

	if (n[CB_V_FAILED] && n[CB_V_VANISHED])
		k = add(buf, len, k, " (%zu failed, %zu vanished)", n[CB_V_FAILED], n[CB_V_VANISHED]);
	else if (n[CB_V_FAILED] || n[CB_V_VANISHED])
		k = add(buf, len, k, " (%zu %s)", n[CB_V_FAILED] + n[CB_V_VANISHED],
			n[CB_V_FAILED] ? "failed" : "vanished");
	k = add(buf, len, k, ", %zu improvement%s, %zu same, %zu missing", imp, imp == 1 ? "" : "s",
		n[CB_V_SAME], n[CB_V_MISSING]);
	if (n[CB_V_UNKNOWN])
		k = add(buf, len, k, ", %zu unknown", n[CB_V_UNKNOWN]);
	if (n[CB_V_SKIPPED])
		add(buf, len, k, ", %zu skipped", n[CB_V_SKIPPED]);
}

void cb_cmp_row_name(const struct cb_cmp_row *r, char *buf, size_t len)
{
	cb_row_name(&(r->base ? r->base : r->cur)->v, buf, len);
}

const char *cb_verdict_name(enum cb_verdict v)
{
	static const char *const names[CB_V_COUNT] = {
		"failed", "vanished", "regression", "unknown", "improvement", "missing", "same",
		"skipped",
	};

	return v < CB_V_COUNT ? names[v] : "?";
}

void cb_comparison_free(struct cb_comparison *c)
{
	free(c->rows);
	memset(c, 0, sizeof(*c));
}
