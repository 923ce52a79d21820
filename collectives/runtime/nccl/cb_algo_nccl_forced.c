/* nccl.<algo>.<proto>: a collective's NCCL call (cb_nccl_coll_call) on a
 * communicator of its own created with NCCL_ALGO and NCCL_PROTO set to one
 * of NCCL's algorithms and protocols (collectives/catalog/cb_catalog.h,
 * CB_NCCL_FORCED), so that each is a row of the same launch beside NCCL's
 * own choice (nccl).
 *
 * When NCCL reads them: in ncclTopoTuneModel (src/graph/tuning.cc of NCCL
 * 2.x, through ncclGetEnv: the process's environment, after nccl.conf was
 * merged into it once), which every communicator's init runs
 * (initTransportsRank in src/init.cc); an algorithm or protocol left out
 * gets no bandwidth in that communicator's tuning table, so no call on it
 * picks it. So the variables count per communicator, at its creation: set-up
 * sets them, creates the communicator, and puts the old values back (unset
 * where they were unset). The init is non-blocking and runs in NCCL's own
 * thread, so they are held until it completed (cb_nccl_comm_init polls it
 * to the end). setenv is not safe against a getenv in another thread: the
 * algorithms are set up one after another, so no other init of this process
 * reads the environment meanwhile; NCCL caches each parameter at its first
 * read (NCCL_PARAM), mostly during an init, so a read by a thread of a
 * communicator made earlier racing the set-up is unlikely, not excluded. ncclConfig_t has no algorithm or protocol field (NCCL 2.28's
 * nccl.h, ncclConfig_v22800); a tuner plugin is per process: the
 * environment is the only per-communicator way. The launch's own NCCL_*
 * settings stay recorded as its library configuration (bench/format/
 * cb_libconf.h), as for the mpi.* rows.
 *
 * NCCL creates the communicator whatever the forcing says; a call that then
 * finds no algorithm/protocol it may run fails ("no algorithm/protocol
 * available", ncclInternalError, src/enqueue.cc): PAT on a box of several
 * GPUs, NVLS without NVLink SHARP, CollNet without a CollNet network. So
 * set-up probes the collective once (float sum, n x 256 elements, on a
 * buffer of its own); where the init or the probe fails on any rank, the
 * communicator is aborted and the rows are skipped with NCCL's reason
 * (ncclGetErrorString, ncclGetLastError) of the first rank that failed, the
 * same on every rank. A size where NCCL has no algorithm though the probe's
 * had one fails that row's call as an error. */
#define _POSIX_C_SOURCE 200809L /* setenv, unsetenv, strdup */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cb_algo_common.h"
#include "cb_cuda.h"
#include "cb_nccl.h"
#include "cb_shm.h"
#include "cb_world.h"

#define PROBE_ELEMS 256 /* per rank */

struct forced {
	struct cb_backend *be;
	ncclComm_t comm; /* NULL when the rows are skipped */
};

/* Why row k is skipped (NCCL's reason, the same on every rank); "" when it runs. */
static char why[CB_NCCL_NFORCED][400];

/* NCCL's NVLS kernels exist for these reductions only (NCCL 2.28,
 * ncclNvlsSupported in src/include/device.h: integer 32/64 sum and min/max,
 * float and double sum, half and bfloat16 sum and min/max). */
static int nvls_reduces(enum cb_dtype dt, enum cb_op op)
{
	int minmax = op == CB_MIN || op == CB_MAX;

	switch (dt) {
	case CB_INT32: case CB_UINT32: case CB_INT64: case CB_UINT64: case CB_HALF: case CB_BFLOAT16:
		return op == CB_SUM || minmax;
	case CB_FLOAT: case CB_DOUBLE:
		return op == CB_SUM;
	default:
		return 0;
	}
}

static const char *forced_supports(int k, const struct cb_backend *be, enum cb_dtype dt,
				   enum cb_op op, int in_place)
{
	const struct cb_algo_desc *d = &cb_desc_nccl_forced[k];
	const char *w = cb_nccl_coll_supports(be, d->coll, dt, op, in_place);

	if (w)
		return w;
	if (why[k][0])
		return why[k];
	if (strncmp(d->nccl_algo, "NVLS", 4) == 0 && d->coll != CB_COLL_ALL_GATHER &&
	    !nvls_reduces(dt, op))
		return "NCCL has no NVLS kernel for this dtype and op (ncclNvlsSupported: int32/64, "
		       "half, bfloat16 sum/min/max; float, double sum)";
	return NULL;
}

