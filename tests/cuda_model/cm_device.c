/* The CUDA model's devices: how many, which one a thread uses, their
 * attributes, PCI bus ids and peer access, the versions, and the driver
 * entry points reached through cudaGetDriverEntryPointByVersion (contract
 * in cm_model.h). A model GPU is an index; its memory is host shared memory
 * (cm_memory.c) and its engines are the streams' worker threads
 * (cm_stream.c). Processes that bind the same index share that GPU. */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "cm_model.h"

#define CM_SM_COUNT 4
#define CM_BUS_BASE 0x11

static _Thread_local int current;

int cm_gpu_count(void)
{
	long n = cm_env_long("CB_CUDA_MODEL_GPUS", 1);

	return n < 0 ? 0 : n > CM_MAX_GPUS ? CM_MAX_GPUS : (int)n;
}

int cm_current_device(void)
{
	return current;
}

/* CB_CUDA_MODEL_P2P=0 models GPUs that cannot reach each other (PCIe
 * without P2P, many VMs); a device never "accesses itself as a peer". */
int cm_can_access_peer(int a, int b)
{
	return a != b && cm_env_long("CB_CUDA_MODEL_P2P", 1) != 0;
}

static int valid(int device)
{
	return device >= 0 && device < cm_gpu_count();
}

/* Runtime API, Device Management: with no device, cudaGetDeviceCount
 * returns cudaErrorNoDevice ("no CUDA-capable device is detected"). */
cudaError_t cudaGetDeviceCount(int *count)
{
	cm_init();
	*count = cm_gpu_count();
	return cm_ret(*count ? cudaSuccess : cudaErrorNoDevice);
}

cudaError_t cudaSetDevice(int device)
{
	cudaError_t e = cm_enter();

	if (e != cudaSuccess)
		return e;
	if (!valid(device))
		return cm_ret(cudaErrorInvalidDevice);
	current = device;
	return cudaSuccess;
}

cudaError_t cudaGetDevice(int *device)
{
	cudaError_t e = cm_enter();

	if (e == cudaSuccess)
		*device = current;
	return e;
}

cudaError_t cudaDeviceGetAttribute(int *value, enum cudaDeviceAttr attr, int device)
{
	cudaError_t e = cm_enter();

	if (e != cudaSuccess)
		return e;
	if (!valid(device))
		return cm_ret(cudaErrorInvalidDevice);
	switch (attr) {
	case cudaDevAttrMultiProcessorCount: *value = CM_SM_COUNT; return cudaSuccess;
	case cudaDevAttrUnifiedAddressing: *value = 1; return cudaSuccess;
	/* CU_DEVICE_ATTRIBUTE_MULTICAST_SUPPORTED: NVLS's multicast objects */
	case (enum cudaDeviceAttr)132: *value = cm_topo_has_nvls(); return cudaSuccess;
	default:
		cm_log("cudaDeviceGetAttribute: the model does not know attribute %d", (int)attr);
		return cm_ret(cudaErrorInvalidValue);
	}
}

cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *prop, int device)
{
	cudaError_t e = cm_enter();

	if (e != cudaSuccess)
		return e;
	if (!valid(device))
		return cm_ret(cudaErrorInvalidDevice);
	memset(prop, 0, sizeof(*prop));
	snprintf(prop->name, sizeof(prop->name), "%s", cm_topo()->gpu_name);
	prop->totalGlobalMem = (size_t)16 << 30;
	prop->multiProcessorCount = CM_SM_COUNT;
	prop->major = 9;
	prop->pciBusID = CM_BUS_BASE + device;
	prop->unifiedAddressing = 1;
	prop->warpSize = 32;
	return cudaSuccess;
}

/* Runtime API, Device Management, cudaDeviceGetPCIBusId: "[domain]:[bus]:
 * [device].[function]", the buffer at least 13 characters. */
cudaError_t cudaDeviceGetPCIBusId(char *pciBusId, int len, int device)
{
	cudaError_t e = cm_enter();

	if (e != cudaSuccess)
		return e;
	if (!valid(device))
		return cm_ret(cudaErrorInvalidDevice);
	if (len < 13)
		return cm_ret(cudaErrorInvalidValue);
	snprintf(pciBusId, (size_t)len, "0000:%02x:00.0", CM_BUS_BASE + device);
	return cudaSuccess;
}

cudaError_t cudaDeviceGetByPCIBusId(int *device, const char *pciBusId)
{
	cudaError_t e = cm_enter();
	char id[16];

	if (e != cudaSuccess)
		return e;
	for (int d = 0; d < cm_gpu_count(); d++) {
		snprintf(id, sizeof(id), "0000:%02x:00.0", CM_BUS_BASE + d);
		if (strcasecmp(id, pciBusId) == 0) {
			*device = d;
			return cudaSuccess;
		}
	}
	return cm_ret(cudaErrorInvalidDevice);
}

cudaError_t cudaDeviceCanAccessPeer(int *canAccessPeer, int device, int peerDevice)
{
	cudaError_t e = cm_enter();

	if (e != cudaSuccess)
		return e;
	if (!valid(device) || !valid(peerDevice))
		return cm_ret(cudaErrorInvalidDevice);
	*canAccessPeer = cm_can_access_peer(device, peerDevice);
	return cudaSuccess;
}

/* Runtime API, cudaDeviceGetP2PAttribute: what the link between two GPUs
 * that can access each other supports; CB_CUDA_MODEL_P2P_ATOMICS=0 models a
 * link without native atomics (PCIe peers often lack them). */
