/* cb_watchdog: turns a hang into a clear error.
 *
 * The harness names what it is doing (algorithm, size, phase, iteration) at
 * each step; a thread checks that the name changes at least every timeout
 * seconds. When it does not, the watchdog logs the phase, sets the abort flag
 * (the backend's waits then return CB_ERR_TIMEOUT and main aborts the job with
 * MPI_Abort), and if the main thread is stuck where no flag is read (inside
 * an MPI call) it ends this process after a grace period; mpirun then takes
 * the rest of the job down. */
#ifndef CB_WATCHDOG_H
#define CB_WATCHDOG_H

#include <stddef.h>

#include "cb_status.h"

/* Exit status of an aborted run (a failed rank, a dead peer, the watchdog):
 * main's MPI_Abort and the watchdog's own exit use this one value. */
#define CB_EXIT_ABORTED 3

/* Starts the thread. abort_flag is set to 1 on timeout. Errors: CB_ERR_NOMEM. */
enum cb_status cb_watchdog_start(double timeout_s, volatile int *abort_flag);

/* Records progress: what ("timed", "warm-up", "check", "setup"), algorithm,
 * bytes per rank and iteration (-1 if none). Cheap; call at every step. */
void cb_watchdog_phase(const char *what, const char *algo, size_t bytes, long iter);

/* Stops and joins the thread. */
void cb_watchdog_stop(void);

#endif
