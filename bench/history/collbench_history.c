/* collbench-history VERB: every run in one SQLite file, trends over time and
 * change-point detection (docs/history.md). Verbs: ingest, trend, detect,
 * gate, runs, check (cb_hist_cli.c). Exit status: 0 done (gate: no
 * regression), 1 gate: the newest run follows a change point that is a
 * regression, or a row of it failed, 2 usage, input or database error. */
#define _GNU_SOURCE
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cb_hist_add.h"
#include "cb_hist_analyze.h"
#include "cb_hist_cli.h"
#include "cb_hist_db.h"
#include "cb_hist_ingest.h"
#include "cb_hist_out.h"
#include "cb_hist_query.h"
#include "cb_optable.h"
#include "cb_output.h"
#include "cb_text.h"

#define PROG "collbench-history"
#define EXIT_REGRESSION 1

/* The series of the selection with their change points. */
struct selection {
	struct cb_hist_machine_sel machine;
	struct cb_hist_series *series;
	struct cb_hist_analysis *an;
	size_t n;
};

static void selection_free(struct selection *s)
{
	for (size_t i = 0; s->an && i < s->n; i++)
		free(s->an[i].c);
	free(s->an);
	cb_hist_series_free(s->series, s->n);
	memset(s, 0, sizeof(*s));
}

/* Leaves out the series without an ok point (kept for the gate: their
 * newest row failed) for the verbs that draw points. */
static void drop_pointless(struct selection *sel)
{
	size_t k = 0;

	for (size_t i = 0; i < sel->n; i++) {
		if (sel->series[i].n == 0) {
			free(sel->series[i].pts);
			continue;
		}
		sel->series[k++] = sel->series[i];
	}
	sel->n = k;
}

static int select_series(const struct cb_hist_cli *c, struct cb_hist_db *db,
			 struct selection *sel)
{
	char err[2048];
	size_t no_median = 0;

	memset(sel, 0, sizeof(*sel));
	if (cb_hist_machine_find(db, c->machine[0] ? c->machine : NULL, c->filter.backend,
				 &sel->machine, err, sizeof(err)) != CB_OK ||
	    cb_hist_series_load(db, sel->machine.id, &c->filter, c->metric, c->stat, &sel->series,
				&sel->n, err, sizeof(err)) != CB_OK) {
		cb_eprintf(PROG ": %s\n", err);
		return -1;
	}
	if (c->verb != CB_VERB_GATE)
		drop_pointless(sel);
	if (sel->n == 0) {
		cb_eprintf(PROG ": no series on machine '%s' matches the selection\n",
			sel->machine.identity);
		return -1;
	}
	sel->an = calloc(sel->n, sizeof(*sel->an));
	for (size_t i = 0; sel->an && i < sel->n; i++) {
		sel->an[i].s = &sel->series[i];
		no_median += sel->series[i].no_median;
		if (cb_hist_changes(&sel->series[i], &c->cpd, &sel->an[i].c, &sel->an[i].nc) != CB_OK) {
			cb_eprintf(PROG ": out of memory in the change-point search\n");
			return -1;
		}
	}
	if (!sel->an) {
		cb_eprintf(PROG ": out of memory\n");
		return -1;
	}
	if (no_median)
		cb_eprintf(PROG ": note: %zu point(s) lack the median columns (older files): "
			"their series read on the mean\n", no_median);
	return 0;
}

static int report(const struct cb_hist_cli *c, struct cb_hist_db *db)
{
	struct selection sel;
	struct cb_hist_out_info in = { NULL, c->stat, &c->cpd };
	int rc = CB_EXIT_USAGE, w;

	if (select_series(c, db, &sel) == 0) {
		in.machine = sel.machine.identity;
		w = c->verb == CB_VERB_TREND ?
			    cb_hist_print_trend(stdout, c->fmt, sel.an, sel.n, &in) :
			    cb_hist_print_changes(stdout, c->fmt, sel.an, sel.n, &in);
		rc = w == 0 ? 0 : CB_EXIT_USAGE;
	}
	selection_free(&sel);
	return rc;
}

/* One series the gate fails on a change point, on stdout. */
static void gate_line(const struct cb_hist_cli *c, const struct cb_hist_analysis *a)
{
	const struct cb_hist_change *x = &a->c[a->nc - 1];
	char name[CB_HIST_NAME], co[1200];

	cb_hist_key_name(&a->s->key, name, sizeof(name));
	cb_hist_coincides(x, co, sizeof(co));
	printf("%s%s: %s %+.1f%% (%.4g -> %.4g) since run %lld (%s, %s), %zu run(s) ago; p = "
	       "%.2g; coincides with: %s\n", c->fmt == CB_HIST_FMT_MARKDOWN ? "- " : "REGRESSION ",
	       name, cb_metric_name(a->s->metric), 100 * x->change, x->cp.mean_before,
	       x->cp.mean_after, x->at->run_id, x->at->time_utc, x->at->run_name,
	       a->s->n - x->cp.index, x->cp.pvalue, co);
}

