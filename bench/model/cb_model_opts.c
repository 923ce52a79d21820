/* cb_model_opts: collbench-model's option table, the verbs each option
 * applies to, and the values derived after parsing (contract in
 * cb_model_opts.h). */
#define _GNU_SOURCE
#include "cb_model_opts.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cb_coll.h"
#include "cb_dtype.h"
#include "cb_optable.h"
#include "cb_output.h"
#include "cb_model_reg.h"

/* ENUM rows store through an int */
_Static_assert(sizeof(enum cb_mfmt) == sizeof(int), "enum cb_mfmt is int-sized");

enum { FIT = 1u << CB_VERB_FIT, CHECK = 1u << CB_VERB_CHECK, PREDICT = 1u << CB_VERB_PREDICT,
       PRESETS = 1u << CB_VERB_PRESETS, ALL = FIT | CHECK | PREDICT | PRESETS };

/* The rows, in --help order. */
enum { O_FORMAT, O_OUTPUT, O_FIT, O_ALGO, O_MINB, O_TIERS, O_NOGAMMA, O_NOFRESH, O_OVER, O_FAR, O_GATE,
       O_SUMMARY, O_TOPO, O_RANKS, O_MINBYTES, O_MAXBYTES, O_FACTOR, O_FACTOR_OLD, O_CROSS, O_ROOT,
       O_DTYPE, O_COLL, O_BACKEND, O_TWOSIDED, O_PLAN, O_CHOICE, O_LIBRARY, O_HELP, NOPTS };


static const char *format_name(int i)
{
	static const char *const names[] = { "table", "csv", "markdown", "json" };

	return names[i];
}

static const char *dtype_name(int i)
{
	return cb_dtype_name((enum cb_dtype)i);
}

static const char *coll_name(int i)
{
	return cb_coll_get((enum cb_coll)i)->name;
}

/* --tiers auto | N (tiers, boundaries chosen) | SIZE,SIZE,... (boundaries). */
static enum cb_status set_tiers(const struct cb_optdef *row, void *target, const char *v,
				char *e, size_t n)
{
	struct cb_fit_opts *o = &((struct cb_cli *)target)->sel.opts;
	char buf[128], *save = NULL;
	double prev = 0;

	o->max_tiers = CB_FIT_MAX_TIERS - 1;
	o->nbreaks = -1;
	if (strcmp(v, "auto") == 0)
		return CB_OK;
	if (strlen(v) == 1 && v[0] >= '1' && v[0] <= '0' + CB_FIT_MAX_TIERS) {
		o->max_tiers = v[0] - '0';
		o->nbreaks = v[0] == '1' ? 0 : -1;
		return CB_OK;
	}
	cb_opt_refuse(row, e, n, "'%s' is not auto, 1..%d, or up to %d ascending sizes (1M,32M)",
		      v, CB_FIT_MAX_TIERS, CB_FIT_MAX_TIERS - 1);
	if (strlen(v) >= sizeof(buf) || cb_list_has_empty(v))
		return CB_ERR_ARG;
	strcpy(buf, v);
	o->nbreaks = 0;
	for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		size_t b;

		if (o->nbreaks == CB_FIT_MAX_TIERS - 1 || cb_parse_size(tok, &b) != 0 ||
		    (double)b <= prev)
			return CB_ERR_ARG;
		o->breaks[o->nbreaks++] = prev = (double)b;
	}
	return CB_OK;
}

/* A whole number in [lo, hi]; -1 when v is not one. */
static long long whole(const char *v, long long lo, long long hi)
{
	char *end;
	long long x = strtoll(v, &end, 10);

	return end == v || *end || x < lo || x > hi ? -1 : x;
}

/* --ranks 2,8,64 or A:B (A, 2A, 4A, ... up to B); a rank count listed twice
 * is refused (it would print its rows twice). */
