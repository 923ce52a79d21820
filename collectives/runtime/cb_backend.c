/* Backend registry, communicator set-up and the traffic counters shared by
 * all backends. */
#define _GNU_SOURCE
#include "cb_backend.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cb_world.h"

/* cb_backend_cuda_ops comes from cb_cuda.c, or from
 * cb_cuda_stub.c where CMake found no CUDA toolkit */
extern const struct cb_backend_ops cb_backend_host_ops;
extern const struct cb_backend_ops cb_backend_cuda_ops;

static const struct cb_backend_ops *const backends[] = {
	&cb_backend_host_ops,
	&cb_backend_cuda_ops,
};

const struct cb_backend_ops *const *cb_backend_registry(size_t *n)
{
	*n = sizeof(backends) / sizeof(backends[0]);
	return backends;
}

const struct cb_backend_ops *cb_backend_find(const char *name)
{
	for (size_t i = 0; i < sizeof(backends) / sizeof(backends[0]); i++)
		if (strcmp(backends[i]->desc->name, name) == 0)
			return backends[i];
	return NULL;
}

static volatile int private_abort_flag;

/* The node and world ranks of be, the world rank of each node rank, and the
 * traffic counters (by world rank). */
static enum cb_status rank_spaces(struct cb_backend *be)
{
	enum cb_status st;

	MPI_Comm_rank(be->world, &be->world_rank);
	MPI_Comm_size(be->world, &be->world_size);
	MPI_Comm_rank(be->node, &be->node_rank);
	MPI_Comm_size(be->node, &be->node_size);
	be->single_node = be->node_size == be->world_size;
	be->world_of_node = calloc((size_t)be->node_size, sizeof(*be->world_of_node));
	be->tx = calloc((size_t)be->world_size, sizeof(*be->tx));
	be->rx = calloc((size_t)be->world_size, sizeof(*be->rx));
	if (!be->world_of_node || !be->tx || !be->rx)
		return CB_ERR_NOMEM;
	st = CB_MPI(MPI_Allgather(&be->world_rank, 1, MPI_INT, be->world_of_node, 1, MPI_INT,
				  be->node));
	return st;
}

static void free_rank_spaces(struct cb_backend *be)
{
	free(be->world_of_node);
	free(be->tx);
	free(be->rx);
}

enum cb_status cb_backend_init(struct cb_backend *be, const struct cb_backend_ops *ops,
			       MPI_Comm world, volatile int *abort_flag)
{
	enum cb_status st;
	int wrank;

	memset(be, 0, sizeof(*be));
	if (ops->missing) {
		cb_log("backend %s: %s", ops->desc->name, ops->missing);
		return CB_ERR_UNSUPPORTED;
	}
	be->ops = ops;
	be->world = MPI_COMM_NULL;
	be->node = MPI_COMM_NULL;
	be->abort_flag = abort_flag ? abort_flag : &private_abort_flag;
	st = CB_MPI(MPI_Comm_dup(world, &be->world));
	if (st != CB_OK)
		goto out_zero;
	MPI_Comm_rank(be->world, &wrank);
	st = CB_MPI(MPI_Comm_split_type(be->world, MPI_COMM_TYPE_SHARED, wrank,
					MPI_INFO_NULL, &be->node));
	if (st != CB_OK)
		goto out_free_world;
	st = rank_spaces(be);
	if (st != CB_OK)
		goto out_free_counters;
	cb_backend_set_wait(be, CB_WAIT_FUTEX);
	cb_backend_set_acct(be, 1);
	st = ops->init(be);
	if (st != CB_OK)
		goto out_free_counters;
	return CB_OK;

out_free_counters:
	free_rank_spaces(be);
	MPI_Comm_free(&be->node);
out_free_world:
	MPI_Comm_free(&be->world);
out_zero:
	memset(be, 0, sizeof(*be));
	return st;
}

void cb_backend_fini(struct cb_backend *be)
{
	if (!be->ops)
		return;
	be->ops->fini(be);
	free_rank_spaces(be);
	MPI_Comm_free(&be->node);
	MPI_Comm_free(&be->world);
	memset(be, 0, sizeof(*be));
}

void cb_backend_set_wait(struct cb_backend *be, enum cb_wait_mode mode)
{
	cb_wait_configure(&be->wait, mode, be->node_size, sysconf(_SC_NPROCESSORS_ONLN));
}

/* Adds `bytes` moved from node rank src_rank's memory into node rank
 * dst_rank's to the counters (by world rank); nothing when the two are the
 * same rank. */
static void traffic_add(struct cb_backend *be, int dst_rank, int src_rank, size_t bytes)
{
	if (dst_rank == src_rank)
		return;
	be->tx[be->world_of_node[src_rank]] += bytes;
	be->rx[be->world_of_node[dst_rank]] += bytes;
}

