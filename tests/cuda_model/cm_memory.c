/* The CUDA model's device memory: each cudaMalloc is a POSIX shared-memory
 * object "/cbm-<pid>-m<serial>" mapped into the process, so that another
 * process of the host can map it too (CUDA IPC). Its first page is a header
 * the processes share (who maps it, whether its owner freed it); a page
 * without access follows the allocation, so a copy or kernel that runs past
 * its end faults. Contract in cm_model.h. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cm_model.h"

#define CM_HDR_MAGIC 0x63626d616c6c6f63ull /* "cbmalloc" */
#define CM_HANDLE_MAGIC 0x63626970u        /* "cbip" */

/* The first page of an allocation's shared object. */
struct shared_hdr {
	uint64_t magic, serial, bytes, owner_va;
	int32_t owner_pid, device;
	int32_t maps;  /* processes that have it open (atomic) */
	int32_t freed; /* its owner called cudaFree (atomic) */
};

/* What a cudaIpcMemHandle_t holds (64 bytes reserved). */
struct handle {
	uint32_t magic;
	int32_t pid, device;
	uint64_t serial, bytes, owner_va;
};
_Static_assert(sizeof(struct handle) <= sizeof(cudaIpcMemHandle_t), "handle fits");

struct range {
	struct range *next;
	char *base; /* the pointer the caller got */
	size_t bytes;
	int device, refs; /* refs: opens not yet closed (CM_MAPPED) */
	enum cm_mem_kind kind;
	struct shared_hdr *hdr;
	void *map;
	size_t map_len;
	int32_t pid;
	uint64_t serial, owner_va;
};

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static struct range *ranges;
static uint64_t next_serial;
static size_t in_use; /* bytes this process has cudaMalloc'd */
static pthread_once_t at_exit_once = PTHREAD_ONCE_INIT;

static void shm_name(char *buf, size_t len, int32_t pid, uint64_t serial)
{
	snprintf(buf, len, "/cbm-%d-m%llu", (int)pid, (unsigned long long)serial);
}

static size_t map_bytes(size_t bytes)
{
	return CM_PAGE + (bytes + CM_PAGE - 1) / CM_PAGE * CM_PAGE;
}

/* A process that leaves without cudaFree: its objects' names go with it
 * (its memory does anyway; a killed one's names go at the next start). */
static void unlink_own(void)
{
	char name[64];

	pthread_mutex_lock(&mu);
	for (struct range *r = ranges; r; r = r->next)
		if (r->kind == CM_OWN) {
			shm_name(name, sizeof(name), r->pid, r->serial);
			shm_unlink(name);
		}
	pthread_mutex_unlock(&mu);
}

static void register_at_exit(void)
{
	atexit(unlink_own);
}

enum cm_mem_kind cm_mem_lookup(const void *p, size_t bytes, int *device)
{
	const char *c = p;
	enum cm_mem_kind k = CM_HOST;

	pthread_mutex_lock(&mu);
	for (struct range *r = ranges; r; r = r->next)
		if (c >= r->base && c < r->base + r->bytes) {
			k = bytes <= (size_t)(r->base + r->bytes - c) ? r->kind : CM_OVERRUN;
			*device = r->device;
			break;
		}
	pthread_mutex_unlock(&mu);
	return k;
}

/* The range whose base is p, of kind k, or NULL; mu held. */
static struct range *find_base(const void *p, enum cm_mem_kind k)
{
	for (struct range *r = ranges; r; r = r->next)
		if (r->base == p && r->kind == k)
			return r;
	return NULL;
}

static void unlink_range(struct range *gone)
{
	for (struct range **r = &ranges; *r; r = &(*r)->next)
		if (*r == gone) {
			*r = gone->next;
			return;
		}
}

/* The shared object of a new allocation, mapped with a guard page after
 * it; NULL (errno set) when it cannot be had. */
static void *map_new(const char *name, size_t map_len)
{
	void *at = mmap(NULL, map_len + CM_PAGE, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
			-1, 0);
	int fd, err;

	if (at == MAP_FAILED)
		return NULL;
	fd = shm_open(name, O_CREAT | O_EXCL | O_RDWR, 0600);
	/* reserved now, so a full /dev/shm is cudaErrorMemoryAllocation here,
	 * not a SIGBUS at the first store */
	err = fd < 0 ? errno : posix_fallocate(fd, 0, (off_t)map_len);
	if (!err && mmap(at, map_len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd, 0) == MAP_FAILED)
		err = errno;
	if (fd >= 0)
		close(fd);
	if (err) {
		shm_unlink(name);
		munmap(at, map_len + CM_PAGE);
		errno = err;
		return NULL;
	}
	return at;
}

