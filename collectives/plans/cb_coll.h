/* cb_coll: the collectives, as result specifications. A collective says
 * how large each rank's send and receive buffers are, what the receive
 * buffers hold afterwards, where the send buffer sits in place, and its
 * busbw factor; an algorithm is a plan for one collective (cb_plan_lib.h).
 *
 * Counts follow nccl-tests (doc/PERFORMANCE.md; its *GetCollByteCount):
 * `count` is the elements of the larger buffer of a rank.
 *   allreduce       send count, recv count: the reduction of every send
 *   reduce_scatter  send count (n blocks), recv count/n: rank r's is block r
 *                   of the reduction (elements [r count/n, (r+1) count/n))
 *   all_gather      send count/n, recv count (n blocks): block q is rank
 *                   q's send
 *   broadcast       send count, recv count: the root's send
 *   reduce          send count, recv count: the root's is the reduction;
 *                   the other ranks' receive buffers are not results
 *   alltoall        send count (n blocks), recv count (n blocks): rank r's
 *                   block q is rank q's send block r (nccl-tests'
 *                   alltoall.cu: each rank sends count/n to each peer)
 * reduce_scatter, all_gather and alltoall need count a multiple of n (the
 * harness rounds down to one, as nccl-tests does). In place (nccl-tests'
 * in-place offsets): the smaller buffer is the block of the rank inside the
 * larger (all_gather: send = recv + r count/n; reduce_scatter: recv = send +
 * r count/n); for the others send == recv (alltoall: MPI_IN_PLACE is
 * allowed for MPI_Alltoall since MPI 2.2).
 *
 * busbw = algbw x factor, algbw = count x element size / time (nccl-tests
 * doc/PERFORMANCE.md): allreduce 2(n-1)/n; reduce_scatter, all_gather and
 * alltoall (n-1)/n; broadcast and reduce 1, whatever n (nccl-tests' BroadcastGetBw,
 * ReduceGetBw); the others 0 for n = 1.
 *
 * Inputs and references are the checker's (cb_check.h): a rank's send
 * holds its inputs at global indices [0, send count), so the inputs of a
 * smaller count are a prefix of a larger one's (the harness uploads them
 * once per dtype); every reference is made of the checker's inputs and its
 * allreduce reference (reduce_scatter's block r: the allreduce reference at
 * [r B, (r+1) B); all_gather's block q: rank q's inputs at [0, B);
 * alltoall's block q: rank q's inputs at [r B, (r+1) B)). The
 * collectives that do not reduce (all_gather, broadcast, alltoall) ignore the op:
 * their inputs are the checker's for sum, and their rows say op "none" (as
 * nccl-tests'). Pure: no MPI, no CUDA. */
#ifndef CB_COLL_H
#define CB_COLL_H

#include <stddef.h>

#include "cb_dtype.h"

/* The collectives, in display order: X(ID, name), the enum CB_COLL_<ID>
 * and the rows' name, whose description is cb_coll_<name> (its own file,
 * collectives/plans/cb_coll_<name>.c). */
#define CB_COLLECTIVES(X) \
	X(ALLREDUCE, allreduce) \
	X(REDUCE_SCATTER, reduce_scatter) \
	X(ALL_GATHER, all_gather) \
	X(BROADCAST, broadcast) \
	X(REDUCE, reduce) \
	X(ALLTOALL, alltoall) \
	/* the end of CB_COLLECTIVES: a new collective is one line above this one */

#define CB_COLL_ENUM(id, name) CB_COLL_##id,
enum cb_coll { CB_COLLECTIVES(CB_COLL_ENUM) CB_COLL_COUNT };
#undef CB_COLL_ENUM
/* cb_coll_of_<name>: CB_COLL_<ID> by the lower-case name (for tables keyed
 * by it, cb_plan_lib.h's) */
#define CB_COLL_OF(id, name) cb_coll_of_##name = CB_COLL_##id,
enum { CB_COLLECTIVES(CB_COLL_OF) };
#undef CB_COLL_OF

/* What rank r's receive buffer holds after the collective, elements
 * [first, first + m) of it, for count on n ranks and root (the checker's
 * inputs and references: cb_check.h; the cb_coll_expect_* below). */
typedef void (*cb_coll_expect_fn)(void *buf, size_t first, size_t m, size_t count,
				  enum cb_dtype dt, enum cb_op op, int r, int root, int n);
/* The closed-form traffic of the collective's plan algo (elements) of rank
 * r: 1 and *tx, *rx set, or 0 where algo has none here. */
typedef int (*cb_coll_traffic_fn)(const char *algo, int n, int root, int r, size_t count,
				  size_t *tx, size_t *rx);

/* A collective's description: one file each, collectives/plans/
 * cb_coll_<name>.c, defining cb_coll_desc_<name>. */
