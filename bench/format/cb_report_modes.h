/* cb_report_modes: the table on stdout with both modes on each line
 * (--inplace both), as nccl-tests prints it (src/common.cu: a header line
 * naming the "out-of-place" and "in-place" groups, then per mode time,
 * algbw, busbw and #wrong). One line per (algorithm, size, dtype, op):
 *
 *   algo size count type redop | time algbw busbw #wrong tx_total (out of
 *   place) | the same in place | status
 *
 * tx_total is each mode's own (an in-place plan may stage its input, so the
 * traffic differs); median, txrx_max and imbal of each mode are left to the
 * CSV and JSON (the header says so). A mode that did not measure (skipped,
 * error) shows its state where the time goes and "-" in its other columns;
 * status is one status where both modes agree, else each mode's
 * ("out-of-place ok; in-place skipped:<reason>"), or, when only one mode
 * ran, its own and which ("ok (out-of-place only)"). */
#ifndef CB_REPORT_MODES_H
#define CB_REPORT_MODES_H

#include <stddef.h>

#include "cb_schema.h"

/* The header's lines (a note, the group names, the column names, the units),
 * each starting with '#' and ending in a newline, into buf; algo_width: the
 * algo column's (cb_report_set_algo_width). */
void cb_report_modes_header(char *buf, size_t len, int algo_width);

/* One line (with its newline) of the rows oop (in_place 0) and ip
 * (in_place 1) of one (algorithm, size, dtype, op); either may be NULL (the
 * mode did not run: "-" in its columns), not both. */
void cb_report_modes_line(char *buf, size_t len, int algo_width, const struct cb_summary *oop,
			  const struct cb_summary *ip);

/* Whether rows a (out of place) and b (in place) are the two modes of one
 * line: the same algorithm, size, dtype and op. */
int cb_report_modes_pair(const struct cb_summary *a, const struct cb_summary *b);

#endif
