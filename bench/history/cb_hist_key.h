/* cb_hist_key: what makes a run the run it is, for the history's "already
 * there". A run is known by what it is, not by its bytes:
 *   run key      SHA-256 (hex) of its machine identity, its start time (UTC,
 *                cb_hist_time.h) and its rows' values: of every row the
 *                columns CB_HIST_KEY_COLUMNS as text (cb_hist_col_text:
 *                numbers as the doubles they parse to), the rows' lines
 *                sorted; a row of a collective other than allreduce
 *                (or "") has its collective after them, ",reduce_scatter",
 *                and an allreduce row none, so that the key of a run stored
 *                before the history kept collectives (schema version 6)
 *                stays its key. A copy whose files differ in line endings (CRLF),
 *                JSON layout, key order or number spelling (1.5, 1.50) has
 *                the same key; a run that measured anything else has
 *                another.
 *   command key  SHA-256 (hex) of the launches' command lines ("command_line"
 *                of each sidecar, in the reader's launch order, each ended by
 *                a newline): runs of equal key and other commands are two
 *                runs. Runs ingested before schema version 4 have none (NULL:
 *                their metadata is not kept) and match on the run key alone.
 * The columns are a fixed list, not "every stored column": a column the
 * schema gains later must not make an old run's copy another run (one the
 * history does not store reads as empty). */
#ifndef CB_HIST_KEY_H
#define CB_HIST_KEY_H

#include <stddef.h>

#include "cb_results.h"
#include "cb_status.h"

#define CB_HIST_KEY_COLUMNS "backend", "algo", "nranks", "bytes", "dtype", "op", "in_place", \
	"transport", "status", "repeats", "time_us", "time_us_median", "algbw_GBps", "busbw_GBps"
#define CB_HIST_KEY_COLL "collective" /* read with them, written as said above */
#define CB_HIST_KEY_HEX 65 /* 64 hex digits and the NUL */

/* The run key (see the top) of a run of machine identity, started at
 * time_utc, with rows[0..n-1], into key. Errors: CB_ERR_NOMEM. */
enum cb_status cb_hist_run_key(const char *identity, const char *time_utc,
			       const struct cb_res_row *rows, size_t n, char key[CB_HIST_KEY_HEX]);

/* SHA-256 (hex) of the texts[0..n-1], each followed by a newline, into
 * out: the command key. Errors: CB_ERR_NOMEM. */
enum cb_status cb_hist_text_key(const char *const *texts, size_t n, char out[CB_HIST_KEY_HEX]);

/* "SELECT <the key columns, collective> FROM rows WHERE run_id = ?1" into
 * buf[len] (a column the rows table lacks reads as NULL: "");
 * -1 when it does not fit, else 0. */
int cb_hist_key_select(char *buf, size_t len);

/* The key columns of the current row of a statement prepared from
 * cb_hist_key_select into r (its other columns empty). */
struct sqlite3_stmt;
void cb_hist_key_read_row(struct sqlite3_stmt *s, struct cb_res_row *r);

#endif
