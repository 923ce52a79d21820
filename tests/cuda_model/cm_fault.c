/* Faults the CUDA model injects, from CB_CUDA_MODEL_FAULT: a comma list of
 * KIND[@RANK][#N], the N-th call of that kind (default 1) on MPI rank RANK
 * (default every rank) fails:
 *   ipc_open    cudaIpcOpenMemHandle returns cudaErrorMapBufferObjectFailed
 *               (a handle that will not open);
 *   launch      a kernel launch (cb_cuda_reduce, cb_cuda_finalize) returns
 *               cudaErrorLaunchOutOfResources and enqueues nothing (an error
 *               of that call, not sticky);
 *   sticky      a kernel faults when it runs: cudaErrorIllegalAddress, sticky
 *               (every later call of the process returns it);
 *   event_hang  a cudaEventRecord never completes: its stream stalls there,
 *               as behind a kernel that never ends;
 *   nccl_init   ncclCommInitRankConfig fails on that rank (ncclSystemError),
 *               and the other ranks' inits see it (ncclRemoteError);
 *   nccl_finalize ncclCommFinalize never completes: the communicator stays
 *               ncclInProgress until ncclCommAbort (a teardown that hangs);
 *   nccl_window ncclCommWindowRegister fails on that rank (ncclSystemError,
 *               as a failed cuMem mapping would).
 * CB_CUDA_MODEL_JITTER_US delays each stream operation (cm_jitter).
 * Each injection says so on stderr ("cuda model: ... injecting"). Contract
 * in cm_model.h. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cm_model.h"

#define CM_MAX_FAULTS 8

static const char *const names[CM_FAULT_COUNT] = {
	[CM_FAULT_IPC_OPEN] = "ipc_open", [CM_FAULT_LAUNCH] = "launch", [CM_FAULT_STICKY] = "sticky",
	[CM_FAULT_EVENT_HANG] = "event_hang", [CM_FAULT_NCCL_INIT] = "nccl_init",
	[CM_FAULT_NCCL_FINALIZE] = "nccl_finalize", [CM_FAULT_NCCL_WINDOW] = "nccl_window",
};

static struct {
	enum cm_fault kind;
	int rank;  /* -1: every rank */
	long nth;
} faults[CM_MAX_FAULTS];
static int nfaults;
static long calls[CM_FAULT_COUNT]; /* atomic */

static void bad(const char *spec, const char *why)
{
	fprintf(stderr, "cuda model: CB_CUDA_MODEL_FAULT: '%s': %s (KIND[@RANK][#N], KIND one of "
		"ipc_open launch sticky event_hang nccl_init nccl_finalize nccl_window)\n", spec, why);
	exit(2);
}

/* One KIND[@RANK][#N] entry of at most 63 characters. */
static void parse_one(const char *spec)
{
	char kind[64];
	const char *at = strchr(spec, '@'), *hash = strchr(spec, '#');
	size_t n = strcspn(spec, "@#");
	int k;

	if (n == 0 || n >= sizeof(kind) || nfaults == CM_MAX_FAULTS)
		bad(spec, "malformed");
	memcpy(kind, spec, n);
	kind[n] = 0;
	for (k = 0; k < CM_FAULT_COUNT && strcmp(names[k], kind); k++)
		;
	if (k == CM_FAULT_COUNT)
		bad(spec, "unknown kind");
	faults[nfaults].kind = (enum cm_fault)k;
	faults[nfaults].rank = at ? atoi(at + 1) : -1;
	faults[nfaults].nth = hash ? atol(hash + 1) : 1;
	if (faults[nfaults].nth < 1)
		bad(spec, "N must be at least 1");
	nfaults++;
}

void cm_fault_parse(void)
{
	const char *v = getenv("CB_CUDA_MODEL_FAULT");
	char buf[512], *save = NULL;

	if (!v || !*v)
		return;
	if (strlen(v) >= sizeof(buf))
		bad(v, "too long");
	strcpy(buf, v);
	for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save))
		parse_one(t);
}

int cm_fault_hit(enum cm_fault f)
{
	long n;
	int me;

	cm_init();
	if (!nfaults)
		return 0;
	n = __atomic_add_fetch(&calls[f], 1, __ATOMIC_SEQ_CST);
	me = cm_world_rank();
	for (int i = 0; i < nfaults; i++)
		if (faults[i].kind == f && faults[i].nth == n && (faults[i].rank < 0 || faults[i].rank == me)) {
			cm_log("injecting fault %s (call %ld of its kind; CB_CUDA_MODEL_FAULT)", names[f], n);
			return 1;
		}
	return 0;
}

/* CB_CUDA_MODEL_JITTER_US: each operation starts up to this long late (a
 * pseudo-random share, different in every process), so that the ranks'
 * streams interleave in many orders: work that one rank's stream does
 * before a peer allowed it (a flag posted too early, a buffer reused too
 * soon) then reads or overwrites the wrong bytes. */
void cm_jitter(void)
{
	static _Thread_local uint64_t x;
	long us = cm_env_long("CB_CUDA_MODEL_JITTER_US", 0);
	struct timespec t = { 0, 0 };

	if (us <= 0)
		return;
	if (us > 999999) /* tv_nsec < 1 s */
		us = 999999;
	if (!x)
		x = cm_now_ns() | 1;
	x ^= x << 13, x ^= x >> 7, x ^= x << 17; /* xorshift64 */
	t.tv_nsec = (long)(x % (uint64_t)us) * 1000;
	nanosleep(&t, NULL);
}
