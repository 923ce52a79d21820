/* mpi of every collective: the MPI library's own call on the world
 * communicator, the baseline beside the plans (descriptors: cb_desc_mpi,
 * collectives/catalog/cb_catalog.c). Counts and places as cb_coll.h says
 * (nccl-tests' layout):
 *   allreduce       MPI_Allreduce (cb_mpi_allreduce: counts past INT_MAX in
 *                   pieces); in place MPI_IN_PLACE;
 *   reduce_scatter  MPI_Reduce_scatter_block(send, recv, count/n); in place
 *                   MPI leaves the block at the buffer's start, not at the
 *                   rank's offset, so in-place rows are skipped, with why;
 *   all_gather      MPI_Allgather(send, count/n, recv, count/n); in place
 *                   MPI_IN_PLACE (the block is already at its offset);
 *   broadcast       MPI_Bcast(recv, count, root), in place only: MPI_Bcast
 *                   has one buffer, and a root's copy from send to recv
 *                   before it would be timed as the library's (1.8x the
 *                   in-place time at 16 MiB, 2 ranks);
 *   reduce          MPI_Reduce(send, recv, count, root); in place the root
 *                   gives MPI_IN_PLACE;
 *   alltoall        MPI_Alltoall(send, count/n, recv, count/n); in place
 *                   MPI_IN_PLACE (allowed since MPI 2.2).
 * Counts past INT_MAX are refused but allreduce's (MPI-3 counts are int).
 * Traffic is unmeasured (it moves inside the library). */
#include <limits.h>

#include "cb_algo_common.h"
#include "cb_algo_mpi.h"

/* One call: this rank's buffers sb, rb (offset 0: MPI takes nccl-tests'
 * in-place layout as the calls above say), block = count/n elements of
 * MPI's datatype t, on comm (the world's, or an mpi.* row's own). */
struct mpi_args {
	struct cb_backend *be;
	MPI_Comm comm;
	const struct cb_run_args *a;
	char *sb, *rb;
	int block;
	MPI_Datatype t;
};

/* A collective's call. Errors: the MPI library's (CB_MPI). */
typedef enum cb_status (*mpi_call_fn)(const struct mpi_args *m);

static enum cb_status mpi_allreduce(const struct mpi_args *m)
{
	return cb_mpi_allreduce(m->be, m->comm, m->a);
}

static enum cb_status mpi_reduce_scatter(const struct mpi_args *m)
{
	return CB_MPI(MPI_Reduce_scatter_block(m->sb, m->rb, m->block, m->t, cb_mpi_op(m->a->op),
					       m->comm));
}

static enum cb_status mpi_all_gather(const struct mpi_args *m)
{
	return CB_MPI(MPI_Allgather(m->a->send == m->a->recv ? MPI_IN_PLACE : m->sb, m->block, m->t,
				    m->rb, m->block, m->t, m->comm));
}

static enum cb_status mpi_broadcast(const struct mpi_args *m)
{
	return CB_MPI(MPI_Bcast(m->rb, (int)m->a->count, m->t, m->a->root, m->comm));
}

static enum cb_status mpi_reduce(const struct mpi_args *m)
{
	int in_place = m->a->send == m->a->recv && m->be->world_rank == m->a->root;
	return CB_MPI(MPI_Reduce(in_place ? MPI_IN_PLACE : m->sb, m->rb, (int)m->a->count, m->t,
				 cb_mpi_op(m->a->op), m->a->root, m->comm));
}

static enum cb_status mpi_alltoall(const struct mpi_args *m)
{
	return CB_MPI(MPI_Alltoall(m->a->send == m->a->recv ? MPI_IN_PLACE : m->sb, m->block, m->t,
				   m->rb, m->block, m->t, m->comm));
}

/* Each collective's call, and why its rows cannot run in place or out of
 * place (NULL: they can); a collective without a call has no mpi rows that
 * run. big: the call takes counts past INT_MAX itself. */
static const struct {
	mpi_call_fn call;
	const char *no_in_place, *no_out_of_place;
	int big;
} calls[CB_COLL_COUNT] = {
	[CB_COLL_ALLREDUCE] = { mpi_allreduce, NULL, NULL, 1 },
	[CB_COLL_REDUCE_SCATTER] = { mpi_reduce_scatter, "MPI_Reduce_scatter_block in place leaves "
				     "each block at the start of the buffer and not at the in-place "
				     "offset of nccl-tests", NULL, 0 },
	[CB_COLL_ALL_GATHER] = { mpi_all_gather, NULL, NULL, 0 },
	[CB_COLL_BROADCAST] = { mpi_broadcast, NULL, "MPI_Bcast has one buffer: its rows run in "
				"place (--inplace 1)", 0 },
	[CB_COLL_REDUCE] = { mpi_reduce, NULL, NULL, 0 },
	[CB_COLL_ALLTOALL] = { mpi_alltoall, NULL, NULL, 0 },
};

const char *cb_mpi_coll_supports(enum cb_coll c, enum cb_dtype dt, enum cb_op op, int in_place)
{
	if (!calls[c].call)
		return "collbench has no MPI call for this collective";
	if (in_place && calls[c].no_in_place)
		return calls[c].no_in_place;
	if (!in_place && calls[c].no_out_of_place)
		return calls[c].no_out_of_place;
	return cb_mpi_supports(dt, op);
}

enum cb_status cb_mpi_coll_call(struct cb_backend *be, MPI_Comm comm, const struct cb_run_args *a)
{
	struct mpi_args m = { be, comm, a, a->send->peer[be->node_rank],
			      a->recv->peer[be->node_rank],
			      (int)(a->count / (size_t)be->world_size), cb_mpi_dtype(a->dt) };

	if (!calls[a->coll].call || (a->count > INT_MAX && !calls[a->coll].big))
		return CB_ERR_ARG;
	return calls[a->coll].call(&m);
}

static enum cb_status mpi_coll_run(void *state, const struct cb_run_args *a)
{
	struct cb_backend *be = state;

	return cb_mpi_coll_call(be, be->world, a);
}

/* The mpi row of every collective: one supports per collective, as the ops
 * table takes no collective. */
#define MPI_SUP(id, name) \
	static const char *mpi_supports_##name(const struct cb_backend *be, enum cb_dtype dt, \
					       enum cb_op op, int in_place) \
	{ \
		(void)be; \
		return cb_mpi_coll_supports(CB_COLL_##id, dt, op, in_place); \
	}
CB_COLLECTIVES(MPI_SUP)
#undef MPI_SUP
#define MPI_COLL(id, name) \
	[CB_COLL_##id] = { .desc = &cb_desc_mpi[CB_COLL_##id], .supports = mpi_supports_##name, \
			   .setup = cb_algo_setup_backend, .run = mpi_coll_run, \
			   .teardown = cb_algo_teardown_none },
const struct cb_algo_ops cb_algo_mpi_ops[CB_COLL_COUNT] = { CB_COLLECTIVES(MPI_COLL) };
#undef MPI_COLL
