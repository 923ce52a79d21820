/* cb_hwloc: what sits near a PCI device (a rank's GPU), from hwloc: the
 * NUMA nodes and CPUs of its closest non-I/O ancestor (hwloc's
 * hwloc_get_non_io_ancestor_obj) and the network devices under that same
 * ancestor (OS devices of type network or openfabrics: the NICs a GPU
 * reaches without crossing a CPU socket). The metadata's "gpu_locality"
 * (docs/output.md). Built with hwloc where pkg-config finds it
 * (cb_hwloc.c), else a stub that says so (cb_hwloc_stub.c). */
#ifndef CB_HWLOC_H
#define CB_HWLOC_H

#define CB_HWLOC_TEXT 128

struct cb_gpu_near {
	int known;                  /* 0: only why */
	char numa[CB_HWLOC_TEXT];   /* NUMA node list, e.g. "0" or "0-1" */
	char cpus[CB_HWLOC_TEXT];   /* CPU (PU) list, e.g. "0-47,96-143" */
	char nics[CB_HWLOC_TEXT];   /* names, comma-separated, e.g. "mlx5_0,ib0"; "" none */
	char why[CB_HWLOC_TEXT];    /* !known: why */
};

/* Fills *n for the PCI device bus_id ("0000:17:00.0"; hwloc reads the
 * domain in 4 or 8 hex digits). Never fails: known 0 with why ("hwloc
 * knows no PCI device ...", "hwloc is not built in") where it cannot. */
void cb_gpu_near(const char *bus_id, struct cb_gpu_near *n);

#endif
