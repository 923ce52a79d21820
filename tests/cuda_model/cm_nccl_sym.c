/* The CUDA model's NCCL memory and registrations (NCCL 2.19-2.28):
 * ncclMemAlloc/ncclMemFree, ncclCommWindowRegister/ncclCommWindowDeregister,
 * ncclCommRegister/ncclCommDeregister, ncclAlltoAll (2.28);
 * NCCL's rules for them against the box (cm_topo_has_nvlink/_nvls,
 * cm_model.h).
 *
 * What is modelled is when NCCL accepts or refuses, each rule with its
 * source (NCCL v2.28.9-1's src/dev_runtime.cc, allocator.cc, init.cc), not
 * NCCL's data paths: the model's collectives move the same bytes the same
 * way on a window or off one. Symmetric kernels, copy-engine collectives
 * and multicast are not modelled, so a row on them checks that collbench
 * calls NCCL as NCCL requires and that the results are right; its times
 * say nothing of those paths. Window registration is collective in NCCL
 * (every rank of the communicator, in the same order); the model registers
 * on the calling rank alone and does not check that the others do. */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cm_nccl.h"

#define CM_NCCL_GRANULE ((size_t)2 << 20) /* cuMem's recommended granularity */
#define CM_NCCL_MAX_ALLOCS 64
#define CM_NCCL_MAX_WINS 64

struct ncclWindow_vidmem {
	struct ncclComm *comm;
	char *ptr;
	size_t bytes;
	int flags;
	int symmetric; /* 0: NCCL's fallback, a local registration */
	int local;     /* 1: ncclCommRegister's handle, not a window */
};

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static struct {
	char *ptr;
	size_t bytes;
} allocs[CM_NCCL_MAX_ALLOCS];
static struct ncclWindow_vidmem *wins[CM_NCCL_MAX_WINS];

/* The ncclMemAlloc allocation holding p, or -1. Under mu. */
static int alloc_of(const void *p)
{
	for (int i = 0; i < CM_NCCL_MAX_ALLOCS; i++)
		if (allocs[i].ptr && (const char *)p >= allocs[i].ptr &&
		    (const char *)p < allocs[i].ptr + allocs[i].bytes)
			return i;
	return -1;
}

/* NCCL, ncclMemAlloc: cuMem memory of the current device, "the actual
 * allocated size might be larger than requested due to granularity". The
 * model rounds to 2 MiB and allocates with its cudaMalloc. */
ncclResult_t ncclMemAlloc(void **ptr, size_t size)
{
	size_t bytes = (size + CM_NCCL_GRANULE - 1) / CM_NCCL_GRANULE * CM_NCCL_GRANULE;
	int slot = -1;

	if (!ptr || size == 0)
		return cm_nccl_fail(NULL, ncclInvalidArgument, "ncclMemAlloc: ptr is NULL or size 0");
	pthread_mutex_lock(&mu);
	for (int i = 0; i < CM_NCCL_MAX_ALLOCS && slot < 0; i++)
		if (!allocs[i].ptr)
			slot = i;
	if (slot >= 0 && cudaMalloc(ptr, bytes) == cudaSuccess)
		allocs[slot].ptr = *ptr, allocs[slot].bytes = bytes;
	pthread_mutex_unlock(&mu);
	if (slot < 0 || !allocs[slot].ptr)
		return cm_nccl_fail(NULL, ncclUnhandledCudaError, "ncclMemAlloc(%zu B): out of memory "
				    "(or more than the model's %d allocations)", size, CM_NCCL_MAX_ALLOCS);
	return ncclSuccess;
}

/* NCCL, ncclMemFree: only what ncclMemAlloc gave (NCCL retains its cuMem
 * handle, which cudaMalloc memory has none of: ncclUnhandledCudaError). The
 * model also refuses memory still registered as a window. */
ncclResult_t ncclMemFree(void *ptr)
{
	ncclResult_t r = ncclSuccess;
	int i;

	if (!ptr)
		return ncclSuccess;
	pthread_mutex_lock(&mu);
	i = alloc_of(ptr);
	for (int w = 0; i >= 0 && w < CM_NCCL_MAX_WINS; w++)
		if (wins[w] && alloc_of(wins[w]->ptr) == i)
			r = ncclInvalidUsage;
	if (i >= 0 && allocs[i].ptr != ptr)
		r = ncclInvalidArgument;
	if (i >= 0 && r == ncclSuccess) {
		cudaFree(allocs[i].ptr);
		allocs[i].ptr = NULL;
	}
	pthread_mutex_unlock(&mu);
	if (i < 0)
		return cm_nccl_fail(NULL, ncclUnhandledCudaError, "ncclMemFree(%p): not memory of "
				    "ncclMemAlloc (cuMemRetainAllocationHandle failed)", ptr);
	if (r != ncclSuccess)
		return cm_nccl_fail(NULL, r, "ncclMemFree(%p): %s", ptr, r == ncclInvalidUsage ?
				    "still registered as a window" : "not the start of its allocation");
	return ncclSuccess;
}

