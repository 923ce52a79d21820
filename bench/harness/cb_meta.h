/* cb_meta: the run's metadata sidecar (JSON): host, hardware, versions,
 * command line, timing method, allocator and MPI settings, and whether the
 * run finished. Written by rank 0 at start with "status": "incomplete" and
 * rewritten at the end, each time to a temporary file renamed into place, so
 * the file on disk is always complete JSON and a run that died says so. */
#ifndef CB_META_H
#define CB_META_H

#include <jansson.h>
#include <stdio.h>

#include "cb_backend.h"
#include "cb_options.h"
#include "cb_preflight.h"
#include "cb_status.h"
#include "cb_catalog.h"

/* Builds the metadata object (rank 0). pf: the pre-flight's hosts (the
 * distinct host names, each rank's host, the most ranks on one host);
 * transport: the one the run uses (--transport resolved). Text from outside
 * (command line, host and CPU names, environment) follows cb_text's rule for
 * bytes that are not UTF-8. "machine" is the identity baselines are matched
 * on: label (CB_MACHINE, else the short host name), cpu_model, cpus,
 * gpu_model, and mem_gib, recorded but not part of the identity
 * (cb_machine.h). "launcher": {"name": "mpirun" | "srun" | "singleton" |
 * "other", "job_id": SLURM_JOB_ID, "step_id": SLURM_STEP_ID, "slurm_ignored"}
 * (strings, null outside Slurm; the ids null and slurm_ignored saying why
 * when no ancestor of this process is that job's slurmstepd: cb_slurm.h).
 * "environment": the settings of cb_env.h with one value on every rank;
 * "environment_by_rank": {NAME: [value or null, by rank]} for the ones that
 * may differ by rank, where they do. Never fails except for memory (NULL). */
json_t *cb_meta_collect(const struct cb_options *o, const struct cb_backend *be,
			const struct cb_preflight *pf, enum cb_transport_id transport, int argc,
			char **argv);

/* Sets "status" (and "end_utc" unless status is "incomplete"; "error" when
 * error is not NULL) and writes meta to path atomically. Errors: CB_ERR_IO. */
enum cb_status cb_meta_write(const char *path, json_t *meta, const char *status,
			     const char *error);

/* Prints the run header (one '#' line per fact) from the metadata, flushed.
 * Errors: CB_ERR_IO (a write failed; logged, naming stdout). */
enum cb_status cb_meta_print_header(FILE *f, json_t *meta);

#endif
