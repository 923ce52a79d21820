/* collbench-compare BASELINE CURRENT: compares two collbench results (summary
 * CSV files or run folders, with their metadata sidecars) row by row and
 * says whether the current one regressed; with --min-busbw, also (or, given
 * CURRENT alone, only) checks each row against an absolute busbw floor
 * (cb_floor.h). Exit status: 0 no regression, 1 regression (or a failed or
 * vanished row; or a missing row with --strict; or a row below a floor), 2
 * usage or input error, 4 no failure but a row worse beyond the tolerance
 * that the noise cannot confirm (unknown: run again). Options come from one
 * table that also prints --help. */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cb_compare.h"
#include "cb_compare_out.h"
#include "cb_compat.h"
#include "cb_floor.h"
#include "cb_optable.h"
#include "cb_output.h"
#include "cb_reference.h"
#include "cb_results.h"
#include "cb_results_load.h"
#include "cb_size.h"
#include "cb_text.h"

#define PROG "collbench-compare"
#define EXIT_REGRESSION 1
#define EXIT_UNKNOWN 4
#define MAX_LISTED 10 /* rows named in the "only in one run" warnings */

struct cli {
	struct cb_compare_opts cmp;
	enum cb_format fmt;
	int force, help, check_args, reference;
	char ref_table[1024];
	char algos[256];
	double tolerance_pct, noise_cap_pct; /* the cap: NaN until given */
	size_t min_bytes;
	char min_busbw[1024];
	struct cb_floors floors;
};

/* ENUM rows store through an int */
_Static_assert(sizeof(enum cb_metric) == sizeof(int), "enum cb_metric is int-sized");
_Static_assert(sizeof(enum cb_stat) == sizeof(int), "enum cb_stat is int-sized");
_Static_assert(sizeof(enum cb_format) == sizeof(int), "enum cb_format is int-sized");

static const char *metric_name(int i)
{
	return cb_metric_name((enum cb_metric)i);
}

static const char *stat_name(int i)
{
	return cb_stat_name((enum cb_stat)i);
}

static const char *format_name(int i)
{
	static const char *const names[] = { "table", "csv", "markdown", "json" };

	return names[i];
}

#define OFF(field) CB_OPT_FIELD(struct cli, field)