/* Takes size bytes of the GPU's memory for this process: 0 when that would
 * pass CB_CUDA_MODEL_MEM_MB (default 16384, the model GPU's totalGlobalMem),
 * as cudaMalloc's cudaErrorMemoryAllocation; else the new allocation's
 * serial number. */
static uint64_t take(size_t size)
{
	size_t cap = (size_t)cm_env_long("CB_CUDA_MODEL_MEM_MB", 16384) << 20;
	uint64_t serial = 0;

	pthread_mutex_lock(&mu);
	if (size <= cap && in_use <= cap - size) {
		in_use += size;
		serial = ++next_serial;
	}
	pthread_mutex_unlock(&mu);
	return serial;
}

static void give_back(size_t size)
{
	pthread_mutex_lock(&mu);
	in_use -= size;
	pthread_mutex_unlock(&mu);
}

/* Runtime API, Memory Management, cudaMalloc: "The memory is not cleared":
 * the model fills it with 0xcb bytes, so code that takes fresh memory for
 * zeroed reads them. */
cudaError_t cudaMalloc(void **devPtr, size_t size)
{
	cudaError_t e = cm_enter();
	struct range *r;
	char name[64];

	if (e != cudaSuccess)
		return e;
	*devPtr = NULL;
	if (size == 0)
		return cudaSuccess;
	pthread_once(&at_exit_once, register_at_exit);
	r = calloc(1, sizeof(*r));
	if (r && !(r->serial = take(size))) {
		cm_log("cudaMalloc(%zu B): more than the GPU's memory (CB_CUDA_MODEL_MEM_MB)", size);
		free(r);
		r = NULL;
	}
	if (!r)
		return cm_ret(cudaErrorMemoryAllocation);
	r->pid = (int32_t)getpid();
	r->map_len = map_bytes(size);
	shm_name(name, sizeof(name), r->pid, r->serial);
	r->map = map_new(name, r->map_len);
	if (!r->map) {
		cm_log("cudaMalloc(%zu B): %s: %s", size, name, strerror(errno));
		give_back(size);
		free(r);
		return cm_ret(cudaErrorMemoryAllocation);
	}
	r->hdr = r->map;
	r->base = (char *)r->map + CM_PAGE;
	r->bytes = size;
	r->device = cm_current_device();
	r->kind = CM_OWN;
	*r->hdr = (struct shared_hdr){ CM_HDR_MAGIC, r->serial, size, (uint64_t)(uintptr_t)r->base,
				       r->pid, r->device, 0, 0 };
	memset(r->base, 0xcb, size);
	pthread_mutex_lock(&mu);
	r->next = ranges;
	ranges = r;
	pthread_mutex_unlock(&mu);
	*devPtr = r->base;
	return cudaSuccess;
}

/* Runtime API, cudaFree: "this API may perform implicit synchronization"
 * (the model always does: it waits for the device's streams first). A
 * second free of the same pointer is an error. cudaIpcOpenMemHandle:
 * "Calling cudaFree on an exported memory region before calling
 * cudaIpcCloseMemHandle in the importing context will result in undefined
 * behavior": a broken rule of the caller's. */
cudaError_t cudaFree(void *devPtr)
{
	cudaError_t e = cm_enter();
	struct range *r;
	char name[64];
	int maps;

	if (e != cudaSuccess || !devPtr)
		return e;
	pthread_mutex_lock(&mu);
	r = find_base(devPtr, CM_OWN);
	pthread_mutex_unlock(&mu);
	if (!r) {
		cm_log("cudaFree(%p): not an allocation of this process's cudaMalloc (freed twice, "
		       "or memory mapped through CUDA IPC, which cudaIpcCloseMemHandle releases)", devPtr);
		return cm_ret(cudaErrorInvalidValue);
	}
	cm_device_sync(r->device);
	pthread_mutex_lock(&mu);
	unlink_range(r);
	pthread_mutex_unlock(&mu);
	__atomic_store_n(&r->hdr->freed, 1, __ATOMIC_SEQ_CST);
	maps = __atomic_load_n(&r->hdr->maps, __ATOMIC_SEQ_CST);
	if (maps > 0)
		cm_violation("Runtime API, cudaIpcOpenMemHandle: cudaFree on an exported region before "
			     "cudaIpcCloseMemHandle in the importing process is undefined behaviour",
			     "cudaFree(%p) while %d other process(es) still map it through CUDA IPC",
			     devPtr, maps);
	shm_name(name, sizeof(name), r->pid, r->serial);
	shm_unlink(name);
	munmap(r->map, r->map_len + CM_PAGE);
	give_back(r->bytes);
	free(r);
	return cudaSuccess;
}