cudaError_t cudaDeviceGetP2PAttribute(int *value, enum cudaDeviceP2PAttr attr, int srcDevice,
				      int dstDevice)
{
	cudaError_t e = cm_enter();
	int can;

	if (e != cudaSuccess)
		return e;
	if (!valid(srcDevice) || !valid(dstDevice) || srcDevice == dstDevice)
		return cm_ret(cudaErrorInvalidDevice);
	can = cm_can_access_peer(srcDevice, dstDevice);
	switch (attr) {
	case cudaDevP2PAttrAccessSupported: *value = can; break;
	case cudaDevP2PAttrNativeAtomicSupported:
		*value = can && cm_env_long("CB_CUDA_MODEL_P2P_ATOMICS", 1) != 0;
		break;
	default: *value = 0; break;
	}
	return cudaSuccess;
}

cudaError_t cudaDeviceSynchronize(void)
{
	cudaError_t e = cm_enter();

	if (e != cudaSuccess)
		return e;
	cm_device_sync(current);
	return cm_ret(cm_sticky());
}

cudaError_t cudaDriverGetVersion(int *driverVersion)
{
	*driverVersion = cm_gpu_count() ? CUDA_VERSION : 0;
	return cudaSuccess;
}

cudaError_t cudaRuntimeGetVersion(int *runtimeVersion)
{
	*runtimeVersion = CUDART_VERSION;
	return cudaSuccess;
}

/* ---- driver API: what the backend resolves at run time ---------------- */

CUresult cuDeviceGet(CUdevice *device, int ordinal)
{
	cm_init();
	if (!valid(ordinal))
		return CUDA_ERROR_INVALID_DEVICE;
	*device = ordinal;
	return CUDA_SUCCESS;
}

/* Driver API, cuDeviceGetAttribute: CU_DEVICE_ATTRIBUTE_CAN_USE_64_BIT_
 * STREAM_MEM_OPS says whether cuStreamWaitValue64/WriteValue64 work
 * (CB_CUDA_MODEL_STREAM_MEM_OPS=0: they do not); CU_DEVICE_ATTRIBUTE_
 * MULTICAST_SUPPORTED whether the topology has NVLS (cm_topo_has_nvls). */
CUresult cuDeviceGetAttribute(int *pi, CUdevice_attribute attrib, CUdevice dev)
{
	cm_init();
	if (!valid(dev))
		return CUDA_ERROR_INVALID_DEVICE;
	switch (attrib) {
	case CU_DEVICE_ATTRIBUTE_CAN_USE_64_BIT_STREAM_MEM_OPS:
		*pi = cm_env_long("CB_CUDA_MODEL_STREAM_MEM_OPS", 1) != 0;
		return CUDA_SUCCESS;
	case CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT: *pi = CM_SM_COUNT; return CUDA_SUCCESS;
	case CU_DEVICE_ATTRIBUTE_MULTICAST_SUPPORTED: *pi = cm_topo_has_nvls(); return CUDA_SUCCESS;
	default:
		cm_log("cuDeviceGetAttribute: the model does not know attribute %d", (int)attrib);
		return CUDA_ERROR_INVALID_VALUE;
	}
}

CUresult cuGetErrorName(CUresult error, const char **pStr)
{
	*pStr = cm_cu_name(error);
	return *pStr ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

CUresult cuGetErrorString(CUresult error, const char **pStr)
{
	*pStr = cm_cu_text(error);
	return *pStr ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

/* The driver functions the model has (the names the backend asks for,
 * without the _v2 of the ABI: cudaGetDriverEntryPointByVersion resolves the
 * version given). The memory and stream ones live with their kind. */
static const struct {
	const char *name;
	void *fn;
} driver_fns[] = {
	{ "cuDeviceGet", (void *)cuDeviceGet },
	{ "cuDeviceGetAttribute", (void *)cuDeviceGetAttribute },
	{ "cuGetErrorName", (void *)cuGetErrorName },
	{ "cuGetErrorString", (void *)cuGetErrorString },
	{ "cuMemGetAddressRange", (void *)cuMemGetAddressRange },
	{ "cuStreamBatchMemOp", (void *)cuStreamBatchMemOp },
	{ "cuStreamWaitValue64", (void *)cuStreamWaitValue64 },
	{ "cuStreamWriteValue64", (void *)cuStreamWriteValue64 },
};

/* Runtime API, Driver Entry Point Access: a symbol the driver lacks gives
 * *driverStatus = cudaDriverEntryPointSymbolNotFound and *funcPtr NULL; the
 * model asks for the CUDA 12.0 ABI or later (cudaVersion >= 12000). */
cudaError_t cudaGetDriverEntryPointByVersion(const char *symbol, void **funcPtr,
					     unsigned int cudaVersion, unsigned long long flags,
					     enum cudaDriverEntryPointQueryResult *driverStatus)
{
	enum cudaDriverEntryPointQueryResult q = cudaDriverEntryPointSymbolNotFound;

	(void)flags;
	cm_init();
	*funcPtr = NULL;
	for (size_t i = 0; i < sizeof(driver_fns) / sizeof(driver_fns[0]); i++)
		if (strcmp(driver_fns[i].name, symbol) == 0) {
			q = cudaVersion >= 12000 ? cudaDriverEntryPointSuccess :
						   cudaDriverEntryPointVersionNotSufficent;
			if (q == cudaDriverEntryPointSuccess)
				*funcPtr = driver_fns[i].fn;
		}
	if (driverStatus)
		*driverStatus = q;
	return cudaSuccess;
}
