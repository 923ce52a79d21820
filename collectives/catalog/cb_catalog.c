/* The catalogue's tables: algorithms, backends, transports (contract in
 * cb_catalog.h). */
#include "cb_catalog.h"

#include "cb_catalog_nccl_paths.h"
#include "cb_plan_lib.h"

#include <stdio.h>
#include <string.h>

#define CB_OMPI_DESC(coll_, name_, number, ranks, schedule_, what) \
	{ .name = "mpi." #name_, \
	  .description = "the MPI call, Open MPI's " #name_ " forced (" what ")", \
	  .result = CB_RESULT_ALLREDUCE, .needs = CB_CAP_HOST_MEMORY, .moves = "library", \
	  .on_request = 1, .library_algo = number, .coll = (enum cb_coll)cb_coll_of_##coll_, \
	  .library_ranks = ranks, .schedule = schedule_ },
const struct cb_algo_desc cb_desc_mpi_forced[CB_OMPI_NFORCED] = {
	CB_OMPI_FORCED(CB_OMPI_DESC)
};
#undef CB_OMPI_DESC

#define CB_NCCL_DESC(coll_, algo_, proto_, a, p, sched) \
	{ .name = "nccl." #algo_ "." #proto_, \
	  .description = "the NCCL call on a communicator made with NCCL_ALGO=" a " NCCL_PROTO=" p \
			 " (one GPU per rank; traffic unmeasured)", \
	  .result = CB_RESULT_ALLREDUCE, .needs = CB_CAP_CUDA_MEMORY, .moves = "library", \
	  .on_request = 1, .coll = (enum cb_coll)cb_coll_of_##coll_, .schedule = sched, \
	  .nccl_algo = a, .nccl_proto = p },
const struct cb_algo_desc cb_desc_nccl_forced[CB_NCCL_NFORCED] = {
	CB_NCCL_FORCED(CB_NCCL_DESC)
};
#undef CB_NCCL_DESC

const struct cb_algo_desc cb_desc_copy = {
	.name = "copy",
	.description = "copy roofline: send -> recv on every rank, nothing crosses ranks (algbw only)",
	.result = CB_RESULT_COPY,
	.needs = 0, /* any backend: a rank copies its own buffer */
	.moves = "local",
	.traffic_measured = 1,
	.time_measured = 1,
};

/* nccl and mpi of every collective; their descriptions name the
 * collective's calls (cb_coll_desc.mpi_call, nccl_call), written when the
 * collective's list is made (make_list). */
#define LIB(id, nm) \
	[CB_COLL_##id] = { .name = "mpi", .result = CB_RESULT_ALLREDUCE, \
			   .needs = CB_CAP_HOST_MEMORY, .moves = "library", .coll = CB_COLL_##id },
struct cb_algo_desc cb_desc_mpi[CB_COLL_COUNT] = { CB_COLLECTIVES(LIB) };
#undef LIB
#define LIB(id, nm) \
	[CB_COLL_##id] = { .name = "nccl", .result = CB_RESULT_ALLREDUCE, \
			   .needs = CB_CAP_CUDA_MEMORY, .moves = "library", .coll = CB_COLL_##id },
struct cb_algo_desc cb_desc_nccl[CB_COLL_COUNT] = { CB_COLLECTIVES(LIB) };
#undef LIB
static char lib_text[CB_COLL_COUNT][2][160];

/* The descriptions of c's nccl and mpi. */
static void describe_libs(enum cb_coll c)
{
	const struct cb_coll_desc *d = cb_coll_get(c);

	snprintf(lib_text[c][0], sizeof(lib_text[c][0]), "%s of the MPI library (baseline; "
		 "traffic unmeasured)", d->mpi_call ? d->mpi_call : "no call");
	snprintf(lib_text[c][1], sizeof(lib_text[c][1]), "%s of NCCL (baseline; one GPU per rank; "
		 "traffic unmeasured)", d->nccl_call ? d->nccl_call : "no call");
	cb_desc_mpi[c].description = lib_text[c][0];
	cb_desc_nccl[c].description = lib_text[c][1];
	cb_desc_nccl[c].schedule = d->nccl_schedule;
}

/* The algorithms that are no plan, after the plans of their collective
 * (cb_plan_lib.h: a plan algorithm's descriptor is made from its line
 * there), in this order: each collective's nccl and mpi, then the forced
 * mpi.* and nccl.*, and copy, of the collective they name. */
#define CB_OMPI_REF(coll, name, number, ranks, schedule, what) &cb_desc_mpi_forced[CB_OMPI_##coll##_##name],
#define CB_NCCL_REF(coll, algo, proto, a, p, sched) \
	&cb_desc_nccl_forced[CB_NCCL_##coll##_##algo##_##proto],
static const struct cb_algo_desc *const extra[] = {
	CB_OMPI_FORCED(CB_OMPI_REF) CB_NCCL_FORCED(CB_NCCL_REF) &cb_desc_copy,
};
#undef CB_NCCL_REF
#undef CB_OMPI_REF

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))
#define LIST_MAX (CB_PLAN_ALGOS_MAX + 2 + CB_NCCL_NPATHS + COUNT(extra))

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

/* Each collective's list, made again when a plan algorithm was added to it
 * (cb_plan_algo_add; the entries before it keep their places). */
static struct cb_algo_desc plan_desc[CB_COLL_COUNT][CB_PLAN_ALGOS_MAX];
static const struct cb_algo_desc *list[CB_COLL_COUNT][LIST_MAX];
static size_t nlist[CB_COLL_COUNT], made_np[CB_COLL_COUNT];

static void make_list(enum cb_coll c)
{
	size_t np, k = 0;
	const struct cb_plan_algo *pa = cb_plan_coll_algos(c, &np);

	if (nlist[c] && np == made_np[c])
		return;
	describe_libs(c);
	for (size_t i = 0; i < np; i++) {
		plan_desc[c][i] = plan_desc_of(&pa[i]);
		list[c][k++] = &plan_desc[c][i];
	}
	list[c][k++] = &cb_desc_nccl[c];
	list[c][k++] = &cb_desc_mpi[c];
	for (int p = 0; p < CB_NCCL_NPATHS; p++) /* nccl.sym, nccl.ce */
		list[c][k++] = &cb_desc_nccl_path[p][c];
	for (size_t i = 0; i < COUNT(extra); i++)
		if (extra[i]->coll == c)
			list[c][k++] = extra[i];
	nlist[c] = k, made_np[c] = np;
}

const struct cb_algo_desc *const *cb_catalog_coll_algos(enum cb_coll c, size_t *n)
{
	if ((unsigned)c >= CB_COLL_COUNT) {
		*n = 0;
		return NULL;
	}
	make_list(c);
	*n = nlist[c];
	return list[c];
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
	for (size_t i = 0; i < COUNT(extra); i++)
		if (extra[i]->moves && strcmp(extra[i]->moves, name) == 0)
			return 1;
	return strcmp(cb_desc_mpi[0].moves, name) == 0;
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

const char *cb_catalog_one_sided(const char *backend)
{
	const struct cb_backend_desc *be = cb_catalog_backend(backend);
	int one = be ? one_sided_of(be) : -1;

	return one >= 0 ? transports[one].name : NULL;
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
	const struct cb_algo_desc *a = cb_catalog_coll_algo(CB_COLL_ALLREDUCE, algo); /* the files
										  * before it ran nothing else */

	return a && a->moves ? a->moves : cb_catalog_one_sided(backend);
}