static enum cb_status set_ranks(const struct cb_optdef *row, void *target, const char *v,
				char *e, size_t n)
{
	struct cb_cli *c = target;
	char buf[512], *colon, *save = NULL;

	c->nranks = 0;
	cb_opt_refuse(row, e, n, "'%s' is not a list of rank counts (1..%d) or A:B", v, CB_MODEL_MAX_RANKS);
	if (strlen(v) >= sizeof(buf) || cb_list_has_empty(v))
		return CB_ERR_ARG;
	strcpy(buf, v);
	colon = strchr(buf, ':');
	if (colon) {
		long long a, b;

		*colon = '\0';
		a = whole(buf, 1, CB_MODEL_MAX_RANKS);
		b = whole(colon + 1, 1, CB_MODEL_MAX_RANKS);
		if (a < 1 || b < a)
			return CB_ERR_ARG;
		for (long long r = a; r <= b && c->nranks < CB_CLI_MAX_RANKS; r *= 2)
			c->ranks[c->nranks++] = (int)r;
		return CB_OK;
	}
	for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		long long r = whole(tok, 1, CB_MODEL_MAX_RANKS);

		if (r < 1 || c->nranks == CB_CLI_MAX_RANKS)
			return CB_ERR_ARG;
		for (int i = 0; i < c->nranks; i++)
			if (c->ranks[i] == r)
				return cb_opt_refuse(row, e, n, "'%s' lists %lld ranks twice", v,
						     r);
		c->ranks[c->nranks++] = (int)r;
	}
	return CB_OK;
}

#define OFF(field) CB_OPT_FIELD(struct cb_cli, field)

