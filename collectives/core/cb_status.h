/* cb_status: the status codes every fallible collbench function returns,
 * the diagnostic log, and refusing input with a reason.
 *
 * Contract: functions below main() never exit and never abort; they return an
 * enum cb_status and leave the decision (MPI_Abort, a clean non-zero exit) to
 * main. Check macros only translate a foreign error code into a status and log
 * it on stderr; control flow stays visible at the call site:
 *
 *     st = CB_MPI(MPI_Barrier(comm));
 *     if (st != CB_OK)
 *             goto out_free_buf;
 *
 * The codes and the log link nothing: CB_MPI lives with the runtime
 * (collectives/runtime/cb_world.h), CB_CUDA with the cuda backend.
 */
#ifndef CB_STATUS_H
#define CB_STATUS_H

#include <stddef.h>

enum cb_status {
	CB_OK = 0,
	CB_ERR_ARG,         /* bad argument or option value */
	CB_ERR_NOMEM,       /* an allocation failed */
	CB_ERR_MPI,         /* an MPI call failed */
	CB_ERR_CUDA,        /* a CUDA runtime call failed (or no usable GPU) */
	CB_ERR_NCCL,        /* an NCCL call failed */
	CB_ERR_UNSUPPORTED, /* valid request this algorithm/backend cannot serve */
	CB_ERR_TIMEOUT,     /* the watchdog saw no progress for -T seconds */
	CB_ERR_PEER,        /* a peer process died or failed */
	CB_ERR_IO,          /* reading or writing a file failed */
	CB_ERR_MISMATCH,    /* ranks disagree (arguments, results) */
	CB_ERR_INTERNAL,    /* a broken invariant: a bug in collbench */
};

/* Short lower-case name of a status ("mpi error", "timeout"); never NULL. */
const char *cb_status_str(enum cb_status st);

/* Prints "collbench: rank R: <message>\n" on stderr (printf-style) as one
 * write. The rank is the one given to cb_log_set_rank, omitted before that.
 * Safe from any thread (makes no MPI call). */
void cb_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void cb_log_set_rank(int world_rank);

/* How a reader or parser refuses its input, with the reason in the caller's
 * message buffer (the err, errlen pair every parser takes): formats the
 * message (printf-style, truncated to errlen bytes with its NUL) into err
 * and returns CB_ERR_ARG. */
enum cb_status cb_refuse(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
