/* nccl.sym and nccl.ce (cb_catalog_nccl_paths.h): NCCL's collective calls on
 * buffers NCCL allocated and registered, each row on a communicator of its
 * own, so NCCL can take its symmetric kernels (nccl.sym) or its copy-engine
 * collectives (nccl.ce, CTAPolicy NCCL_CTA_POLICY_ZERO).
 *
 * Buffers: NCCL registers a symmetric window only on cuMem (VMM) memory,
 * which ncclMemAlloc gives: it takes the allocation's handle with
 * cuMemRetainAllocationHandle, which fails on cudaMalloc memory, and the
 * window's offset in its allocation must be a multiple of
 * NCCL_WIN_REQUIRED_ALIGNMENT (4096) (v2.28.9-1 dev_runtime.cc
 * symWindowCreate path; docs "Window Registration"). The harness's buffers
 * are cudaMalloc'd and exported through CUDA IPC, which cuMem memory is not
 * without other handle types, so these rows bring their own: set-up
 * allocates a send and a receive buffer of max_bytes with ncclMemAlloc and
 * registers both, collectively on every rank, with NCCL_WIN_COLL_SYMMETRIC;
 * the harness writes the input into them before each row and checks the
 * output there (cb_algo_ops.own_buf). Nothing is copied in timed calls.
 *
 * What NCCL does with the windows is its choice: the row says NCCL was
 * given the path, not that it took it (the profiler's columns say which
 * kernel ran). Where NCCL would not take it (version, collective, dtype,
 * op, more than one node, GPUs without peer access, NCCL_WIN_ENABLE=0,
 * NCCL_CUMEM_ENABLE=0) the row is skipped with that reason
 * (cb_nccl_path_why and gate below); a registration that fails on any rank
 * skips the rows with NCCL's last error. Traffic is unmeasured, as for
 * nccl. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cb_algo.h"
#include "cb_catalog_nccl_paths.h"
#include "cb_cuda.h"
#include "cb_cuda_util.h"
#include "cb_nccl.h"

struct path_state {
	struct cb_backend *be;
	enum cb_nccl_path path;
	enum cb_coll coll;
	ncclComm_t comm; /* NULL: the rows are skipped (gate, or a failed registration) */
	void *mem[2];    /* send, receive: ncclMemAlloc'd */
	ncclWindow_t win[2]; /* nccl.sym, nccl.ce */
	void *reg[2];        /* nccl.reg: ncclCommRegister's handles */
	struct cb_buf buf[2];
};

/* Why set-up left a path's rows without a communicator (a registration that
 * failed), per path and collective; "" when it did not. */
static char setup_why[CB_NCCL_NPATHS][CB_COLL_COUNT][256];

static int nccl_version(void)
{
	int v = 0;

	return ncclGetVersion(&v) == ncclSuccess ? v : 0;
}

static int driver_version(void)
{
	int v = 0;

	return cudaDriverGetVersion(&v) == cudaSuccess ? v : 0;
}

/* An environment variable set to 0 ("NCCL_WIN_ENABLE=0"). */
static int env_off(const char *name)
{
	const char *e = getenv(name);

	return e && *e && atoi(e) == 0;
}

/* What rules the path out for collective c on this run whatever the dtype
 * and op, or NULL. */