void cb_backend_set_acct(struct cb_backend *be, int level)
{
	be->acct.on = level > 0 && !be->ops->desc->time_unmeasured;
	be->acct.spans = be->acct.on && level > 1;
}

static uint64_t clock_ns(clockid_t id)
{
	struct timespec t;

	clock_gettime(id, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

uint64_t cb_acct_now(const struct cb_backend *be)
{
	return be->acct.on ? clock_ns(CLOCK_MONOTONIC) : 0;
}

void cb_acct_wait(struct cb_backend *be, uint64_t t0)
{
	if (t0)
		be->acct.wait_ns += clock_ns(CLOCK_MONOTONIC) - t0;
}

struct cb_acct_span cb_acct_begin(const struct cb_backend *be)
{
	struct cb_acct_span t = { 0, 0 };

	/* the wall span holds the CPU clock's system calls: a rank descheduled
	 * at their return is in busy_ns, not lost between spans */
	if (be->acct.spans) {
		t.wall = clock_ns(CLOCK_MONOTONIC);
		t.cpu = clock_ns(CLOCK_THREAD_CPUTIME_ID);
	}
	return t;
}

void cb_acct_busy(struct cb_backend *be, struct cb_acct_span t0)
{
	if (!t0.wall)
		return;
	be->acct.busy_cpu_ns += clock_ns(CLOCK_THREAD_CPUTIME_ID) - t0.cpu;
	be->acct.busy_ns += clock_ns(CLOCK_MONOTONIC) - t0.wall;
}

enum cb_status cb_be_wait(struct cb_backend *be, struct cb_flags *flags, int peer,
			  uint64_t value)
{
	uint64_t t0;
	enum cb_status st;

	if (!be->acct.on)
		return be->ops->wait(be, flags, peer, value);
	/* a flag already there is no wait: no clock */
	if (be->ops->ready && be->ops->ready(be, flags, peer, value))
		return CB_OK;
	t0 = cb_acct_now(be);
	st = be->ops->wait(be, flags, peer, value);
	cb_acct_wait(be, t0);
	return st;
}

enum cb_status cb_be_finalize(struct cb_backend *be, struct cb_ref buf, size_t count,
			      enum cb_dtype dt, enum cb_op op)
{
	struct cb_acct_span t0 = cb_acct_begin(be);
	enum cb_status st = be->ops->finalize(be, buf, count, dt, op);

	cb_acct_busy(be, t0);
	return st;
}

enum cb_status cb_be_copy(struct cb_backend *be, struct cb_ref dst, struct cb_ref src,
			  size_t bytes)
{
	enum cb_status st;
	struct cb_acct_span t0;

	if (bytes == 0)
		return CB_OK;
	t0 = cb_acct_begin(be);
	st = be->ops->copy(be, dst, src, bytes);
	cb_acct_busy(be, t0);
	if (st == CB_OK)
		traffic_add(be, dst.rank, src.rank, bytes);
	return st;
}

enum cb_status cb_be_reduce(struct cb_backend *be, struct cb_ref dst, struct cb_ref a,
			    struct cb_ref b, size_t count, enum cb_dtype dt, enum cb_op op)
{
	size_t bytes = count * cb_dtype_size(dt);
	enum cb_status st;

	struct cb_acct_span t0;

	if (count == 0)
		return CB_OK;
	t0 = cb_acct_begin(be);
	st = be->ops->reduce(be, dst, a, b, count, dt, op);
	cb_acct_busy(be, t0);
	if (st == CB_OK) {
		traffic_add(be, dst.rank, a.rank, bytes);
		traffic_add(be, dst.rank, b.rank, bytes);
	}
	return st;
}

void cb_traffic_reset(struct cb_backend *be)
{
	memset(be->tx, 0, (size_t)be->world_size * sizeof(*be->tx));
	memset(be->rx, 0, (size_t)be->world_size * sizeof(*be->rx));
}

enum cb_status cb_traffic_collect(struct cb_backend *be, uint64_t *tx, uint64_t *rx)
{
	enum cb_status st;

	st = cb_world_allreduce(be, be->tx, tx, be->world_size, MPI_UINT64_T, MPI_SUM);
	if (st != CB_OK)
		return st;
	return cb_world_allreduce(be, be->rx, rx, be->world_size, MPI_UINT64_T, MPI_SUM);
}

int cb_backend_node_rank_of(const struct cb_backend *be, int w)
{
	for (int r = 0; r < be->node_size; r++)
		if (be->world_of_node[r] == w)
			return r;
	return -1;
}
