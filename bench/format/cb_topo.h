/* cb_topo: the interconnect a run's GPUs sit on, as data: what the topology
 * stamp in a run's metadata holds ("topology"), what a row's percent of the
 * line rate is taken against, and what the reference table of published
 * figures is matched on. It links neither CUDA nor NVML: the cuda backend
 * fills it (from NVML, or the CUDA model's description), the tools that only
 * read results read it back from the metadata.
 *
 * Units: link speeds in GB/s (1e9 bytes per second) per direction, as NVIDIA
 * quotes NVLink (H100: 18 links x 25 GB/s = 450 GB/s per direction, 900 GB/s
 * both ways; NVIDIA H100 Tensor Core GPU Architecture whitepaper, 2022). */
#ifndef CB_TOPO_H
#define CB_TOPO_H

#include <jansson.h>

#define CB_TOPO_TEXT 128

struct cb_topo {
	int known;                     /* 0: no GPU facts (host backend, no NVML) */
	char source[CB_TOPO_TEXT];     /* where the facts came from: "nvml",
					* "cuda model", ... */
	char gpu_model[CB_TOPO_TEXT];  /* NVML's device name, e.g.
					* "NVIDIA H100 80GB HBM3" */
	int gpu_count;                 /* GPUs of the run's ranks (distinct) */
	int nvlink_version;            /* 0: no NVLink */
	int nvlink_links;              /* active NVLink links per GPU */
	double nvlink_link_GBps;       /* per link, per direction */
	int nvswitch;                  /* 1: GPUs meet in NVSwitches (all to all) */
	int nvls;                      /* 1: NVLink SHARP (multicast) available */
	int pcie_gen, pcie_width;      /* the GPU's current PCIe link; 0: unknown */
	char why_unknown[CB_TOPO_TEXT]; /* when !known: the reason, for the stamp */
};

/* ---- cb_topo.c ----------------------------------------------------------- */

/* t as the metadata's "topology" object (the fields' names as keys; texts
 * "" where unset). NULL when out of memory. */
json_t *cb_topo_json(const struct cb_topo *t);
/* The object cb_topo_json wrote, into *t (absent or null keys: 0 or "").
 * Returns 0, or -1 (t zeroed) when o is not an object or a key has another
 * type. */
int cb_topo_from_json(const json_t *o, struct cb_topo *t);

#endif
