/* cb_traffic: the library rows' traffic (mpi, and Open MPI's forced
 * algorithms mpi.*) that sweep.sh --mpi-traffic measures with Open MPI's pml
 * monitoring, from the monitoring's output to every results file of a
 * launch (collbench-results traffic, set-traffic).
 *
 * The run folder's mpi_traffic.txt holds one line per algorithm, rank and
 * size:
 *   "nranks bytes rank tx_bytes rx_bytes calls [algo]"
 * (bytes per allreduce call; algo absent: mpi). The figures a row gets are allreduce_perf's
 * (docs/output.md, "Traffic"): tx_total = the sum over ranks of tx, txrx_max = the
 * largest tx+rx of a rank, imbalance = txrx_max / the mean over ranks of
 * tx+rx. */
#ifndef CB_TRAFFIC_H
#define CB_TRAFFIC_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cb_status.h"

/* Appends to out the lines of one size: the per-rank traffic of one
 * allreduce of `bytes` on nranks ranks by library algorithm algo (see
 * cb_traffic_library; "mpi" writes the six-field lines), from everything two launches of the
 * same program and settings printed (stdout and stderr), `sized` at bytes and
 * `zero` at 0 bytes, each doing `calls` allreduce calls. The lines read are
 * the monitoring's per-peer totals
 *   E <from> <to> <bytes> bytes <count> msgs sent ...  (point-to-point)
 *   I <from> <to> <bytes> bytes <count> msgs sent ...  (inside collectives)
 * with ranks of MPI_COMM_WORLD; what moves in both (set-up, barriers,
 * gathers) cancels: (sized - zero) / calls, rounded to a byte. Errors:
 * CB_ERR_ARG (err says: sized has no monitoring lines, a line is torn (two
 * ranks' output ran together), a difference is negative, a rank is out of range, nranks or calls not positive, algo not
 * a library algorithm),
 * CB_ERR_IO (a file cannot be read or out not written). */
enum cb_status cb_traffic_measure(const char *algo, int nranks, unsigned long long bytes,
				  long calls, const char *zero, const char *sized, FILE *out,
				  char *err, size_t errlen);

/* 1 for the algorithms whose traffic the monitoring measures: mpi, mpi.*. */
int cb_traffic_library(const char *algo);

/* The measured traffic of a run (mpi_traffic.txt). */
struct cb_traffic_row {
	int nranks, rank;
	unsigned long long bytes, tx, rx;
	char algo[32];
};
struct cb_traffic {
	struct cb_traffic_row *rows;
	size_t n;
};

/* Reads path. Errors: CB_ERR_IO, CB_ERR_ARG (a line that is not six
 * integers and an optional library algorithm, naming it), CB_ERR_NOMEM; t is
 * left empty. */
enum cb_status cb_traffic_load(const char *path, struct cb_traffic *t, char *err, size_t errlen);
void cb_traffic_free(struct cb_traffic *t);

/* Rewrites one results file of the nranks-rank launch with t's figures in
 * the rows of each library algorithm that were measured, in the file's form (by its
 * name): a summary or per-rank CSV (.csv: tx_bytes and rx_bytes of each
 * rank's row; tx_total_bytes, txrx_max_bytes and imbalance of an ok summary
 * row), allreduce_perf's JSON Lines (.jsonl), or its table (.txt: the
 * tx_total, txrx_max and imbal columns of an ok row). Every other line stays
 * as it is; the file is replaced whole (cb_replace.h) or not at all.
 * Errors: CB_ERR_IO, CB_ERR_ARG (a form it does not know), CB_ERR_NOMEM. */
enum cb_status cb_traffic_apply(const struct cb_traffic *t, int nranks, const char *path,
				char *err, size_t errlen);

#endif
