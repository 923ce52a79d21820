/* cb_catalog: data about collbench's algorithms, backends and transports,
 * apart from the code that runs them (docs/architecture.md: "data about the
 * runtime is not the runtime").
 *
 * The catalogue is the one list of their names and of what each needs,
 * offers and records: the runtime's ops tables (collectives/runtime/cb_backend.h,
 * collectives/runtime/cb_algo.h) point at these descriptors, and the tools that
 * only read results (compare, history, model) validate rows and price runs
 * with them alone. It links neither MPI nor CUDA: an algorithm or backend
 * that a binary does not build (nccl without NCCL, cuda without the toolkit)
 * is here all the same.
 *
 * Transports: where bytes move between ranks, the second axis beside where
 * buffers live (the backend):
 *   shm  one-sided, host buffers: a rank loads and stores into its peers'
 *        MPI-3 shared-memory windows and waits on their progress counters;
 *        reaches the ranks of one host;
 *   ipc  one-sided, CUDA buffers: the same through CUDA IPC mappings, work
 *        ordered on the ranks' streams; one host;
 *   p2p  two-sided: the sender hands a span of its buffer to a send, the
 *        receiver receives it into its own (MPI point-to-point for host
 *        buffers, NCCL ncclSend/ncclRecv for GPU buffers); any hosts.
 * ps and ring run the same schedule (collectives/plans/cb_pattern.h) over either kind.
 * The library algorithms (mpi, nccl) move their bytes inside their library
 * and copy moves none between ranks: their rows record "library" and
 * "local" instead (cb_algo_desc.moves). A backend offers a transport when it
 * has the capabilities the transport needs; --transport auto takes the
 * backend's one-sided transport when every rank shares a host, p2p
 * otherwise. */
#ifndef CB_CATALOG_H
#define CB_CATALOG_H

#include <stddef.h>

#include "cb_coll.h"

struct cb_plan_algo;

/* Capabilities of a backend (cb_backend_desc.caps), needs of an algorithm's
 * code (cb_algo_desc.needs) and of a transport. */
#define CB_CAP_PEER_MEMORY 1u /* a rank loads and stores peers' buffers directly
			       * (shared-memory windows, CUDA IPC): one host */
#define CB_CAP_HOST_MEMORY 2u /* buffers are host memory: CPU libraries (MPI)
			       * take them as they are */
#define CB_CAP_CUDA_MEMORY 4u /* buffers are CUDA device memory; work is
			       * ordered on the rank's stream */
#define CB_CAP_TWO_SIDED 8u   /* a two-sided transport moves its buffers between
			       * ranks on any hosts */

/* The backends' ring slices (cb_backend_desc.pipeline_bytes), which the cost
 * model's presets name too:
 * host: a slice written by one rank is still in the last-level cache when
 *   its neighbour reads it; the per-slice flag round trip (~100 ns) is noise;
 * cuda: each slice costs a kernel launch and two stream memory operations (a
 *   few us): slices of 16 MiB keep that under a few percent at HBM speed. */
#define CB_HOST_PIPELINE_BYTES ((size_t)256 << 10)
#define CB_CUDA_PIPELINE_BYTES ((size_t)16 << 20)

/* What the receive buffer holds after an algorithm ran. */
enum cb_result {
	CB_RESULT_ALLREDUCE, /* its collective's result (cb_coll.h; allreduce: the
			      * allreduce of every rank's send buffer) */
	CB_RESULT_COPY,      /* this rank's own send buffer (the copy roofline) */
};

