/* cb_optable: one option table per program generates getopt_long's short and
 * long option strings, applies the defaults, dispatches each value to its
 * setter, and prints the usage text: the table is the only place an option
 * is spelled. Used by allreduce_perf and collbench-compare. */
#ifndef CB_OPTABLE_H
#define CB_OPTABLE_H

#include <stddef.h>
#include <stdio.h>

#include "cb_status.h"

/* Stores value (NULL for a flag) into target. Returns CB_OK, or CB_ERR_ARG
 * with a one-line message in err (left empty, a generic message is made from
 * the option's name and argname). */
typedef enum cb_status (*cb_opt_set_fn)(void *target, const char *value, char *err,
					size_t errlen);

struct cb_optdef {
	const char *lname;   /* long name, without the dashes */
	int sname;           /* short letter; 0: long option only */
	const char *argname; /* NULL: a flag without a value */
	const char *defval;  /* applied through set() before parsing; NULL: none */
	const char *help;
	cb_opt_set_fn set;
};

/* Applies the defaults, then parses argv (getopt_long; optind is reset so it
 * can run twice) and leaves optind at the first operand. Returns CB_OK, or
 * CB_ERR_ARG with a message in err (unknown option, missing value, a value
 * its setter refused). Prints nothing. */
enum cb_status cb_optable_parse(const struct cb_optdef *t, size_t n, void *target, int argc,
				char **argv, char *err, size_t errlen);

/* 1 when the comma list v has an empty entry ("1,,2", ",1", "1,", ""),
 * which a list option must refuse rather than drop; else 0. */
int cb_list_has_empty(const char *v);

/* Joins name(ctx, i) for i in [0, n), leaving out NULLs, into buf
 * (truncated to len): sep between names, last before the final one:
 * "a, b or c" with (", ", " or "); "" when there is none. */
void cb_join_names(char *buf, size_t len, const char *(*name)(const void *ctx, int i),
		   const void *ctx, int n, const char *sep, const char *last);

/* One line per option: "  -b, --minbytes SIZE   help [default]". */
void cb_optable_usage(FILE *f, const struct cb_optdef *t, size_t n, int width);

#endif