struct cb_coll_desc {
	const char *name;      /* the rows' collective column: "allreduce", ... */
	const char *perf_name; /* nccl-tests' binary: "all_reduce_perf", ... */
	int reduces;           /* 1: the result is a reduction (an op applies) */
	int rooted;            /* 1: -r's root matters (broadcast, reduce) */
	int split;             /* 1: count is n blocks (reduce_scatter, all_gather,
				* alltoall) */
	int same_result;       /* 1: every rank's receive buffer ends the same */
	/* 1: the send (all_gather) or receive (reduce_scatter) buffer is the
	 * rank's block, count/n, which in place sits at r count/n inside the
	 * other; 0: count */
	int send_is_block, recv_is_block;
	int root_only_result;  /* 1: only the root's receive buffer is a result */
	/* busbw = algbw x this (nccl-tests doc/PERFORMANCE.md) */
	double (*busbw_factor)(int n);
	cb_coll_expect_fn expect;
	cb_coll_traffic_fn traffic; /* NULL: no closed form here */
	/* the library calls of its mpi and nccl rows, for --help (NULL: none;
	 * collectives/runtime/{mpi,nccl} hold the calls) */
	const char *mpi_call, *nccl_call;
	/* Open MPI's coll/tuned name of the call, whose algorithm
	 * coll_tuned_<mpi_tuned>_algorithm forces (the mpi.* rows); NULL: none */
	const char *mpi_tuned;
	/* the plan of the schedule NCCL's call most often runs, for the cost
	 * model (cb_algo_desc.schedule of its nccl row); NULL: none */
	const char *nccl_schedule;
};

#define CB_COLL_DECLARE(id, name) extern const struct cb_coll_desc cb_coll_desc_##name;
CB_COLLECTIVES(CB_COLL_DECLARE)
#undef CB_COLL_DECLARE

/* The expectations the descriptions are made of: the allreduce reference
 * from rank r's reference_first on (a reduction); rank `rank`'s inputs
 * from first (a copy of one rank's buffer); and block by block, block q
 * being rank q's inputs from at + the offset in the block (all_gather: at
 * 0; alltoall: at r count/n). */
void cb_coll_expect_reduced(const struct cb_coll_desc *d, void *buf, size_t first, size_t m,
			    size_t count, enum cb_dtype dt, enum cb_op op, int r, int n);
void cb_coll_expect_input(void *buf, size_t first, size_t m, enum cb_dtype dt, int rank, int n);
void cb_coll_expect_blocks(void *buf, size_t first, size_t m, size_t count, enum cb_dtype dt,
			   size_t at, int n);

/* The descriptor of c; NULL past CB_COLL_COUNT. */
const struct cb_coll_desc *cb_coll_get(enum cb_coll c);
/* The collective named name (cb_coll_desc.name), or -1. */
int cb_coll_find(const char *name);
/* Writes every collective's name to buf, ", " between them (truncated to
 * len, always terminated), for messages that list them. */
void cb_coll_names(char *buf, size_t len);

/* Elements of a rank's send and receive buffers for count on n ranks
 * (count a multiple of n where the collective is split). */
size_t cb_coll_send_count(enum cb_coll c, int n, size_t count);
size_t cb_coll_recv_count(enum cb_coll c, int n, size_t count);

/* In place, the element offset of rank r's smaller buffer inside its larger
 * one (0 where they are one buffer); *send_inside receives 1 when the send
 * buffer is the one inside (all_gather), 0 when the receive buffer is
 * (reduce_scatter, and the equal-sized ones). */
size_t cb_coll_inplace_offset(enum cb_coll c, int n, size_t count, int r, int *send_inside);

/* count as the collective takes it: a split one's rounded down to a
 * multiple of n (nccl-tests does the same), the others' as it is. */
size_t cb_coll_count(enum cb_coll c, int n, size_t count);

/* Where rank r's send and receive ranges start (elements) in the buffers a
 * run hands over: out of place both 0; in place (one buffer, the larger's
 * size) the inside one's cb_coll_inplace_offset. */
void cb_coll_offsets(enum cb_coll c, int n, size_t count, int r, int in_place, size_t *send_off,
		     size_t *recv_off);

/* The busbw factor of c on n ranks (above; nccl-tests doc/PERFORMANCE.md). */
double cb_coll_busbw_factor(enum cb_coll c, int n);

/* 1 when rank r's receive buffer holds a result of c (every rank's, but
 * reduce's non-roots). */
int cb_coll_has_result(enum cb_coll c, int r, int root);

/* Writes rank r's inputs (its send buffer, cb_coll_send_count elements) to
 * buf. Never fails. */
void cb_coll_fill_input(enum cb_coll c, void *buf, size_t count, enum cb_dtype dt,
			enum cb_op op, int r, int n);

/* Writes what rank r's receive buffer holds after c (cb_coll_recv_count
 * elements) to buf, for root; nothing for a rank cb_coll_has_result calls
 * resultless. Costs O(count n). Never fails. */
void cb_coll_fill_expected(enum cb_coll c, void *buf, size_t count, enum cb_dtype dt,
			   enum cb_op op, int r, int root, int n);

/* cb_coll_fill_expected's elements [first, first + m) of the receive
 * buffer only (a piece of it, for a check through bounded staging). */
void cb_coll_fill_expected_at(enum cb_coll c, void *buf, size_t first, size_t m, size_t count,
			      enum cb_dtype dt, enum cb_op op, int r, int root, int n);

/* For the collectives that reduce: the global index of the allreduce
 * reference (cb_fill_reference) that rank r's receive element 0 holds
 * (reduce_scatter: r count/n; else 0). */
size_t cb_coll_reference_first(enum cb_coll c, int n, size_t count, int r);

#endif
