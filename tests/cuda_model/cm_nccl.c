/* The CUDA model's NCCL communicators: unique ids, init (blocking or not),
 * the asynchronous state, finalize, destroy, abort, errors and the version
 * (the layout they share with cm_nccl_ops.c: cm_nccl.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cm_nccl.h"

#define CM_ID_MAGIC 0x6362696475ull  /* "cbidu" */
#define CM_SEG_MAGIC 0x63627365676dull /* "cbsegm" */

struct id {
	uint64_t magic;
	char name[64];
};
_Static_assert(sizeof(struct id) <= sizeof(ncclUniqueId), "id fits");

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static struct ncclComm *all;
static char last_error[512];
static unsigned id_serial;

static size_t round_up(size_t x, size_t to)
{
	return (x + to - 1) / to * to;
}

size_t cm_seg_chans(int n)
{
	return round_up(sizeof(struct cm_seg) + (size_t)n * sizeof(struct cm_seg_rank), CM_PAGE);
}

size_t cm_seg_rings(int n)
{
	return round_up(cm_seg_chans(n) + (size_t)n * n * sizeof(struct cm_chan), CM_PAGE);
}

size_t cm_seg_bytes(int n)
{
	return cm_seg_rings(n) + (size_t)n * n * CM_NCCL_CHAN;
}