struct cb_algo_desc {
	const char *name;        /* -a's name, the rows' algo column */
	const char *description; /* one line for --help */
	enum cb_result result;
	unsigned needs;          /* CB_CAP_* its (one-sided, or library) code needs */
	unsigned two_sided_needs; /* CB_CAP_* of its two-sided code; 0: it has none */
	/* The transport column of its rows: NULL for the algorithms that move
	 * bytes over the run's transport (ps, ring: shm, ipc or p2p), else what
	 * moves them: "library" (mpi, nccl), "local" (copy). */
	const char *moves;
	int traffic_measured;    /* 1 if its bytes go through backend counters */
	int time_measured;       /* 1 if busy and wait time (collectives/runtime/cb_backend.h,
				  * struct cb_time_acct) cover it; 0 for a library */
	const struct cb_plan_algo *plan; /* its plan (collectives/plans/cb_plan_lib.h); NULL for
					  * the library and local algorithms */
	int on_request;          /* 1: left out of the default set (no -a);
				  * runs when named (mpi.*) */
	int library_ranks;       /* mpi.*: the only world size it runs at (two_proc:
				  * 2); 0: any */
	int library_algo;        /* mpi.*: the number Open MPI's
				  * coll_tuned_allreduce_algorithm takes for it
				  * (CB_OMPI_FORCED); 0: the library's choice */
	enum cb_coll coll;       /* the collective it runs (allreduce: 0) */
	/* A library algorithm's schedule, for the cost model: the plan
	 * algorithm of its collective that moves the same bytes in the same
	 * rounds, unsliced ("ring" for mpi.ring); NULL where none does or the
	 * library decides at run time (mpi: Open MPI's fixed decision names a
	 * forced one, which the model follows). */
	const char *schedule;
	/* nccl.*: the values of NCCL_ALGO and NCCL_PROTO its communicator is
	 * created with (CB_NCCL_FORCED: "Ring", "LL128"); NULL for the others */
	const char *nccl_algo, *nccl_proto;
};

/* Open MPI's coll/tuned algorithms that a run can force, each a row of its
 * own, "mpi.<name>" of its collective: X(collective, name, number, ranks,
 * the plan of the same schedule (NULL: none; the cost model prices the row
 * as that plan), what it does), name and number as Open MPI 4.1 gives them to the collective's
 * coll_tuned_<cb_coll_desc.mpi_tuned>_algorithm (ompi_info --param coll
 * tuned --level 5, '-' written '_'; the run checks them against the
 * variable's MPI_T enum), ranks the only world size it runs at (0: any;
 * two_proc: 2, where coll/tuned refuses other sizes with
 * MPI_ERR_UNSUPPORTED_OPERATION). Allreduce's come first. Source:
 * ompi/mca/coll/tuned/coll_tuned_*_decision.c and coll_base_*.c of Open MPI
 * 4.1. */
