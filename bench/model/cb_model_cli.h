/* cb_model_cli: collbench-model's verbs, each from its parsed options
 * (cb_model_opts.h) to its printed results (main in collbench_model.c). */
#ifndef CB_MODEL_CLI_H
#define CB_MODEL_CLI_H

#include "cb_model_opts.h"

/* The verbs: each returns the exit status (0, CB_MODEL_EXIT_FAR,
 * CB_MODEL_EXIT_USAGE) after printing its results on stdout and its
 * diagnostics on stderr. */
int cb_cli_fit(const struct cb_cli *c, const char *run);
int cb_cli_check(const struct cb_cli *c, const char *run);
int cb_cli_predict(const struct cb_cli *c);
int cb_cli_presets(const struct cb_cli *c, const char *name);

#endif