/* Sets name to val, keeping the old value in *old (NULL: unset). */
static enum cb_status env_force(const char *name, const char *val, char **old)
{
	const char *o = getenv(name);

	*old = o ? strdup(o) : NULL;
	if ((o && !*old) || setenv(name, val, 1) != 0)
		return CB_ERR_NOMEM;
	return CB_OK;
}

static void env_restore(const char *name, char *old)
{
	if (old)
		setenv(name, old, 1);
	else
		unsetenv(name);
	free(old);
}

/* What NCCL said of r on comm, into out[len]. */
static void nccl_reason(const char *what, ncclResult_t r, ncclComm_t comm, char *out, size_t len)
{
	const char *last = ncclGetLastError(comm);

	snprintf(out, len, "%s: %s%s%s", what, ncclGetErrorString(r), last && *last ? ": " : "",
		 last ? last : "");
}

/* r completed on the non-blocking comm, quietly (a failure is a skip, not
 * an error to log); ncclInProgress if the watchdog fired first. */
static ncclResult_t settle(const struct cb_backend *be, ncclComm_t comm, ncclResult_t r)
{
	for (unsigned long polls = 0; r == ncclInProgress && !*be->abort_flag; polls++) {
		if (ncclCommGetAsyncError(comm, &r) != ncclSuccess)
			return ncclInternalError;
		cb_backoff(polls);
	}
	return r;
}

/* One call of d's collective on comm: float sum, PROBE_ELEMS per rank. */
static ncclResult_t probe_call(const struct cb_algo_desc *d, ncclComm_t comm, float *buf, int n,
			       cudaStream_t s)
{
	size_t c = PROBE_ELEMS;

	switch (d->coll) {
	case CB_COLL_ALLREDUCE: return ncclAllReduce(buf, buf, c, ncclFloat32, ncclSum, comm, s);
	case CB_COLL_REDUCE_SCATTER:
		return ncclReduceScatter(buf, buf + (size_t)n * c, c, ncclFloat32, ncclSum, comm, s);
	case CB_COLL_ALL_GATHER: return ncclAllGather(buf, buf + c, c, ncclFloat32, comm, s);
	case CB_COLL_BROADCAST: return ncclBroadcast(buf, buf, c, ncclFloat32, 0, comm, s);
	case CB_COLL_REDUCE: return ncclReduce(buf, buf, c, ncclFloat32, ncclSum, 0, comm, s);
	default: return ncclInvalidUsage;
	}
}

/* The probe's call (file comment) on *buf, which it allocates: "" into
 * out when NCCL took it on this rank, else why not. */
static void probe_launch(const struct cb_algo_desc *d, struct forced *f, float **buf, char *out,
			 size_t len)
{
	size_t bytes = sizeof(float) * PROBE_ELEMS * ((size_t)f->be->world_size + 1) * 2;
	cudaStream_t s = cb_cuda_stream(f->be);
	ncclResult_t r;

	out[0] = '\0';
	if (cudaMalloc((void **)buf, bytes) != cudaSuccess ||
	    cudaMemsetAsync(*buf, 0, bytes, s) != cudaSuccess) { /* on the stream: ordered before */
		snprintf(out, len, "cannot allocate %zu B for the probe call", bytes);
		return;
	}
	r = settle(f->be, f->comm, probe_call(d, f->comm, *buf, f->be->world_size, s));
	if (r != ncclSuccess)
		nccl_reason(cb_coll_get(d->coll)->nccl_call, r, f->comm, out, len);
}

/* The reason of the first rank whose mine[] is not "" into why[k] on every
 * rank ("" when none). Collective. */
static enum cb_status agree_reason(const struct cb_backend *be, int k, const char *mine)
{
	int me = mine[0] ? be->world_rank : be->world_size, first;
	enum cb_status st = CB_MPI(MPI_Allreduce(&me, &first, 1, MPI_INT, MPI_MIN, be->world));

	if (st != CB_OK || first == be->world_size) {
		why[k][0] = '\0';
		return st;
	}
	if (be->world_rank == first)
		snprintf(why[k], sizeof(why[k]), "NCCL_ALGO=%s NCCL_PROTO=%s: %s",
			 cb_desc_nccl_forced[k].nccl_algo, cb_desc_nccl_forced[k].nccl_proto, mine);
	return CB_MPI(MPI_Bcast(why[k], sizeof(why[k]), MPI_CHAR, first, be->world));
}