/* One series whose row failed in the newest run, on stdout. */
static void failed_line(const struct cb_hist_cli *c, const struct cb_hist_series *s)
{
	char name[CB_HIST_NAME], status[CB_REASON_MAX + 16];

	cb_hist_key_name(&s->key, name, sizeof(name));
	cb_row_status_format(&s->last_status, status, sizeof(status));
	printf("%s%s: the row failed in the newest run (%lld): %s\n",
	       c->fmt == CB_HIST_FMT_MARKDOWN ? "- failed: " : "FAILED ", name, s->last_run, status);
}

/* The gate's verdict of the selection: rows that failed in the newest run
 * and series after a regression (counted into *failed, *regressed; *judged:
 * series the newest run measured, ok or failed), each printed when print. */
static void gate_judge(const struct cb_hist_cli *c, const struct selection *sel, long long newest,
		       int print, size_t *failed, size_t *regressed, size_t *judged)
{
	*failed = *regressed = *judged = 0;
	for (size_t i = 0; i < sel->n; i++) {
		const struct cb_hist_series *s = &sel->series[i];
		int bad = cb_hist_gate_row_failed(s, newest);
		int reg = !bad && cb_hist_gate_fails(s, sel->an[i].c, sel->an[i].nc, newest,
						     (size_t)c->recent);

		*judged += bad || (s->n && s->pts[s->n - 1].run_id == newest);
		*failed += (size_t)bad;
		*regressed += (size_t)reg;
		if (print && bad)
			failed_line(c, s);
		else if (print && reg)
			gate_line(c, &sel->an[i]);
	}
}

static int gate(const struct cb_hist_cli *c, struct cb_hist_db *db)
{
	struct selection sel;
	size_t failed, regressed, judged;
	long long newest;

	if (c->fmt != CB_HIST_FMT_TABLE && c->fmt != CB_HIST_FMT_MARKDOWN) {
		cb_eprintf(PROG " gate: --format: table or markdown\n");
		return CB_EXIT_USAGE;
	}
	if (select_series(c, db, &sel) != 0) {
		selection_free(&sel);
		return CB_EXIT_USAGE;
	}
	newest = cb_hist_newest_run(db, sel.machine.id);
	gate_judge(c, &sel, newest, 0, &failed, &regressed, &judged);
	if (c->fmt == CB_HIST_FMT_MARKDOWN)
		printf("### collbench-history gate: %s\n\nmachine: %s, newest run %lld\n\n",
		       failed || regressed ? "REGRESSION" : "no regression",
		       sel.machine.identity, newest);
	gate_judge(c, &sel, newest, 1, &failed, &regressed, &judged);
	printf("%s%zu of %zu series measured by the newest run (%lld) follow a change point that "
	       "is a regression, %zu failed in it (error rows)%s\n",
	       c->fmt == CB_HIST_FMT_MARKDOWN && (failed || regressed) ? "\n" : "", regressed,
	       judged, newest, failed, sel.n > judged ? " (series the newest run did not measure "
	       "or skipped: not judged)" : "");
	selection_free(&sel);
	if (judged == 0) {
		cb_eprintf(PROG " gate: the newest run (%lld) measured none of the selected "
			"series: nothing to judge\n", newest);
		return CB_EXIT_USAGE;
	}
	return failed || regressed ? EXIT_REGRESSION : 0;
}

static int check(struct cb_hist_db *db)
{
	char err[1024];
	size_t problems;

	if (cb_hist_db_check(db, stdout, &problems, err, sizeof(err)) != CB_OK) {
		cb_eprintf(PROG " check: %s\n", err);
		return CB_EXIT_USAGE;
	}
	printf("%s: %s\n", db->path, problems ? "INCONSISTENT" : "consistent");
	return problems ? CB_EXIT_USAGE : 0;
}

static int run_verb(const struct cb_hist_cli *c, int argc, char **argv)
{
	struct cb_hist_db db;
	char err[1024];
	int rc = 0;

	if (cb_hist_db_open(c->db, c->verb == CB_VERB_INGEST, &db, err, sizeof(err)) != CB_OK) {
		cb_eprintf(PROG ": %s\n", err);
		return CB_EXIT_USAGE;
	}
	switch (c->verb) {
	case CB_VERB_INGEST:
		rc = cb_hist_add_runs(&db, argv + optind, argc - optind,
				      c->label[0] ? c->label : NULL) == CB_OK ? 0 : CB_EXIT_USAGE;
		break;
	case CB_VERB_TREND:
	case CB_VERB_DETECT:
		rc = report(c, &db);
		break;
	case CB_VERB_GATE:
		rc = gate(c, &db);
		break;
	case CB_VERB_RUNS:
		if (cb_hist_db_list_runs(&db, stdout, err, sizeof(err)) != CB_OK) {
			cb_eprintf(PROG " runs: %s\n", err);
			rc = CB_EXIT_USAGE;
		}
		break;
	default:
		rc = check(&db);
	}
	cb_hist_db_close(&db);
	return rc;
}

int main(int argc, char **argv)
{
	struct cb_hist_cli c;

	if (cb_hist_cli_parse(argc, argv, &c) != 0)
		return CB_EXIT_USAGE;
	if (c.help) {
		cb_hist_cli_usage(stdout, c.verb);
		return cb_close_stdout(PROG, 0, CB_EXIT_USAGE);
	}
	return cb_close_stdout(PROG, run_verb(&c, argc, argv), CB_EXIT_USAGE);
}
