/* collbench-model fit|check|predict|presets: the alpha-beta-gamma cost model
 * of collbench's collectives, priced from their plans (docs/model.md). Results on
 * stdout, diagnostics on stderr. Exit status: 0 done, 1 check --gate found a
 * row far off the model, 2 usage, input or output error. Options come from
 * one table that also prints --help; each verb accepts its own subset. */
#define _GNU_SOURCE
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cb_model_cli.h"
#include "cb_optable.h"
#include "cb_output.h"
#include "cb_text.h"

static const char *const verb_names[] = { "fit", "check", "predict", "presets" };

static void usage(FILE *f)
{
	fprintf(f, "usage: " CB_MODEL_PROG " fit RUN [options]        fit alpha, beta, gamma per backend and transport\n"
		"       " CB_MODEL_PROG " check RUN [options]      every row of RUN against the model\n"
		"       " CB_MODEL_PROG " predict [options]        a collective's algorithms at scale on a topology\n"
		"       " CB_MODEL_PROG " presets [NAME]           the built-in topologies (NAME: as a file to edit)\n\n"
		"RUN: a run folder of scripts/sweep.sh or a summary CSV of allreduce_perf --csv\n"
		"(with its .meta.json sidecar), as collbench-compare reads them.\n\noptions:\n");
	{
		size_t n;
		const struct cb_optdef *table = cb_cli_options(&n);

		cb_optable_usage(f, table, n, 30);
	}
	fprintf(f, "\nThe model (docs/model.md): a step costs alpha + the most loaded link's\n"
		"bytes / its bandwidth + the bytes a rank reduces / gamma (one-sided: the slower\n"
		"of moving and reducing, not their sum), priced round by round from each row's\n"
		"plan, slices included; a library's row from the plan of the schedule the\n"
		"catalogue names for it. fit solves for alpha, beta and gamma by least squares\n"
		"on relative errors, by size tier; check prints measured and modelled time per\n"
		"row and the median |error| by size range; predict prints each algorithm's time,\n"
		"bandwidth and per-rank and per-host link load on a topology.\n"
		"\nexit status: 0 done, 1 check --gate found a row far off, 2 usage, input or\n"
		"output error (check --gate: also no row modelled). Results on stdout,\n"
		"diagnostics on stderr.\n");
}

/* Parses the verb and its options; operands stay at argv[optind + 1...]
 * (argv shifted by one). Returns 0, or -1 after a message. */
static int parse_args(int argc, char **argv, struct cb_cli *c, int *nops)
{
	char err[512];
	int v;

	for (v = 0; v < 4 && strcmp(argv[1], verb_names[v]) != 0; v++)
		;
	if (v == 4) {
		cb_eprintf(CB_MODEL_PROG ": unknown verb '%s' (fit, check, predict, presets; see --help)\n",
			argv[1]);
		return -1;
	}
	if (cb_cli_parse_options((enum cb_verb)v, argc - 1, argv + 1, c, err, sizeof(err)) !=
	    CB_OK) {
		cb_eprintf(CB_MODEL_PROG " %s: %s\n", verb_names[v], err);
		return -1;
	}
	*nops = argc - 1 - optind;
	if (!c->help && (c->verb == CB_VERB_FIT || c->verb == CB_VERB_CHECK) && *nops != 1) {
		cb_eprintf(CB_MODEL_PROG " %s: expected one RUN (a run folder or a summary CSV), got %d "
			"argument(s)\n", verb_names[v], *nops);
		return -1;
	}
	if (!c->help && (c->verb == CB_VERB_PREDICT || c->verb == CB_VERB_PRESETS) &&
	    *nops > (c->verb == CB_VERB_PRESETS)) {
		cb_eprintf(CB_MODEL_PROG " %s: unexpected argument '%s'\n", verb_names[v],
			argv[1 + optind + (c->verb == CB_VERB_PRESETS)]);
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct cb_cli c;
	int nops = 0, rc;

	if (argc < 2) {
		usage(stderr);
		return CB_MODEL_EXIT_USAGE;
	}
	if (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0) {
		usage(stdout);
		return cb_close_stdout(CB_MODEL_PROG, 0, CB_MODEL_EXIT_USAGE);
	}
	if (parse_args(argc, argv, &c, &nops) != 0)
		return CB_MODEL_EXIT_USAGE;
	if (c.help) {
		usage(stdout);
		return cb_close_stdout(CB_MODEL_PROG, 0, CB_MODEL_EXIT_USAGE);
	}
	{
		const char *op = nops ? argv[1 + optind] : NULL;

		switch (c.verb) {
		case CB_VERB_FIT: rc = cb_cli_fit(&c, op); break;
		case CB_VERB_CHECK: rc = cb_cli_check(&c, op); break;
		case CB_VERB_PREDICT: rc = cb_cli_predict(&c); break;
		default: rc = cb_cli_presets(&c, op); break;
		}
	}
	return cb_close_stdout(CB_MODEL_PROG, rc, CB_MODEL_EXIT_USAGE);
}
