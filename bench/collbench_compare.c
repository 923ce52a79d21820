/* collbench-compare BASELINE CURRENT: compares two collbench results (summary
 * CSV files or run folders, with their metadata sidecars) row by row and
 * says whether the current one regressed. Exit status: 0 no regression,
 * 1 regression (or a failed row; or a missing row with --strict), 2 usage or
 * input error. Options come from one table that also prints --help. */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cb_compare.h"
#include "cb_compare_out.h"
#include "cb_compat.h"
#include "cb_options.h"
#include "cb_results.h"

#define PROG "collbench-compare"
#define EXIT_REGRESSION 1
#define EXIT_USAGE 2
#define MAX_LISTED 10 /* rows named in the "only in one run" warnings */

struct cli {
	struct cb_compare_opts cmp;
	enum cb_format fmt;
	int force, help;
	char algos[256];
};

typedef int (*opt_set_fn)(struct cli *c, const char *v);

struct opt_def {
	const char *lname;
	int sname;           /* 0: long option only */
	const char *argname; /* NULL: a flag */
	const char *defval;  /* applied through set() before parsing */
	const char *help;
	opt_set_fn set;
};

static int set_metric(struct cli *c, const char *v)
{
	static const char *const names[] = { "busbw", "algbw", "time" };

	for (int m = 0; m < 3; m++)
		if (strcmp(v, names[m]) == 0) {
			c->cmp.metric = (enum cb_metric)m;
			return 0;
		}
	return -1;
}

static int set_stat(struct cli *c, const char *v)
{
	if (strcmp(v, "median") == 0)
		c->cmp.stat = CB_STAT_MEDIAN;
	else if (strcmp(v, "mean") == 0)
		c->cmp.stat = CB_STAT_MEAN;
	else
		return -1;
	return 0;
}

static int set_tolerance(struct cli *c, const char *v)
{
	char *end;
	double pct;

	errno = 0;
	pct = strtod(v, &end);
	if (errno || end == v || *end || !(pct >= 0 && pct < 100))
		return -1;
	c->cmp.tolerance = pct / 100;
	return 0;
}

static int set_min_bytes(struct cli *c, const char *v)
{
	size_t b;

	if (cb_parse_size(v, &b) != 0)
		return -1;
	c->cmp.min_bytes = b;
	return 0;
}

static int set_algo(struct cli *c, const char *v)
{
	if (!*v || strlen(v) >= sizeof(c->algos))
		return -1;
	strcpy(c->algos, v);
	c->cmp.algos = c->algos;
	return 0;
}

static int set_format(struct cli *c, const char *v)
{
	static const char *const names[] = { "table", "csv", "markdown", "json" };

	for (int k = 0; k < 4; k++)
		if (strcmp(v, names[k]) == 0) {
			c->fmt = (enum cb_format)k;
			return 0;
		}
	return -1;
}

static int set_strict(struct cli *c, const char *v)
{
	(void)v;
	c->cmp.strict = 1;
	return 0;
}

static int set_force(struct cli *c, const char *v)
{
	(void)v;
	c->force = 1;
	return 0;
}

static int set_help(struct cli *c, const char *v)
{
	(void)v;
	c->help = 1;
	return 0;
}

static const struct opt_def table[] = {
	{ "metric", 'm', "busbw|algbw|time", "busbw", "what to compare (busbw: rows without one, such as copy, use algbw)", set_metric },
	{ "stat", 's', "median|mean", "median", "each row's median time over iterations (robust to a preempted iteration), or its mean (the table's headline)", set_stat },
	{ "tolerance", 't', "PCT", "5", "changes smaller than PCT percent are 'same'", set_tolerance },
	{ "min-bytes", 0, "SIZE", "0", "ignore rows below SIZE bytes (K, M, G), e.g. latency-bound sizes", set_min_bytes },
	{ "algo", 'a', "LIST", NULL, "compare only these algorithms (comma list)", set_algo },
	{ "format", 'f', "FMT", "table", "table, csv, markdown (for CI summaries) or json", set_format },
	{ "strict", 0, NULL, NULL, "rows present in only one run (or skipped in one) count as failures", set_strict },
	{ "force", 0, NULL, NULL, "compare runs whose metadata make them incomparable (warns)", set_force },
	{ "help", 'h', NULL, NULL, "print this help", set_help },
};
#define NOPTS (sizeof(table) / sizeof(table[0]))
#define LONG_ONLY_BASE 256