/* The communicator with the forcing (file comment); *reason: "" or why not. */
static enum cb_status create(int k, struct forced *f, char *reason, size_t len)
{
	const struct cb_algo_desc *d = &cb_desc_nccl_forced[k];
	char *old_algo = NULL, *old_proto = NULL;
	enum cb_status st = env_force("NCCL_ALGO", d->nccl_algo, &old_algo), ist;

	reason[0] = '\0';
	if (st == CB_OK)
		st = env_force("NCCL_PROTO", d->nccl_proto, &old_proto);
	if (st == CB_OK && (ist = cb_nccl_comm_init(f->be, &f->comm)) != CB_OK) {
		const char *last = ncclGetLastError(NULL);

		snprintf(reason, len, "ncclCommInitRankConfig failed: %s",
			 last && *last ? last : cb_status_str(ist));
	}
	env_restore("NCCL_PROTO", old_proto);
	env_restore("NCCL_ALGO", old_algo);
	return st;
}

/* Creates the communicator, probes it, agrees on both; the probe's kernel
 * is waited for only where every rank launched it (else the abort ends it). */
static enum cb_status create_and_probe(int k, struct forced *f)
{
	char mine[sizeof(why[0]) - 64];
	float *buf = NULL;
	enum cb_status st = create(k, f, mine, sizeof(mine));

	if (st == CB_OK)
		st = agree_reason(f->be, k, mine);
	if (st == CB_OK && !why[k][0]) {
		probe_launch(&cb_desc_nccl_forced[k], f, &buf, mine, sizeof(mine));
		st = agree_reason(f->be, k, mine);
	}
	if ((st != CB_OK || why[k][0]) && f->comm) {
		ncclCommAbort(f->comm);
		f->comm = NULL;
	}
	if (buf && cudaStreamSynchronize(cb_cuda_stream(f->be)) != cudaSuccess && st == CB_OK)
		st = CB_ERR_CUDA;
	cudaFree(buf);
	return st;
}

static enum cb_status forced_setup(int k, struct cb_backend *be, void **state)
{
	struct forced *f = calloc(1, sizeof(*f));
	enum cb_status st = CB_OK;

	*state = NULL;
	if (!f)
		return CB_ERR_NOMEM;
	f->be = be;
	why[k][0] = '\0';
	if (!cb_nccl_shared_gpu_reason(be)) /* else every rank's rows say why */
		st = create_and_probe(k, f);
	if (st != CB_OK) {
		free(f);
		return st;
	}
	*state = f;
	return CB_OK;
}

static enum cb_status forced_run(void *state, const struct cb_run_args *a)
{
	struct forced *f = state;

	return cb_nccl_coll_call(f->be, &f->comm, a);
}

static void forced_teardown(void *state)
{
	struct forced *f = state;

	if (!f)
		return;
	if (f->comm)
		cb_nccl_comm_close(f->be, f->comm);
	free(f);
}

#define NCCL_OPS(coll, algo, proto, a, p, sched) \
	static const char *supports_##coll##_##algo##_##proto( \
		const struct cb_backend *be, enum cb_dtype dt, enum cb_op op, int in_place) \
	{ \
		return forced_supports(CB_NCCL_##coll##_##algo##_##proto, be, dt, op, in_place); \
	} \
	static enum cb_status setup_##coll##_##algo##_##proto( \
		struct cb_backend *be, const struct cb_setup_args *sa, void **state) \
	{ \
		(void)sa; \
		return forced_setup(CB_NCCL_##coll##_##algo##_##proto, be, state); \
	}
CB_NCCL_FORCED(NCCL_OPS)
#undef NCCL_OPS

#define NCCL_ENTRY(coll, algo, proto, a, p, sched) \
	[CB_NCCL_##coll##_##algo##_##proto] = { \
		.desc = &cb_desc_nccl_forced[CB_NCCL_##coll##_##algo##_##proto], \
		.supports = supports_##coll##_##algo##_##proto, \
		.setup = setup_##coll##_##algo##_##proto, .run = forced_run, \
		.teardown = forced_teardown }, /* the library: nccl's describe */
const struct cb_algo_ops cb_algo_nccl_forced_ops[CB_NCCL_NFORCED] = {
	CB_NCCL_FORCED(NCCL_ENTRY)
};
#undef NCCL_ENTRY
