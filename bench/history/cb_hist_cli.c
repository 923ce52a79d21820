/* cb_hist_cli: verbs and option tables of collbench-history (contract in
 * cb_hist_cli.h). */
#define _GNU_SOURCE
#include "cb_hist_cli.h"

#include <getopt.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cb_optable.h"
#include "cb_text.h"

#define PROG "collbench-history"

/* ENUM rows store through an int */
_Static_assert(sizeof(enum cb_metric) == sizeof(int), "enum cb_metric is int-sized");
_Static_assert(sizeof(enum cb_stat) == sizeof(int), "enum cb_stat is int-sized");
_Static_assert(sizeof(enum cb_hist_fmt) == sizeof(int), "enum cb_hist_fmt is int-sized");

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
	return cb_hist_fmt_name((enum cb_hist_fmt)i);
}

/* The option lines (typed rows of cb_optable.h) and which verb takes which.
 * Each option is spelled once, in its O_* line. */
#define OFF(field) CB_OPT_FIELD(struct cb_hist_cli, field)
#define TEXT(w) .kind = CB_OPT_TEXT, .what = w

#define O_DB { .lname = "db", .argname = "PATH", .defval = CB_HIST_DEFAULT_DB, TEXT("path"), \
	  OFF(db), .help = "the history database (created by ingest)" }
#define O_HELP { .lname = "help", .sname = 'h', .kind = CB_OPT_FLAG, OFF(help), \
	  .help = "print this help" }
#define O_LABEL { .lname = "label", .sname = 'l', .argname = "TEXT", TEXT("label"), OFF(label), \
	  .help = "store TEXT with the run (a branch, a build name)" }
#define O_MACHINE { .lname = "machine", .argname = "NAME", TEXT("machine"), OFF(machine), \
	  .help = "the machine: its label (CB_MACHINE, else the host name) or full identity; " \
	          "default: the only one in the history, else this machine (its label and " \
	          "hardware)" }
#define O_BACKEND { .lname = "backend", .sname = 'B', .argname = "NAME", TEXT("backend"), \
	  OFF(backend), .help = "only rows of this backend (host, cuda)" }
#define O_ALGO { .lname = "algo", .sname = 'a', .argname = "LIST", TEXT("list"), OFF(algos), \
	  .flags = CB_OPT_LIST, .help = "only these algorithms (comma list)" }
#define O_NRANKS { .lname = "nranks", .sname = 'n', .argname = "N", .kind = CB_OPT_INT, \
	  OFF(nranks), .lo = 1, .hi = 1 << 24, .help = "only rows of N ranks" }
#define O_BYTES { .lname = "bytes", .sname = 'b', .argname = "SIZE", .kind = CB_OPT_SIZE, \
	  OFF(bytes), .help = "only rows of SIZE bytes per rank (K, M, G)" }
#define O_DTYPE { .lname = "dtype", .sname = 'd', .argname = "TYPE", TEXT("dtype"), OFF(dtype), \
	  .help = "only rows of this dtype" }
#define O_OP { .lname = "op", .sname = 'o', .argname = "OP", TEXT("op"), OFF(op), \
	  .help = "only rows of this reduction op" }
#define O_IN_PLACE { .lname = "in-place", .argname = "0|1", .kind = CB_OPT_INT, OFF(in_place), \
	  .hi = 1, .help = "only out-of-place (0) or in-place (1) rows" }
#define O_TRANSPORT { .lname = "transport", .argname = "NAME", TEXT("transport"), OFF(transport), \
	  .help = "only rows of this transport (shm, ipc, p2p, library, local)" }
#define O_COLL { .lname = "coll", .argname = "NAME", TEXT("collective"), OFF(collective), \
	  .help = "only rows of this collective (allreduce, reduce_scatter, ...: " \
	          "allreduce_perf --help lists them)" }
#define O_MIN_BYTES { .lname = "min-bytes", .argname = "SIZE", .defval = "0", .kind = CB_OPT_SIZE, \
	  OFF(min_bytes), .help = "leave out rows below SIZE bytes (latency-bound sizes)" }
#define O_METRIC { .lname = "metric", .sname = 'm', .argname = "busbw|algbw|time", \
	  .defval = "busbw", .kind = CB_OPT_ENUM, OFF(metric), .name = metric_name, \
	  .count = CB_METRIC_TIME + 1, .what = "", \
	  .help = "the metric of each series; a series whose bandwidth is absent or 0 uses the " \
	          "next one down (copy, n = 1: algbw; 0 bytes: time)" }
#define O_STAT { .lname = "stat", .sname = 's', .argname = "median|mean", .defval = "median", \
	  .kind = CB_OPT_ENUM, OFF(stat), .name = stat_name, .count = CB_STAT_MEAN + 1, \
	  .what = "", \
	  .help = "each row's median time over iterations (as collbench-compare), or its mean" }
