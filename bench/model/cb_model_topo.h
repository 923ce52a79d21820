/* cb_model_topo: topologies for the cost model: built-in presets from public
 * specifications, and files users write for their own cluster.
 *
 * File format (JSON, schema "collbench-topo-1"; units in the key names):
 *   {
 *     "schema": "collbench-topo-1",
 *     "name": "my-cluster",                    (optional, default the file name)
 *     "source": "vendor datasheets, 2024",     (optional: where numbers come from)
 *     "ranks_per_host": 8,                     (integer >= 1)
 *     "intra": {"bw_GBps": 450, "alpha_us": 2},  (per rank, into the host fabric)
 *     "net":   {"bw_GBps": 50, "alpha_us": 5, "per": "rank"},  ("rank" or "host";
 *                                              optional when every run fits one host)
 *     "gamma_GBps": 1117,                      (reduce rate per rank; null: free)
 *     "fused_GBps": 300,                       (optional: a one-sided reduce that reads
 *                                              its peer's bytes; default the slower of
 *                                              intra and gamma)
 *     "copy_GBps": 1675,                       (optional: local copy, default intra)
 *     "slice_bytes": 16777216,                 (optional: ring slice, default 16 MiB)
 *     "cpus_per_host": 0                       (optional: 0 unknown)
 *   }
 * Bandwidths are per direction of a full-duplex link, 1 GB = 1e9 B; alpha is
 * per message. Every number must be finite and in range; unknown keys are
 * refused (a misspelt key would otherwise be silently ignored). */
#ifndef CB_MODEL_TOPO_H
#define CB_MODEL_TOPO_H

#include <stdio.h>

#include "cb_model.h"

/* The preset of that name, or NULL. */
const struct cb_topo *cb_topo_preset(const char *name);

/* Number of presets, and the i-th one (0 <= i < cb_topo_npresets()). */
size_t cb_topo_npresets(void);
const struct cb_topo *cb_topo_preset_at(size_t i);

/* spec is a preset name, else a file path. Errors: those of a topology file
 * (CB_ERR_ARG: "name: key: what is wrong", not JSON, wrong schema, a
 * missing, mistyped, out-of-range or unknown key),
 * CB_ERR_IO (no such preset and the file cannot be read: the message lists
 * the presets), CB_ERR_ARG (no such preset and the path is a directory, a
 * device or FIFO, or over 16 MiB: cb_input.h's reason), CB_ERR_NOMEM. */
enum cb_status cb_topo_load(const char *spec, struct cb_topo *t, char *err, size_t errlen);

/* Checks a topology built in code (the same ranges as the file). Returns
 * CB_OK or CB_ERR_ARG with the first problem in err. */
enum cb_status cb_topo_check(const struct cb_topo *t, char *err, size_t errlen);

/* Writes t as a topology file (JSON, one object) to f. */
enum cb_status cb_topo_write(FILE *f, const struct cb_topo *t);

/* Time slicing: how many ranks share a CPU, and how long the scheduler
 * lets one run. */
/* Time slicing (cb_model.h): ranks per CPU of the fullest
 * host of n ranks on t with more ranks than CPUs, 0 where every host has a
 * CPU per rank or t->cpus_per_host is 0 (unknown). */
double cb_model_ranks_per_cpu(const struct cb_topo *t, int n);

/* The Linux scheduler's default base slice on cpus CPUs, seconds:
 * 0.75 ms * (1 + floor(log2 min(cpus, 8))) (kernel/sched/fair.c). */
double cb_model_base_slice(int cpus);

/* A call in which no rank waits, of own seconds with a CPU per rank, at q
 * ranks per CPU on t: run alone until the scheduler's slice, then shared,
 * own + (q - 1) * max(0, own - slice) (cb_model.h); own for q = 0. */
double cb_model_stretch(const struct cb_topo *t, double q, double own);

#endif
