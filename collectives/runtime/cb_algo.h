/* cb_algo: the allreduce algorithms behind one small ops table.
 *
 * The harness selects algorithms by name from a static registry and calls
 * them without knowing which one runs. An algorithm is set up once per run
 * (scratch buffers, progress flags: the costly, collective part) and run()
 * only moves data. Algorithms never print results and never exit.
 *
 * Each ops table points at the algorithm's descriptor in the catalogue
 * (collectives/catalog/cb_catalog.h: its name, result, needs and what moves its bytes),
 * the data the tools that only read results use without this code.
 * Which backends an algorithm runs on follows from what it needs and what a
 * backend provides (CB_CAP_*): the generic ones (ps, ring)
 * come twice, one-sided (they need peers' memory, and run on every backend
 * that maps it) and two-sided (`two_sided`: they need a two-sided transport,
 * cb_p2p.h), and the run's transport (cb_catalog.h) picks one; a library
 * algorithm needs the kind of memory its library takes (mpi: host memory,
 * nccl: CUDA memory) and probes the rest in supports(), as NCCL's transports
 * do with canConnect. An algorithm that is not built (nccl without NCCL) is
 * in the registry as a stub whose supports() says why.
 */
#ifndef CB_ALGO_H
#define CB_ALGO_H

#include <stddef.h>

#include "cb_backend.h"
#include "cb_dtype.h"
#include "cb_status.h"

struct cb_setup_args {
	size_t max_bytes; /* largest message run() will be given, per rank */
	int root;         /* ps root (world rank, -r) */
	size_t slice_bytes; /* ring pipelining unit; 0 = the algorithm's default */
	int servers;      /* ps: servers (--servers; 0: 1) */
	const struct cb_algo_desc *algo; /* the algorithm being set up */
	const int *rank_host; /* [world size] each rank's host (0 ..), or NULL: one host */
};

/* One call of a collective. send and recv are buffers from
 * be->ops->buf_alloc; in-place means send == recv. count: the collective's
 * (cb_coll.h: allreduce's elements per rank; reduce_scatter's and
 * all_gather's n blocks), elements of dt from byte offset 0 of each buffer;
 * in place the smaller range lies at the collective's in-place offset
 * (cb_coll_offsets). */
struct cb_run_args {
	struct cb_buf *send;
	struct cb_buf *recv;
	size_t count;
	enum cb_dtype dt;
	enum cb_op op;
	enum cb_coll coll;  /* the algorithm's collective (desc->coll) */
	int root;           /* the rooted collectives' root (-r) */
};

struct cb_algo_ops {
	/* name, result, needs, what moves its bytes, what is measured
	 * (collectives/catalog/cb_catalog.h) */
	const struct cb_algo_desc *desc;
	/* 1 for the two-sided code of an algorithm (it needs
	 * desc->two_sided_needs), 0 for its one-sided or library code (it
	 * needs desc->needs) */
	int two_sided_code;
	/* NULL when this (backend, dtype, op, in-place) can run, else a short
	 * reason ("MPI has no avg op"), identical on every rank. */
	const char *(*supports)(const struct cb_backend *be, enum cb_dtype dt, enum cb_op op,
				int in_place);
	/* Collective over the node. On error *state is NULL and nothing leaks. */
	enum cb_status (*setup)(struct cb_backend *be, const struct cb_setup_args *sa,
				void **state);
	/* NULL, or called before a row's warm-up with the row's arguments (the
	 * buffers, count, dtype, op): what run() needs for them, computed once
	 * (a plan's schedule). Local. Errors: CB_ERR_ARG, CB_ERR_NOMEM. */
	enum cb_status (*prepare)(void *state, const struct cb_run_args *args);
	/* Collective. Errors: the backend's (CB_ERR_TIMEOUT, CB_ERR_PEER, ...),
	 * after which peers may be stuck: the caller must abort the job. */
	enum cb_status (*run)(void *state, const struct cb_run_args *args);
	void (*teardown)(void *state); /* collective; NULL state is a no-op */
	/* NULL, or writes the library this algorithm calls and its version
	 * ("NCCL 2.28.3") for the run header and metadata. Local, no MPI. */
	void (*describe)(char *buf, size_t len);
	/* The one-sided ps and ring: the same algorithm over the two-sided
	 * transport, which runs instead when the run's transport is p2p (the
	 * registry lists the one-sided entry only). NULL for the others. */
	const struct cb_algo_ops *two_sided;
	/* NULL, or the buffers its rows run on instead of the harness's, for
	 * memory a library must allocate itself (nccl.sym: ncclMemAlloc,
	 * registered as NCCL windows): its send (recv 0) or receive (recv 1)
	 * buffer, this rank's part sa->max_bytes or more, peer[] set for this
	 * rank only; in place the receive one alone. Local. */
	struct cb_buf *(*own_buf)(void *state, int recv);
};

/* The capabilities a's code needs (CB_CAP_*). */
unsigned cb_algo_needs(const struct cb_algo_ops *a);

/* 1 when backend be provides everything algorithm a (or its two-sided
 * variant) needs, else 0. */
int cb_algo_runs_on(const struct cb_algo_ops *a, const struct cb_backend_ops *be);

/* What runs a's rows over a transport that is one-sided or not: a itself, or
 * for a two-sided transport a->two_sided where there is one. */
const struct cb_algo_ops *cb_algo_over(const struct cb_algo_ops *a, int one_sided);

/* Collective c's registry, in the catalogue's order (its plans, then nccl,
 * mpi and the others of c: cb_catalog_coll_algos); *n receives its length
 * (0 past CB_COLL_COUNT). And an entry of it by name (NULL if unknown). */
const struct cb_algo_ops *const *cb_algo_registry_coll(enum cb_coll c, size_t *n);
const struct cb_algo_ops *cb_algo_find_coll(enum cb_coll c, const char *name);


#endif
