/* cb_options: allreduce_perf's command line, from one typed option table
 * (cb_optable.h) that generates getopt_long's strings, the --help text, the
 * checks of each value and the canonical text the pre-flight compares across
 * ranks. Every short option of nccl-tests (2.19's getopt string) means here
 * what it means there, or is refused with the reason where collbench cannot
 * honour a value (cb_options_nccl.c; docs/running.md maps each); collbench's
 * own options take long names and letters nccl-tests does not use (-B, -q).
 * A new option is one row in cb_options.c plus its field here; ranks must
 * agree on it (the pre-flight compares it) unless its row says
 * CB_OPT_LOCAL. */
#ifndef CB_OPTIONS_H
#define CB_OPTIONS_H

#include <stddef.h>
#include <stdio.h>

#include "cb_dtype.h"
#include "cb_optable.h"
#include "cb_plan_file.h"
#include "cb_size.h"
#include "cb_status.h"
#include "cb_catalog.h"
#include "cb_sweep.h"
#include "cb_wait.h"

#define CB_PATH_MAX 1024
#define CB_MAX_COUNTS CB_SIZE_LIST_MAX
#define CB_MAX_ALGOS 16     /* algorithms in one run */
/* Largest message per rank: 1 TiB, far above any memory, far below where
 * size arithmetic (page rounding, ps slot areas of n x S) could overflow. */
#define CB_MAX_MESSAGE ((size_t)1 << 40)

/* How iterations are timed (--timing):
 *   iter: a barrier before each call, each call timed on its own (device
 *         events on the rank's stream, CLOCK_MONOTONIC on host), an
 *         iteration's time the max over ranks: the default;
 *   loop: one barrier, then the calls of a block back to back between two
 *         timestamps, as nccl-tests does; each call's time is the block's
 *         mean, max over ranks. Hides launch gaps and barrier skew: small
 *         messages look faster than in iter mode. */
enum cb_timing { CB_TIMING_ITER, CB_TIMING_LOOP };

/* "iter" or "loop". */
const char *cb_timing_name(enum cb_timing t);

/* --inplace: out of place, in place, or both in turn on every row (the
 * default, as nccl-tests' table shows them side by side). */
enum cb_inplace { CB_INPLACE_OUT, CB_INPLACE_IN, CB_INPLACE_BOTH };

struct cb_plan_file;

/* nccl-tests' options taken at their default value only (cb_opt_set_fixed):
 * kept so that --check-args shows them. */
struct cb_nccl_fixed {
	int run_cycles, stream_null, report_timestamps;
	int local_register, cta_policy, device_impl, device_cta_count, memory, unalign;
	int per_iter_timing, per_iter_skip;
};

/* -a (nccl-tests' --average): how a row's time comes from the ranks' own
 * mean times; NONE (not given): collbench's, the mean over iterations of
 * each iteration's max over ranks. */
enum cb_average { CB_AVG_NONE = -1, CB_AVG_RANK0, CB_AVG_MEAN, CB_AVG_MIN, CB_AVG_MAX };

