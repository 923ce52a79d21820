/* cb_model_cli: collbench-model's options and verbs (main and the option
 * table in collbench_model.c, the verbs in cb_model_cli.c). */
#ifndef CB_MODEL_CLI_H
#define CB_MODEL_CLI_H

#include <stddef.h>

#include "cb_model_table.h"
#include "cb_model_verbs.h"

#define PROG "collbench-model"
#define EXIT_FAR 1   /* check --gate: a row is far off */
#define EXIT_USAGE 2 /* usage, input or output error */
#define CB_CLI_MAX_RANKS 64
#define CB_CLI_MAX_SIZES 64

enum cb_verb { VERB_FIT, VERB_CHECK, VERB_PREDICT, VERB_PRESETS };

struct cli {
	enum cb_verb verb;
	unsigned given;            /* bit per option given (OPT_* in collbench_model.c) */
	enum cb_mfmt fmt;
	int fmt_given, help, gate, summary, crossover;
	char output[1024], fit_path[1024], topo[1024], backend[32];
	char algos[256];
	struct cb_fit_sel sel;     /* fit: rows and tiers */
	double far;                /* check: |relative error| flagged */
	int ranks[CB_CLI_MAX_RANKS], nranks;
	size_t minbytes, maxbytes, factor, esize;
	int root, two_sided;
};

struct cb_optdef;

/* The option table (cb_model_opts.c) and its length. */
const struct cb_optdef *cb_cli_options(size_t *n);

/* Fills c with every default (before parsing). */
void cb_cli_defaults(struct cli *c);

/* The first option given that c->verb does not take, or NULL. */
const char *cb_cli_foreign_option(const struct cli *c);

/* The verbs: each returns the exit status (0, EXIT_FAR, EXIT_USAGE) after
 * printing its results on stdout and its diagnostics on stderr. */
int cb_cli_fit(const struct cli *c, const char *run);
int cb_cli_check(const struct cli *c, const char *run);
int cb_cli_predict(const struct cli *c);
int cb_cli_presets(const struct cli *c, const char *name);

#endif