static const struct cb_optdef table[NOPTS] = {
	[O_FORMAT] = { .lname = "format", .argname = "FMT", .kind = CB_OPT_ENUM, OFF(fmt),
	  .name = format_name, .count = CB_MFMT_JSON + 1, .what = "",
	  .help = "table, csv, markdown or json (fit: json by default, the others table)" },
	[O_OUTPUT] = { .lname = "output", .sname = 'o', .argname = "FILE", .kind = CB_OPT_TEXT,
	  OFF(output), .what = "path",
	  .help = "fit: also write the fit (JSON) to FILE, replaced atomically; the table goes "
	          "to stdout" },
	[O_FIT] = { .lname = "fit", .argname = "FILE", .kind = CB_OPT_TEXT, OFF(fit_path),
	  .what = "path",
	  .help = "check: the model's parameters from FILE (collbench-model fit -o), else "
	          "fitted on RUN itself; predict: use FILE's link, reduce and copy rates on "
	          "--topo's layout" },
	[O_ALGO] = { .lname = "algo", .sname = 'a', .argname = "LIST", .kind = CB_OPT_TEXT,
	  OFF(algos), .what = "list", .flags = CB_OPT_LIST,
	  .help = "fit, check: only these algorithms (comma list; default: every one); predict: "
	          "these (default: every plan algorithm of --coll; a library's names its "
	          "schedule's plan); --crossover: the first two" },
	[O_MINB] = { .lname = "min-bytes", .argname = "SIZE", .defval = "0", .kind = CB_OPT_SIZE,
	  OFF(min_bytes), .help = "fit, check: leave out rows below SIZE bytes (K, M, G)" },
	[O_TIERS] = { .lname = "tiers", .argname = "auto|N|LIST", .defval = "auto",
	  .set = set_tiers,
	  .help = "fit: bandwidth tiers by message size: auto (1 to 3 tiers, chosen by BIC), N "
	          "tiers, or the boundaries (1M,32M)" },
	[O_NOGAMMA] = { .lname = "no-gamma", .kind = CB_OPT_FLAG, OFF(no_gamma),
	  .help = "fit: leave the reduce rate out (reducing costs nothing)" },
	[O_NOFRESH] = { .lname = "no-fresh", .kind = CB_OPT_FLAG, OFF(no_fresh),
	  .help = "fit: leave the fresh reads' rate out (reading what another rank wrote in "
	          "the call costs no more than other bytes)" },
	[O_OVER] = { .lname = "oversubscribed", .kind = CB_OPT_FLAG, OFF(sel.oversubscribed),
	  .help = "fit: also fit the rates on launches with more ranks than CPUs (their "
	          "time slicing's cost per waited round is fitted on them either way)" },
	[O_FAR] = { .lname = "far", .argname = "PCT", .defval = "25", .kind = CB_OPT_DOUBLE,
	  OFF(far_pct), .hi = 1e6, .what = "a percentage in (0, 1e6)",
	  .flags = CB_OPT_LO_OPEN | CB_OPT_HI_OPEN,
	  .help = "check: flag rows whose model time is more than PCT percent off and outside "
	          "the repeats' band" },
	[O_GATE] = { .lname = "gate", .kind = CB_OPT_FLAG, OFF(gate),
	  .help = "check: exit 1 when a row is flagged" },
	[O_SUMMARY] = { .lname = "summary", .kind = CB_OPT_FLAG, OFF(summary),
	  .help = "check: print only the error summary by size range" },
	[O_TOPO] = { .lname = "topo", .sname = 't', .argname = "NAME|FILE", .defval = "dgx-h100",
	  .kind = CB_OPT_TEXT, OFF(topo), .what = "path",
	  .help = "predict: a preset (collbench-model presets) or a topology file; check: rows "
	          "of more than one host are modelled on its links (intra, net, gamma), ranks "
	          "placed as the run placed them" },
	[O_RANKS] = { .lname = "ranks", .sname = 'n', .argname = "LIST|A:B", .defval = "2:4096",
	  .set = set_ranks, .help = "predict: rank counts, a list or A:B doubling" },
	[O_MINBYTES] = { .lname = "minbytes", .sname = 'b', .argname = "SIZE", .defval = "8",
	  .kind = CB_OPT_SIZE, OFF(minbytes), .help = "predict: smallest message per rank" },
	[O_MAXBYTES] = { .lname = "maxbytes", .sname = 'e', .argname = "SIZE", .defval = "4G",
	  .kind = CB_OPT_SIZE, OFF(maxbytes), .help = "predict: largest message per rank" },
	[O_FACTOR] = { .lname = "stepfactor", .sname = 'f', .argname = "N", .defval = "2",
	  .kind = CB_OPT_INT, OFF(factor), .lo = 2, .hi = 1 << 20,
	  .help = "predict: multiply the size by N each step (allreduce_perf's -f)" },
	[O_FACTOR_OLD] = { .lname = "factor", .argname = "N", .kind = CB_OPT_INT, OFF(factor),
	  .lo = 2, .hi = 1 << 20, .help = "predict: the older name of --stepfactor" },
	[O_CROSS] = { .lname = "crossover", .kind = CB_OPT_FLAG, OFF(crossover),
	  .help = "predict: per rank count, the largest size at which the first algorithm (-a) is "
	          "no slower than the second" },
	[O_ROOT] = { .lname = "root", .sname = 'r', .argname = "RANK", .defval = "0",
	  .kind = CB_OPT_INT, OFF(root), .hi = CB_MODEL_MAX_RANKS - 1, .help = "predict: the plans' root" },
	[O_DTYPE] = { .lname = "dtype", .sname = 'd', .argname = "TYPE", .defval = "float",
	  .kind = CB_OPT_ENUM, OFF(dtype), .name = dtype_name, .count = CB_DTYPE_COUNT,
	  .what = "type", .help = "predict: element type (its size splits chunks)" },
	[O_COLL] = { .lname = "coll", .argname = "NAME", .defval = "allreduce",
	  .kind = CB_OPT_ENUM, OFF(coll), .name = coll_name, .count = CB_COLL_COUNT,
	  .what = "collective",
	  .help = "predict: the collective whose plans are priced (-a's default: each of its "
	          "plans; -b/-e its bytes as the rows': count x element size, nccl-tests' size)" },
	[O_BACKEND] = { .lname = "backend", .argname = "NAME", .kind = CB_OPT_TEXT, OFF(backend),
	  .what = "name",
	  .help = "predict --fit: the backend whose one-sided fit to use [the first]" },
	[O_TWOSIDED] = { .lname = "two-sided", .kind = CB_OPT_FLAG, OFF(two_sided),
	  .help = "predict: bytes land in a buffer, then are reduced (a two-sided transport: "
	          "move and reduce add up) rather than one-sided" },
	[O_PLAN] = { .lname = "plan", .argname = "FILE", .kind = CB_OPT_TEXT, OFF(plan),
	  .what = "path",
	  .help = "fit, check: the plan file a run's --plan named (docs/plans.md), so that its "
	          "rows are priced from its plan" },
	[O_CHOICE] = { .lname = "choice", .kind = CB_OPT_FLAG, OFF(choice),
	  .help = "check: per point (n, size, dtype, op), the model's fastest algorithm beside the "
	          "measured fastest, and how often they agree (a tuner's answer, checked)" },
	[O_LIBRARY] = { .lname = "library", .kind = CB_OPT_FLAG, OFF(library),
	  .help = "check: per point, which of Open MPI's forced algorithms (mpi.*) the default "
	          "mpi row ran: the ones of equal measured traffic, the nearest in time, and "
	          "Open MPI 4.1's decision table (no fit needed)" },
	[O_HELP] = { .lname = "help", .sname = 'h', .kind = CB_OPT_FLAG, OFF(help),
	  .help = "print this help" },
};