#define CB_OMPI_FORCED(X) \
	X(allreduce, basic_linear, 1, 0, "ps", "MPI_Reduce to rank 0, then MPI_Bcast, both linear (a " \
	  "parameter server)") \
	X(allreduce, nonoverlapping, 2, 0, NULL, "MPI_Reduce to rank 0, then MPI_Bcast, each as coll/tuned " \
	  "picks it") \
	X(allreduce, recursive_doubling, 3, 0, "rd", "log2 n exchanges of the whole buffer with a partner") \
	X(allreduce, ring, 4, 0, "ring", "reduce-scatter then all-gather around a ring, in n chunks") \
	X(allreduce, segmented_ring, 5, 0, "ring", "the ring, each chunk pipelined in segments") \
	X(allreduce, rabenseifner, 6, 0, "rabenseifner", "recursive-halving reduce-scatter, recursive-doubling " \
	  "all-gather") \
	X(reduce_scatter, basic_linear, 1, 0, NULL, "MPI_Reduce to rank 0, then MPI_Scatter") \
	X(reduce_scatter, recursive_doubling, 2, 0, NULL, "log2 n exchanges, each rank keeping the blocks " \
	  "it and its partner need") \
	X(reduce_scatter, recursive_halving, 3, 0, NULL, "log2 n exchanges of half the remaining buffer") \
	X(reduce_scatter, butterfly, 4, 0, NULL, "the butterfly: recursive halving for any n") \
	X(all_gather, linear, 1, 0, NULL, "MPI_Gather to rank 0, then MPI_Bcast") \
	X(all_gather, bruck, 2, 0, NULL, "Bruck: ceil(log2 n) rounds, blocks doubling") \
	X(all_gather, recursive_doubling, 3, 0, NULL, "log2 n exchanges, the gathered part doubling") \
	X(all_gather, ring, 4, 0, NULL, "n-1 steps around a ring") \
	X(all_gather, neighbor, 5, 0, NULL, "n/2 steps of exchanges with alternating neighbours") \
	X(all_gather, two_proc, 6, 2, NULL, "one exchange (2 ranks only)") \
	X(broadcast, basic_linear, 1, 0, NULL, "the root sends to every rank") \
	X(broadcast, chain, 2, 0, NULL, "a chain from the root, in segments") \
	X(broadcast, pipeline, 3, 0, NULL, "a pipeline: a chain of one") \
	X(broadcast, split_binary_tree, 4, 0, NULL, "each half down a binary tree, then swapped") \
	X(broadcast, binary_tree, 5, 0, NULL, "a binary tree, in segments") \
	X(broadcast, binomial, 6, 0, NULL, "a binomial tree, in segments") \
	X(broadcast, knomial, 7, 0, NULL, "a k-nomial tree") \
	X(broadcast, scatter_allgather, 8, 0, NULL, "scatter, then a recursive-doubling all-gather") \
	X(broadcast, scatter_allgather_ring, 9, 0, NULL, "scatter, then a ring all-gather") \
	X(reduce, linear, 1, 0, NULL, "every rank sends to the root, which reduces") \
	X(reduce, chain, 2, 0, NULL, "a chain to the root, in segments") \
	X(reduce, pipeline, 3, 0, NULL, "a pipeline: a chain of one") \
	X(reduce, binary, 4, 0, NULL, "a binary tree, in segments") \
	X(reduce, binomial, 5, 0, NULL, "a binomial tree, in segments") \
	X(reduce, in_order_binary, 6, 0, NULL, "a binary tree that keeps the ranks' order") \
	X(reduce, rabenseifner, 7, 0, NULL, "recursive-halving reduce-scatter, then a gather") \
	X(alltoall, linear, 1, 0, NULL, "every rank posts every send and receive at once") \
	X(alltoall, pairwise, 2, 0, NULL, "n-1 steps, each rank exchanging with one peer") \
	X(alltoall, modified_bruck, 3, 0, NULL, "Bruck: ceil(log2 n) rounds of packed blocks") \
	X(alltoall, linear_sync, 4, 0, NULL, "linear, a bounded number of requests at a time") \
	X(alltoall, two_proc, 5, 2, NULL, "one exchange (2 ranks only)")

#define CB_OMPI_ENUM(coll, name, number, ranks, schedule, what) CB_OMPI_##coll##_##name,
enum { CB_OMPI_FORCED(CB_OMPI_ENUM) CB_OMPI_NFORCED };
#undef CB_OMPI_ENUM
/* allreduce's come first: cb_desc_mpi_forced[0 .. CB_OMPI_NALLREDUCE) */
#define CB_OMPI_NALLREDUCE ((int)CB_OMPI_reduce_scatter_basic_linear)

/* NCCL's algorithms and protocols that a run can force, each a row of its
 * own, "nccl.<algo>.<proto>" of its collective: X(collective, algo, proto,
 * NCCL_ALGO's name, NCCL_PROTO's name, the plan of the same schedule for
 * the cost model (NULL: none)). The pairs are those NCCL builds a kernel
 * for (NCCL 2.28, src/device/generate.py: algos_of_coll, and only Ring and
 * Tree have LL and LL128): allreduce Tree, Ring, CollNetDirect,
 * CollNetChain, NVLS, NVLSTree; all_gather and reduce_scatter Ring,
 * CollNetDirect, NVLS, PAT; broadcast and reduce Ring; alltoall none (a
 * group of ncclSend/ncclRecv, which NCCL_ALGO does not steer). NCCL's ring
 * is collbench's ring for allreduce, reduce_scatter and all_gather, and a
 * chain from (to) the root for broadcast (reduce). Whether the box and the
 * library can run one is found at run time (the row is skipped with NCCL's
 * reason where not: collectives/runtime/nccl/cb_algo_nccl_forced.c).
 * Allreduce's come first. */