static const char *gate(enum cb_nccl_path p, enum cb_coll c, const struct cb_backend *be)
{
	const char *why = cb_nccl_shared_gpu_reason(be), *e;

	if (why)
		return why;
	/* 2.28 register.cc: ncclCommRegister registers nothing when it is 0 */
	if (p == CB_NCCL_REG)
		return env_off("NCCL_LOCAL_REGISTER") ? "NCCL_LOCAL_REGISTER=0 turns NCCL's buffer "
							"registration off"
						      : cb_nccl_path_why(p, c, CB_FLOAT, CB_SUM,
									 nccl_version(), 0);
	/* 2.27 init.cc: symmetricSupport needs nNodes == 1; 2.28 enqueue.cc:
	 * CE needs nNodes == 1, sym_kernels.cc masks the LSA kernels off */
	if (be->node_size != be->world_size)
		return "NCCL's symmetric kernels and copy-engine collectives run within one node";
	/* 2.28 init.cc: symmetricSupport = isAllCudaP2p && NCCL_WIN_ENABLE && cuMem */
	if (be->peer_unreachable)
		return "NCCL gives symmetric windows only where every GPU reaches every other "
		       "peer to peer and these GPUs do not (cudaDeviceCanAccessPeer)";
	if (env_off("NCCL_WIN_ENABLE"))
		return "NCCL_WIN_ENABLE=0 turns NCCL's symmetric windows off";
	if (env_off("NCCL_CUMEM_ENABLE"))
		return "NCCL_CUMEM_ENABLE=0: NCCL's symmetric windows need cuMem memory";
	/* 2.28 init.cc: NCCL_CTA_POLICY overrides ncclConfig_t.CTAPolicy */
	e = getenv("NCCL_CTA_POLICY");
	if (p == CB_NCCL_CE && e && *e && atoi(e) != NCCL_CTA_POLICY_ZERO)
		return "NCCL_CTA_POLICY in the environment overrides the CTAPolicy ZERO of nccl.ce";
	return cb_nccl_path_why(p, c, CB_FLOAT, CB_SUM, nccl_version(), driver_version());
}

static const char *path_supports(enum cb_nccl_path p, enum cb_coll c,
				 const struct cb_backend *be, enum cb_dtype dt, enum cb_op op,
				 int in_place)
{
	const char *why = gate(p, c, be);

	if (!why)
		why = cb_nccl_path_why(p, c, dt, op, nccl_version(), driver_version());
	if (!why && setup_why[p][c][0])
		why = setup_why[p][c];
	if (!why && in_place && c == CB_COLL_ALLTOALL)
		why = "ncclAlltoAll is a send and a receive per peer (enqueue.cc): on one buffer "
		      "they overwrite blocks before they are sent; alltoall's nccl rows run out "
		      "of place";
	return why;
}

/* Deregisters the windows (collective), closes the communicator, frees the
 * buffers. */
static void path_release(struct path_state *ps)
{
	struct cb_backend *be = ps->be;

	for (int i = 0; i < 2 && ps->comm; i++) {
		if (ps->win[i])
			CB_NCCL_DONE(be, &ps->comm, ncclCommWindowDeregister(ps->comm, ps->win[i]));
		if (ps->reg[i])
			CB_NCCL_DONE(be, &ps->comm, ncclCommDeregister(ps->comm, ps->reg[i]));
	}
	if (ps->comm)
		cb_nccl_comm_close(be, ps->comm);
	for (int i = 0; i < 2; i++) {
		if (ps->mem[i])
			CB_NCCL(ncclMemFree(ps->mem[i]), NULL);
		free(ps->buf[i].peer);
	}
	memset(ps->mem, 0, sizeof(ps->mem));
	memset(ps->win, 0, sizeof(ps->win));
	memset(ps->reg, 0, sizeof(ps->reg));
	memset(ps->buf, 0, sizeof(ps->buf));
	ps->comm = NULL;
}

/* The two buffers, bytes each, from ncclMemAlloc, zeroed. Local. */
static enum cb_status alloc_buffers(struct path_state *ps, size_t bytes)
{
	for (int i = 0; i < 2; i++) {
		enum cb_status st = CB_NCCL(ncclMemAlloc(&ps->mem[i], bytes), NULL);

		ps->buf[i].peer = calloc((size_t)ps->be->node_size, sizeof(void *));
		if (st == CB_OK && !ps->buf[i].peer)
			st = CB_ERR_NOMEM;
		if (st == CB_OK)
			st = CB_CUDA(cudaMemset(ps->mem[i], 0, bytes));
		if (st != CB_OK)
			return st;
		ps->buf[i].bytes = bytes;
		ps->buf[i].peer[ps->be->node_rank] = ps->mem[i];
	}
	return CB_OK;
}

/* Buffer i registered: a symmetric window (nccl.sym, nccl.ce; collective)
 * or ncclCommRegister's local registration (nccl.reg). */