static const struct cb_optdef table[] = {
	{ .lname = "metric", .sname = 'm', .argname = "busbw|algbw|time", .defval = "busbw",
	  .kind = CB_OPT_ENUM, OFF(cmp.metric), .name = metric_name, .count = CB_METRIC_TIME + 1,
	  .help = "what to compare; a row whose bandwidth is absent or 0 uses the next one "
	          "down, busbw -> algbw -> time (copy and n = 1: algbw; 0 bytes: time), named "
	          "in its metric column" },
	{ .lname = "stat", .sname = 's', .argname = "median|mean", .defval = "median",
	  .kind = CB_OPT_ENUM, OFF(cmp.stat), .name = stat_name, .count = CB_STAT_MEAN + 1,
	  .help = "each row's median time over iterations (robust to a preempted iteration), or "
	          "its mean (the table's headline)" },
	{ .lname = "tolerance", .sname = 't', .argname = "PCT", .defval = "5",
	  .kind = CB_OPT_DOUBLE, OFF(tolerance_pct), .hi = 100, .flags = CB_OPT_HI_OPEN,
	  .help = "changes smaller than PCT percent are 'same'" },
	{ .lname = "noise-cap", .argname = "PCT", .kind = CB_OPT_DOUBLE, OFF(noise_cap_pct),
	  .hi = 100, .flags = CB_OPT_HI_OPEN,
	  .help = "a change beyond PCT percent is a regression (or improvement) whatever the "
	          "repeat bands and samples say; between --tolerance and PCT the noise decides "
	          "(same rows become unknown: run again); default twice the tolerance" },
	{ .lname = "min-bytes", .argname = "SIZE", .defval = "0", .kind = CB_OPT_SIZE,
	  OFF(min_bytes),
	  .help = "ignore rows below SIZE bytes (K, M, G), e.g. latency-bound sizes" },
	{ .lname = "algo", .sname = 'a', .argname = "LIST", .kind = CB_OPT_TEXT, OFF(algos),
	  .what = "list", .flags = CB_OPT_LIST,
	  .help = "compare only these algorithms (comma list)" },
	{ .lname = "format", .sname = 'f', .argname = "FMT", .defval = "table", .kind = CB_OPT_ENUM,
	  OFF(fmt), .name = format_name, .count = CB_FMT_JSON + 1,
	  .help = "table, csv, markdown (for CI summaries) or json" },
	{ .lname = "min-busbw", .argname = "RULES", .kind = CB_OPT_TEXT, OFF(min_busbw),
	  .what = "rules",
	  .help = "fail rows whose busbw is below a floor: ALGO[@SIZE[-SIZE]]=GBPS, comma list "
	          "(ALGO may be *; one SIZE: it and above), e.g. ring@16M-64M=5,ps=1.5; CURRENT "
	          "alone: only this check" },
	{ .lname = "strict", .kind = CB_OPT_FLAG, OFF(cmp.strict),
	  .help = "rows present in only one run (or skipped in one) count as failures" },
	{ .lname = "allow-missing", .kind = CB_OPT_FLAG, OFF(cmp.allow_missing),
	  .help = "rows measured in the baseline and skipped or absent now are only missing "
	          "(warned), not vanished (a failure)" },
	{ .lname = "force", .kind = CB_OPT_FLAG, OFF(force),
	  .help = "compare runs whose metadata make them incomparable (warns)" },
	{ .lname = "reference", .kind = CB_OPT_FLAG, OFF(reference),
	  .help = "place CURRENT (alone) against the published NCCL figures: for each launch "
	          "whose metadata has a topology, the matching entries' busbw beside ours and "
	          "the ratio, else the nearest platform (docs/normal.md)" },
	{ .lname = "ref-table", .argname = "FILE", .kind = CB_OPT_TEXT, OFF(ref_table),
	  .what = "path",
	  .help = "the reference table for --reference (default: the one shipped, "
	          "data/reference/nccl_published.csv)" },
	{ .lname = "check-args", .kind = CB_OPT_FLAG, OFF(check_args),
	  .help = "check the options only (no BASELINE, CURRENT): exit 0, or 2 with the message "
	          "(scripts/regress.sh's check before its sweep)" },
	{ .lname = "help", .sname = 'h', .kind = CB_OPT_FLAG, OFF(help),
	  .help = "print this help" },
};
#define NOPTS (sizeof(table) / sizeof(table[0]))

static void usage(FILE *f)
{
	fprintf(f, "usage: " PROG " [options] BASELINE CURRENT\n"
		"       " PROG " --min-busbw RULES [options] CURRENT\n"
		"       " PROG " --reference [--ref-table FILE] CURRENT\n\n"
		"BASELINE and CURRENT: a run folder of scripts/sweep.sh (summary.csv and the\n"
		"*.meta.json of each launch), or a summary CSV of allreduce_perf --csv (with\n"
		"X.meta.json next to X.csv). Rows are joined on (collective, backend, algo,\n"
		"transport, nranks, bytes, dtype, op, in_place).\n\noptions:\n");
	cb_optable_usage(f, table, NOPTS, 30);
	fprintf(f, "\nverdict, for bandwidth (higher is better) with baseline b, current c, tolerance\n"
		"tol, noise cap cap and each run's repeat band [lo, hi] (min and max over\n"
		"allreduce_perf --repeat blocks; a point without repeats):\n"
		"  regression   c < b(1 - tol) and one of: c < b(1 - cap) (beyond the noise cap),\n"
		"               c.hi < b.lo (bands apart), p < 0.001 (the runs' per-iteration\n"
		"               samples differ: Mann-Whitney U, two-sided; where both have them)\n"
		"  unknown      c < b(1 - tol) and none of those: the noise cannot tell (run again)\n"
		"  improvement  c > b(1 + tol) and the same evidence, mirrored (else unknown)\n"
		"  same         otherwise; mirrored for --metric time (lower is better)\n"
		"A row with an error: status in the current run is 'failed' and counts as a\n"
		"regression; a row measured in the baseline and skipped or absent now is\n"
		"'vanished' and counts as a regression (--allow-missing: missing); other rows\n"
		"only in one run, or skipped in one, are 'missing' (warned).\n"
		"A row whose bandwidth is absent or 0 (copy, n = 1, 0 bytes) uses the next metric\n"
		"down, busbw -> algbw -> time, named in its metric column.\n"
		"\nRefuses (exit 2) runs that differ in backend, GPU model, machine (label, CPU\n"
		"model, CPU count, GPU model; not memory: a baseline belongs to one machine), ranks\n"
		"per node for a rank count, timing mode (--timing), wait strategy (--wait), or\n"
		"the set of dtypes, unless --force.\n"
		"\nexit status: 0 no regression, 1 regression, failed or vanished row (or missing\n"
		"with --strict), 2 usage, input or output error, 4 no regression but a row worse\n"
		"beyond the tolerance that the noise cannot confirm (unknown: run again). The\n"
		"last line of table and markdown output is the summary (\"1 regression, 0\n"
		"improvements, 14 same, 0 missing\"); csv and json print it on stderr.\n"
		"Diagnostics go to stderr.\n"
		"\n--min-busbw: an absolute gate for a machine with a known-good figure: every\n"
		"rule a row matches (algorithm or *, bytes per rank in range) gives a floor;\n"
		"a row whose busbw (under --stat) is below its highest floor, or that failed,\n"
		"makes the exit status 1. Rows without a busbw (copy, n = 1) are not judged.\n"
		"Its lines (\"below floor: ...\", then \"floor: ...\") follow the table and\n"
		"markdown output, and go to stderr with csv and json.\n");
}

