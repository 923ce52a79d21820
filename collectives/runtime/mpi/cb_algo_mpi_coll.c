/* mpi of the collectives beyond allreduce: the MPI library's own call on
 * the world communicator, the baseline beside the plans (descriptors:
 * cb_desc_mpi_coll, collectives/catalog/cb_catalog.c). Counts and places as cb_coll.h
 * says (nccl-tests' layout):
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
 * Counts past INT_MAX are refused (MPI-3 counts are int). Traffic is
 * unmeasured (it moves inside the library). */
#include <limits.h>

#include "cb_algo_common.h"
#include "cb_algo_mpi.h"

static const char *mpi_coll_supports(const struct cb_backend *be, enum cb_dtype dt, enum cb_op op,
				     int in_place)
{
	(void)be;
	(void)in_place;
	return cb_mpi_supports(dt, op);
}

static const char *mpi_bcast_supports(const struct cb_backend *be, enum cb_dtype dt,
				      enum cb_op op, int in_place)
{
	if (!in_place)
		return "MPI_Bcast has one buffer: its rows run in place (--inplace 1)";
	return mpi_coll_supports(be, dt, op, in_place);
}

static const char *mpi_rs_supports(const struct cb_backend *be, enum cb_dtype dt, enum cb_op op,
				   int in_place)
{
	if (in_place)
		return "MPI_Reduce_scatter_block in place leaves each block at the start of the buffer "
		       "and not at the in-place offset of nccl-tests";
	return mpi_coll_supports(be, dt, op, in_place);
}

/* The call of a's collective on this rank's buffers. */
static int mpi_call(struct cb_backend *be, const struct cb_run_args *a)
{
	char *sb = a->send->peer[be->node_rank], *rb = a->recv->peer[be->node_rank];
	size_t block = a->count / (size_t)be->world_size;
	int in_place = a->send == a->recv, root = a->root;
	MPI_Datatype t = cb_mpi_dtype(a->dt);

	switch (a->coll) {
	case CB_COLL_REDUCE_SCATTER:
		return MPI_Reduce_scatter_block(sb, rb, (int)block, t, cb_mpi_op(a->op), be->world);
	case CB_COLL_ALL_GATHER:
		return MPI_Allgather(in_place ? MPI_IN_PLACE : sb, (int)block, t, rb, (int)block, t,
				     be->world);
	case CB_COLL_BROADCAST: /* in place only (mpi_bcast_supports) */
		return MPI_Bcast(rb, (int)a->count, t, root, be->world);
	case CB_COLL_REDUCE:
		return MPI_Reduce(in_place && be->world_rank == root ? MPI_IN_PLACE : sb, rb,
				  (int)a->count, t, cb_mpi_op(a->op), root, be->world);
	case CB_COLL_ALLTOALL:
		return MPI_Alltoall(in_place ? MPI_IN_PLACE : sb, (int)block, t, rb, (int)block, t,
				    be->world);
	default:
		return MPI_ERR_OTHER;
	}
}

static enum cb_status mpi_coll_run(void *state, const struct cb_run_args *a)
{
	struct cb_backend *be = state;

	if (a->count > INT_MAX)
		return CB_ERR_ARG;
	return CB_MPI(mpi_call(be, a));
}

#define MPI_COLL(c, sup) \
	[c] = { .desc = &cb_desc_mpi_coll[c], .supports = sup, .setup = cb_algo_setup_backend, \
		.run = mpi_coll_run, .teardown = cb_algo_teardown_none }
const struct cb_algo_ops cb_algo_mpi_coll_ops[CB_COLL_COUNT] = {
	MPI_COLL(CB_COLL_REDUCE_SCATTER, mpi_rs_supports),
	MPI_COLL(CB_COLL_ALL_GATHER, mpi_coll_supports),
	MPI_COLL(CB_COLL_BROADCAST, mpi_bcast_supports),
	MPI_COLL(CB_COLL_REDUCE, mpi_coll_supports),
	MPI_COLL(CB_COLL_ALLTOALL, mpi_coll_supports),
};
#undef MPI_COLL
