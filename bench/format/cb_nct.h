/* cb_nct: a run's rows as nccl-tests (2.19) summarises them: the footer
 * under the table and the -J (--output_file) JSON document. Rank 0 only.
 *
 * Rows are kept per algorithm, in the order they arrive; a row's
 * out-of-place and in-place modes of one (size, count, type, redop) are one
 * entry, as on a line of nccl-tests' table (a mode that did not run is null).
 *
 * nccl-tests' footer (src/util.cu writeResultFooter, src/common.cu run):
 *   "# %-20s : %d %s\n"  "Out of bounds values", #wrong summed, OK|FAILED
 *   "# %-20s : %g %s\n"  "Avg bus bandwidth", the mean of busbw over every
 *                        row it timed (out-of-place and in-place of every
 *                        size), then "" or, with NCCL_TESTS_MIN_BW set,
 *                        OK|FAILED (FAILED: mean < 0.9 x NCCL_TESTS_MIN_BW)
 *   "#\n" "# Collective test concluded: <program name>\n"
 * collbench runs several algorithms per launch: each gets one line of its
 * own (worded so that a grep for nccl-tests' lines never matches it), and
 * nccl-tests' lines, word for word, are the reference algorithm's
 * (cb_nct_reference). */
#ifndef CB_NCT_H
#define CB_NCT_H

#include <stddef.h>
#include <stdio.h>

#include "cb_schema.h"

/* One mode of one entry (nccl-tests' "out_of_place" / "in_place"). */
struct cb_nct_mode {
	int have;                  /* 0: the mode did not run (null) */
	double time_us, algbw, busbw; /* us per call, GB/s; NaN: not measured */
	unsigned long long wrong;  /* CB_NO_U64: not checked (null) */
	int iters;
	/* every timed iteration, where the run kept them (NULL: not kept):
	 * iter_us[k] the max over ranks, rank_us[nranks * k] each rank's own
	 * (rank r's iteration i at [r * k + i]) */
	double *iter_us, *rank_us;
	int k, nranks;
};

/* One line of nccl-tests' table: [0] out-of-place, [1] in-place. */
struct cb_nct_entry {
	unsigned long long bytes, count;
	char dtype[CB_NAME_MAX], op[CB_NAME_MAX];
	struct cb_nct_mode mode[2];
};

struct cb_nct_algo {
	char name[CB_NAME_MAX];
	int library;               /* the row's transport is "library" */
	double busbw_sum;          /* over the measured rows */
	int nbw;                   /* how many */
	unsigned long long wrong;  /* #wrong summed over the checked rows */
	int failed;                /* rows that failed (wrong, error) */
	struct cb_nct_entry *e;
	size_t n, cap;
};

struct cb_nct {
	struct cb_nct_algo *a;
	size_t n, cap;
	int nomem;                 /* a row could not be kept (said once) */
};

/* Adds summary row s (any state: a skipped row is kept as a null mode, and
 * counts toward no average), with its k timed iterations where kept
 * (iter_us NULL: not kept; see struct cb_nct_mode; copied). Out of memory:
 * t->nomem set, logged once. */
void cb_nct_add(struct cb_nct *t, const struct cb_summary *s, const double *iter_us, int k,
		const double *rank_us, int nranks);

/* Mean busbw (GB/s) of a's measured rows (those with wrong results too, as
 * nccl-tests: not the skipped or failed ones), NaN when none. */
double cb_nct_avg_busbw(const struct cb_nct_algo *a);

/* The algorithm nccl-tests' own footer lines speak of: the first library
 * algorithm with a plain name ("mpi", "nccl": no '.'), else the first
 * library one ("nccl.ring.simple"), else the first algorithm of the run;
 * first among those with a measured row (a library whose rows all skipped,
 * MPI_Bcast out of place or MPI with half, gives way to the first measured
 * algorithm, and the footer says so), then among all. NULL when there are
 * no rows. */
const struct cb_nct_algo *cb_nct_reference(const struct cb_nct *t);

/* Whether a passes nccl-tests' gate: min_bw < 0 (NCCL_TESTS_MIN_BW unset)
 * passes; else its mean busbw must be at least 0.9 x min_bw (nccl-tests'
 * slack); an algorithm with no measured row fails a set gate. */
int cb_nct_gate_ok(const struct cb_nct_algo *a, double min_bw);

/* Prints the footer to f: a line per algorithm, then nccl-tests' lines for
 * cb_nct_reference (see above; prog: the program's name for "Collective test
 * concluded"). min_bw < 0: unset. Returns 0, -1 when a write failed. */
int cb_nct_footer(FILE *f, const struct cb_nct *t, double min_bw, const char *prog);

/* NCCL_TESTS_MIN_BW read from text (NULL or "": unset, *min_bw = -1). A
 * value must be a finite number >= 0 (nccl-tests' atof would take "abc" as
 * 0 and pass every run). Returns 0, -1 with err set. */
int cb_nct_parse_min_bw(const char *text, double *min_bw, char *err, size_t len);

void cb_nct_free(struct cb_nct *t);

#endif
