/* cb_algo_mpi: MPI_Allreduce as an algorithm, on the world communicator
 * (mpi, cb_algo_mpi.c) or on one made for an algorithm Open MPI was forced
 * to (mpi.*, cb_algo_mpi_forced.c). */
#ifndef CB_ALGO_MPI_H
#define CB_ALGO_MPI_H

#include <mpi.h>

#include "cb_algo.h"

/* MPI's datatype of dt (MPI_DATATYPE_NULL: none, half and bfloat16) and
 * op of op (MPI_OP_NULL: none, avg). */
MPI_Datatype cb_mpi_dtype(enum cb_dtype dt);
MPI_Op cb_mpi_op(enum cb_op op);

/* NULL when MPI has the datatype and the op, else why not. */
const char *cb_mpi_supports(enum cb_dtype dt, enum cb_op op);

/* MPI_Allreduce of a's buffers (this rank's, in place when send is recv)
 * over comm, in pieces of at most 2^30 elements (MPI counts are int).
 * Errors: CB_ERR_MPI. */
enum cb_status cb_mpi_allreduce(struct cb_backend *be, MPI_Comm comm, const struct cb_run_args *a);

/* NULL when collective c's MPI call runs for dt, op and the mode, else
 * why not (no call; the call's own refusal in or out of place; MPI lacks
 * the datatype or op). Local, pure. */
const char *cb_mpi_coll_supports(enum cb_coll c, enum cb_dtype dt, enum cb_op op, int in_place);

/* Collective a->coll's MPI call (cb_algo_mpi_coll.c: MPI_Allreduce,
 * MPI_Alltoall, ...) on a's buffers over comm, whose ranks are the world's
 * in the world's order. Collective over comm. Errors: CB_ERR_ARG (no call,
 * a count past INT_MAX where the call takes int), the MPI library's. */
enum cb_status cb_mpi_coll_call(struct cb_backend *be, MPI_Comm comm, const struct cb_run_args *a);

#endif
