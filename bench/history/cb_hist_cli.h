/* cb_hist_cli: collbench-history's verbs and their option tables (one
 * cb_optdef line per option, shared by the verbs that take it). */
#ifndef CB_HIST_CLI_H
#define CB_HIST_CLI_H

#include <stdio.h>

#include "cb_hist_db.h"
#include "cb_hist_out.h"
#include "cb_hist_query.h"

enum cb_hist_verb { CB_VERB_INGEST, CB_VERB_TREND, CB_VERB_DETECT, CB_VERB_GATE, CB_VERB_RUNS,
		    CB_VERB_CHECK, CB_VERB_COUNT };

struct cb_hist_cli {
	enum cb_hist_verb verb;
	char db[CB_HIST_PATH];
	char label[CB_HIST_TEXT];
	char machine[2 * CB_HIST_TEXT];
	int has_machine, help;
	char backend[CB_HIST_NAME], algos[256], dtype[CB_HIST_NAME], op[CB_HIST_NAME];
	char transport[CB_HIST_NAME];
	struct cb_hist_filter filter;
	enum cb_hist_metric metric;
	enum cb_hist_stat stat;
	struct cb_cpd_opts cpd;
	enum cb_hist_fmt fmt;
	size_t recent;
};

/* Parses "collbench-history VERB [options] [operands]": the verb from
 * argv[1], the options of its table; operands are left at argv[optind].
 * Returns 0, or -1 after a message on stderr (unknown verb, bad option,
 * missing operands). */
int cb_hist_cli_parse(int argc, char **argv, struct cb_hist_cli *c);

/* The usage text of c->verb (or of all verbs when parsing found none). */
void cb_hist_cli_usage(FILE *f, enum cb_hist_verb verb);

#endif
