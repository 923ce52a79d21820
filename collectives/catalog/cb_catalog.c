/* The catalogue's tables: algorithms, backends, transports (contract in
 * cb_catalog.h). */
#include "cb_catalog.h"

#include "cb_plan_lib.h"

#include <stdio.h>
#include <string.h>

const struct cb_algo_desc cb_desc_nccl = {
	.name = "nccl",
	.description = "ncclAllReduce of NCCL (baseline; one GPU per rank; traffic unmeasured)",
	.result = CB_RESULT_ALLREDUCE,
	.needs = CB_CAP_CUDA_MEMORY,
	.moves = "library",
	.schedule = "ring", /* NCCL's ring; its tuner may take a tree or NVLS instead */
};

const struct cb_algo_desc cb_desc_mpi = {
	.name = "mpi",
	.description = "MPI_Allreduce of the MPI library (baseline; traffic unmeasured)",
	.result = CB_RESULT_ALLREDUCE,
	.needs = CB_CAP_HOST_MEMORY,
	.moves = "library",
};

/* The plan of the same schedule as each forced algorithm (coll_base_allreduce.c
 * of Open MPI 4.1): basic_linear is a linear reduce to rank 0 then a linear
 * broadcast, ps's bytes unsliced; the segmented ring, as coll/tuned calls it
 * with segment size 0, is the ring; nonoverlapping's reduce and broadcast
 * are each coll/tuned's own choice, no one schedule. */
