/* The model's NVML: the functions of the NVIDIA Management Library that the
 * suite's loader uses (collectives/runtime/cuda/cb_nvml.c), with NVML's
 * names and signatures (NVML API Reference Guide; the types declared here
 * as there, no nvml.h needed), answering from the model: the topology
 * (cm_topo.c) and the link counters (cm_link.c), which count what the
 * model's kernels, copies, stream memory operations and NCCL moved between
 * its GPUs. The model's executables export these names (cm_nvml.list), so
 * the loader finds them in the process before it would look for the
 * driver's libnvidia-ml.so.1.
 *
 * NVML_FI_DEV_NVLINK_THROUGHPUT_DATA_TX/_RX count KiB, as NVML's do: a read
 * is the bytes moved so far / 1024, rounded down, per link or (scopeId
 * UINT_MAX) over all links. Without NVLink (the pcie preset) they, and the
 * NVLink queries, return NVML_ERROR_NOT_SUPPORTED, as on a PCIe box. */
#define _GNU_SOURCE
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "cm_model.h"

typedef int nvml_ret; /* nvmlReturn_t */
enum {
	NVML_SUCCESS = 0,
	NVML_ERROR_INVALID_ARGUMENT = 2,
	NVML_ERROR_NOT_SUPPORTED = 3,
	NVML_ERROR_NOT_FOUND = 6,
};
typedef struct nvml_dev *nvml_dev; /* nvmlDevice_t: the model's ordinal + 1 */

struct nvml_field { /* nvmlFieldValue_t */
	unsigned int field_id, scope_id;
	long long timestamp, latency_us;
	int value_type, ret;
	union {
		double d;
		unsigned int ui;
		unsigned long ul;
		unsigned long long ull;
		signed long long sll;
	} value;
};

/* every function the model exports (cm_nvml.list) */
nvml_ret nvmlInit_v2(void);
nvml_ret nvmlShutdown(void);
const char *nvmlErrorString(nvml_ret r);
nvml_ret nvmlDeviceGetHandleByPciBusId_v2(const char *bus_id, nvml_dev *dev);
nvml_ret nvmlDeviceGetName(nvml_dev dev, char *name, unsigned int length);
nvml_ret nvmlDeviceGetFieldValues(nvml_dev dev, int count, struct nvml_field *values);
nvml_ret nvmlDeviceGetNvLinkState(nvml_dev dev, unsigned int link, int *active);
nvml_ret nvmlDeviceGetNvLinkVersion(nvml_dev dev, unsigned int link, unsigned int *version);
nvml_ret nvmlDeviceGetNvLinkRemoteDeviceType(nvml_dev dev, unsigned int link, int *type);
nvml_ret nvmlDeviceGetCurrPcieLinkGeneration(nvml_dev dev, unsigned int *gen);
nvml_ret nvmlDeviceGetCurrPcieLinkWidth(nvml_dev dev, unsigned int *width);

static int ordinal(nvml_dev dev)
{
	int d = (int)(intptr_t)dev - 1;

	return d >= 0 && d < cm_gpu_count() ? d : -1;
}

nvml_ret nvmlInit_v2(void)
{
	cm_init();
	return NVML_SUCCESS;
}

nvml_ret nvmlShutdown(void)
{
	return NVML_SUCCESS;
}

const char *nvmlErrorString(nvml_ret r)
{
	switch (r) {
	case NVML_SUCCESS: return "Success";
	case NVML_ERROR_INVALID_ARGUMENT: return "Invalid Argument";
	case NVML_ERROR_NOT_SUPPORTED: return "Not Supported";
	case NVML_ERROR_NOT_FOUND: return "Not Found";
	default: return "Unknown Error";
	}
}

/* the model's bus ids: cudaDeviceGetPCIBusId's */
nvml_ret nvmlDeviceGetHandleByPciBusId_v2(const char *bus_id, nvml_dev *dev)
{
	int d = -1;

	if (!bus_id || !dev)
		return NVML_ERROR_INVALID_ARGUMENT;
	if (cudaDeviceGetByPCIBusId(&d, bus_id) != cudaSuccess) {
		(void)cudaGetLastError();
		return NVML_ERROR_NOT_FOUND;
	}
	*dev = (nvml_dev)(intptr_t)(d + 1);
	return NVML_SUCCESS;
}

