/* cb_hist_cli_tables: the option lines of collbench-history (typed rows of
 * cb_optable.h) and which verb takes which; included once, by cb_hist_cli.c
 * (the name functions live there). Each option is spelled once, in its O_*
 * line. */
#ifndef CB_HIST_CLI_TABLES_H
#define CB_HIST_CLI_TABLES_H

#define OFF(field) .offset = offsetof(struct cb_hist_cli, field), \
		   .size = sizeof(((struct cb_hist_cli *)0)->field)
#define TEXT(w) .kind = CB_OPT_TEXT, .what = w

#define O_DB { "db", 0, "PATH", CB_HIST_DEFAULT_DB, "the history database (created by ingest)", TEXT("path"), OFF(db) }
#define O_HELP { "help", 'h', NULL, NULL, "print this help", .kind = CB_OPT_FLAG, OFF(help) }
#define O_LABEL { "label", 'l', "TEXT", NULL, "store TEXT with the run (a branch, a build name)", TEXT("label"), OFF(label) }
#define O_MACHINE { "machine", 0, "NAME", NULL, "the machine: its label (CB_MACHINE, else the host name) or full identity; default: the only one in the history, else this machine (its label and hardware)", TEXT("machine"), OFF(machine) }
#define O_BACKEND { "backend", 'B', "NAME", NULL, "only rows of this backend (host, cuda)", TEXT("backend"), OFF(backend) }
#define O_ALGO { "algo", 'a', "LIST", NULL, "only these algorithms (comma list)", TEXT("list"), OFF(algos), .flags = CB_OPT_LIST }
#define O_NRANKS { "nranks", 'n', "N", NULL, "only rows of N ranks", .kind = CB_OPT_INT, OFF(nranks), .lo = 1, .hi = 1 << 24 }
#define O_BYTES { "bytes", 'b', "SIZE", NULL, "only rows of SIZE bytes per rank (K, M, G)", .kind = CB_OPT_SIZE, OFF(bytes) }
#define O_DTYPE { "dtype", 'd', "TYPE", NULL, "only rows of this dtype", TEXT("dtype"), OFF(dtype) }
#define O_OP { "op", 'o', "OP", NULL, "only rows of this reduction op", TEXT("op"), OFF(op) }
#define O_IN_PLACE { "in-place", 0, "0|1", NULL, "only out-of-place (0) or in-place (1) rows", .kind = CB_OPT_INT, OFF(in_place), .lo = 0, .hi = 1 }
#define O_TRANSPORT { "transport", 0, "NAME", NULL, "only rows of this transport (shm, ipc, p2p, library, local)", TEXT("transport"), OFF(transport) }
#define O_MIN_BYTES { "min-bytes", 0, "SIZE", "0", "leave out rows below SIZE bytes (latency-bound sizes)", .kind = CB_OPT_SIZE, OFF(min_bytes) }
#define O_METRIC { "metric", 'm', "busbw|algbw|time", "busbw", "the metric of each series; a series whose bandwidth is absent or 0 uses the next one down (copy, n = 1: algbw; 0 bytes: time)", .kind = CB_OPT_ENUM, OFF(metric), .name = metric_name, .count = CB_METRIC_TIME + 1, .what = "" }
#define O_STAT { "stat", 's', "median|mean", "median", "each row's median time over iterations (as collbench-compare), or its mean", .kind = CB_OPT_ENUM, OFF(stat), .name = stat_name, .count = CB_STAT_MEAN + 1, .what = "" }
#define O_PVALUE { "pvalue", 'p', "P", "1e-5", "significance level of the t-test of a change point", .kind = CB_OPT_DOUBLE, OFF(pvalue), .lo = 0, .hi = 1, .what = "a level in (0, 1)", .flags = CB_OPT_LO_OPEN | CB_OPT_HI_OPEN }
#define O_WINDOW { "window", 'w', "N", "50", "points per window of the E-divisive search", .kind = CB_OPT_INT, OFF(window), .lo = 4, .hi = 100000 }
#define O_MIN_CHANGE { "min-change", 0, "PCT", "0", "drop change points whose step is at most PCT percent", .kind = CB_OPT_DOUBLE, OFF(min_change_pct), .lo = 0, .hi = 1000, .what = "a percentage in [0, 1000)", .flags = CB_OPT_HI_OPEN }
#define O_NOISE_FLOOR { "noise-floor", 0, "PCT", "1", "the least run-to-run noise (standard deviation, percent of the level) the t-test assumes: a step on runs without spread is judged against it, not against zero", .kind = CB_OPT_DOUBLE, OFF(noise_floor_pct), .lo = 0, .hi = 100, .what = "a percentage in [0, 100]" }
#define O_FORMAT { "format", 'f', "FMT", "table", "table, csv, markdown, or tsv (for scripts/plot_history.sh)", .kind = CB_OPT_ENUM, OFF(fmt), .name = format_name, .count = CB_HIST_FMT_TSV + 1, .what = "" }
#define O_GATE_FORMAT { "format", 'f', "table|markdown", "table", "table or markdown (for CI summaries)", .kind = CB_OPT_ENUM, OFF(fmt), .name = format_name, .count = CB_HIST_FMT_TSV + 1, .what = "" }
#define O_RECENT { "recent", 'r', "N", "0", "judge only change points at most N runs old (0: the last change point, however old)", .kind = CB_OPT_INT, OFF(recent), .lo = 0, .hi = 1 << 30 }

#define O_SELECT O_MACHINE, O_BACKEND, O_ALGO, O_NRANKS, O_BYTES, O_DTYPE, O_OP, O_IN_PLACE, \
		 O_TRANSPORT, O_MIN_BYTES, O_METRIC, O_STAT, O_PVALUE, O_WINDOW, O_MIN_CHANGE, \
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
	{ "runs", "runs [--db PATH]", "  the runs of the history, oldest first (TSV: id, time, machine, name, commit, rows,\n  label, launcher, job id)", plain_opts,
	  N(plain_opts) },
	{ "check", "check [--db PATH]",
	  "  the database's consistency: SQLite's integrity and foreign-key checks, every run\n"
	  "  complete", plain_opts, N(plain_opts) },
};
#undef N

static const char usage_tail[] =
	"selection: --machine, --backend, --algo, --nranks, --bytes, --dtype, --op, --in-place,\n"
	"--transport, --min-bytes pick the series; --metric, --stat, --pvalue, --window,\n"
	"--min-change, --noise-floor how they are read and searched (VERB --help lists\n"
	"them).\n"
	"Series never mix machines (label, CPU model, CPUs, GPU model).\n"
	"exit status: 0 done (gate: no regression), 1 gate: the newest run is after a\n"
	"regression or a row of it failed, 2 usage, input or database error. Results on\n"
	"stdout, diagnostics on stderr.\n";

#endif