ncclResult_t cm_nccl_fail(struct ncclComm *c, ncclResult_t r, const char *fmt, ...)
{
	va_list ap;
	int none = ncclSuccess, busy = ncclInProgress;

	pthread_mutex_lock(&mu);
	va_start(ap, fmt);
	vsnprintf(last_error, sizeof(last_error), fmt, ap);
	va_end(ap);
	pthread_mutex_unlock(&mu);
	if (c && !__atomic_compare_exchange_n(&c->state, &none, (int)r, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))
		__atomic_compare_exchange_n(&c->state, &busy, (int)r, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
	return r;
}

int cm_comm_live(const struct ncclComm *c)
{
	int yes = 0;

	pthread_mutex_lock(&mu);
	for (const struct ncclComm *p = all; p && !yes; p = p->next_all)
		yes = p == c && !p->destroyed;
	pthread_mutex_unlock(&mu);
	return yes;
}

void cm_comm_ref(struct ncclComm *c)
{
	__atomic_add_fetch(&c->refs, 1, __ATOMIC_SEQ_CST);
}

void cm_comm_unref(struct ncclComm *c)
{
	if (__atomic_sub_fetch(&c->refs, 1, __ATOMIC_SEQ_CST) == 0 && c->seg) {
		munmap(c->seg, c->seg_bytes);
		c->seg = NULL;
	}
}

int cm_comm_peer_dead(const struct ncclComm *c, int r)
{
	pid_t pid = c->seg->rank[r].pid;

	return pid > 0 && kill(pid, 0) == -1 && errno == ESRCH;
}

ncclResult_t ncclGetVersion(int *version)
{
	*version = NCCL_VERSION_CODE;
	return ncclSuccess;
}

/* NCCL, ncclGetErrorString (the texts NCCL gives, its hint to NCCL_DEBUG
 * left out: the model has no debug log). */
const char *ncclGetErrorString(ncclResult_t result)
{
	switch (result) {
	case ncclSuccess: return "no error";
	case ncclUnhandledCudaError: return "unhandled cuda error";
	case ncclSystemError: return "unhandled system error";
	case ncclInternalError: return "internal error";
	case ncclInvalidArgument: return "invalid argument";
	case ncclInvalidUsage: return "invalid usage";
	case ncclRemoteError: return "remote process exited or there was a network error";
	case ncclInProgress: return "NCCL operation in progress";
	default: return "unknown result code";
	}
}

/* NCCL, ncclGetLastError: "Returns a human-readable string corresponding to
 * the last error that occurred in NCCL. ... The error is not cleared by
 * calling this function." One string for the process, whatever comm. */
const char *ncclGetLastError(ncclComm_t comm)
{
	(void)comm;
	return last_error;
}

/* NCCL, ncclGetUniqueId: "Generates an Id to be used in ncclCommInitRank";
 * the model's id names the segment the ranks will share. */
ncclResult_t ncclGetUniqueId(ncclUniqueId *uniqueId)
{
	struct id id;
	unsigned serial;

	cm_init();
	memset(uniqueId, 0, sizeof(*uniqueId));
	memset(&id, 0, sizeof(id));
	pthread_mutex_lock(&mu);
	serial = ++id_serial;
	pthread_mutex_unlock(&mu);
	id.magic = CM_ID_MAGIC;
	snprintf(id.name, sizeof(id.name), "/cbm-%d-n%u-%llx", (int)getpid(), serial,
		 (unsigned long long)cm_now_ns());
	memcpy(uniqueId->internal, &id, sizeof(id));
	return ncclSuccess;
}

/* Maps the segment named in the id (created by whichever rank comes first,
 * every rank sizing it for nranks) and takes c's rank in it. */
static ncclResult_t join(struct ncclComm *c)
{
	size_t bytes = cm_seg_bytes(c->nranks);
	int fd = shm_open(c->name, O_RDWR | O_CREAT, 0600), expect = 0;
	struct stat sb;

	if (fd < 0 || fstat(fd, &sb) != 0 || ((size_t)sb.st_size < bytes && ftruncate(fd, (off_t)bytes) != 0)) {
		if (fd >= 0)
			close(fd);
		return cm_nccl_fail(NULL, ncclSystemError, "cuda model: %s: %s", c->name, strerror(errno));
	}
	c->seg = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	if (c->seg == MAP_FAILED) {
		c->seg = NULL;
		return cm_nccl_fail(NULL, ncclSystemError, "cuda model: mmap %s: %s", c->name, strerror(errno));
	}
	c->seg_bytes = bytes;
	if (!__atomic_compare_exchange_n(&c->seg->nranks, &expect, c->nranks, 0, __ATOMIC_SEQ_CST,
					 __ATOMIC_SEQ_CST) && expect != c->nranks)
		return cm_nccl_fail(NULL, ncclInvalidArgument, "rank %d: nranks %d, another rank said %d",
				    c->rank, c->nranks, expect);
	expect = 0;
	if (!__atomic_compare_exchange_n(&c->seg->rank[c->rank].joined, &expect, 1, 0, __ATOMIC_SEQ_CST,
					 __ATOMIC_SEQ_CST))
		return cm_nccl_fail(NULL, ncclInvalidUsage, "rank %d of the communicator initialized twice",
				    c->rank);
	c->seg->rank[c->rank].pid = (int32_t)getpid();
	c->seg->rank[c->rank].device = c->device;
	if (cm_fault_hit(CM_FAULT_NCCL_INIT))
		__atomic_store_n(&c->seg->failed, c->rank + 1, __ATOMIC_SEQ_CST);
	if (__atomic_add_fetch(&c->seg->arrived, 1, __ATOMIC_SEQ_CST) == c->nranks)
		shm_unlink(c->name); /* everyone has it mapped */
	return ncclSuccess;
}

/* The init's outcome once every rank joined. NCCL, Creating a
 * Communicator: "Using the same CUDA device multiple times as different
 * ranks of the same NCCL communicator is not supported"; since NCCL 2.5 its
 * init refuses with ncclInvalidUsage, "Duplicate GPU detected : rank %d and
 * rank %d both on CUDA device %lx" (the device's PCI bus id as a number). */
static ncclResult_t progress_init(struct ncclComm *c)
{
	int failed = __atomic_load_n(&c->seg->failed, __ATOMIC_SEQ_CST);

	if (failed == c->rank + 1)
		return cm_nccl_fail(c, ncclSystemError, "cuda model: injected init failure (CB_CUDA_MODEL_FAULT)");
	if (failed)
		return cm_nccl_fail(c, ncclRemoteError, "rank %d failed in ncclCommInitRankConfig", failed - 1);
	if (__atomic_load_n(&c->seg->arrived, __ATOMIC_SEQ_CST) < c->nranks)
		return ncclInProgress;
	c->init_done = 1;
	for (int r = 0; r < c->nranks; r++)
		if (r != c->rank && c->seg->rank[r].device == c->device)
			return cm_nccl_fail(c, ncclInvalidUsage,
					    "Duplicate GPU detected : rank %d and rank %d both on CUDA device %x",
					    c->rank, r, (0x11 + c->device) << 12);
	__atomic_store_n(&c->state, ncclSuccess, __ATOMIC_SEQ_CST);
	return ncclSuccess;
}

ncclResult_t cm_comm_progress(struct ncclComm *c)
{
	int s = __atomic_load_n(&c->state, __ATOMIC_SEQ_CST);
	int busy = ncclInProgress;

	if (s != ncclInProgress)
		return (ncclResult_t)s;
	if (!c->init_done)
		return progress_init(c);
	if (c->stuck)
		return ncclInProgress;
	if (c->finalizing && __atomic_load_n(&c->ran, __ATOMIC_SEQ_CST) < c->enq)
		return ncclInProgress;
	/* a launch of a non-blocking communicator takes effect at once */
	__atomic_compare_exchange_n(&c->state, &busy, ncclSuccess, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
	return (ncclResult_t)__atomic_load_n(&c->state, __ATOMIC_SEQ_CST);
}

ncclResult_t cm_comm_usable(struct ncclComm *c, const char *call)
{
	ncclResult_t s;

	if (!cm_comm_live(c))
		return cm_nccl_fail(NULL, ncclInvalidArgument, "%s: comm is not a live communicator", call);
	s = cm_comm_progress(c);
	if (s == ncclInProgress && !c->init_done)
		return cm_nccl_fail(NULL, ncclInvalidUsage, "%s: the communicator's init is still in "
				    "progress (poll ncclCommGetAsyncError until ncclSuccess)", call);
	if (c->finalizing)
		return cm_nccl_fail(NULL, ncclInvalidUsage, "%s: the communicator is finalized", call);
	return s == ncclInProgress ? ncclSuccess : s;
}

/* NCCL, ncclCommInitRankConfig with config->blocking = 0: "the call
 * returns ncclInProgress" at once and "users can query the state of the
 * communicator with ncclCommGetAsyncError()" until it is ncclSuccess or an
 * error (Communicator Creation, nonblocking communicators). *comm is set
 * before the call returns, for that polling. */
ncclResult_t ncclCommInitRankConfig(ncclComm_t *comm, int nranks, ncclUniqueId commId, int rank,
				    ncclConfig_t *config)
{
	struct ncclComm *c;
	struct id id;
	ncclResult_t r;

	cm_init();
	memcpy(&id, commId.internal, sizeof(id));
	if (config && (config->magic != 0xcafebeef || config->size != sizeof(*config)))
		return cm_nccl_fail(NULL, ncclInvalidArgument, "config not set with NCCL_CONFIG_INITIALIZER");
	if (id.magic != CM_ID_MAGIC || nranks < 1 || nranks > CM_NCCL_MAX_RANKS || rank < 0 || rank >= nranks)
		return cm_nccl_fail(NULL, ncclInvalidArgument, "nranks %d, rank %d or the unique id is invalid",
				    nranks, rank);
	c = calloc(1, sizeof(*c));
	if (!c)
		return cm_nccl_fail(NULL, ncclSystemError, "out of memory");
	*c = (struct ncclComm){ .rank = rank, .nranks = nranks, .device = cm_current_device(),
				.blocking = !config || config->blocking == NCCL_CONFIG_UNDEF_INT || config->blocking,
				.state = ncclInProgress, .refs = 1 };
	snprintf(c->name, sizeof(c->name), "%s", id.name);
	cm_nccl_tune_init(&c->tune); /* NCCL reads NCCL_ALGO and NCCL_PROTO at creation */
	r = join(c);
	if (r != ncclSuccess) {
		if (c->seg)
			munmap(c->seg, c->seg_bytes);
		free(c);
		return r;
	}
	pthread_mutex_lock(&mu);
	c->next_all = all;
	all = c;
	pthread_mutex_unlock(&mu);
	*comm = c;
	cm_nccl_prof_init(c);
	for (unsigned long polls = 0; (r = cm_comm_progress(c)) == ncclInProgress && c->blocking; polls++)
		cm_backoff(polls);
	return r;
}

ncclResult_t ncclCommGetAsyncError(ncclComm_t comm, ncclResult_t *asyncError)
{
	if (!cm_comm_live(comm))
		return cm_nccl_fail(NULL, ncclInvalidArgument, "ncclCommGetAsyncError: not a live communicator");
	*asyncError = cm_comm_progress(comm);
	return ncclSuccess;
}

/* NCCL, ncclCommFinalize: "flushes all issued communications, and marks
 * communicator state as ncclInProgress. The state will change to
 * ncclSuccess when the communicator is globally quiescent" (the model:
 * when this rank's operations on it have run). */
ncclResult_t ncclCommFinalize(ncclComm_t comm)
{
	ncclResult_t r;

	if (!cm_comm_live(comm))
		return cm_nccl_fail(NULL, ncclInvalidArgument, "ncclCommFinalize: not a live communicator");
	r = cm_comm_progress(comm);
	if (r != ncclSuccess)
		return r == ncclInProgress ? cm_nccl_fail(NULL, ncclInvalidUsage, "ncclCommFinalize: "
							   "the communicator's init is still in progress") : r;
	comm->finalizing = 1;
	comm->stuck = cm_fault_hit(CM_FAULT_NCCL_FINALIZE);
	__atomic_store_n(&comm->state, ncclInProgress, __ATOMIC_SEQ_CST);
	for (unsigned long polls = 0; (r = cm_comm_progress(comm)) == ncclInProgress && comm->blocking; polls++)
		cm_backoff(polls);
	return r;
}

static void retire(struct ncclComm *c, int abort)
{
	if (abort)
		__atomic_store_n(&c->aborted, 1, __ATOMIC_SEQ_CST);
	pthread_mutex_lock(&mu);
	c->destroyed = 1;
	pthread_mutex_unlock(&mu);
	cm_nccl_prof_fini(c);
	shm_unlink(c->name);
	cm_comm_unref(c);
}

/* NCCL, ncclCommDestroy: frees the communicator's local resources; without
 * an earlier ncclCommFinalize it finalizes first (waits for its work). */
ncclResult_t ncclCommDestroy(ncclComm_t comm)
{
	if (!cm_comm_live(comm))
		return cm_nccl_fail(NULL, ncclInvalidArgument, "ncclCommDestroy: not a live communicator");
	for (unsigned long polls = 0; __atomic_load_n(&comm->ran, __ATOMIC_SEQ_CST) < comm->enq; polls++)
		cm_backoff(polls);
	retire(comm, 0);
	return ncclSuccess;
}

/* NCCL, ncclCommAbort: "Frees resources that are allocated to a
 * communicator object comm. Will abort any uncompleted operations before
 * destroying the communicator": queued work on it returns at once. */
ncclResult_t ncclCommAbort(ncclComm_t comm)
{
	if (!comm)
		return ncclSuccess;
	if (!cm_comm_live(comm))
		return cm_nccl_fail(NULL, ncclInvalidArgument, "ncclCommAbort: not a live communicator");
	retire(comm, 1);
	return ncclSuccess;
}