/* Parses argv; the two operands are left at argv[optind]. Returns 0, or -1
 * after printing a message. */
static int parse_args(int argc, char **argv, struct cli *c)
{
	char err[512];

	memset(c, 0, sizeof(*c));
	c->noise_cap_pct = NAN;
	if (cb_optable_parse(table, NOPTS, c, argc, argv, err, sizeof(err)) != CB_OK) {
		cb_eprintf(PROG ": %s\n", err);
		return -1;
	}
	c->cmp.tolerance = c->tolerance_pct / 100;
	c->cmp.noise_cap = isnan(c->noise_cap_pct) ? 2 * c->cmp.tolerance : c->noise_cap_pct / 100;
	if (c->cmp.noise_cap < c->cmp.tolerance) {
		cb_eprintf(PROG ": --noise-cap %g is below --tolerance %g: the noise cannot narrow "
			"the tolerance\n", c->noise_cap_pct, c->tolerance_pct);
		return -1;
	}
	c->cmp.min_bytes = c->min_bytes;
	c->cmp.algos = c->algos[0] ? c->algos : NULL;
	if (c->check_args && argc - optind != 0) {
		cb_eprintf(PROG ": --check-args takes no BASELINE or CURRENT (see --help)\n");
		return -1;
	}
	if (c->reference && !c->help && !c->check_args && argc - optind != 1) {
		cb_eprintf(PROG ": --reference takes CURRENT alone, got %d argument(s) "
			"(see --help)\n", argc - optind);
		return -1;
	}
	if (!c->help && !c->check_args && !c->reference && argc - optind != 2 &&
	    !(c->min_busbw[0] && argc - optind == 1)) {
		cb_eprintf(PROG ": expected BASELINE and CURRENT%s, got %d argument(s) "
			"(see --help)\n", c->min_busbw[0] ? " (or CURRENT alone)" : "", argc - optind);
		return -1;
	}
	if (c->min_busbw[0] &&
	    cb_floor_parse(c->min_busbw, &c->floors, err, sizeof(err)) != CB_OK) {
		cb_eprintf(PROG ": %s\n", err);
		return -1;
	}
	return 0;
}

/* Names up to MAX_LISTED rows of verdict v on stderr, as what. */
static void list_rows(const struct cb_comparison *c, enum cb_verdict v, const char *what)
{
	size_t listed = 0;
	char name[128];

	for (size_t i = 0; i < c->nrows; i++) {
		const struct cb_cmp_row *r = &c->rows[i];

		if (r->verdict != v)
			continue;
		if (listed++ == MAX_LISTED) {
			cb_eprintf(PROG ": %s: ... and %zu more %s rows\n", what,
				c->count[v] - MAX_LISTED, cb_verdict_name(v));
			break;
		}
		cb_cmp_row_name(r, name, sizeof(name));
		cb_eprintf(PROG ": %s: %s: %s\n", what, name, r->note);
	}
}

