/* cb_world: collectives that read the abort flag (contract in cb_world.h). */
#include "cb_world.h"

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
