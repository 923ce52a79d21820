/* cb_nct_json: the -J (--output_file) document in nccl-tests' JSON layout,
 * version 3 (source: nccl-tests 2.19 src/util.cu, jsonOutputInit,
 * writeDeviceReport, writeResultHeader, writeBenchmarkLine*,
 * writeResultFooter, writeErrors, jsonOutputFinalize), so that its
 * tools/analyze_perf_json.py and other readers of that layout read it:
 *
 *   {"version": 3, "start_time": "YYYY-MM-DD HH:MM:SS", "args": [argv...],
 *    "env": ["NAME=value", ...], "nccl_version": null,
 *    "config": {"nthreads", "ngpus", "minimum_bytes", "maximum_bytes",
 *               "step_factor" | "step_bytes", "warmup_iters", "iterations",
 *               "aggregated_iterations", "validation", "graph",
 *               "blocking_collectives", "per_iter_timing", "per_iter_skip",
 *               "parallel_init",
 *               "devices": [{"rank", "group", "pid", "hostname", "device",
 *                            "device_hex", "device_info"}]},
 *    "results": [{"size", "count", "type", "redop", "root" (the "%6i"
 *                 text, as nccl-tests writes it),
 *                 "out_of_place": {"time", "alg_bw", "bus_bw", "nwrong"} | null,
 *                 "out_of_place_per_iter": {"skipped_iterations", "min_us",
 *                     "max_us", "avg_us", "p50_us", "p95_us", "p99_us",
 *                     "stdev_us", "cv_pct", "times_us": [k],
 *                     "per_process_max_times_us": [nranks][k]} (where kept),
 *                 "in_place": ..., "in_place_per_iter": ...,
 *                 "actual_iterations", "experiment_name": ""}],
 *    "out_of_bounds": {"count", "okay"},
 *    "average_bus_bandwidth": {"bandwidth", "okay"},
 *    "errors": [], "end_time": "...",
 *    "collbench": {"algorithm": the reference's name,
 *                  "algorithms": [{"name", "results", "out_of_bounds",
 *                                  "average_bus_bandwidth"}]}}
 *
 * As nccl-tests writes them, booleans and "okay" are the strings "true" and
 * "false" ("okay" of the average: "unchecked" without NCCL_TESTS_MIN_BW)
 * and a NaN is the string "nan".
 * The top level's results and summaries are the reference algorithm's
 * (cb_nct_reference), as the footer's nccl-tests lines; "collbench" holds
 * every algorithm's in the same shape (a key nccl-tests' readers ignore).
 * time: us per call; alg_bw, bus_bw: GB/s; nwrong null where unchecked. */
#ifndef CB_NCT_JSON_H
#define CB_NCT_JSON_H

#include <jansson.h>
#include <stddef.h>

#include "cb_nct.h"
#include "cb_status.h"

/* One rank's line of "devices". */
struct cb_nct_device {
	int rank, pid;           /* pid 0: unknown (null) */
	const char *hostname;
	int device;              /* -1: none (host memory) */
};

/* What the document says besides the rows. */
struct cb_nct_config {
	const char *const *argv; /* argc strings */
	int argc;
	const char *const *env;  /* nenv "NAME=value" strings */
	size_t nenv;
	const char *start_time, *end_time; /* "YYYY-MM-DD HH:MM:SS" */
	size_t minbytes, maxbytes, stepbytes;
	int stepfactor;          /* > 1: "step_factor", else "step_bytes" */
	int warmup, iters, check;
	int root;                /* -1: the collective has none */
	double min_bw;           /* < 0: NCCL_TESTS_MIN_BW unset */
	const struct cb_nct_device *dev;
	int ndev;
	int agg_iters;           /* -m: "aggregated_iterations" */
	int blocking;            /* -z: "blocking_collectives" when > 0 */
	int report_cputime;      /* -C 1: a mode's time as "cpu_time" */
	int graph;               /* -G: CUDA graph launches per call (0: none) */
};

/* The document of t under c; NULL when out of memory. */
json_t *cb_nct_json(const struct cb_nct *t, const struct cb_nct_config *c);

/* Writes the document to path whole (cb_output.h: a temporary renamed over
 * it; a failure leaves path as it was). Errors: CB_ERR_IO, CB_ERR_NOMEM
 * with err set. */
enum cb_status cb_nct_json_write(const char *path, const struct cb_nct *t,
				 const struct cb_nct_config *c, char *err, size_t len);

/* "YYYY-MM-DD HH:MM:SS" of now, local time (nccl-tests' TIME_STRING_FORMAT)
 * into buf (at least 20 bytes). */
void cb_nct_now(char *buf, size_t len);

#endif