#define CB_NCCL_RING(X, coll, sched) \
	X(coll, ring, ll, "Ring", "LL", sched) X(coll, ring, ll128, "Ring", "LL128", sched) \
	X(coll, ring, simple, "Ring", "Simple", sched)
#define CB_NCCL_FORCED(X) \
	CB_NCCL_RING(X, allreduce, "ring") \
	X(allreduce, tree, ll, "Tree", "LL", NULL) X(allreduce, tree, ll128, "Tree", "LL128", NULL) \
	X(allreduce, tree, simple, "Tree", "Simple", NULL) \
	X(allreduce, nvls, simple, "NVLS", "Simple", NULL) \
	X(allreduce, nvlstree, simple, "NVLSTree", "Simple", NULL) \
	X(allreduce, collnetdirect, simple, "CollNetDirect", "Simple", NULL) \
	X(allreduce, collnetchain, simple, "CollNetChain", "Simple", NULL) \
	CB_NCCL_RING(X, reduce_scatter, "ring") \
	X(reduce_scatter, nvls, simple, "NVLS", "Simple", NULL) \
	X(reduce_scatter, collnetdirect, simple, "CollNetDirect", "Simple", NULL) \
	X(reduce_scatter, pat, simple, "PAT", "Simple", NULL) \
	CB_NCCL_RING(X, all_gather, "ring") \
	X(all_gather, nvls, simple, "NVLS", "Simple", NULL) \
	X(all_gather, collnetdirect, simple, "CollNetDirect", "Simple", NULL) \
	X(all_gather, pat, simple, "PAT", "Simple", NULL) \
	CB_NCCL_RING(X, broadcast, "chain") \
	CB_NCCL_RING(X, reduce, "chain")

#define CB_NCCL_ENUM(coll, algo, proto, a, p, sched) CB_NCCL_##coll##_##algo##_##proto,
enum { CB_NCCL_FORCED(CB_NCCL_ENUM) CB_NCCL_NFORCED };
#undef CB_NCCL_ENUM

struct cb_backend_desc {
	const char *name;        /* -B's name, the rows' backend column */
	unsigned caps;           /* CB_CAP_* */
	/* the ring's pipelining unit when --slicebytes is not given (bytes):
	 * small on the host (cache), large on a GPU (launch and flag costs) */
	size_t pipeline_bytes;
	/* NULL when a host clock around copies, reduces and waits times the
	 * work (busy and wait time); else why it does not, for the metadata */
	const char *time_unmeasured;
};

/* --transport's values, in the option table's order. */
enum cb_transport_id {
	CB_TRANSPORT_AUTO,
	CB_TRANSPORT_SHM,
	CB_TRANSPORT_IPC,
	CB_TRANSPORT_P2P,
	CB_TRANSPORT_COUNT
};

struct cb_transport {
	const char *name;        /* "auto", "shm", "ipc", "p2p": the rows' transport column */
	unsigned needs;          /* CB_CAP_* a backend must provide; 0 for auto */
	int one_sided;           /* 1: shm, ipc */
	const char *description; /* one line for --help */
};

/* Collective c's algorithms, in display order: its plans (built-in, then
 * added), then nccl and mpi (the library's call: ncclAllReduce,
 * MPI_Allgather, ...), then those that name c among the forced mpi.* and
 * nccl.*, and copy (allreduce's); *n receives the count, 0 past CB_COLL_COUNT. */