struct cb_options {
	size_t minbytes, maxbytes, stepbytes; /* bytes per rank */
	int stepfactor;                       /* > 1: multiply; 1: add stepbytes */
	struct cb_size_list counts;           /* --counts: element counts, instead of -b/-e */
	int iters, warmup, repeat;
	int check;                            /* -c: checked calls per row after the timed ones */
	int nthreads, ngpus;                  /* -t, -g: 1 (one rank per process) */
	int parallel_init;                    /* -p: taken, no effect (one thread) */
	int average;                          /* -a: enum cb_average */
	/* nccl-tests' timing modes (docs/timing.md#nccl-tests-timing-modes):
	 * -m: K calls back to back per timed iteration, a call's time the
	 * iteration's / K; -z: -1 not given, 0..3 nccl-tests' blocking modes
	 * (cb_options_nccl_check sets --timing from it); -C 1: a call's time is
	 * the host's time to issue it (bandwidths stay from completion) */
	int agg_iters;
	int blocking;
	int report_cputime;
	int cudagraph;                        /* -G: K graph launches a call (cuda), 0: none */
	struct cb_nccl_fixed fixed;           /* the rest of nccl-tests' options */
	unsigned dtype_mask;                  /* bit (1 << enum cb_dtype) */
	unsigned op_mask;                     /* bit (1 << enum cb_op) */
	enum cb_coll coll;                    /* --coll: the collective (cb_coll.h) */
	char algos[256];                      /* comma list; "" = every algorithm available */
	char plan[CB_PATH_MAX];               /* --plan: a plan file (cb_plan_file.h), "" none */
	char plan_name[32];                   /* derived: its name, */
	int plan_ranks;                       /* and the world size it is for */
	char plan_digest[CB_PLAN_FILE_DIGEST_LEN + 1]; /* and what it does (cb_plan_file.h) */
	int world_size;                       /* --world-size: 0, or the ranks to check for */
	const struct cb_plan_file *plan_file; /* derived: the file, read but not yet
					       * checked (cb_options_check_plan) */
	char backend[16];
	enum cb_transport_id transport;       /* --transport (auto until the run resolves it) */
	int root;
	int in_place;                         /* --inplace: enum cb_inplace */
	int servers;                          /* --servers: ps's servers */
	double timeout_s;                     /* -T: an iteration, a wait for peers */
	double setup_timeout_s;               /* --setup-timeout: one set-up step */
	size_t slice_bytes;                   /* ring slice; 0 = default */
	enum cb_timing timing;                /* --timing */
	enum cb_wait_mode wait;               /* how host-side waits wait */
	int time_acct;                        /* --time-acct: busy and wait time */
	char csv[CB_PATH_MAX], rank_csv[CB_PATH_MAX], json[CB_PATH_MAX], meta[CB_PATH_MAX];
	char output_file[CB_PATH_MAX];        /* -J: nccl-tests' JSON layout, "" none */
	int quiet, help;
	int check_args;                       /* --check-args: parse and check only */
	struct cb_sweep sweep;                /* derived: see above */
};

/* Parses argv into *o, defaults first. On a bad value returns CB_ERR_ARG with
 * a one-line message in err (nothing printed, nothing left allocated).
 * Checks that need the world size (root) are the pre-flight's. --help sets
 * o->help and returns CB_OK (no sweep). Also derives o->meta from o->csv
 * when not given (x.csv -> x.meta.json), checks that the output paths are
 * distinct and makes o->sweep. Free a parsed *o with cb_options_free. */
enum cb_status cb_options_parse(int argc, char **argv, struct cb_options *o, char *err,
				size_t errlen);

/* --plan's check (cb_plan_file_check) for the run's ops and modes (both
 * with --inplace both): what cb_options_parse leaves out, since it costs
 * time that grows with the plan's ranks and chunks; the caller runs it after
 * the checks that are cheap (the world size) and under the set-up watchdog.
 * CB_OK without --plan. Errors: cb_plan_file_check's, with the message in
 * err (with both modes, a plan refused in place that passes out of place
 * says so: "(--inplace 0 runs it out of place only)"). */
enum cb_status cb_options_check_plan(const struct cb_options *o, char *err, size_t errlen);

/* Frees o->sweep; o stays readable otherwise. */
void cb_options_free(struct cb_options *o);

/* Every option's value, "lname=value" one a line (local ones too): what
 * --check-args prints on stdout. */
void cb_options_print(FILE *f, const struct cb_options *o);

/* Prints the usage text generated from the option table: nccl-tests'
 * options, then collbench's own. */
void cb_options_usage(FILE *f, const char *prog);

/* Canonical one-line text of every option that must agree across ranks
 * ("minbytes=8;maxbytes=67108864;..."), generated from the table's rows
 * not marked CB_OPT_LOCAL, for the pre-flight check and the metadata. */
void cb_options_canonical(const struct cb_options *o, char *buf, size_t len);

#endif
