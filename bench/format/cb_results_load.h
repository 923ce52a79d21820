/* cb_results_load: one collbench result for the tools that read results
 * (collbench-compare, -history, -model): what a path means, and the launch
 * metadata sidecars (*.meta.json, schema collbench-meta-1) beside its
 * summary CSV (read by cb_results.h).
 *
 * What a path means (cb_results_load):
 *   folder            FOLDER/summary.csv and every FOLDER/<x>.meta.json (the
 *                     run folders of scripts/sweep.sh); FOLDER/meta.json, the
 *                     run's own metadata, when it is a JSON object, must have
 *                     "schema": "collbench-run-1" (a future version is
 *                     refused as a sidecar's is);
 *   .../summary.csv   that file and the *.meta.json next to it (same);
 *   other file X.csv  that file and X.meta.json when it exists (allreduce_perf
 *                     --csv writes it there by default). */
#ifndef CB_RESULTS_LOAD_H
#define CB_RESULTS_LOAD_H

#include <stddef.h>

#include "cb_results.h"
#include "cb_status.h"

/* Loads path (see the top of this file) into *res. Errors, with a one-line
 * message naming the file in err and *res left empty: CB_ERR_IO (cannot
 * read: missing file, a folder without summary.csv), CB_ERR_ARG (invalid
 * content: the summary's rules in cb_results.h, the sidecar's below),
 * CB_ERR_NOMEM. */
enum cb_status cb_results_load(const char *path, struct cb_results *res, char *err,
			       size_t errlen);

/* Parses one launch sidecar (len bytes of JSON at buf; name for messages and
 * out->file). Needs "schema": "collbench-meta-1", a "backend" string,
 * "mpi": {"nranks": >= 1, "ranks_per_node": >= 1}; reads "gpu_model" (else
 * "device": the GPU model, "" on host), "host.cpu_model", "mpi.nnodes",
 * "status", "timing_mode" (with nccl-tests' "agg_iters", "blocking" and
 * "report_cputime" appended as " -m K -z N -C 1" where not their defaults)
 * and "wait.strategy" when present, and the
 * machine identity (cb_machine_identity): "machine" {label, cpu_model,
 * cpus, gpu_model} when present, else the same facts from "host" (hostname
 * up to its first dot, cpu_model, cpus_online) for files older than that
 * key; memory is not part of it; what is absent shows as "?". Errors: CB_ERR_ARG (not JSON, with jansson's line and text;
 * a missing or mistyped key). */
enum cb_status cb_results_parse_meta(const char *buf, size_t len, const char *name,
				     struct cb_res_launch *out, char *err, size_t errlen);

#endif