#define O_PVALUE { .lname = "pvalue", .sname = 'p', .argname = "P", .defval = "1e-5", \
	  .kind = CB_OPT_DOUBLE, OFF(pvalue), .hi = 1, .what = "a level in (0, 1)", \
	  .flags = CB_OPT_LO_OPEN | CB_OPT_HI_OPEN, \
	  .help = "significance level of the t-test of a change point" }
#define O_WINDOW { .lname = "window", .sname = 'w', .argname = "N", .defval = "50", \
	  .kind = CB_OPT_INT, OFF(window), .lo = 4, .hi = 100000, \
	  .help = "points per window of the E-divisive search" }
#define O_MIN_CHANGE { .lname = "min-change", .argname = "PCT", .defval = "0", \
	  .kind = CB_OPT_DOUBLE, OFF(min_change_pct), .hi = 1000, \
	  .what = "a percentage in [0, 1000)", .flags = CB_OPT_HI_OPEN, \
	  .help = "drop change points whose step is at most PCT percent" }
#define O_NOISE_FLOOR { .lname = "noise-floor", .argname = "PCT", .defval = "1", \
	  .kind = CB_OPT_DOUBLE, OFF(noise_floor_pct), .hi = 100, \
	  .what = "a percentage in [0, 100]", \
	  .help = "the least run-to-run noise (standard deviation, percent of the level) the " \
	          "t-test assumes: a step on runs without spread is judged against it, not " \
	          "against zero" }
#define O_FORMAT { .lname = "format", .sname = 'f', .argname = "FMT", .defval = "table", \
	  .kind = CB_OPT_ENUM, OFF(fmt), .name = format_name, .count = CB_HIST_FMT_TSV + 1, \
	  .what = "", .help = "table, csv, markdown, or tsv (for scripts/plot_history.sh)" }
#define O_GATE_FORMAT { .lname = "format", .sname = 'f', .argname = "table|markdown", \
	  .defval = "table", .kind = CB_OPT_ENUM, OFF(fmt), .name = format_name, \
	  .count = CB_HIST_FMT_TSV + 1, .what = "", \
	  .help = "table or markdown (for CI summaries)" }
#define O_RECENT { .lname = "recent", .sname = 'r', .argname = "N", .defval = "0", \
	  .kind = CB_OPT_INT, OFF(recent), .hi = 1 << 30, \
	  .help = "judge only change points at most N runs old (0: the last change point, " \
	          "however old)" }

#define O_SELECT O_MACHINE, O_BACKEND, O_ALGO, O_NRANKS, O_BYTES, O_DTYPE, O_OP, O_IN_PLACE, \
		 O_TRANSPORT, O_COLL, O_MIN_BYTES, O_METRIC, O_STAT, O_PVALUE, O_WINDOW, O_MIN_CHANGE, \
		 O_NOISE_FLOOR

static const struct cb_optdef ingest_opts[] = { O_DB, O_LABEL, O_HELP };
static const struct cb_optdef trend_opts[] = { O_DB, O_SELECT, O_FORMAT, O_HELP };
static const struct cb_optdef detect_opts[] = { O_DB, O_SELECT, O_FORMAT, O_HELP };
static const struct cb_optdef gate_opts[] = { O_DB, O_SELECT, O_RECENT, O_GATE_FORMAT, O_HELP };
static const struct cb_optdef plain_opts[] = { O_DB, O_HELP };

#define N(t) (sizeof(t) / sizeof((t)[0]))
static const struct {
	const char *name, *synopsis, *about;
	const struct cb_optdef *opts;
	size_t nopts;
} verbs[CB_VERB_COUNT] = {
	{ "ingest", "ingest [--db PATH] [--label TEXT] RUN...",
	  "  adds each run (a run folder of sweep.sh or regress.sh, or a summary CSV with its\n"
	  "  X.meta.json) in one transaction, in the order of their start times, after the\n"
	  "  runs of its machine already there (a history is in ingest order); a run already\n"
	  "  there (the same machine, start time, command lines and rows' values, however the\n"
	  "  files are written) changes nothing", ingest_opts, N(ingest_opts) },
	{ "trend", "trend [--db PATH] [selection] [--format FMT]",
	  "  the series of a metric over time, one per row key of one machine, with each\n"
	  "  point's repeat band, its segment's mean and the change points", trend_opts,
	  N(trend_opts) },
	{ "detect", "detect [--db PATH] [selection] [--format FMT]",
	  "  the change points of each series: time, run, step, direction (regression or\n"
	  "  improvement) and the commit or version change that coincides", detect_opts,
	  N(detect_opts) },
	{ "gate", "gate [--db PATH] [selection] [--recent N]",
	  "  for CI: is the newest run of the machine after a change point that is a\n"
	  "  regression, or did a row of it fail? Exit 1 if so for any series it measured",
	  gate_opts, N(gate_opts) },
	{ "runs", "runs [--db PATH]",
	  "  the runs of the history, oldest first (TSV: id, time, machine, name, commit, rows,\n"
	  "  label, launcher, job id)", plain_opts, N(plain_opts) },
	{ "check", "check [--db PATH]",
	  "  the database's consistency: SQLite's integrity and foreign-key checks, every run\n"
	  "  complete", plain_opts, N(plain_opts) },
};
#undef N

