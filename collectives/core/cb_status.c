/* Status names, the diagnostic log and refusing input (contract in
 * cb_status.h). */
#include "cb_status.h"

#include <stdarg.h>
#include <stdio.h>

const char *cb_status_str(enum cb_status st)
{
	switch (st) {
	case CB_OK: return "ok";
	case CB_ERR_ARG: return "invalid argument";
	case CB_ERR_NOMEM: return "out of memory";
	case CB_ERR_MPI: return "mpi error";
	case CB_ERR_CUDA: return "cuda error";
	case CB_ERR_NCCL: return "nccl error";
	case CB_ERR_UNSUPPORTED: return "unsupported";
	case CB_ERR_TIMEOUT: return "timeout";
	case CB_ERR_PEER: return "peer failed";
	case CB_ERR_IO: return "i/o error";
	case CB_ERR_MISMATCH: return "ranks disagree";
	case CB_ERR_INTERNAL: return "internal error";
	}
	return "unknown status";
}

static int log_rank = -1;

void cb_log_set_rank(int world_rank)
{
	log_rank = world_rank;
}

void cb_log(const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	/* one fprintf per message so lines from several ranks do not interleave */
	if (log_rank >= 0)
		fprintf(stderr, "collbench: rank %d: %s\n", log_rank, msg);
	else
		fprintf(stderr, "collbench: %s\n", msg);
}

enum cb_status cb_refuse(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return CB_ERR_ARG;
}