/* Runtime API, cudaIpcGetMemHandle: "Takes a pointer to the base of an
 * existing device memory allocation created with cudaMalloc". */
cudaError_t cudaIpcGetMemHandle(cudaIpcMemHandle_t *handle, void *devPtr)
{
	cudaError_t e = cm_enter();
	struct handle h;
	struct range *r;

	if (e != cudaSuccess)
		return e;
	memset(&h, 0, sizeof(h));
	pthread_mutex_lock(&mu);
	r = find_base(devPtr, CM_OWN);
	if (r)
		h = (struct handle){ CM_HANDLE_MAGIC, r->pid, r->device, r->serial, r->bytes,
				     r->hdr->owner_va };
	pthread_mutex_unlock(&mu);
	if (!r) {
		cm_log("cudaIpcGetMemHandle(%p): not the base of a cudaMalloc of this process", devPtr);
		return cm_ret(cudaErrorInvalidValue);
	}
	memset(handle, 0, sizeof(*handle));
	memcpy(handle->reserved, &h, sizeof(h));
	return cudaSuccess;
}

/* An open mapping of the same handle (its pointer, refcount + 1), or
 * cudaErrorAlreadyMapped when this process still maps an older allocation
 * of the same owner at an overlapping owner address: a rule of CUDA IPC
 * (close every opened handle before its owner frees it, "or later opens
 * fail with 'already mapped'"), a fact to check on a GPU. mu held. */
static cudaError_t reuse(const struct handle *h, void **devPtr)
{
	for (struct range *r = ranges; r; r = r->next) {
		if (r->kind != CM_MAPPED || r->pid != h->pid)
			continue;
		if (r->serial == h->serial) {
			r->refs++;
			*devPtr = r->base;
			return cudaSuccess;
		}
		if (h->owner_va < r->owner_va + r->bytes && r->owner_va < h->owner_va + h->bytes)
			return cudaErrorAlreadyMapped;
	}
	return cudaErrorNotReady; /* not mapped: map it */
}

/* Maps h's allocation; cudaErrorMapBufferObjectFailed when it is gone
 * (freed, or its owner exited). */