static void usage(FILE *f)
{
	fprintf(f, "usage: " PROG " [options] BASELINE CURRENT\n\n"
		"BASELINE and CURRENT: a run folder of scripts/sweep.sh (summary.csv and the\n"
		"*.meta.json of each launch), or a summary CSV of allreduce_perf --csv (with\n"
		"X.meta.json next to X.csv). Rows are joined on (backend, algo, nranks, bytes,\n"
		"dtype, op, in_place).\n\noptions:\n");
	for (size_t i = 0; i < NOPTS; i++) {
		const struct opt_def *d = &table[i];
		char lhs[64];

		snprintf(lhs, sizeof(lhs), "%c%c%s--%s%s%s", d->sname ? '-' : ' ',
			 d->sname ? d->sname : ' ', d->sname ? ", " : "  ", d->lname,
			 d->argname ? " " : "", d->argname ? d->argname : "");
		fprintf(f, "  %-30s %s", lhs, d->help);
		if (d->defval && strcmp(d->defval, "0") != 0)
			fprintf(f, " [%s]", d->defval);
		fputc('\n', f);
	}
	fprintf(f, "\nverdict, for bandwidth (higher is better) with baseline b, current c, tolerance\n"
		"tol and each run's repeat band [lo, hi] (min and max over allreduce_perf -R\n"
		"repeats; a point without repeats):\n"
		"  regression   c < b(1 - tol) and c.hi < b.lo  (beyond the tolerance and both noises)\n"
		"  improvement  c > b(1 + tol) and c.lo > b.hi\n"
		"  same         otherwise; mirrored for --metric time (lower is better)\n"
		"A row with an error: status in the current run is 'failed' and counts as a\n"
		"regression; rows only in one run, or skipped in one, are 'missing' (warned).\n"
		"\nRefuses (exit 2) runs that differ in backend, GPU model, ranks per node for a\n"
		"rank count, or the set of dtypes, unless --force; warns on other CPU models.\n"
		"\nexit status: 0 no regression, 1 regression or failed row (or missing with\n"
		"--strict), 2 usage or input error. The last line of table and markdown output\n"
		"is the summary (\"1 regression, 0 improvements, 14 same, 0 missing\"); csv and\n"
		"json print it on stderr. Diagnostics go to stderr.\n");
}

static const struct opt_def *find_opt(int val)
{
	for (size_t i = 0; i < NOPTS; i++)
		if ((table[i].sname && table[i].sname == val) || val == LONG_ONLY_BASE + (int)i)
			return &table[i];
	return NULL;
}

/* Parses argv; the two operands are left at argv[optind]. Returns 0, or -1
 * after printing a message. */
