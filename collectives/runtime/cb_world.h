/* cb_world: the runtime's own MPI: an MPI error as a status (CB_MPI), one
 * status agreed by every rank (cb_agree), and the collectives the harness
 * calls on be->world between iterations (gathering a row's times, counters
 * and check results), made so that a rank waiting in one still reads the
 * abort flag. It calls nothing else of the runtime: every file of it (and
 * of the harness) reports MPI errors through here.
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

#include "cb_status.h"

struct cb_backend;

/* Translates an MPI return code: CB_OK for MPI_SUCCESS, else logs
 * "collbench: <file>:<line>: <call>: <MPI error string>" and returns CB_ERR_MPI. */
enum cb_status cb_mpi_status(int rc, const char *call, const char *file, int line);
#define CB_MPI(call) cb_mpi_status((call), #call, __FILE__, __LINE__)

/* Every rank of comm learns the worst status of all ranks ("agree on a
 * status"), the same value on every rank: CB_OK only if every rank had it;
 * else the failure with the largest code, CB_ERR_PEER (a rank that only saw
 * another fail) counting below every other failure. Collective over comm. If the allreduce itself
 * fails, logs it and returns CB_ERR_MPI: never a value that was not written,
 * also under MPI_ERRORS_RETURN. The one helper for this pattern. */
enum cb_status cb_agree(enum cb_status mine, MPI_Comm comm);

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
