/* cb_hwtraffic: each rank's bytes as the hardware counted them (the
 * backend's hw_bytes: NVML's NVLink counters on cuda), per row, beside the
 * suite's own counters, and the topology stamp from the backend's facts.
 *
 * Per row: the counters are read after the warm-up, before the first timed
 * iteration, and after the last one (outside every timed region: a read is
 * an NVML call, microseconds); per call = the difference / the row's calls.
 * The summary's hw_traffic says "nvml" where every rank was measured, else
 * the first unmeasured rank's reason as a token (docs/library.md, "Hardware
 * traffic"): host_backend, no_nvml, gpu_not_in_nvml, no_nvlink, counters_back.
 *
 * The check: where both are measured, each rank's hardware tx and rx per
 * call must lie within cb_hw_tolerance of what the suite counted; a rank
 * outside it gets a warning line on stderr ("hw traffic check: ..."). */
#ifndef CB_HWTRAFFIC_H
#define CB_HWTRAFFIC_H

#include <jansson.h>
#include <stdint.h>

#include "cb_backend.h"
#include "cb_row.h"
#include "cb_topo.h"

/* This rank's counters before (begin) and after (end) the timed
 * iterations. A GPU's link counters count its peers' work too (a peer's
 * kernel that reads this GPU's memory is this GPU's tx), so where the
 * backend has counters the read sits between two barriers over be->world:
 * every rank's work before it is done (each rank drained its stream), and
 * none after it has begun. Collective there. Errors: those of the
 * barrier (CB_ERR_MPI, CB_ERR_TIMEOUT). */
enum cb_status cb_hw_mark_begin(struct cb_backend *be, struct cb_hw_mark *mk);
enum cb_status cb_hw_mark_end(struct cb_backend *be, struct cb_hw_mark *mk);

/* Collective over be->world: every rank's bytes per call (calls > 0) to
 * rank 0, into row->hw_tx/hw_rx (row->hw = 1 where all ranks measured) and
 * row->s.hw_traffic. Errors: CB_ERR_MPI. */
enum cb_status cb_hw_gather(struct cb_backend *be, const struct cb_hw_mark *mk, uint64_t calls,
			    struct cb_row *row);

/* The allowed |hardware - counted| bytes per call of a rank that the suite
 * counted `counted` bytes for, over `calls` calls: 5% of counted + 4 KiB +
 * 2 x 18 x 1 KiB / calls (18: NVML_NVLINK_MAX_LINKS, each read exact to
 * 1 KiB per link at worst; the reasons: docs/library.md, "Hardware
 * traffic"). */
double cb_hw_tolerance(uint64_t counted, uint64_t calls);

/* Rank 0, a measured row with both counts, where cb_hw_topo found a GPU
 * per rank (ranks that share one move bytes that no link carries): warns
 * (stderr) for each rank outside the tolerance; returns how many were. */
int cb_hw_check(const struct cb_row *row, uint64_t calls);

/* Collective over be->world: the run's topology from the backend's facts
 * (rank 0's GPU; on rank 0, gpu_count: the distinct bus ids of all ranks);
 * known 0 and why_unknown where the backend has none. On rank 0 *near: a
 * new JSON array, per rank {rank, bus_id, known, numa, cpus, nics,
 * why_unknown}: what sits near its GPU (cb_hwloc.h); NULL elsewhere or out
 * of memory. Errors: CB_ERR_MPI, CB_ERR_NOMEM. */
enum cb_status cb_hw_topo(struct cb_backend *be, struct cb_topo *t, json_t **near);

#endif
