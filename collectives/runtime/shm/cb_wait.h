/* cb_wait: how a process waits for a peer's progress counter in memory that
 * both map (host shared memory: MPI shared windows, or any MAP_SHARED
 * mapping). No MPI here, so the unit tests drive it from fork()ed processes.
 *
 * A flag is one cache line owned by one process: a monotonic 64-bit progress
 * counter that only the owner writes, the owner's pid (so a waiter can tell a
 * slow peer from a dead one), and a count of waiters asleep on the counter.
 *
 * Strategies (enum cb_wait_mode):
 *   futex: poll for spin_ns, then call sched_yield() between polls for
 *          yield_ns, then announce itself in `waiters` and sleep in the
 *          kernel (FUTEX_WAIT on the counter's low 32 bits, shared, not
 *          FUTEX_PRIVATE: the word is in a shared mapping). The poster stores
 *          the counter and calls FUTEX_WAKE only when `waiters` is non-zero,
 *          so while nobody sleeps a post stays a store (plus one load of a
 *          line the poster has just written). A sleeping process leaves the
 *          run queue: a long wait (a peer descheduled, a large reduction)
 *          gives its core to a process that can work. The waiter announces
 *          itself, then re-reads the counter; the poster stores the counter,
 *          then reads `waiters` (both sequentially consistent), so at least
 *          one of them sees the other: no lost wake-up. FUTEX_WAIT compares
 *          the word under the kernel's lock, so a post between the re-read
 *          and the sleep returns at once (EAGAIN); it sees the low 32 bits
 *          only, so 2^32 posts exactly between re-read and sleep would go
 *          unnoticed until the tick. The sleep is timed (tick_ms) to
 *          re-check the abort flag and the peer's liveness.
 *          Why poll and yield first: waking a sleeper costs the poster a
 *          system call and the sleeper a trip through the scheduler (on a
 *          VM, often an idle vCPU to wake); a peer that posts within the
 *          window is cheaper to catch awake, and a yield lets any runnable
 *          process have the core. With more processes than cores the poll is
 *          short: a polling waiter holds the core its peer needs.
 *   yield: poll for spin_ns, then sched_yield() between polls, never sleeps.
 *   spin:  collbench 0.1's wait, kept for comparison: 4000 pause
 *          instructions (66 us on the reference VM), then sched_yield()
 *          between polls.
 * Measurements of each on 2 cores: docs/backends.md, "Waiting for a peer".
 */
#ifndef CB_WAIT_H
#define CB_WAIT_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "cb_status.h"

enum cb_wait_mode {
	CB_WAIT_FUTEX,
	CB_WAIT_YIELD,
	CB_WAIT_SPIN,
	CB_WAIT_MODE_COUNT
};

/* Defaults of cb_wait_configure, from measurements on a 2-core VM (docs/backends.md,
 * "Waiting for a peer"). With more ranks than cores, any poll longer than
 * a few microseconds costs the peer its core (collbench 0.1 polled 66 us
 * before its first yield: the ring 40x slower than MPI_Allreduce at 8
 * ranks); yielding hands the core to a runnable rank at once, while sleeping
 * costs the wake-up: sleeping at once was 4-10x slower than yielding for
 * small messages, a 50 us window 13-24% slower at 1 MiB, and even a 1-10 ms
 * window 5-10% slower for ps at 8 ranks and 16-64 MiB (seven workers woken
 * together by the root, on two cores). So the window before sleeping is 1 ms
 * when every rank has a core (a wake-up then adds a few percent at most to a
 * wait that long) and 100 ms when they outnumber the cores; a longer wait (a
 * stopped or hung peer, a reduction of hundreds of MiB) holds no core. */
