/* cb_linerate: "is my number normal?" per row: a row's busbw as a percent of
 * the line rate of the link that bounds it (pct_line) and of the copy
 * roofline measured in the same run (pct_copy). Pure functions of a row, the
 * run's topology (cb_topo.h) and the copy row's algbw; docs/normal.md
 * says what each percent means and where the bounds come from.
 *
 * The bound for busbw, B = the GPU's NVLink bandwidth per direction
 * (nvlink_links x nvlink_link_GBps; H100 SXM: 18 x 25 = 450 GB/s, NVIDIA
 * H100 Tensor Core GPU Architecture whitepaper, 2022):
 *  - ring, tree, ps and every point-to-point algorithm, and the library's
 *    rows: B. busbw is the bytes one GPU sends (and receives) per second
 *    under the bus model, 2(n-1)/n S per allreduce (nccl-tests
 *    doc/PERFORMANCE.md), so it cannot exceed the per-direction rate. On a
 *    direct NVLink mesh (no NVSwitch) B is the sum over all of a GPU's
 *    links, an upper bound that a ring using some of them cannot reach.
 *  - NVLS (NVLink SHARP: the NVSwitch reduces and multicasts) allreduce:
 *    B x 2(n-1)/(n+1). Each GPU sends S and receives S/n for the
 *    reduce-scatter half and sends S/n and receives S for the all-gather
 *    half (S. Jeaugey, NVIDIA, github.com/NVIDIA/nccl/issues/1083,
 *    2023-11-21), so S (n+1)/n crosses its link each way: algbw <= B n/(n+1),
 *    and busbw, still algbw x 2(n-1)/n as nccl-tests computes it, can exceed
 *    B (the "busbw above the line rate" question; NVIDIA gives ~480 GB/s
 *    busbw for 8 x H100, github.com/NVIDIA/nccl-tests/issues/212).
 *  - no NVLink: the PCIe link, per direction: lanes x the lane rate after
 *    line encoding (cb_pcie_lane_GBps).
 * Not bounded (NaN, with the reason): an unknown topology, ranks on several
 * hosts (the network bounds them; its rate is not in the stamp), one rank,
 * a row without busbw (copy, a skipped or failed row). */
#ifndef CB_LINERATE_H
#define CB_LINERATE_H

#include <stddef.h>

#include "cb_schema.h"
#include "cb_topo.h"

/* GB/s (1e9 B/s) per lane and direction of PCIe generation gen after line
 * encoding: 1: 2.5 GT/s 8b/10b = 0.25; 2: 5 GT/s 8b/10b = 0.5; 3: 8 GT/s
 * 128b/130b = 0.985; 4: 16 GT/s = 1.969; 5: 32 GT/s = 3.938; 6: 64 GT/s
 * PAM4, FLIT mode 242B/256B = 7.5625; 7: 128 GT/s, likewise = 15.125 (PCI-SIG
 * base specifications 1.0-7.0, as tabled in Wikipedia's "PCI Express",
 * "Comparison table"). Packet headers are not subtracted (they depend on the
 * payload size). 0 for an unknown generation. */
double cb_pcie_lane_GBps(int gen);

/* 1 when the row runs NCCL's NVLS or NVLSTree algorithm: its algo is
 * nccl.nvls* (a forced row), or nccl_algo (NCCL's own choice for the row, as
 * recorded; may be NULL) is "NVLS" or "NVLSTree" (any case). */
int cb_linerate_is_nvls(const char *algo, const char *nccl_algo);

/* The busbw bound of row s on topology t, GB/s (the rules above), with a
 * short name of the bound in what ("NVLink 18 x 25 GB/s", ...). NaN when
 * none applies, with the reason in what. nccl_algo as for
 * cb_linerate_is_nvls. */
double cb_line_bound_GBps(const struct cb_topo *t, const struct cb_summary *s,
			  const char *nccl_algo, char *what, size_t len);

/* 100 x busbw / cb_line_bound_GBps, or NaN (reason in why). */
double cb_pct_line(const struct cb_topo *t, const struct cb_summary *s, const char *nccl_algo,
		   char *why, size_t len);

/* 100 x busbw / copy_algbw: the bytes each rank moves per second under the
 * bus model against the bytes one rank copies per second locally, all ranks
 * copying at once (the `copy` row at the same size in the same run: its
 * algbw, S / t). On one host with a one-sided transport every byte of busbw
 * is a copy (or a reduce, which reads more), so this is the share of the
 * machine's copy roofline the algorithm reaches. NaN when copy_algbw is NaN
 * or not positive (copy did not run at that size, or failed), for the copy
 * row itself, and for a row without busbw or with n = 1. */
double cb_pct_copy(const struct cb_summary *s, double copy_algbw);

#endif
