/* cb_nvml: the hardware's own view of a GPU through NVML, the NVIDIA
 * Management Library, loaded at run time: the byte counters of its NVLink
 * links (what a row moved over them, read before and after its timed
 * iterations) and the facts of the topology stamp (name, NVLink version,
 * links and speed, PCIe link). It links neither CUDA nor NVML: the CUDA
 * toolkit ships no nvml.h everywhere, so the few types and functions used
 * are declared in cb_nvml.c, from NVML's API reference, and resolved with
 * dlsym, as NCCL does (src/misc/nvmlwrap.cc).
 *
 * Where NVML comes from, in order: NVML functions already in the process
 * (an executable linked against NVML, or the CUDA model's, which exports
 * its own), else the library named by CB_NVML_LIB, else the driver's
 * libnvidia-ml.so.1.
 *
 * Counters: NVML_FI_DEV_NVLINK_THROUGHPUT_DATA_TX / _RX (field ids 138, 139;
 * nvmlDeviceGetFieldValues), the data payload sent and received over the
 * links, cumulative since the driver loaded, in KiB, read with scopeId
 * UINT_MAX: summed over the links (NVML API reference, "Field Value
 * Enums"). So a difference of two reads is exact to 1 KiB per read; per
 * call of a row of k calls, to 2 KiB / k (docs/library.md, "Hardware
 * traffic"). Where a driver does not support those (NVLink 5), the bytes
 * counters NVML_FI_DEV_NVLINK_COUNT_XMIT_BYTES / _RCV_BYTES (202, 204),
 * likewise summed over links. */
#ifndef CB_NVML_H
#define CB_NVML_H

#include <stddef.h>
#include <stdint.h>

#define CB_NVML_TEXT 128

/* What NVML says of one GPU (the topology stamp's inputs). */
struct cb_nvml_facts {
	int known;                    /* 0: nothing below but why */
	char name[CB_NVML_TEXT];      /* nvmlDeviceGetName */
	int nvlink_version;           /* of the first active link; 0: no NVLink */
	int nvlink_links;             /* active links (nvmlDeviceGetNvLinkState) */
	double link_GBps;             /* per link, per direction; 0: unknown */
	int nvswitch;                 /* a link ends at an NVSwitch */
	int nvls;                     /* NVLink SHARP: not NVML's, the caller's
				       * (CUDA's multicast attribute) */
	int pcie_gen, pcie_width;     /* current PCIe link; 0: unknown */
	char why[CB_NVML_TEXT];       /* !known: why */
};

struct cb_nvml;

/* Loads NVML, initialises it and finds the GPU whose PCI bus id is bus_id
 * ("0000:17:00.0", as cudaDeviceGetPCIBusId writes it). Returns a handle;
 * on failure NULL with why (cap bytes) saying so ("no NVML: ...", "NVML
 * does not know GPU ..."): nothing stays loaded. */
struct cb_nvml *cb_nvml_open(const char *bus_id, char *why, size_t cap);
/* Shuts NVML down (nvmlShutdown) and unloads it; NULL is ignored. */
void cb_nvml_close(struct cb_nvml *nv);
/* The GPU's facts (never fails: what NVML cannot say stays 0). */
void cb_nvml_facts(struct cb_nvml *nv, struct cb_nvml_facts *f);
/* Bytes sent and received over the GPU's NVLink links so far (the counters
 * in KiB x 1024). Returns NULL, or why they are unmeasured ("no NVLink
 * counters: ..."); the same answer every call once the first is given. */
const char *cb_nvml_read(struct cb_nvml *nv, uint64_t *tx, uint64_t *rx);

#endif