static const char usage_tail[] =
	"selection: --machine, --backend, --algo, --nranks, --bytes, --dtype, --op, --in-place,\n"
	"--transport, --coll, --min-bytes pick the series; --metric, --stat, --pvalue,\n"
	"--window, --min-change, --noise-floor how they are read and searched (VERB --help\n"
	"lists them).\n"
	"Series never mix machines (label, CPU model, CPUs, GPU model) nor collectives.\n"
	"exit status: 0 done (gate: no regression), 1 gate: the newest run is after a\n"
	"regression or a row of it failed, 2 usage, input or database error. Results on\n"
	"stdout, diagnostics on stderr.\n";

/* The filter and the search options from the parsed fields. */
static void derive(struct cb_hist_cli *c)
{
	struct cb_hist_filter *f = &c->filter;

	f->backend = c->backend[0] ? c->backend : NULL;
	f->algos = c->algos[0] ? c->algos : NULL;
	f->dtype = c->dtype[0] ? c->dtype : NULL;
	f->op = c->op[0] ? c->op : NULL;
	f->transport = c->transport[0] ? c->transport : NULL;
	f->collective = c->collective[0] ? c->collective : NULL;
	f->nranks = c->nranks;
	f->in_place = c->in_place;
	f->bytes = c->bytes == SIZE_MAX ? -1 : (long long)c->bytes;
	f->min_bytes = c->min_bytes;
	c->cpd.max_pvalue = c->pvalue;
	c->cpd.window = (size_t)c->window;
	c->cpd.min_magnitude = c->min_change_pct / 100;
	c->cpd.noise_floor = c->noise_floor_pct / 100;
}

/* The verb named by argv[1]; CB_VERB_COUNT after a message when none. */
static enum cb_hist_verb find_verb(int argc, char **argv)
{
	int v;

	for (v = 0; v < CB_VERB_COUNT && argc >= 2; v++)
		if (strcmp(argv[1], verbs[v].name) == 0)
			return (enum cb_hist_verb)v;
	cb_eprintf(PROG ": %s%s%s: expected a verb: ingest, trend, detect, gate, runs or "
		"check (see --help)\n", argc < 2 ? "no verb" : "unknown verb '",
		argc < 2 ? "" : argv[1], argc < 2 ? "" : "'");
	return CB_VERB_COUNT;
}

int cb_hist_cli_parse(int argc, char **argv, struct cb_hist_cli *c)
{
	char err[512];
	enum cb_hist_verb v;

	memset(c, 0, sizeof(*c));
	c->nranks = c->in_place = -1;
	c->bytes = SIZE_MAX;
	c->verb = CB_VERB_COUNT;
	if (argc >= 2 && (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0)) {
		c->help = 1;
		return 0;
	}
	v = find_verb(argc, argv);
	if (v == CB_VERB_COUNT)
		return -1;
	c->verb = v;
	if (cb_optable_parse(verbs[v].opts, verbs[v].nopts, c, argc - 1, argv + 1, err,
			     sizeof(err)) != CB_OK) {
		cb_eprintf(PROG " %s: %s\n", verbs[v].name, err);
		return -1;
	}
	optind += 1; /* past the verb, in argv's numbering */
	derive(c);
	if (!c->help && !c->db[0]) {
		cb_eprintf(PROG " %s: --db: an empty path\n", verbs[v].name);
		return -1;
	}
	if (!c->help && (v == CB_VERB_INGEST ? argc - optind < 1 : argc - optind > 0)) {
		cb_eprintf(PROG " %s: %s (see %s --help)\n", verbs[v].name,
			v == CB_VERB_INGEST ? "expected one or more run folders or summary CSV files"
					    : "takes no operands", verbs[v].name);
		return -1;
	}
	return 0;
}

void cb_hist_cli_usage(FILE *f, enum cb_hist_verb verb)
{
	for (int v = 0; v < CB_VERB_COUNT; v++) {
		if (verb != CB_VERB_COUNT && v != (int)verb)
			continue;
		fprintf(f, "usage: " PROG " %s\n%s\n", verbs[v].synopsis, verbs[v].about);
		if (verb != CB_VERB_COUNT) {
			fprintf(f, "\noptions:\n");
			cb_optable_usage(f, verbs[v].opts, verbs[v].nopts, 30);
		}
		fputc('\n', f);
	}
	fprintf(f, "%s", usage_tail);
}
