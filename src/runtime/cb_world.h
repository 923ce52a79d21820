/* cb_world: the collectives the harness calls on be->world between
 * iterations (gathering a row's times, counters and check results), made
 * so that a rank waiting in one still reads the abort flag.
 *
 * A blocking MPI collective whose peer died never returns: when mpirun then
 * sends SIGTERM to the other ranks (and SIGKILL one second later), a rank
 * inside MPI_Reduce cannot reach its abort path, and rank 0's metadata stays
 * "incomplete". Each function here starts the nonblocking form of the
 * collective (MPI-3) and tests it until it completes or *be->abort_flag is
 * set (the watchdog, or a stop signal: allreduce_perf.c). */
#ifndef CB_WORLD_H
#define CB_WORLD_H

#include <mpi.h>

#include "cb_backend.h"
#include "cb_status.h"

/* Tests req until it completes. Errors: CB_ERR_MPI (logged); CB_ERR_TIMEOUT
 * once *be->abort_flag is set: the request is left pending, the caller ends
 * the job. */
enum cb_status cb_world_wait(const struct cb_backend *be, MPI_Request *req);

/* MPI_Reduce, MPI_Allreduce, MPI_Gather and MPI_Bcast over be->world with
 * their arguments (counts in elements of type), through cb_world_wait: the
 * same errors. */
enum cb_status cb_world_reduce(const struct cb_backend *be, const void *send, void *recv,
			       int count, MPI_Datatype type, MPI_Op op, int root);
enum cb_status cb_world_allreduce(const struct cb_backend *be, const void *send, void *recv,
				  int count, MPI_Datatype type, MPI_Op op);
enum cb_status cb_world_gather(const struct cb_backend *be, const void *send, int count,
			       MPI_Datatype type, void *recv, int root);
enum cb_status cb_world_bcast(const struct cb_backend *be, void *buf, int count,
			      MPI_Datatype type, int root);

#endif
