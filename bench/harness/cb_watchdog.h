/* cb_watchdog: turns a hang into a clear error.
 *
 * The harness names what it is doing (algorithm, size, phase, iteration) at
 * each step; a thread checks that the name changes in time. Two kinds of
 * step, two bounds: an iteration, or a wait for peers between iterations
 * (cb_watchdog_phase), must progress within -T seconds; a set-up step
 * (cb_watchdog_setup: start-up, allocating and pre-faulting buffers, an
 * algorithm's set-up, filling inputs, the reference, comparing a result),
 * whose time grows with the buffer and not with a hang, within
 * --setup-timeout seconds. When a step overruns, the watchdog logs it, sets
 * the abort flag (the backend's waits then return CB_ERR_TIMEOUT and main
 * aborts the job with MPI_Abort), and if the main thread is stuck where no
 * flag is read (inside an MPI call) it ends this process after a grace
 * period; mpirun then takes the rest of the job down. */
#ifndef CB_WATCHDOG_H
#define CB_WATCHDOG_H

#include <stddef.h>

#include "cb_status.h"

/* Exit status of an aborted run (a failed rank, a dead peer, the watchdog):
 * main's MPI_Abort and the watchdog's own exit use this one value. */
#define CB_EXIT_ABORTED 3

/* Starts the thread, in a set-up step ("start-up"). timeout_s bounds an
 * iteration step, setup_s a set-up step (seconds, > 0). abort_flag is set to
 * 1 when one overruns. Errors: CB_ERR_NOMEM. */
enum cb_status cb_watchdog_start(double timeout_s, double setup_s, volatile int *abort_flag);

/* Records progress in an iteration or a wait for peers (-T): what
 * ("timed", "warm-up", "check"), algorithm, bytes per rank and iteration
 * (-1 if none). Cheap; call at every step. */
void cb_watchdog_phase(const char *what, const char *algo, size_t bytes, long iter);

/* Records the start of a block of iterations back to back (--timing
 * loop), as cb_watchdog_phase with iter the block's first; the block then
 * reports each call with cb_watchdog_tick instead, so that a sub-microsecond
 * call pays no lock or formatting. */
void cb_watchdog_loop(const char *what, const char *algo, size_t bytes, long first);

/* Records that the block of cb_watchdog_loop reached iteration iter: one
 * relaxed atomic store (the watchdog names the last one reached). */
void cb_watchdog_tick(long iter);

/* Records the start of a set-up step (--setup-timeout): what ("allocate",
 * "setup", "reference", "teardown", ...), algorithm or dtype ("" and 0
 * bytes: a step of the whole run), bytes per rank. */
void cb_watchdog_setup(const char *what, const char *algo, size_t bytes);

/* Stops and joins the thread. */
void cb_watchdog_stop(void);

#endif
