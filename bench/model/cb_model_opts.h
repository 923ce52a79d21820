/* cb_model_opts: collbench-model's command line: its name and exit codes,
 * the verbs, the option table (each option spelled once, typed, with its
 * default; the table also prints --help), the verbs each option applies to,
 * and the values derived after parsing. */
#ifndef CB_MODEL_OPTS_H
#define CB_MODEL_OPTS_H

#include <stddef.h>

#include "cb_model_table.h"
#include "cb_model_verbs.h"
#include "cb_status.h"

#define CB_MODEL_PROG "collbench-model"
#define CB_MODEL_EXIT_FAR 1   /* check --gate: a row is far off */
#define CB_MODEL_EXIT_USAGE 2 /* usage, input or output error */
#define CB_CLI_MAX_RANKS 64
#define CB_CLI_MAX_SIZES 64

enum cb_verb { CB_VERB_FIT, CB_VERB_CHECK, CB_VERB_PREDICT, CB_VERB_PRESETS };

/* The options (fields the table sets) and what follows from them. */
struct cb_cli {
	enum cb_verb verb;
	enum cb_mfmt fmt;
	int fmt_given;             /* --format was given (fit: json otherwise) */
	int topo_given;            /* --topo was given (check: links of multi-host rows) */
	int help, gate, summary, crossover, no_gamma, no_fresh, two_sided, choice, library;
	char output[1024], fit_path[1024], topo[1024], backend[32];
	char algos[256];
	char plan[1024];           /* fit, check: --plan FILE */
	size_t min_bytes;          /* fit, check: --min-bytes */
	struct cb_fit_sel sel;     /* fit: rows and tiers (algos, min_bytes, fit_gamma
				    * follow from the fields above) */
	double far_pct;            /* check: --far */
	double far;                /* check: |relative error| flagged, far_pct / 100 */
	int ranks[CB_CLI_MAX_RANKS], nranks;
	size_t minbytes, maxbytes; /* predict: -b, -e */
	int factor, root, dtype;   /* dtype: enum cb_dtype */
	int coll;                  /* predict: --coll, enum cb_coll */
	size_t esize;              /* bytes of dtype */
};

struct cb_optdef;

/* The option table and its length, for --help. */
const struct cb_optdef *cb_cli_options(size_t *n);

/* Fills c from the defaults and argv's options for verb (argv[0] is the
 * verb; operands stay at argv[optind...]). Errors: CB_ERR_ARG with a
 * one-line message in err (a value refused, an option the verb does not
 * take, -b larger than -e), CB_ERR_NOMEM. */
enum cb_status cb_cli_parse_options(enum cb_verb verb, int argc, char **argv, struct cb_cli *c,
				    char *err, size_t errlen);

#endif