/* The rows only in one run on stderr, and notes on how rows were read. */
static void warn_missing(const struct cb_comparison *c)
{
	list_rows(c, CB_V_MISSING, "warning");
	list_rows(c, CB_V_VANISHED, "error");
	if (c->count[CB_V_VANISHED])
		cb_eprintf(PROG ": %zu row(s) measured in the baseline are skipped or absent now: "
			"counted as regressions (--allow-missing if that is intended)\n",
			c->count[CB_V_VANISHED]);
	if (c->inconsistent)
		cb_eprintf(PROG ": warning: %zu row(s) hold a value outside their own repeat "
			"band (an edited or inconsistent file): compared without that band\n",
			c->inconsistent);
	if (c->fallback)
		cb_eprintf(PROG ": note: %zu row(s) without a busbw (copy) or with busbw 0 "
			"(n = 1) compared on algbw\n", c->fallback);
	if (c->fallback_time)
		cb_eprintf(PROG ": note: %zu row(s) with bandwidth 0 (0 bytes) compared on "
			"time\n", c->fallback_time);
	if (c->no_median)
		cb_eprintf(PROG ": note: %zu row(s) lack the median columns (an older file): "
			"both sides compared on the mean\n", c->no_median);
}

/* The floors of --min-busbw on the current run: 0 pass, 1 a row below or
 * failed, 2 when no row was judged (rules that match nothing). */
static int check_floors(const struct cli *c, const struct cb_results *cur)
{
	FILE *out = c->fmt == CB_FMT_CSV || c->fmt == CB_FMT_JSON ? stderr : stdout;
	struct cb_floor_result r;

	cb_floor_check(&c->floors, cur, c->cmp.stat, out, &r);
	if (r.checked + r.failed == 0) {
		cb_eprintf(PROG ": --min-busbw matched no measured row with a busbw\n");
		return CB_EXIT_USAGE;
	}
	return r.below || r.failed ? EXIT_REGRESSION : 0;
}

/* CURRENT alone, with --min-busbw: the floors only. */
static int run_floors_only(const struct cli *c, const char *cpath)
{
	struct cb_results cur;
	char err[1024];
	int rc;

	if (cb_results_load(cpath, &cur, err, sizeof(err)) != CB_OK) {
		cb_eprintf(PROG ": current: %s\n", err);
		return CB_EXIT_USAGE;
	}
	rc = check_floors(c, &cur);
	cb_results_free(&cur);
	return rc;
}

/* --reference: the table (--ref-table, else the shipped one: the source
 * tree's, then the installed copy) and CURRENT placed against it. */
static int run_reference(const struct cli *c, const char *cpath)
{
	static const char *const shipped[] = { CB_REF_SOURCE, CB_REF_INSTALLED };
	const char *path = c->ref_table[0] ? c->ref_table : NULL;
	struct cb_ref_table rt;
	struct cb_results cur;
	char err[1024];
	int rc = CB_EXIT_USAGE;

	for (size_t i = 0; !path && i < 2; i++)
		if (access(shipped[i], R_OK) == 0)
			path = shipped[i];
	if (!path) {
		cb_eprintf(PROG ": --reference: no reference table at %s or %s (--ref-table "
			"FILE)\n", shipped[0], shipped[1]);
		return CB_EXIT_USAGE;
	}
	if (cb_ref_load(path, &rt, err, sizeof(err)) != CB_OK) {
		cb_eprintf(PROG ": --reference: %s\n", err);
		return CB_EXIT_USAGE;
	}
	if (cb_results_load(cpath, &cur, err, sizeof(err)) != CB_OK) {
		cb_eprintf(PROG ": current: %s\n", err);
		goto out_free_table;
	}
	if (cb_ref_place(stdout, &rt, path, &cur) == 0)
		rc = 0;
	cb_results_free(&cur);
out_free_table:
	cb_ref_free(&rt);
	return rc;
}

/* Loads one side (what: "baseline" or "current") and its samples; 0, or -1
 * after a message (nothing left to free). */
static int load_side(const char *what, const char *path, struct cb_results *r,
		     struct cb_samples *smp)
{
	char err[1024];

	if (cb_results_load(path, r, err, sizeof(err)) != CB_OK) {
		cb_eprintf(PROG ": %s: %s\n", what, err);
		return -1;
	}
	if (cb_samples_load(r, smp) != CB_OK) {
		cb_eprintf(PROG ": %s: out of memory\n", what);
		cb_results_free(r);
		return -1;
	}
	if (smp->note[0])
		cb_eprintf(PROG ": note: %s: per-iteration samples left out: %s\n", what,
			smp->note);
	return 0;
}