static enum cb_status register_one(struct path_state *ps, int i, size_t bytes)
{
	if (ps->path == CB_NCCL_REG)
		return CB_NCCL_DONE(ps->be, &ps->comm, ncclCommRegister(ps->comm, ps->mem[i], bytes,
									&ps->reg[i]));
	return CB_NCCL_DONE(ps->be, &ps->comm, ncclCommWindowRegister(ps->comm, ps->mem[i], bytes,
								      &ps->win[i],
								      NCCL_WIN_COLL_SYMMETRIC));
}

/* Registers both buffers on every rank; when that fails on any rank, the
 * communicator is aborted and setup_why says why (the rows are skipped).
 * Collective; errors only of MPI. */
static enum cb_status register_buffers(struct path_state *ps, size_t bytes)
{
	struct cb_backend *be = ps->be;
	char *why = setup_why[ps->path][ps->coll];
	const char *call = ps->path == CB_NCCL_REG ? "ncclCommRegister" : "ncclCommWindowRegister";
	int mine = 1, all = 0;
	enum cb_status st;

	for (int i = 0; i < 2 && mine; i++) {
		st = register_one(ps, i, bytes);
		if (st != CB_OK) {
			const char *last = ncclGetLastError(ps->comm);

			snprintf(why, sizeof(setup_why[0][0]), "%s failed: %s", call,
				 last && *last ? last : cb_status_str(st));
			mine = 0;
		}
	}
	st = CB_MPI(MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_MIN, be->world));
	if (st != CB_OK || all)
		return st;
	if (mine)
		snprintf(why, sizeof(setup_why[0][0]), "%s failed on another rank (its stderr says "
			 "why)", call);
	ncclCommAbort(ps->comm); /* the registrations go with it */
	ps->comm = NULL;
	memset(ps->win, 0, sizeof(ps->win));
	memset(ps->reg, 0, sizeof(ps->reg));
	return CB_OK;
}

static enum cb_status path_setup(enum cb_nccl_path p, enum cb_coll c, struct cb_backend *be,
				 const struct cb_setup_args *sa, void **state)
{
	struct path_state *ps = calloc(1, sizeof(*ps));
	ncclConfig_t cfg = NCCL_CONFIG_INITIALIZER;
	size_t bytes = sa->max_bytes ? sa->max_bytes : 1;
	enum cb_status st;

	*state = NULL;
	if (!ps)
		return CB_ERR_NOMEM;
	*ps = (struct path_state){ .be = be, .path = p, .coll = c };
	setup_why[p][c][0] = '\0';
	if (gate(p, c, be)) { /* the rows say why; nothing to set up */
		*state = ps;
		return CB_OK;
	}
	bytes = (bytes + NCCL_WIN_REQUIRED_ALIGNMENT - 1) / NCCL_WIN_REQUIRED_ALIGNMENT *
		NCCL_WIN_REQUIRED_ALIGNMENT;
	if (p == CB_NCCL_CE) /* docs, NCCL API Supported Flags: "use zero CTA whenever it can" */
		cfg.CTAPolicy = NCCL_CTA_POLICY_ZERO;
	st = cb_nccl_comm_init_config(be, &cfg, &ps->comm);
	if (st == CB_OK)
		st = cb_agree(alloc_buffers(ps, bytes), be->world);
	if (st == CB_OK)
		st = register_buffers(ps, bytes);
	if (st != CB_OK) {
		if (ps->comm)
			ncclCommAbort(ps->comm);
		ps->comm = NULL;
		memset(ps->win, 0, sizeof(ps->win));
		memset(ps->reg, 0, sizeof(ps->reg));
		path_release(ps);
		free(ps);
		return st;
	}
	*state = ps;
	return CB_OK;
}

static void path_teardown(void *state)
{
	struct path_state *ps = state;

	if (!ps)
		return;
	path_release(ps);
	free(ps);
}

static struct cb_buf *path_own_buf(void *state, int recv)
{
	struct path_state *ps = state;

	return ps->comm ? &ps->buf[recv != 0] : NULL;
}

