/* cb_shm: host shared memory between the ranks of a node, used by the host
 * backend for its buffers and flags and by the cuda backend for its
 * host-side progress flags and peer liveness. How a rank waits is cb_wait.h's.
 *
 * Buffers are MPI-3 shared-memory windows on the node communicator (Open MPI
 * backs them with files in /dev/shm: osc_sm_backing_directory). Flags are one
 * cache line per rank holding a monotonic 64-bit progress counter and the
 * owner's pid, so a waiter can tell a slow peer from a dead one. */
#ifndef CB_SHM_H
#define CB_SHM_H

#include "cb_backend.h"

/* Collective over be->node: each rank allocates `bytes` (may differ per rank,
 * may be 0), zero-filled and pre-faulted by its owner; peer[r] addresses rank
 * r's part (NULL if it has 0 bytes). Errors: CB_ERR_MPI, CB_ERR_NOMEM; on
 * error nothing is left allocated. */
enum cb_status cb_shm_alloc(struct cb_backend *be, size_t bytes, struct cb_buf **out);
void cb_shm_free(struct cb_backend *be, struct cb_buf *buf); /* collective */

struct cb_host_flags;

/* Collective. Every counter starts at 0. */
enum cb_status cb_host_flags_alloc(struct cb_backend *be, struct cb_host_flags **out);
void cb_host_flags_free(struct cb_backend *be, struct cb_host_flags *f);

/* Publishes value after a full fence (orders earlier stores, non-temporal ones
 * too) and wakes the peers asleep on it, if any. */
void cb_host_flags_post(struct cb_backend *be, struct cb_host_flags *f, uint64_t value);

/* Waits as be->wait says (cb_wait.h: poll, then sleep or yield) until peer's
 * counter >= value. Errors: CB_ERR_TIMEOUT when *be->abort_flag is set,
 * CB_ERR_PEER when the peer's process is gone (each with a message naming the
 * peer). */
enum cb_status cb_host_flags_wait(struct cb_backend *be, struct cb_host_flags *f, int peer,
				  uint64_t value);

/* 1 when peer's counter is already >= value (cb_flag_ready), else 0. */
int cb_host_flags_ready(struct cb_host_flags *f, int peer, uint64_t value);

/* 0 when rank peer's process is known to be gone. */
int cb_host_flags_peer_alive(const struct cb_host_flags *f, int peer);

/* One step of a polite busy-wait: a pause for the first spins, a yield after
 * (collbench 0.1's wait; the cuda backend polls its own stream with it). */
void cb_backoff(unsigned long spins);

#endif
