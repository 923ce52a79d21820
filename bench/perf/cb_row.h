/* cb_row: one row of the report, measured: warm-up, timed block(s), check,
 * traffic, and the statistics across iterations and ranks. */
#ifndef CB_ROW_H
#define CB_ROW_H

#include "cb_harness.h"
#include "cb_report.h"

/* Before the rows of one (dtype, op): uploads this rank's input for the
 * largest message (out of place; in place it is uploaded before each row) and
 * prepares the reference. Collective only through the backend's upload. */
enum cb_status cb_row_prepare(struct cb_harness *h, enum cb_dtype dt, enum cb_op op,
			      size_t largest_bytes);

/* Measures algorithm ai at `bytes` per rank. Collective over the world.
 * Fills *row (valid until the next call; rank 0 holds the aggregated numbers).
 * A skipped or wrong row is CB_OK with its status set; an error return means
 * the job must be aborted. */
enum cb_status cb_row_measure(struct cb_harness *h, size_t ai, size_t bytes, enum cb_dtype dt,
			      enum cb_op op, struct cb_row *row);

#endif
