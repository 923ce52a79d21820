/* cb_hist_add: collbench-history ingest, the verb: runs given on the command
 * line into the history, with what a user must hear about them.
 *
 * Order: the runs of one ingest are added in the order of their start times
 * (ties: as given), so that old runs given together land in time order;
 * each after its machine's last run (cb_hist_db.h: a history is in ingest
 * order). Warnings (stderr), the run added all the same: a launch that did
 * not finish; a start time more than CB_HIST_FUTURE_S ahead of this
 * machine's clock (a wrong clock on the machine that made it); a start time
 * before that of a run of the same machine ingested earlier (a wrong clock,
 * that run's or this one's, or an old run added late: it is placed after
 * it). */
#ifndef CB_HIST_ADD_H
#define CB_HIST_ADD_H

#include "cb_hist_db.h"
#include "cb_status.h"

#define CB_HIST_FUTURE_S 300 /* clocks of a fleet a few minutes apart are no warning */

/* Adds the runs paths[0..n-1] (label: stored with each, or NULL) to db,
 * one transaction each; prints "added run ..." or "already there: ..." per
 * run on stdout and every refusal and warning on stderr. Returns CB_OK, or
 * CB_ERR_ARG when a run could not be read or stored (the others are added). */
enum cb_status cb_hist_add_runs(struct cb_hist_db *db, char *const *paths, int n,
				const char *label);

#endif