static cudaError_t map_peer(const struct handle *h, void **devPtr)
{
	struct range *r = calloc(1, sizeof(*r));
	char name[64];
	int fd;

	if (!r)
		return cudaErrorMemoryAllocation;
	shm_name(name, sizeof(name), h->pid, h->serial);
	fd = shm_open(name, O_RDWR, 0);
	r->map_len = map_bytes(h->bytes);
	r->map = fd < 0 ? MAP_FAILED : mmap(NULL, r->map_len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (fd >= 0)
		close(fd);
	r->hdr = r->map;
	if (r->map == MAP_FAILED || r->hdr->magic != CM_HDR_MAGIC || r->hdr->serial != h->serial ||
	    __atomic_load_n(&r->hdr->freed, __ATOMIC_SEQ_CST)) {
		if (r->map != MAP_FAILED)
			munmap(r->map, r->map_len);
		free(r);
		return cudaErrorMapBufferObjectFailed;
	}
	__atomic_add_fetch(&r->hdr->maps, 1, __ATOMIC_SEQ_CST);
	*r = (struct range){ NULL, (char *)r->map + CM_PAGE, h->bytes, h->device, 1, CM_MAPPED, r->hdr,
			     r->map, r->map_len, h->pid, h->serial, h->owner_va };
	pthread_mutex_lock(&mu);
	r->next = ranges;
	ranges = r;
	pthread_mutex_unlock(&mu);
	*devPtr = r->base;
	return cudaSuccess;
}

/* Runtime API, cudaIpcOpenMemHandle: "Opens an interprocess memory handle
 * exported from another process"; handles "may only be opened by one context
 * per device per other process": opening one in its exporting process fails
 * (the runtime answers cudaErrorDeviceUninitialized, "invalid device
 * context", as reported in openucx/ucx#11603); flags "Must be specified as
 * cudaIpcMemLazyEnablePeerAccess"; opening a handle again returns the same
 * pointer with its reference count incremented; a handle of another GPU
 * needs peer access (cudaDeviceCanAccessPeer). */
cudaError_t cudaIpcOpenMemHandle(void **devPtr, cudaIpcMemHandle_t handle, unsigned int flags)
{
	cudaError_t e = cm_enter();
	struct handle h;
	int dev = cm_current_device();

	if (e != cudaSuccess)
		return e;
	memcpy(&h, handle.reserved, sizeof(h));
	if (h.magic != CM_HANDLE_MAGIC || flags != cudaIpcMemLazyEnablePeerAccess)
		return cm_ret(cudaErrorInvalidValue);
	if (h.pid == (int32_t)getpid()) {
		cm_log("cudaIpcOpenMemHandle: the handle was exported by this process");
		return cm_ret(cudaErrorDeviceUninitialized);
	}
	if (cm_fault_hit(CM_FAULT_IPC_OPEN))
		return cm_ret(cudaErrorMapBufferObjectFailed);
	pthread_mutex_lock(&mu);
	e = reuse(&h, devPtr);
	pthread_mutex_unlock(&mu);
	if (e != cudaErrorNotReady)
		return cm_ret(e);
	if (h.device != dev && !cm_can_access_peer(dev, h.device))
		return cm_ret(cudaErrorPeerAccessUnsupported);
	return cm_ret(map_peer(&h, devPtr));
}

/* Runtime API, cudaIpcCloseMemHandle: "Decrements the reference count of
 * the memory returned by cudaIpcOpenMemHandle by 1. When the reference
 * count reaches 0, this API unmaps the memory." Closing after the owner
 * freed it is the undefined behaviour of cudaIpcOpenMemHandle's rule. */
cudaError_t cudaIpcCloseMemHandle(void *devPtr)
{
	cudaError_t e = cm_enter();
	struct range *r;

	if (e != cudaSuccess)
		return e;
	pthread_mutex_lock(&mu);
	r = find_base(devPtr, CM_MAPPED);
	if (r && --r->refs == 0)
		unlink_range(r);
	pthread_mutex_unlock(&mu);
	if (!r)
		return cm_ret(cudaErrorInvalidValue);
	if (r->refs > 0)
		return cudaSuccess;
	if (__atomic_load_n(&r->hdr->freed, __ATOMIC_SEQ_CST))
		cm_violation("Runtime API, cudaIpcOpenMemHandle: cudaFree on an exported region before "
			     "cudaIpcCloseMemHandle in the importing process is undefined behaviour",
			     "cudaIpcCloseMemHandle(%p) after its owner (pid %d) freed it", devPtr,
			     (int)r->pid);
	__atomic_sub_fetch(&r->hdr->maps, 1, __ATOMIC_SEQ_CST);
	munmap(r->map, r->map_len);
	free(r);
	return cudaSuccess;
}

/* Driver API, cuMemGetAddressRange: base and size of the allocation that
 * holds dptr (both optional); CUDA_ERROR_NOT_FOUND when none does. */
CUresult cuMemGetAddressRange(CUdeviceptr *pbase, size_t *psize, CUdeviceptr dptr)
{
	const char *p = (const char *)(uintptr_t)dptr;
	CUresult res = CUDA_ERROR_NOT_FOUND;

	cm_init();
	if (cm_sticky() != cudaSuccess)
		return CUDA_ERROR_ILLEGAL_ADDRESS;
	pthread_mutex_lock(&mu);
	for (struct range *r = ranges; r; r = r->next)
		if (p >= r->base && p < r->base + r->bytes) {
			if (pbase)
				*pbase = (CUdeviceptr)(uintptr_t)r->base;
			if (psize)
				*psize = r->bytes;
			res = CUDA_SUCCESS;
			break;
		}
	pthread_mutex_unlock(&mu);
	return res;
}
