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

#include "cb_hist_cli_tables.h"
#include "cb_text.h"

/* The filter and the search options from the parsed fields. */
static void derive(struct cb_hist_cli *c)
{
	struct cb_hist_filter *f = &c->filter;

	f->backend = c->backend[0] ? c->backend : NULL;
	f->algos = c->algos[0] ? c->algos : NULL;
	f->dtype = c->dtype[0] ? c->dtype : NULL;
	f->op = c->op[0] ? c->op : NULL;
	f->transport = c->transport[0] ? c->transport : NULL;
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