#define SCHEDULE_basic_linear "ps"
#define SCHEDULE_nonoverlapping NULL
#define SCHEDULE_recursive_doubling "rd"
#define SCHEDULE_ring "ring"
#define SCHEDULE_segmented_ring "ring"
#define SCHEDULE_rabenseifner "rabenseifner"
#define CB_OMPI_DESC(name_, number, what) \
	{ .name = "mpi." #name_, \
	  .description = "MPI_Allreduce, Open MPI's " #name_ " forced (" what ")", \
	  .result = CB_RESULT_ALLREDUCE, .needs = CB_CAP_HOST_MEMORY, .moves = "library", \
	  .on_request = 1, .library_algo = number, .schedule = SCHEDULE_##name_ },
const struct cb_algo_desc cb_desc_mpi_forced[CB_OMPI_NALLREDUCE] = {
	CB_OMPI_ALLREDUCE(CB_OMPI_DESC)
};
#undef CB_OMPI_DESC

const struct cb_algo_desc cb_desc_copy = {
	.name = "copy",
	.description = "copy roofline: send -> recv on every rank, nothing crosses ranks (algbw only)",
	.result = CB_RESULT_COPY,
	.needs = 0, /* any backend: a rank copies its own buffer */
	.moves = "local",
	.traffic_measured = 1,
	.time_measured = 1,
};

#define LIB(c, nm, what, need) \
	[c] = { .name = nm, .description = what, .result = CB_RESULT_ALLREDUCE, .needs = need, \
		.moves = "library", .coll = c }
const struct cb_algo_desc cb_desc_mpi_coll[CB_COLL_COUNT] = {
	LIB(CB_COLL_REDUCE_SCATTER, "mpi", "MPI_Reduce_scatter_block of the MPI library (baseline; "
	    "out of place only: in place MPI leaves the block at the buffer's start)",
	    CB_CAP_HOST_MEMORY),
	LIB(CB_COLL_ALL_GATHER, "mpi", "MPI_Allgather of the MPI library (baseline)",
	    CB_CAP_HOST_MEMORY),
	LIB(CB_COLL_BROADCAST, "mpi", "MPI_Bcast of the MPI library (baseline; in place only: "
	    "MPI_Bcast has one buffer)", CB_CAP_HOST_MEMORY),
	LIB(CB_COLL_REDUCE, "mpi", "MPI_Reduce of the MPI library (baseline)", CB_CAP_HOST_MEMORY),
};
const struct cb_algo_desc cb_desc_nccl_coll[CB_COLL_COUNT] = {
	LIB(CB_COLL_REDUCE_SCATTER, "nccl", "ncclReduceScatter of NCCL (baseline; one GPU per rank)",
	    CB_CAP_CUDA_MEMORY),
	LIB(CB_COLL_ALL_GATHER, "nccl", "ncclAllGather of NCCL (baseline; one GPU per rank)",
	    CB_CAP_CUDA_MEMORY),
	LIB(CB_COLL_BROADCAST, "nccl", "ncclBroadcast of NCCL (baseline; one GPU per rank)",
	    CB_CAP_CUDA_MEMORY),
	LIB(CB_COLL_REDUCE, "nccl", "ncclReduce of NCCL (baseline; one GPU per rank)",
	    CB_CAP_CUDA_MEMORY),
};
#undef LIB

/* The library and local algorithms, after the plans (cb_plan_lib.h: each
 * plan algorithm's descriptor is made from its line there). */
#define CB_OMPI_REF(name, number, what) &cb_desc_mpi_forced[CB_OMPI_##name],
static const struct cb_algo_desc *const fixed[] = {
	&cb_desc_nccl, &cb_desc_mpi, CB_OMPI_ALLREDUCE(CB_OMPI_REF) &cb_desc_copy,
};
#undef CB_OMPI_REF

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static struct cb_algo_desc plan_desc[CB_PLAN_ALGOS_MAX];

/* A plan algorithm's descriptor: it moves its bytes over the run's
 * transport, one-sided or two-sided, and both are measured. */
static struct cb_algo_desc plan_desc_of(const struct cb_plan_algo *pa)
{
	return (struct cb_algo_desc){
		.name = pa->name,
		.description = pa->description,
		.result = CB_RESULT_ALLREDUCE,
		.needs = CB_CAP_PEER_MEMORY,
		.two_sided_needs = CB_CAP_TWO_SIDED,
		.traffic_measured = 1,
		.time_measured = 1,
		.plan = pa,
		.coll = pa->coll,
	};
}
static const struct cb_algo_desc *algos[CB_PLAN_ALGOS_MAX + COUNT(fixed)];
static size_t nalgos;

/* The list, made again when a plan algorithm was added (cb_plan_algo_add;
 * the entries before it keep their places): a plan algorithm moves its
 * bytes over the run's transport, one-sided or two-sided, and both are
 * measured. */
static void make_list(void)
{
	static size_t made_np;
	size_t np;
	const struct cb_plan_algo *pa = cb_plan_algos(&np);

	if (nalgos && np == made_np)
		return;
	nalgos = 0;
	made_np = np;
	for (size_t i = 0; i < np; i++) {
		plan_desc[i] = plan_desc_of(&pa[i]);
		algos[nalgos++] = &plan_desc[i];
	}
	for (size_t i = 0; i < COUNT(fixed); i++)
		algos[nalgos++] = fixed[i];
}

/* The other collectives' lists: their plans (made once: only allreduce
 * takes added plans), then nccl and mpi. */
static struct cb_algo_desc coll_plan_desc[CB_COLL_COUNT][CB_PLAN_ALGOS_MAX];
static const struct cb_algo_desc *coll_list[CB_COLL_COUNT][CB_PLAN_ALGOS_MAX + 2];
static size_t coll_n[CB_COLL_COUNT];

static void make_coll_list(enum cb_coll c)
{
	size_t np;
	const struct cb_plan_algo *pa = cb_plan_coll_algos(c, &np);

	if (coll_n[c])
		return;
	for (size_t i = 0; i < np && i < CB_PLAN_ALGOS_MAX; i++) {
		coll_plan_desc[c][i] = plan_desc_of(&pa[i]);
		coll_list[c][coll_n[c]++] = &coll_plan_desc[c][i];
	}
	coll_list[c][coll_n[c]++] = &cb_desc_nccl_coll[c];
	coll_list[c][coll_n[c]++] = &cb_desc_mpi_coll[c];
}

const struct cb_algo_desc *const *cb_catalog_coll_algos(enum cb_coll c, size_t *n)
{
	if (c == CB_COLL_ALLREDUCE)
		return cb_catalog_algos(n);
	if ((unsigned)c >= CB_COLL_COUNT) {
		*n = 0;
		return NULL;
	}
	make_coll_list(c);
	*n = coll_n[c];
	return coll_list[c];
}

const struct cb_algo_desc *cb_catalog_coll_algo(enum cb_coll c, const char *name)
{
	size_t n;
	const struct cb_algo_desc *const *a = cb_catalog_coll_algos(c, &n);

	for (size_t i = 0; i < n; i++)
		if (strcmp(a[i]->name, name) == 0)
			return a[i];
	return NULL;
}

const struct cb_backend_desc cb_desc_host = {
	.name = "host",
	.caps = CB_CAP_PEER_MEMORY | CB_CAP_HOST_MEMORY | CB_CAP_TWO_SIDED,
	.pipeline_bytes = CB_HOST_PIPELINE_BYTES,
};

const struct cb_backend_desc cb_desc_cuda = {
	.name = "cuda",
	.caps = CB_CAP_PEER_MEMORY | CB_CAP_CUDA_MEMORY | CB_CAP_TWO_SIDED,
	.pipeline_bytes = CB_CUDA_PIPELINE_BYTES,
	.time_unmeasured =
		"copies, reduces and waits are enqueued on the rank's stream and run later: a "
		"host clock around them times the enqueue, not the work, and a CUDA event pair "
		"per slice would add a record and a query to every slice of the ring",
};

static const struct cb_backend_desc *const backends[] = { &cb_desc_host, &cb_desc_cuda };

const struct cb_algo_desc *const *cb_catalog_algos(size_t *n)
{
	make_list();
	*n = nalgos;
	return algos;
}

const struct cb_algo_desc *cb_catalog_algo(const char *name)
{
	make_list();
	for (size_t i = 0; i < nalgos; i++)
		if (strcmp(algos[i]->name, name) == 0)
			return algos[i];
	return NULL;
}

const struct cb_backend_desc *const *cb_catalog_backends(size_t *n)
{
	*n = COUNT(backends);
	return backends;
}

const struct cb_backend_desc *cb_catalog_backend(const char *name)
{
	for (size_t i = 0; i < COUNT(backends); i++)
		if (strcmp(backends[i]->name, name) == 0)
			return backends[i];
	return NULL;
}

int cb_caps_have(const struct cb_backend_desc *be, unsigned needs)
{
	return (be->caps & needs) == needs;
}

int cb_algo_desc_runs_on(const struct cb_algo_desc *a, const struct cb_backend_desc *be)
{
	return cb_caps_have(be, a->needs) ||
	       (a->two_sided_needs && cb_caps_have(be, a->two_sided_needs));
}

static const struct cb_transport transports[CB_TRANSPORT_COUNT] = {
	[CB_TRANSPORT_AUTO] = {
		.name = "auto",
		.description = "shm (host) or ipc (cuda) when every rank shares a host, else p2p",
	},
	[CB_TRANSPORT_SHM] = {
		.name = "shm",
		.needs = CB_CAP_PEER_MEMORY | CB_CAP_HOST_MEMORY,
		.one_sided = 1,
		.description = "one-sided: loads and stores in shared-memory windows (one host)",
	},
	[CB_TRANSPORT_IPC] = {
		.name = "ipc",
		.needs = CB_CAP_PEER_MEMORY | CB_CAP_CUDA_MEMORY,
		.one_sided = 1,
		.description = "one-sided: copies and kernels through CUDA IPC (one host)",
	},
	[CB_TRANSPORT_P2P] = {
		.name = "p2p",
		.needs = CB_CAP_TWO_SIDED,
		.description = "two-sided: MPI (host) or NCCL (cuda) send/receive (any hosts)",
	},
};

const struct cb_transport *cb_transport_get(int id)
{
	return id >= 0 && id < CB_TRANSPORT_COUNT ? &transports[id] : NULL;
}

int cb_transport_id_of(const char *name)
{
	for (int t = CB_TRANSPORT_AUTO + 1; t < CB_TRANSPORT_COUNT; t++)
		if (strcmp(transports[t].name, name) == 0)
			return t;
	return -1;
}

int cb_transport_known(const char *name)
{
	if (cb_transport_id_of(name) >= 0)
		return 1;
	for (size_t i = 0; i < COUNT(fixed); i++)
		if (fixed[i]->moves && strcmp(fixed[i]->moves, name) == 0)
			return 1;
	return 0;
}

static int offers(const struct cb_backend_desc *be, int id)
{
	return cb_caps_have(be, transports[id].needs);
}

const char *cb_transport_refuses(int id, const struct cb_backend_desc *be, char *buf,
				 size_t len)
{
	char names[64] = "";
	size_t k = 0;

	if (id == CB_TRANSPORT_AUTO || offers(be, id))
		return NULL;
	for (int t = CB_TRANSPORT_AUTO + 1; t < CB_TRANSPORT_COUNT; t++)
		if (offers(be, t) && k < sizeof(names))
			k += (size_t)snprintf(names + k, sizeof(names) - k, "%s%s", k ? ", " : "",
					      transports[t].name);
	snprintf(buf, len, "--transport %s is not a transport of the %s backend (%s); it offers "
		 "%s, or auto", transports[id].name, be->name,
		 be->caps & CB_CAP_CUDA_MEMORY ? "its buffers are GPU memory" :
		 "its buffers are host memory", k ? names : "none");
	return buf;
}

/* The backend's one-sided transport, or -1. */
static int one_sided_of(const struct cb_backend_desc *be)
{
	for (int t = CB_TRANSPORT_AUTO + 1; t < CB_TRANSPORT_COUNT; t++)
		if (transports[t].one_sided && offers(be, t))
			return t;
	return -1;
}

enum cb_transport_id cb_transport_resolve(int requested, const struct cb_backend_desc *be,
					  int single_node)
{
	int one = one_sided_of(be);

	if (requested != CB_TRANSPORT_AUTO)
		return (enum cb_transport_id)requested;
	if (one >= 0 && single_node)
		return (enum cb_transport_id)one;
	if (offers(be, CB_TRANSPORT_P2P))
		return CB_TRANSPORT_P2P;
	/* no two-sided transport: the one-sided one, whose rows say why they skip */
	return one >= 0 ? (enum cb_transport_id)one : CB_TRANSPORT_P2P;
}

const char *cb_transport_one_host(const char *backend, const char *algo)
{
	const struct cb_algo_desc *a = cb_catalog_algo(algo);
	const struct cb_backend_desc *be = cb_catalog_backend(backend);
	int one;

	if (a && a->moves)
		return a->moves;
	one = be ? one_sided_of(be) : -1;
	return one >= 0 ? transports[one].name : NULL;
}
