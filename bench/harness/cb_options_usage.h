/* cb_options_usage: allreduce_perf's --help (the option table's two groups,
 * nccl-tests' options and collbench's own, then the algorithms of each
 * collective and the transports) and the backend names that the help and
 * -B's messages list. Used by cb_options.c only. */
#ifndef CB_OPTIONS_USAGE_H
#define CB_OPTIONS_USAGE_H

#include <stddef.h>
#include <stdio.h>

#include "cb_optable.h"

/* Backend i of the backend table by name (ctx unused): every one, or only
 * those built into this binary; NULL past the end. For cb_join_names. */
const char *cb_options_known_backend(const void *ctx, int i);
const char *cb_options_built_backend(const void *ctx, int i);

/* How many backends the table has. */
int cb_options_nbackends(void);

/* The usage text of prog from the option table (n rows). */
void cb_options_usage_table(FILE *f, const char *prog, const struct cb_optdef *table, size_t n);

#endif