/* The collective's NCCL call on sb and rb, block = count/n elements. */
static ncclResult_t path_call(ncclComm_t comm, char *sb, char *rb, const struct cb_run_args *a,
			      size_t block, cudaStream_t s)
{
	ncclDataType_t t = cb_nccl_dtype(a->dt);

	switch (a->coll) {
	case CB_COLL_ALLREDUCE:
		return ncclAllReduce(sb, rb, a->count, t, cb_nccl_op(a->op), comm, s);
	case CB_COLL_REDUCE_SCATTER:
		return ncclReduceScatter(sb, rb, block, t, cb_nccl_op(a->op), comm, s);
	case CB_COLL_ALL_GATHER:
		return ncclAllGather(sb, rb, block, t, comm, s);
	case CB_COLL_BROADCAST:
		return ncclBroadcast(sb, rb, a->count, t, a->root, comm, s);
	case CB_COLL_REDUCE:
		return ncclReduce(sb, rb, a->count, t, cb_nccl_op(a->op), a->root, comm, s);
	case CB_COLL_ALLTOALL: /* NCCL 2.28: block elements to and from each rank */
		return ncclAlltoAll(sb, rb, block, t, comm, s);
	default:
		return ncclInvalidUsage; /* never: gate refuses the others */
	}
}

static enum cb_status path_run(void *state, const struct cb_run_args *a)
{
	struct path_state *ps = state;
	struct cb_backend *be = ps->be;
	char *sb = a->send->peer[be->node_rank], *rb = a->recv->peer[be->node_rank];
	size_t so, ro, esz = cb_dtype_size(a->dt), block = a->count / (size_t)be->world_size;

	if (!ps->comm)
		return CB_ERR_UNSUPPORTED;
	cb_coll_offsets(a->coll, be->world_size, a->count, be->world_rank, a->send == a->recv, &so,
			&ro);
	return CB_NCCL_DONE(be, &ps->comm, path_call(ps->comm, sb + so * esz, rb + ro * esz, a,
						     block, cb_cuda_stream(be)));
}

/* Each (path, collective)'s supports and setup, as the ops table takes
 * neither the path nor the collective. No describe: the nccl row's names
 * the library (the run header lists every registered algorithm's). */
#define PATH_FNS(P, id, name) \
	static const char *supports_##P##_##name(const struct cb_backend *be, enum cb_dtype dt, \
						 enum cb_op op, int in_place) \
	{ \
		return path_supports(CB_NCCL_##P, CB_COLL_##id, be, dt, op, in_place); \
	} \
	static enum cb_status setup_##P##_##name(struct cb_backend *be, \
						 const struct cb_setup_args *sa, void **state) \
	{ \
		return path_setup(CB_NCCL_##P, CB_COLL_##id, be, sa, state); \
	}
#define SYM_FNS(id, name) PATH_FNS(SYM, id, name)
#define CE_FNS(id, name) PATH_FNS(CE, id, name)
#define REG_FNS(id, name) PATH_FNS(REG, id, name)
CB_COLLECTIVES(SYM_FNS)
CB_COLLECTIVES(CE_FNS)
CB_COLLECTIVES(REG_FNS)
#define PATH_OPS(P, id, name) \
	[CB_COLL_##id] = { .desc = &cb_desc_nccl_path[CB_NCCL_##P][CB_COLL_##id], \
			   .supports = supports_##P##_##name, .setup = setup_##P##_##name, \
			   .run = path_run, .teardown = path_teardown, .own_buf = path_own_buf },
#define SYM_OPS(id, name) PATH_OPS(SYM, id, name)
#define CE_OPS(id, name) PATH_OPS(CE, id, name)
#define REG_OPS(id, name) PATH_OPS(REG, id, name)
const struct cb_algo_ops cb_algo_nccl_path_ops[CB_NCCL_NPATHS][CB_COLL_COUNT] = {
	[CB_NCCL_SYM] = { CB_COLLECTIVES(SYM_OPS) },
	[CB_NCCL_CE] = { CB_COLLECTIVES(CE_OPS) },
	[CB_NCCL_REG] = { CB_COLLECTIVES(REG_OPS) },
};
