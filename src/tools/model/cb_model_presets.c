/* cb_model_presets: the built-in topologies of the cost model, each with the
 * public specification its numbers come from (contract in cb_model_topo.h). */
#include <string.h>

#include "cb_catalog.h"
#include "cb_model_topo.h"

#define GB 1e9
#define US 1e-6

/* Latencies (alpha) are not in any specification: the presets use round
 * numbers of the right order (a GPU kernel launch plus a flag round trip on
 * NVLink or PCIe, an InfiniBand or Ethernet message through the software
 * stack) and say so; fit your own machine to replace them. */
#define ALPHA_NOTE "alpha: an assumption of the right order, not a specification"

/* Sources (bandwidths per direction, 1 GB = 1e9 B):
 *  - H100 SXM5: NVLink 900 GB/s per GPU (both directions: 450 GB/s each way),
 *    HBM3 3.35 TB/s: NVIDIA H100 Tensor Core GPU datasheet.
 *  - DGX H100: 8 H100 SXM5 on 4 NVSwitches, 8 single-port ConnectX-7 400 Gb/s
 *    (one per GPU) for the compute fabric: NVIDIA DGX H100 datasheet.
 *  - H100 PCIe: HBM2e 2.0 TB/s, PCIe Gen5 x16: NVIDIA H100 datasheet.
 *  - A100 40GB PCIe: HBM2 1,555 GB/s, PCIe Gen4 x16: NVIDIA A100 datasheet.
 *  - PCIe 4.0 x16: 16 GT/s x 16 lanes, 128b/130b = 31.5 GB/s; PCIe 5.0 x16:
 *    32 GT/s = 63.0 GB/s (PCI-SIG base specifications 4.0, 5.0).
 *  - 400/200/100 Gb/s NICs: 50/25/12.5 GB/s (line rate; ConnectX-7 NDR,
 *    ConnectX-6 HDR, 100 GbE).
 *  - gamma = memory bandwidth / 3 (a reduce reads two operands and writes
 *    the result); copy = memory bandwidth / 2 (reads one, writes one).
 *  - slices: the backends' own (CB_CUDA_PIPELINE_BYTES on GPU hosts,
 *    CB_HOST_PIPELINE_BYTES on vm-2core: catalog/cb_catalog.h).
 *  - vm-2core: this 2-core VM's host memory as the fabric, fitted by
 *    collbench-model fit on results/reference (ps, ring, copy at 2 ranks):
 *    alpha 0.21 us from every size (--tiers auto), beta 16.1, gamma 6.5 and
 *    fused 7.1 GB/s from sizes >= 1 MiB (--tiers 1 --min-bytes 1M); see
 *    README "Cost model". */
/* A GPU host: ranks per host, intra-host link (GB/s, us), network link (GB/s,
 * us, per host or rank), HBM bandwidth (GB/s) giving gamma and the copy. */
#define GPU_HOST(nm, src, rph, ibw, ia, nbw, na, per, hbm)                                 \
	{ .name = nm, .source = src, .ranks_per_host = rph, .intra = { ibw * GB, ia * US },   \
	  .net = { nbw * GB, na * US }, .net_attach = per, .gamma = hbm * GB / 3,             \
	  .copy_bw = hbm * GB / 2, .slice_bytes = CB_CUDA_PIPELINE_BYTES }

static const struct cb_topo presets[] = {
	GPU_HOST("dgx-h100", "NVIDIA DGX H100 datasheet: NVLink4/NVSwitch 450 GB/s per direction "
		 "per GPU, 8 x 400 Gb/s ConnectX-7 (one per GPU), HBM3 3.35 TB/s; " ALPHA_NOTE,
		 8, 450, 2, 50, 5, CB_NET_PER_RANK, 3350),
	GPU_HOST("h100-nvlink-400g-host", "8 H100 SXM5 on NVSwitch (450 GB/s per direction per "
		 "GPU), one 400 Gb/s NIC per host; " ALPHA_NOTE,
		 8, 450, 2, 50, 5, CB_NET_PER_HOST, 3350),
	GPU_HOST("pcie5-h100-400g", "8 H100 PCIe per host over PCIe Gen5 x16 (63 GB/s per "
		 "direction), one 400 Gb/s NIC per GPU, HBM2e 2.0 TB/s; " ALPHA_NOTE,
		 8, 63, 3, 50, 5, CB_NET_PER_RANK, 2000),
	GPU_HOST("pcie4-a100-200g", "8 A100 PCIe per host over PCIe Gen4 x16 (31.5 GB/s per "
		 "direction), one 200 Gb/s NIC per host, HBM2 1,555 GB/s; " ALPHA_NOTE,
		 8, 31.5, 3, 25, 5, CB_NET_PER_HOST, 1555),
	GPU_HOST("pcie4-a100-100g", "8 A100 PCIe per host over PCIe Gen4 x16 (31.5 GB/s per "
		 "direction), one 100 Gb/s Ethernet NIC per host, HBM2 1,555 GB/s; " ALPHA_NOTE,
		 8, 31.5, 3, 12.5, 10, CB_NET_PER_HOST, 1555),
	{ .name = "vm-2core",
	  .source = "this 2-core VM's host memory as the fabric, fitted on results/reference "
		    "(ps, ring, copy at 2 ranks: alpha over all sizes, beta, gamma and the "
		    "one-sided reduce over >= 1 MiB in one tier); no network",
	  .ranks_per_host = 2, .intra = { 16.1 * GB, 0.21 * US }, .net_attach = CB_NET_PER_HOST,
	  .gamma = 6.5 * GB, .fused_bw = 7.1 * GB, .copy_bw = 16.1 * GB,
	  .slice_bytes = CB_HOST_PIPELINE_BYTES, .cpus_per_host = 2 },
};
#define NPRESETS (sizeof(presets) / sizeof(presets[0]))

size_t cb_topo_npresets(void)
{
	return NPRESETS;
}

const struct cb_topo *cb_topo_preset_at(size_t i)
{
	return i < NPRESETS ? &presets[i] : NULL;
}

const struct cb_topo *cb_topo_preset(const char *name)
{
	for (size_t i = 0; i < NPRESETS; i++)
		if (strcmp(presets[i].name, name) == 0)
			return &presets[i];
	return NULL;
}

