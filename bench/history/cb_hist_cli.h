/* cb_hist_cli: collbench-history's verbs and their option tables (one
 * cb_optdef line per option, shared by the verbs that take it). */
#ifndef CB_HIST_CLI_H
#define CB_HIST_CLI_H

#include <stdio.h>

#include "cb_hist_db.h"
#include "cb_hist_out.h"
#include "cb_hist_query.h"
#include "cb_rowval.h"

enum cb_hist_verb { CB_VERB_INGEST, CB_VERB_TREND, CB_VERB_DETECT, CB_VERB_GATE, CB_VERB_RUNS,
		    CB_VERB_CHECK, CB_VERB_COUNT };

/* What the command line says. The option rows (cb_hist_cli.c) store
 * into the fields before `filter`; cb_hist_cli_parse derives the rest. */
struct cb_hist_cli {
	enum cb_hist_verb verb;
	char db[CB_HIST_PATH];
	char label[CB_HIST_TEXT];
	char machine[2 * CB_HIST_TEXT];       /* "": the only machine */
	int help;
	char backend[CB_NAME_MAX], algos[256], dtype[CB_NAME_MAX], op[CB_NAME_MAX];
	char transport[CB_NAME_MAX], collective[CB_NAME_MAX];
	int nranks, in_place;                 /* -1: any */
	size_t bytes, min_bytes;              /* bytes SIZE_MAX: any */
	enum cb_metric metric;
	enum cb_stat stat;
	double pvalue, min_change_pct, noise_floor_pct;
	int window, recent;
	enum cb_hist_fmt fmt;
	/* derived */
	struct cb_hist_filter filter;         /* points into the fields above */
	struct cb_cpd_opts cpd;
};

/* Parses "collbench-history VERB [options] [operands]": the verb from
 * argv[1], the options of its table; operands are left at argv[optind].
 * Returns 0, or -1 after a message on stderr (unknown verb, bad option,
 * missing operands). */
int cb_hist_cli_parse(int argc, char **argv, struct cb_hist_cli *c);

/* The usage text of c->verb (or of all verbs when parsing found none). */
void cb_hist_cli_usage(FILE *f, enum cb_hist_verb verb);

#endif
