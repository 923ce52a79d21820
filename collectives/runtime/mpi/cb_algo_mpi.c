/* What the mpi rows share (contract in cb_algo_mpi.h): MPI's datatypes and
 * ops, and MPI_Allreduce with counts above INT_MAX elements split into
 * pieces (MPI-3 counts are int). The rows: cb_algo_mpi_coll.c. */
#include <limits.h>
#include <stdlib.h>

#include "cb_algo_common.h"
#include "cb_algo_mpi.h"

/* A piece of at most 2^30 elements keeps every count an int. */
#define CB_MPI_PIECE ((size_t)1 << 30)

MPI_Datatype cb_mpi_dtype(enum cb_dtype dt)
{
	switch (dt) {
	case CB_INT8: return MPI_INT8_T;
	case CB_UINT8: return MPI_UINT8_T;
	case CB_INT32: return MPI_INT32_T;
	case CB_UINT32: return MPI_UINT32_T;
	case CB_INT64: return MPI_INT64_T;
	case CB_UINT64: return MPI_UINT64_T;
	case CB_FLOAT: return MPI_FLOAT;
	case CB_DOUBLE: return MPI_DOUBLE;
	default: return MPI_DATATYPE_NULL;
	}
}

MPI_Op cb_mpi_op(enum cb_op op)
{
	switch (op) {
	case CB_SUM: return MPI_SUM;
	case CB_PROD: return MPI_PROD;
	case CB_MIN: return MPI_MIN;
	case CB_MAX: return MPI_MAX;
	default: return MPI_OP_NULL;
	}
}

const char *cb_mpi_supports(enum cb_dtype dt, enum cb_op op)
{
	if (cb_mpi_dtype(dt) == MPI_DATATYPE_NULL)
		return "MPI has no half or bfloat16 datatype";
	if (cb_mpi_op(op) == MPI_OP_NULL)
		return "MPI has no avg op";
	return NULL;
}

enum cb_status cb_mpi_allreduce(struct cb_backend *be, MPI_Comm comm, const struct cb_run_args *a)
{
	size_t esz = cb_dtype_size(a->dt), done = 0;
	char *sb = a->send->peer[be->node_rank], *rb = a->recv->peer[be->node_rank];
	int in_place = a->send == a->recv;

	/* wrap and overflow semantics of MPI_SUM/MPI_PROD on signed types match
	 * ours on every MPI we know (two's complement); the checker verifies it */
	do {
		size_t c = a->count - done < CB_MPI_PIECE ? a->count - done : CB_MPI_PIECE;
		enum cb_status st;

		st = CB_MPI(MPI_Allreduce(in_place ? MPI_IN_PLACE : sb + done * esz,
					  rb + done * esz, (int)c, cb_mpi_dtype(a->dt),
					  cb_mpi_op(a->op), comm));
		if (st != CB_OK)
			return st;
		done += c;
	} while (done < a->count);
	return CB_OK;
}