#define CB_WAIT_SPIN_NS_FREE 20000u     /* a core per process: a few futex round trips */
#define CB_WAIT_SPIN_NS_OVER 500u       /* oversubscribed: a few cache-line round trips */
#define CB_WAIT_YIELD_NS_FREE 1000000u
#define CB_WAIT_YIELD_NS_OVER 100000000u
#define CB_WAIT_TICK_MS 5u              /* asleep: abort, dead peer noticed within 5 ms */

struct cb_wait_cfg {
	enum cb_wait_mode mode;
	uint32_t spin_ns;  /* futex, yield: poll this long first */
	uint32_t yield_ns; /* futex: then yield between polls this long; 0 in other modes */
	uint32_t tick_ms;  /* futex: longest sleep between checks of abort flag and
			    * peer; 0 in other modes */
};

/* Counts of what waits did, for tests and diagnostics (one process's). */
struct cb_wait_stats {
	uint64_t waits;   /* cb_flag_wait calls that did not return at the first poll */
	uint64_t sleeps;  /* FUTEX_WAIT calls */
	uint64_t ticks;   /* of which ended by the tick (timed out) */
	uint64_t yields;  /* sched_yield calls */
};

/* One per process, in shared memory, 64-byte aligned: no false sharing. */
struct cb_flag {
	_Atomic uint64_t progress;
	_Atomic uint32_t waiters;
	int32_t pid;
	char pad[64 - sizeof(uint64_t) - 2 * sizeof(uint32_t)];
};

/* Name ("futex", "yield", "spin") of a mode, and back: 0 and *mode set, or -1. */
const char *cb_wait_mode_name(enum cb_wait_mode mode);
int cb_wait_mode_parse(const char *name, enum cb_wait_mode *mode);

/* The configuration for `mode` with `nprocs` waiting processes on a host of
 * `ncpus` online CPUs: poll and yield window CB_WAIT_SPIN_NS_FREE and
 * CB_WAIT_YIELD_NS_FREE when every process has a core, the _OVER ones when
 * they outnumber the cores; tick CB_WAIT_TICK_MS. The environment variables
 * CB_WAIT_SPIN_NS, CB_WAIT_YIELD_NS (0 .. 1e9) and CB_WAIT_TICK_MS
 * (1 .. 3600000) override them, for measuring alternatives; tests set a long
 * tick so that a lost wake-up hangs instead of costing one tick. Values out
 * of range are ignored. */
void cb_wait_configure(struct cb_wait_cfg *cfg, enum cb_wait_mode mode, int nprocs, long ncpus);

/* One line saying what a wait with cfg does, for the run's metadata. */
void cb_wait_describe(const struct cb_wait_cfg *cfg, char *buf, size_t len);

/* Makes the calling process the owner of f: progress 0, no waiters, its pid. */
void cb_flag_init(struct cb_flag *f);

/* Publishes value (>= the current one) after a full fence (orders earlier
 * stores, non-temporal ones too), then wakes sleeping waiters, if any. */
void cb_flag_post(struct cb_flag *f, uint64_t value);

/* 1 when f's progress is >= value (an acquire load: the owner's stores
 * before that post are then visible), else 0. */
int cb_flag_ready(struct cb_flag *f, uint64_t value);

/* Returns CB_OK once f's progress is >= value (its owner's stores before that
 * post are then visible). Errors: CB_ERR_TIMEOUT when *abort_flag becomes
 * non-zero (noticed within one yield, or one tick while asleep),
 * CB_ERR_PEER when the owner's process is gone (noticed after the yield
 * window and one tick, or every 1024 yields in the yield and spin modes,
 * and when the abort flag is seen: a dead peer is often why it was set).
 * Logs nothing. stats may be NULL. */
enum cb_status cb_flag_wait(struct cb_flag *f, uint64_t value, const struct cb_wait_cfg *cfg,
			    volatile int *abort_flag, struct cb_wait_stats *stats);

/* 0 when f's owner process is known to be gone (kill(pid, 0) says ESRCH). */
int cb_flag_owner_alive(const struct cb_flag *f);

#endif