/* The verbs each row applies to. */
static const unsigned verbs_of[NOPTS] = {
	[O_FORMAT] = ALL, [O_OUTPUT] = FIT, [O_FIT] = CHECK | PREDICT, [O_ALGO] = FIT | CHECK | PREDICT,
	[O_MINB] = FIT | CHECK, [O_TIERS] = FIT | CHECK, [O_NOGAMMA] = FIT | CHECK, [O_NOFRESH] = FIT | CHECK,
	[O_OVER] = FIT | CHECK, [O_FAR] = CHECK, [O_GATE] = CHECK, [O_SUMMARY] = CHECK,
	[O_TOPO] = CHECK | PREDICT, [O_RANKS] = PREDICT, [O_MINBYTES] = PREDICT, [O_MAXBYTES] = PREDICT,
	[O_FACTOR] = PREDICT, [O_FACTOR_OLD] = PREDICT, [O_CROSS] = PREDICT, [O_ROOT] = PREDICT, [O_DTYPE] = PREDICT,
	[O_COLL] = PREDICT, [O_BACKEND] = PREDICT, [O_TWOSIDED] = PREDICT, [O_PLAN] = FIT | CHECK | PREDICT, [O_CHOICE] = CHECK, [O_LIBRARY] = CHECK, [O_HELP] = ALL,
};

const struct cb_optdef *cb_cli_options(size_t *n)
{
	*n = NOPTS;
	return table;
}

/* The values the verbs read that follow from the options. */
static void derive(struct cb_cli *c, const unsigned char *given)
{
	c->fmt_given = given[O_FORMAT];
	c->topo_given = given[O_TOPO];
	c->sel.algos = c->algos[0] ? c->algos : NULL;
	c->sel.min_bytes = (double)c->min_bytes;
	c->sel.opts.fit_gamma = !c->no_gamma;
	c->sel.opts.no_fresh = c->no_fresh;
	c->far = c->far_pct / 100;
	c->esize = cb_dtype_size((enum cb_dtype)c->dtype);
}

/* Whether argv has -f (alone or with its value, "-fcsv") before any "--":
 * for fit and check, where -f once was --format. */
static int has_short_f(int argc, char **argv)
{
	for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++)
		if (strncmp(argv[i], "-f", 2) == 0)
			return 1;
	return 0;
}

enum cb_status cb_cli_parse_options(enum cb_verb verb, int argc, char **argv, struct cb_cli *c,
				    char *err, size_t errlen)
{
	unsigned char given[NOPTS];

	memset(c, 0, sizeof(*c));
	c->verb = verb;
	c->fmt = CB_MFMT_TABLE;
	if (verb != CB_VERB_PREDICT && has_short_f(argc, argv)) {
		snprintf(err, errlen, "-f is predict's --stepfactor (as allreduce_perf's -f); the "
			 "output format is --format");
		return CB_ERR_ARG;
	}
	if (cb_optable_parse_given(table, NOPTS, c, argc, argv, given, err, errlen) != CB_OK)
		return CB_ERR_ARG;
	for (size_t i = 0; i < NOPTS; i++)
		if (given[i] && !(verbs_of[i] & (1u << verb))) {
			char opt[64];

			cb_opt_display(&table[i], opt, sizeof(opt));
			snprintf(err, errlen, "%s does not apply to this verb (see --help)", opt);
			return CB_ERR_ARG;
		}
	if (c->minbytes == 0 || c->maxbytes == 0) {
		snprintf(err, errlen, "--minbytes and --maxbytes must be at least 1 byte");
		return CB_ERR_ARG;
	}
	if (c->minbytes > c->maxbytes) {
		snprintf(err, errlen, "--minbytes is larger than --maxbytes");
		return CB_ERR_ARG;
	}
	for (int i = 0; i < c->nranks; i++)
		if (c->root >= c->ranks[i]) {
			snprintf(err, errlen, "--root %d is not a rank of %d ranks (0 .. %d)", c->root,
				 c->ranks[i], c->ranks[i] - 1);
			return CB_ERR_ARG;
		}
	/* fit -o writes through cb_replace_open's temporary: its name must fit too */
	if (c->output[0] && cb_path_fits("-o/--output", c->output, CB_PATH_REPLACE_SUFFIX, err,
					 errlen) != CB_OK)
		return CB_ERR_ARG;
	derive(c, given);
	return c->plan[0] ? cb_mreg_add_plan_file(c->plan, err, errlen) : CB_OK;
}