/* NCCL 2.28 init.cc: symmetricSupport = isAllCudaP2p && NCCL_WIN_ENABLE &&
 * cuMem enabled (NCCL_CUMEM_ENABLE). */
static int symmetric_support(const struct ncclComm *c)
{
	if (cm_env_long("NCCL_WIN_ENABLE", 1) == 0 || cm_env_long("NCCL_CUMEM_ENABLE", 1) == 0)
		return 0;
	for (int r = 0; r < c->nranks; r++)
		if (r != c->rank && !cm_can_access_peer(c->device, c->seg->rank[r].device))
			return 0;
	return 1;
}

/* Why NCCL refuses the window [buff, buff + size) on symmetric support, or
 * ncclSuccess (2.28 dev_runtime.cc: the cuMem allocation under it, then
 * its offset). Under mu. */
static ncclResult_t window_rule(const char *buff, size_t size)
{
	int i = alloc_of(buff);

	if (i < 0)
		return cm_nccl_fail(NULL, ncclUnhandledCudaError, "ncclCommWindowRegister(%p): "
				    "cuMemRetainAllocationHandle failed: not cuMem memory (allocate "
				    "it with ncclMemAlloc)", (const void *)buff);
	if ((size_t)(buff - allocs[i].ptr) % NCCL_WIN_REQUIRED_ALIGNMENT)
		return cm_nccl_fail(NULL, ncclInvalidArgument, "Window address must be suitably "
				    "aligned.");
	if (size > allocs[i].bytes - (size_t)(buff - allocs[i].ptr))
		return cm_nccl_fail(NULL, ncclInvalidArgument, "ncclCommWindowRegister: %zu B from "
				    "%p runs past its allocation", size, (const void *)buff);
	return ncclSuccess;
}

/* A registration record in wins[]; ncclSystemError when the table is full. */
static ncclResult_t keep(struct ncclWindow_vidmem *w)
{
	int slot = -1;

	pthread_mutex_lock(&mu);
	for (int i = 0; i < CM_NCCL_MAX_WINS && slot < 0; i++)
		if (!wins[i])
			wins[slot = i] = w;
	pthread_mutex_unlock(&mu);
	if (slot >= 0)
		return ncclSuccess;
	free(w);
	return cm_nccl_fail(NULL, ncclSystemError, "more than the model's %d registrations",
			    CM_NCCL_MAX_WINS);
}

/* NCCL, ncclCommWindowRegister: a NULL buffer or size 0 registers nothing
 * and succeeds; without symmetric support, NCCL registers the buffer
 * locally (ncclCommRegister) and returns that as the window. */
ncclResult_t ncclCommWindowRegister(ncclComm_t comm, void *buff, size_t size, ncclWindow_t *win,
				    int winFlags)
{
	struct ncclWindow_vidmem *w;
	ncclResult_t r = cm_comm_usable(comm, "ncclCommWindowRegister");

	if (r != ncclSuccess || !buff || size == 0)
		return r;
	if (!win)
		return cm_nccl_fail(NULL, ncclInvalidArgument, "ncclCommWindowRegister: win is NULL");
	if (cm_fault_hit(CM_FAULT_NCCL_WINDOW))
		return cm_nccl_fail(NULL, ncclSystemError, "ncclCommWindowRegister: cuMemMap of a "
				    "peer's memory failed (injected)");
	w = calloc(1, sizeof(*w));
	if (!w)
		return cm_nccl_fail(NULL, ncclSystemError, "out of memory");
	*w = (struct ncclWindow_vidmem){ comm, buff, size, winFlags, symmetric_support(comm), 0 };
	if (w->symmetric) {
		pthread_mutex_lock(&mu);
		r = window_rule(buff, size);
		pthread_mutex_unlock(&mu);
	}
	if (r != ncclSuccess) {
		free(w);
		return r;
	}
	r = keep(w);
	if (r == ncclSuccess)
		*win = w;
	return r;
}

/* NCCL, ncclCommWindowDeregister: a NULL window is nothing to do; the model
 * refuses one that comm did not register. */
ncclResult_t ncclCommWindowDeregister(ncclComm_t comm, ncclWindow_t win)
{
	int found = 0;

	if (!win)
		return ncclSuccess;
	pthread_mutex_lock(&mu);
	for (int i = 0; i < CM_NCCL_MAX_WINS; i++)
		if (wins[i] == win && win->comm == comm && !win->local)
			wins[i] = NULL, found = 1;
	pthread_mutex_unlock(&mu);
	if (!found)
		return cm_nccl_fail(NULL, ncclInvalidArgument, "ncclCommWindowDeregister: not a "
				    "window of this communicator");
	free(win);
	return ncclSuccess;
}