/* The worse of two exit statuses: usage, then regression, then unknown. */
static int worst(int a, int b)
{
	static const int rank[5] = { 0, 2, 3, 0, 1 }; /* by status 0, 1, 2, (3), 4 */

	return rank[b] > rank[a] ? b : a;
}

/* Compares loaded runs and prints the report; returns the exit status. */
static int judge_runs(const struct cli *c, const struct cb_results *base,
		      const struct cb_results *cur, const struct cb_samples *bs,
		      const struct cb_samples *cs, struct cb_out_info *info)
{
	static const int gate_rc[] = { 0, EXIT_REGRESSION, EXIT_UNKNOWN };
	struct cb_comparison cmp;
	char err[256], line[256];
	int rc = CB_EXIT_USAGE;

	if (cb_compare_runs(base, cur, bs, cs, &c->cmp, &cmp, err, sizeof(err)) != CB_OK) {
		cb_eprintf(PROG ": %s\n", err);
		return CB_EXIT_USAGE;
	}
	if (cmp.nrows == cmp.count[CB_V_MISSING] + cmp.count[CB_V_VANISHED]) {
		cb_eprintf(PROG ": no row measured in both runs%s: nothing to compare%s\n",
			c->cmp.algos || c->cmp.min_bytes ? " (after --algo/--min-bytes)" : "",
			cmp.count[CB_V_VANISHED] ? " (every row measured in the baseline is "
			"skipped or absent in the current run)" : "");
		goto out;
	}
	warn_missing(&cmp);
	info->gate = cb_compare_gate(&cmp, c->cmp.strict);
	errno = 0;
	if (cb_compare_print(stdout, c->fmt, &cmp, info) != CB_OK) {
		cb_eprintf(PROG ": cannot write the report to stdout: %s (the verdict is "
			"not reported)\n", errno ? strerror(errno) : "out of memory");
		goto out;
	}
	if (c->fmt == CB_FMT_CSV || c->fmt == CB_FMT_JSON) {
		cb_compare_summary(&cmp, line, sizeof(line));
		cb_eprintf("%s\n", line);
	}
	if (info->gate == CB_GATE_UNKNOWN)
		cb_eprintf(PROG ": %zu row(s) worse beyond the tolerance, within the noise: "
			"unknown, run again (exit %d)\n", cmp.unknown_worse, EXIT_UNKNOWN);
	rc = gate_rc[info->gate];
out:
	cb_comparison_free(&cmp);
	return rc;
}

/* Loads, checks and compares; returns the exit status. */
static int run(const struct cli *c, const char *bpath, const char *cpath)
{
	struct cb_results base, cur;
	struct cb_samples bs, cs;
	struct cb_out_info info = { bpath, cpath, &c->cmp, CB_GATE_PASS };
	int rc = CB_EXIT_USAGE;

	if (load_side("baseline", bpath, &base, &bs) != 0)
		return CB_EXIT_USAGE;
	if (load_side("current", cpath, &cur, &cs) != 0)
		goto out_free_base;
	if (cb_compat_check(&base, bpath, &cur, cpath, c->cmp.algos, c->force, stderr) && !c->force) {
		cb_eprintf(PROG ": the runs are not comparable (--force compares anyway)\n");
		goto out_free_cur;
	}
	rc = judge_runs(c, &base, &cur, &bs, &cs, &info);
	if (rc != CB_EXIT_USAGE && c->floors.n)
		rc = worst(rc, check_floors(c, &cur));
out_free_cur:
	cb_samples_free(&cs);
	cb_results_free(&cur);
out_free_base:
	cb_samples_free(&bs);
	cb_results_free(&base);
	return rc;
}

int main(int argc, char **argv)
{
	struct cli c;
	int rc;

	if (parse_args(argc, argv, &c) != 0)
		return CB_EXIT_USAGE;
	if (c.check_args) { /* parse_args checked them all */
		cb_floors_free(&c.floors);
		return 0;
	}
	if (c.help) {
		usage(stdout);
		cb_floors_free(&c.floors);
		return cb_close_stdout(PROG, 0, CB_EXIT_USAGE);
	}
	if (c.reference)
		rc = run_reference(&c, argv[optind]);
	else if (argc - optind == 1)
		rc = run_floors_only(&c, argv[optind]);
	else
		rc = run(&c, argv[optind], argv[optind + 1]);
	cb_floors_free(&c.floors);
	return cb_close_stdout(PROG, rc, CB_EXIT_USAGE);
}