static int parse_args(int argc, char **argv, struct cli *c)
{
	char shortopts[2 * NOPTS + 2], *p = shortopts;
	struct option longopts[NOPTS + 1];
	int ch;

	memset(c, 0, sizeof(*c));
	*p++ = ':';
	for (size_t i = 0; i < NOPTS; i++) {
		longopts[i] = (struct option){ table[i].lname,
					       table[i].argname ? required_argument : no_argument,
					       NULL, table[i].sname ? table[i].sname :
								      LONG_ONLY_BASE + (int)i };
		if (table[i].sname) {
			*p++ = (char)table[i].sname;
			if (table[i].argname)
				*p++ = ':';
		}
		if (table[i].defval)
			(void)table[i].set(c, table[i].defval);
	}
	*p = '\0';
	longopts[NOPTS] = (struct option){ 0, 0, 0, 0 };
	opterr = 0;
	while ((ch = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
		const struct opt_def *d = find_opt(ch);

		if (ch == '?' || ch == ':' || !d) {
			fprintf(stderr, PROG ": '%s' %s (see --help)\n", argv[optind - 1],
				ch == ':' ? "needs a value" : "is not a known option");
			return -1;
		}
		if (d->set(c, optarg) != 0) {
			fprintf(stderr, PROG ": --%s: invalid value '%s' (expected %s)\n", d->lname,
				optarg, d->argname);
			return -1;
		}
	}
	if (!c->help && argc - optind != 2) {
		fprintf(stderr, PROG ": expected BASELINE and CURRENT, got %d argument(s) "
			"(see --help)\n", argc - optind);
		return -1;
	}
	return 0;
}

/* Names up to MAX_LISTED rows of one kind of missing on stderr. */
static void warn_missing(const struct cb_comparison *c)
{
	size_t listed = 0;
	char name[128];

	for (size_t i = 0; i < c->nrows; i++) {
		const struct cb_cmp_row *r = &c->rows[i];

		if (r->verdict != CB_V_MISSING)
			continue;
		if (listed++ == MAX_LISTED) {
			fprintf(stderr, PROG ": warning: ... and %zu more missing rows\n",
				c->count[CB_V_MISSING] - MAX_LISTED);
			break;
		}
		cb_cmp_row_name(r, name, sizeof(name));
		fprintf(stderr, PROG ": warning: %s: %s\n", name, r->note);
	}
	if (c->inconsistent)
		fprintf(stderr, PROG ": warning: %zu row(s) hold a value outside their own repeat "
			"band (an edited or inconsistent file): compared without that band\n",
			c->inconsistent);
	if (c->fallback)
		fprintf(stderr, PROG ": note: %zu row(s) without busbw (copy) compared on algbw\n",
			c->fallback);
	if (c->no_median)
		fprintf(stderr, PROG ": note: %zu row(s) lack the median columns (an older file): "
			"compared on the mean\n", c->no_median);
}

/* Loads, checks and compares; returns the exit status. */
static int run(const struct cli *c, const char *bpath, const char *cpath)
{
	struct cb_results base, cur;
	struct cb_comparison cmp;
	struct cb_out_info info = { bpath, cpath, &c->cmp, 0 };
	char err[1024], line[256];
	int rc = EXIT_USAGE;

	if (cb_results_load(bpath, &base, err, sizeof(err)) != CB_OK) {
		fprintf(stderr, PROG ": baseline: %s\n", err);
		return EXIT_USAGE;
	}
	if (cb_results_load(cpath, &cur, err, sizeof(err)) != CB_OK) {
		fprintf(stderr, PROG ": current: %s\n", err);
		goto out_free_base;
	}
	if (cb_compat_check(&base, bpath, &cur, cpath, c->force, stderr) && !c->force) {
		fprintf(stderr, PROG ": the runs are not comparable (--force compares anyway)\n");
		goto out_free_cur;
	}
	if (cb_compare_runs(&base, &cur, &c->cmp, &cmp, err, sizeof(err)) != CB_OK) {
		fprintf(stderr, PROG ": %s\n", err);
		goto out_free_cur;
	}
	if (cmp.count[CB_V_SAME] + cmp.count[CB_V_REGRESSION] + cmp.count[CB_V_IMPROVEMENT] +
		    cmp.count[CB_V_FAILED] == 0) {
		fprintf(stderr, PROG ": no row measured in both runs%s: nothing to compare\n",
			c->cmp.algos || c->cmp.min_bytes ? " (after --algo/--min-bytes)" : "");
		goto out_free_cmp;
	}
	warn_missing(&cmp);
	info.gate_failed = cb_compare_failed(&cmp, c->cmp.strict);
	if (cb_compare_print(stdout, c->fmt, &cmp, &info) != CB_OK) {
		fprintf(stderr, PROG ": cannot write the output\n");
		goto out_free_cmp;
	}
	if (c->fmt == CB_FMT_CSV || c->fmt == CB_FMT_JSON) {
		cb_compare_summary(&cmp, line, sizeof(line));
		fprintf(stderr, "%s\n", line);
	}
	rc = info.gate_failed ? EXIT_REGRESSION : 0;
out_free_cmp:
	cb_comparison_free(&cmp);
out_free_cur:
	cb_results_free(&cur);
out_free_base:
	cb_results_free(&base);
	return rc;
}

int main(int argc, char **argv)
{
	struct cli c;

	if (parse_args(argc, argv, &c) != 0)
		return EXIT_USAGE;
	if (c.help) {
		usage(stdout);
		return 0;
	}
	return run(&c, argv[optind], argv[optind + 1]);
}