/* NCCL, ncclCommRegister (user buffer registration, 2.19): local, not
 * collective; NCCL_LOCAL_REGISTER=0 registers nothing (*handle NULL,
 * success: 2.28 register.cc). The model takes device memory of this
 * process only (NCCL, with NCCL_CHECK_POINTERS unset, fails later). */
ncclResult_t ncclCommRegister(const ncclComm_t comm, void *buff, size_t size, void **handle)
{
	struct ncclWindow_vidmem *w;
	ncclResult_t r = cm_comm_usable(comm, "ncclCommRegister");
	int dev = -1;

	if (r != ncclSuccess)
		return r;
	if (!handle)
		return cm_nccl_fail(NULL, ncclInvalidArgument, "ncclCommRegister: handle is NULL");
	if (cm_env_long("NCCL_LOCAL_REGISTER", 1) == 0) {
		*handle = NULL;
		return ncclSuccess;
	}
	if (cm_mem_lookup(buff, size, &dev) != CM_OWN)
		return cm_nccl_fail(NULL, ncclInvalidArgument, "ncclCommRegister: %p + %zu B is not "
				    "device memory of this process", buff, size);
	w = calloc(1, sizeof(*w));
	if (!w)
		return cm_nccl_fail(NULL, ncclSystemError, "out of memory");
	*w = (struct ncclWindow_vidmem){ comm, buff, size, 0, 0, 1 };
	r = keep(w);
	if (r == ncclSuccess)
		*handle = w;
	return r;
}

/* NCCL, ncclCommDeregister: a handle comm's ncclCommRegister gave (NCCL:
 * "Could not find handle", ncclInvalidArgument). */
ncclResult_t ncclCommDeregister(const ncclComm_t comm, void *handle)
{
	int found = 0;

	pthread_mutex_lock(&mu);
	for (int i = 0; i < CM_NCCL_MAX_WINS && handle; i++)
		if (wins[i] == handle && wins[i]->comm == comm && wins[i]->local)
			wins[i] = NULL, found = 1;
	pthread_mutex_unlock(&mu);
	if (!found)
		return cm_nccl_fail(NULL, ncclInvalidArgument, "ncclCommDeregister: Could not find "
				    "handle");
	free(handle);
	return ncclSuccess;
}

/* 1 when the window holding p on comm is a symmetric one (for tests). */
int cm_nccl_window_symmetric(const struct ncclComm *comm, const void *p)
{
	int sym = 0;

	pthread_mutex_lock(&mu);
	for (int i = 0; i < CM_NCCL_MAX_WINS; i++)
		if (wins[i] && wins[i]->comm == comm && !wins[i]->local &&
		    (const char *)p >= wins[i]->ptr &&
		    (const char *)p < wins[i]->ptr + wins[i]->bytes)
			sym = wins[i]->symmetric && (wins[i]->flags & NCCL_WIN_COLL_SYMMETRIC);
	pthread_mutex_unlock(&mu);
	return sym;
}

static size_t type_size(ncclDataType_t t)
{
	switch (t) {
	case ncclInt8: case ncclUint8: case ncclFloat8e4m3: case ncclFloat8e5m2: return 1;
	case ncclFloat16: case ncclBfloat16: return 2;
	case ncclInt32: case ncclUint32: case ncclFloat32: return 4;
	default: return 8;
	}
}

/* NCCL 2.28, ncclAlltoAll: count elements to and from every rank. Without
 * the copy-engine path NCCL runs it as a send and a receive per peer
 * (enqueue.cc taskAppend), and so does the model, always. */
ncclResult_t ncclAlltoAll(const void *sendbuff, void *recvbuff, size_t count,
			  ncclDataType_t datatype, ncclComm_t comm, cudaStream_t stream)
{
	size_t bytes = count * type_size(datatype);
	ncclResult_t r = cm_comm_usable(comm, "ncclAlltoAll"), e;

	if (r != ncclSuccess)
		return r;
	r = ncclGroupStart();
	for (int q = 0; q < comm->nranks && r == ncclSuccess; q++) {
		r = ncclSend((const char *)sendbuff + (size_t)q * bytes, count, datatype, q, comm,
			     stream);
		if (r == ncclSuccess)
			r = ncclRecv((char *)recvbuff + (size_t)q * bytes, count, datatype, q, comm,
				     stream);
	}
	e = ncclGroupEnd();
	return r != ncclSuccess ? r : e;
}