nvml_ret nvmlDeviceGetName(nvml_dev dev, char *name, unsigned int length)
{
	if (ordinal(dev) < 0 || !name || !length)
		return NVML_ERROR_INVALID_ARGUMENT;
	snprintf(name, length, "%s", cm_topo()->gpu_name);
	return NVML_SUCCESS;
}

/* One field of device d: 138/139 the data counters (KiB), 90 the links'
 * common speed (MBps), 91 the link count. */
static void field(int d, struct nvml_field *f)
{
	const struct cm_topo_desc *t = cm_topo();
	unsigned long long tx, rx;
	int link = f->scope_id == UINT_MAX ? -1 : (int)f->scope_id;

	f->timestamp = (long long)(cm_now_ns() / 1000);
	f->ret = NVML_SUCCESS;
	f->value_type = 3; /* NVML_VALUE_TYPE_UNSIGNED_LONG_LONG */
	if (!t->nvlink_links) {
		f->ret = NVML_ERROR_NOT_SUPPORTED;
		return;
	}
	switch (f->field_id) {
	case 138:
	case 139:
		if (link >= t->nvlink_links) {
			f->ret = NVML_ERROR_INVALID_ARGUMENT;
			return;
		}
		cm_link_bytes(d, link, &tx, &rx);
		f->value.ull = (f->field_id == 138 ? tx : rx) / 1024;
		return;
	case 90: f->value_type = 1; f->value.ui = (unsigned)(t->link_GBps * 1000); return;
	case 91: f->value_type = 1; f->value.ui = (unsigned)t->nvlink_links; return;
	default: f->ret = NVML_ERROR_NOT_SUPPORTED; return;
	}
}

nvml_ret nvmlDeviceGetFieldValues(nvml_dev dev, int count, struct nvml_field *values)
{
	int d = ordinal(dev);

	if (d < 0 || count < 0 || (count && !values))
		return NVML_ERROR_INVALID_ARGUMENT;
	for (int i = 0; i < count; i++)
		field(d, &values[i]);
	return NVML_SUCCESS;
}

/* NVLink queries: NOT_SUPPORTED without NVLink, INVALID_ARGUMENT past the
 * last link. */
static nvml_ret link_ok(nvml_dev dev, unsigned int link)
{
	if (ordinal(dev) < 0)
		return NVML_ERROR_INVALID_ARGUMENT;
	if (!cm_topo()->nvlink_links)
		return NVML_ERROR_NOT_SUPPORTED;
	return link < (unsigned)cm_topo()->nvlink_links ? NVML_SUCCESS : NVML_ERROR_INVALID_ARGUMENT;
}

nvml_ret nvmlDeviceGetNvLinkState(nvml_dev dev, unsigned int link, int *active)
{
	nvml_ret r = link_ok(dev, link);

	if (r == NVML_SUCCESS)
		*active = 1; /* NVML_FEATURE_ENABLED */
	return r;
}

nvml_ret nvmlDeviceGetNvLinkVersion(nvml_dev dev, unsigned int link, unsigned int *version)
{
	nvml_ret r = link_ok(dev, link);

	if (r == NVML_SUCCESS)
		*version = (unsigned)cm_topo()->nvlink_version;
	return r;
}

/* NVML_NVLINK_DEVICE_TYPE_GPU 0, _SWITCH 2 */
nvml_ret nvmlDeviceGetNvLinkRemoteDeviceType(nvml_dev dev, unsigned int link, int *type)
{
	nvml_ret r = link_ok(dev, link);

	if (r == NVML_SUCCESS)
		*type = cm_topo()->nvswitch ? 2 : 0;
	return r;
}

nvml_ret nvmlDeviceGetCurrPcieLinkGeneration(nvml_dev dev, unsigned int *gen)
{
	if (ordinal(dev) < 0)
		return NVML_ERROR_INVALID_ARGUMENT;
	*gen = (unsigned)cm_topo()->pcie_gen;
	return NVML_SUCCESS;
}

nvml_ret nvmlDeviceGetCurrPcieLinkWidth(nvml_dev dev, unsigned int *width)
{
	if (ordinal(dev) < 0)
		return NVML_ERROR_INVALID_ARGUMENT;
	*width = (unsigned)cm_topo()->pcie_width;
	return NVML_SUCCESS;
}
