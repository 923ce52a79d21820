/* cb_world: MPI errors as statuses, an agreed status, and collectives that
 * read the abort flag (contract in cb_world.h). */
#include "cb_world.h"

#include <stdio.h>

#include "cb_backend.h"

enum cb_status cb_mpi_status(int rc, const char *call, const char *file, int line)
{
	char err[MPI_MAX_ERROR_STRING];
	int len = 0;

	if (rc == MPI_SUCCESS)
		return CB_OK;
	if (MPI_Error_string(rc, err, &len) != MPI_SUCCESS)
		snprintf(err, sizeof(err), "MPI error %d", rc);
	cb_log("%s:%d: %s: %s", file, line, call, err);
	return CB_ERR_MPI;
}

/* Order of failures for cb_agree: CB_ERR_PEER ("another rank failed") below
 * every other failure, so the agreed status names a cause where one rank has it. */
static int severity(enum cb_status st)
{
	return st == CB_OK ? 0 : st == CB_ERR_PEER ? 1 : 2 + (int)st;
}

enum cb_status cb_agree(enum cb_status mine, MPI_Comm comm)
{
	int m = severity(mine), worst = severity(CB_ERR_MPI);

	if (CB_MPI(MPI_Allreduce(&m, &worst, 1, MPI_INT, MPI_MAX, comm)) != CB_OK)
		return CB_ERR_MPI;
	return worst == 0 ? CB_OK : worst == 1 ? CB_ERR_PEER : (enum cb_status)(worst - 2);
}

enum cb_status cb_world_wait(const struct cb_backend *be, MPI_Request *req)
{
	int done = 0;
	enum cb_status st = CB_OK;

	while (st == CB_OK && !done) {
		st = CB_MPI(MPI_Test(req, &done, MPI_STATUS_IGNORE));
		if (st == CB_OK && !done && *be->abort_flag)
			return CB_ERR_TIMEOUT; /* the job ends: the request is left */
	}
	return st;
}

enum cb_status cb_world_reduce(const struct cb_backend *be, const void *send, void *recv,
			       int count, MPI_Datatype type, MPI_Op op, int root)
{
	MPI_Request req;
	enum cb_status st;

	st = CB_MPI(MPI_Ireduce(send, recv, count, type, op, root, be->world, &req));
	return st == CB_OK ? cb_world_wait(be, &req) : st;
}

enum cb_status cb_world_allreduce(const struct cb_backend *be, const void *send, void *recv,
				  int count, MPI_Datatype type, MPI_Op op)
{
	MPI_Request req;
	enum cb_status st;

	st = CB_MPI(MPI_Iallreduce(send, recv, count, type, op, be->world, &req));
	return st == CB_OK ? cb_world_wait(be, &req) : st;
}

enum cb_status cb_world_gather(const struct cb_backend *be, const void *send, int count,
			       MPI_Datatype type, void *recv, int root)
{
	MPI_Request req;
	enum cb_status st;

	st = CB_MPI(MPI_Igather(send, count, type, recv, count, type, root, be->world, &req));
	return st == CB_OK ? cb_world_wait(be, &req) : st;
}

enum cb_status cb_world_bcast(const struct cb_backend *be, void *buf, int count,
			      MPI_Datatype type, int root)
{
	MPI_Request req;
	enum cb_status st;

	st = CB_MPI(MPI_Ibcast(buf, count, type, root, be->world, &req));
	return st == CB_OK ? cb_world_wait(be, &req) : st;
}
