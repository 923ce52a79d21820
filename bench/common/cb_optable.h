/* cb_optable: one option table per program. Each row is typed (what the
 * value is, where it goes, its bounds or names, whether every rank must give
 * the same unless it is marked local), and that one row generates getopt_long's short and long option
 * strings, the default, the check of a value and its message, the usage line,
 * and the option's part of the canonical text that ranks compare before a run
 * (cb_optable_canonical): the table is the only place an option is spelled.
 * Used by allreduce_perf, collbench-compare and collbench-model.
 *
 * A refused value gives "OPT: ..." with OPT the option as typed in the table
 * ("-b/--minbytes", "--inplace"):
 *   FLAG    -
 *   INT     "OPT: expected an integer in [lo, hi]"
 *   DOUBLE  "OPT: 'V' is not <what>", or, without what, the generic message
 *   SIZE    "OPT: 'V' is not a size (digits with an optional K, M or G suffix)"
 *   ENUM    what NULL: the generic message; what "": "OPT: 'V' is not a, b or c";
 *           else "OPT: unknown <what> 'V' (a, b or c)"
 *   MASK    "OPT: unknown name 'N' (see --help)", with what "OPT: unknown name
 *           'N' (<what>; see --help)"; "OPT: 'V' is not a valid list",
 *           "OPT: 'V' has an empty entry"
 *   TEXT    "OPT: <what, else value> too long"; with CB_OPT_LIST, "OPT: 'V' has
 *           an empty entry"
 * The generic message, also for a setter that refuses without saying why:
 * "--NAME: invalid value 'V' (expected ARGNAME)". */
#ifndef CB_OPTABLE_H
#define CB_OPTABLE_H

#include <stddef.h>
#include <stdio.h>

#include "cb_size.h"
#include "cb_status.h"

/* What a row's value is, and the field it is stored in (at offset). */
enum cb_opt_kind {
	CB_OPT_FLAG,   /* int, set to 1; takes no value */
	CB_OPT_INT,    /* int within [lo, hi] */
	CB_OPT_DOUBLE, /* double within lo..hi (ends open with CB_OPT_LO_OPEN/HI_OPEN) */
	CB_OPT_SIZE,   /* size_t, cb_parse_size */
	CB_OPT_ENUM,   /* an int-sized enum: the index i of the name name(i), i < count */
	CB_OPT_MASK,   /* unsigned: bit i for name(i); a comma list, or "all" */
	CB_OPT_TEXT,   /* char[size]: the value as given */
	CB_OPT_SIZES,  /* struct cb_size_list (only with a setter of its own) */
};

/* Row flags. Every rank must give the same value of an option (it is part
 * of the canonical text) unless its row says CB_OPT_LOCAL: a new option is
 * checked across ranks unless it says otherwise. */
#define CB_OPT_LOCAL 1u   /* each rank's own (output paths, the watchdog): not compared */
#define CB_OPT_LIST 2u    /* TEXT: a comma list without empty entries */
#define CB_OPT_LO_OPEN 4u /* DOUBLE: lo itself is refused */
#define CB_OPT_HI_OPEN 8u /* DOUBLE: hi itself is refused */
#define CB_OPT_NCCL_TESTS 16u /* one of nccl-tests' options: --help's first group */

struct cb_optdef;

/* A setter of its own for a row (a "custom" row): stores value (NULL for a
 * flag) into target. Returns CB_OK, or CB_ERR_ARG with a one-line message in
 * err (left empty: the generic message). */
typedef enum cb_status (*cb_opt_set_fn)(const struct cb_optdef *row, void *target,
					const char *value, char *err, size_t errlen);

struct cb_optdef {
	const char *lname;   /* long name, without the dashes */
	int sname;           /* short letter; 0: long option only */
	const char *argname; /* NULL: a flag without a value */
	const char *defval;  /* applied before parsing; NULL: none */
	const char *help;
	enum cb_opt_kind kind;
	size_t offset;       /* of the field in the target struct */
	size_t size;         /* TEXT: the field's size */
	double lo, hi;       /* INT, DOUBLE: bounds */
	const char *(*name)(int i); /* ENUM, MASK: the name of value i */
	int count;           /* ENUM, MASK: how many names */
	const char *what;    /* wording of a refused value (see the top) */
	unsigned flags;      /* CB_OPT_* */
	cb_opt_set_fn set;   /* NULL: the kind's own setter */
};