const struct cb_algo_desc *const *cb_catalog_coll_algos(enum cb_coll c, size_t *n);
/* Collective c's algorithm of that name; NULL if unknown. */
const struct cb_algo_desc *cb_catalog_coll_algo(enum cb_coll c, const char *name);
/* The backends, in display order; *n receives the count. */
const struct cb_backend_desc *const *cb_catalog_backends(size_t *n);
/* A backend by name; NULL if unknown. */
const struct cb_backend_desc *cb_catalog_backend(const char *name);

/* The descriptors the runtime's fixed ops tables point at (a plan
 * algorithm's is made from its line in collectives/plans/cb_plan_lib.h):
 * nccl and mpi of each collective, by CB_COLL_* (their descriptions are
 * written by cb_catalog_coll_algos: read them through it); Open MPI's forced
 * algorithms (CB_OMPI_FORCED order); copy; NCCL's forced algorithms and
 * protocols (CB_NCCL_FORCED order). */
extern struct cb_algo_desc cb_desc_nccl[CB_COLL_COUNT], cb_desc_mpi[CB_COLL_COUNT];
extern const struct cb_algo_desc cb_desc_mpi_forced[CB_OMPI_NFORCED], cb_desc_copy;
extern const struct cb_algo_desc cb_desc_nccl_forced[CB_NCCL_NFORCED];
extern const struct cb_backend_desc cb_desc_host, cb_desc_cuda;

/* 1 when backend be has every capability in needs (needs may be 0). */
int cb_caps_have(const struct cb_backend_desc *be, unsigned needs);

/* 1 when backend be can run some code of algorithm a (one-sided, library or
 * two-sided), else 0. */
int cb_algo_desc_runs_on(const struct cb_algo_desc *a, const struct cb_backend_desc *be);

/* The name of the one-sided transport of the backend named backend (the
 * first of the transport table it has the capabilities for); NULL when it
 * has none or the name is unknown. */
const char *cb_catalog_one_sided(const char *backend);

/* Open MPI 4.1.4's allreduce algorithm for n ranks and count elements of
 * bytes per rank in all, numbered as coll_tuned_allreduce_algorithm numbers
 * it (CB_OMPI_FORCED): its fixed decision, then its own fall-backs
 * (cb_catalog_ompi.c says where each comes from). */
int cb_catalog_ompi_choice(int n, size_t bytes, size_t count);

/* Open MPI's forced allreduce algorithm number k (CB_OMPI_FORCED's number),
 * NULL when none has it. */
const struct cb_algo_desc *cb_catalog_ompi_forced(int k);

/* The transport of id (AUTO included), or NULL past CB_TRANSPORT_COUNT. */
const struct cb_transport *cb_transport_get(int id);

/* The transport id of a row's transport name (shm, ipc, p2p), or -1 (an
 * algorithm's own "library", "local", or a name nobody knows). */
int cb_transport_id_of(const char *name);

/* 1 when name is a transport some row may record: one of the transport
 * table's (shm, ipc, p2p) or an algorithm's own (library, local). */
int cb_transport_known(const char *name);

/* NULL when a run of backend be can use transport id (AUTO always can);
 * else why not, in one sentence for a --transport error, written to buf
 * ("--transport shm is not a transport of the cuda backend ..."). Pure:
 * decided from the tables, the same on every rank. */
const char *cb_transport_refuses(int id, const struct cb_backend_desc *be, char *buf,
				 size_t len);

/* The transport a run uses: requested itself (cb_transport_refuses passed),
 * or for AUTO the backend's one-sided transport when single_node (every rank
 * on one host), else p2p. The same on every rank. */
enum cb_transport_id cb_transport_resolve(int requested, const struct cb_backend_desc *be,
					  int single_node);

/* The transport column of a row of algorithm algo on backend backend in a
 * run on one host with the default --transport: the algorithm's own
 * (cb_algo_desc.moves: "library", "local"), else the backend's one-sided
 * transport ("shm", "ipc"); NULL for a name neither table knows. For
 * reading files written before the column existed. Pure. */
const char *cb_transport_one_host(const char *backend, const char *algo);

#endif
