/* cb_compat: may two results be compared at all? A faster GPU, another
 * backend or ranks spread over more nodes change the numbers for reasons that
 * are not a regression, so collbench-compare refuses such pairs unless
 * --force.
 *
 * Incomparable (an error, or a warning under --force):
 *   backend       the set of backends of the rows and of the metadata;
 *   GPU model     the set of GPU models of the launch metadata ("gpu_model",
 *                 else "device"; "" for the host backend);
 *   machine       the set of machine identities of the launch metadata
 *                 (label, CPU model, CPU count, GPU model:
 *                 cb_results_parse_meta; memory is not part of it), with
 *                 advice on making a baseline of this machine;
 *   placement     for a rank count launched in both runs: ranks per node and
 *                 node count;
 *   timing mode   the set of --timing modes of the launches ("timing_mode":
 *                 loop hides launch gaps and barrier skew, so small messages
 *                 look faster than in iter mode);
 *   wait strategy the set of --wait strategies ("wait.strategy": how a rank
 *                 waits for a peer changes latency on an oversubscribed host);
 *   plan          for a plan file's name (--plan) with rows in both runs at one
 *                 rank count: the plan's digest ("plan_file"."digest",
 *                 cb_plan_file.h), so a file edited under the same name is
 *                 not read as a regression;
 *   dtypes        the set of dtypes of the rows.
 * Warnings only: an input without metadata (those checks then use the rows
 * alone), a launch that did not finish, launches that do not record their
 * wait strategy (older than --wait: not checked) or their plan's digest. */
#ifndef CB_COMPAT_H
#define CB_COMPAT_H

#include <stdio.h>

#include "cb_results.h"

/* Checks base (named bname in messages) against cur (cname). Writes one line
 * per finding on diag: "collbench-compare: error: ..." for an
 * incomparability, or "collbench-compare: warning: ..." (for everything when
 * force). algos: --algo's list (NULL: every algorithm): a plan file whose
 * rows it leaves out is not checked. Returns the number of incomparabilities
 * (whether forced or not). */
int cb_compat_check(const struct cb_results *base, const char *bname,
		    const struct cb_results *cur, const char *cname, const char *algos,
		    int force, FILE *diag);

#endif