/* The field of a row: CB_OPT_FIELD(struct cli, out) sets offset and size
 * for the field out of struct cli (the target). */
#define CB_OPT_FIELD(type, field) .offset = offsetof(type, field), .size = sizeof(((type *)0)->field)

/* The exit status of a tool whose arguments are refused (as getopt-based
 * tools and nccl-tests' binaries use 2 for a usage error). */
#define CB_EXIT_USAGE 2

/* A list of sizes (CB_OPT_SIZES). */
#define CB_SIZE_LIST_MAX 64
struct cb_size_list {
	size_t v[CB_SIZE_LIST_MAX];
	size_t n;
};

/* Applies the defaults, then parses argv (getopt_long; optind is reset so it
 * can run twice) and leaves optind at the first operand. Returns CB_OK, or
 * CB_ERR_ARG with a message in err (unknown option, missing value, a value
 * its row refused). Prints nothing. */
enum cb_status cb_optable_parse(const struct cb_optdef *t, size_t n, void *target, int argc,
				char **argv, char *err, size_t errlen);

/* cb_optable_parse that also says which rows the command line gave: given
 * (n entries) is cleared, then given[i] = 1 for each row i that argv set (a
 * default applied does not count). For a tool whose verbs take different
 * options (collbench-model). */
enum cb_status cb_optable_parse_given(const struct cb_optdef *t, size_t n, void *target,
				      int argc, char **argv, unsigned char *given, char *err,
				      size_t errlen);

/* The canonical text of the rows of target not marked CB_OPT_LOCAL, in
 * table order:
 * "lname=value;lname=value;..." (sizes and integers in decimal, enums and
 * masks by name, lists comma-separated), truncated to len. Two ranks whose
 * texts are equal were given the same such options. */
void cb_optable_canonical(const struct cb_optdef *t, size_t n, const void *target, char *buf,
			  size_t len);

/* The option as messages name it: "-b/--minbytes", "--inplace". */
void cb_opt_display(const struct cb_optdef *row, char *buf, size_t len);

/* For setters: writes "OPT: " and the message into err and returns
 * CB_ERR_ARG. */
enum cb_status cb_opt_refuse(const struct cb_optdef *row, char *err, size_t errlen,
			     const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* 1 when the comma list v has an empty entry ("1,,2", ",1", "1,", ""),
 * which a list option must refuse rather than drop; else 0. */
int cb_list_has_empty(const char *v);

/* A list option used as a filter: 1 when name is an entry of the comma list,
 * or list is NULL or "" (no filter); else 0. */
int cb_list_selects(const char *list, const char *name);

/* Joins name(ctx, i) for i in [0, n), leaving out NULLs, into buf
 * (truncated to len): sep between names, last before the final one:
 * "a, b or c" with (", ", " or "); "" when there is none. */
void cb_join_names(char *buf, size_t len, const char *(*name)(const void *ctx, int i),
		   const void *ctx, int n, const char *sep, const char *last);

/* One line per option: "  -b, --minbytes SIZE   help [default]". */
void cb_optable_usage(FILE *f, const struct cb_optdef *t, size_t n, int width);

/* cb_optable_usage of the rows whose flags have flag (with 1) or lack it
 * (with 0): one group of --help. */
void cb_optable_usage_group(FILE *f, const struct cb_optdef *t, size_t n, int width,
			    unsigned flag, int with);

/* Every row of target as "lname=value", one a line, in table order (the
 * values as the canonical text writes them, local rows too): what a
 * --check-args prints. */
void cb_optable_print(FILE *f, const struct cb_optdef *t, size_t n, const void *target);

/* The setter of a row that takes one value only, its default (an option
 * of another tool that this one accepts where it changes nothing): an INT
 * row whose value equals defval is stored; another integer is refused with
 * "OPT: V is not supported: <what> (only DEFVAL is taken)", anything else
 * with "OPT: 'V' is not an integer". Integers as strtol base 0 reads them. */
enum cb_status cb_opt_set_fixed(const struct cb_optdef *row, void *target, const char *value,
				char *err, size_t errlen);

#endif
