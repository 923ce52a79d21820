/* thread_world: ranks as threads of one process, for in-process tests of
 * the plan executors (collectives/runtime/exec/cb_algo_plan*.c) with no MPI, no fork and
 * no GPU. One case runs one algorithm's code on n ranks, one thread each:
 *
 *   one-sided (the code the shm and CUDA IPC rows run): every rank on one
 *     "host". Buffers are ordinary memory that every thread addresses
 *     (buf_alloc is collective over the threads, as over the node's MPI
 *     shared window); progress flags are the shm backend's struct cb_flag
 *     and its waits (cb_wait.h: cb_flag_post, cb_flag_wait in the futex
 *     mode configured for n waiters on this machine's CPUs, but sleeping
 *     right after the poll, with a tick no wait reaches; cb_flag_ready),
 *     copies and reduces the host backend's, counted by cb_be_copy and
 *     cb_be_reduce, waits timed by cb_be_wait (the accounting on, level 1).
 *   two-sided (the code the p2p rows run): every rank on a host of its own,
 *     its messages through a fake transport that keeps the rules of a real
 *     one (cb_p2p.h), MPI's or NCCL's: a send completes only when its
 *     receive is posted (rendezvous, the strictest), its bytes are read
 *     then, and it must meet a receive of its size (messages between two
 *     ranks match in order); NCCL's round is a group run to completion at
 *     round_end, MPI's completes at round_wait.
 *
 * Each rank calls the algorithm as the harness does (cb_row.c): setup, then
 * per call prepare and run; its inputs written by cb_verify_fill_input and
 * its receive range poisoned by cb_verify_poison, the result compared by
 * cb_verify_check (element by element, the harness's own check). A case
 * makes two calls: the first on stale inputs (the poison pattern), then,
 * after every rank has finished it, each writes its real inputs and calls
 * again, odd ranks after a short sleep: a rank that read a peer's SEND
 * before the peer entered the call (no entry handshake) reads the stale
 * input. The second call is checked; its traffic is each rank's tx and rx
 * summed over the threads' counters, as cb_traffic_collect sums processes'.
 * A wait that the tick ended, not a post, is a lost wake-up: the case fails.
 *
 * A wait longer than TW_DEADLOCK_S is a deadlock: the world's abort flag is
 * set (the waits return CB_ERR_TIMEOUT, as under the watchdog) and the case
 * fails; a thread still stuck TW_DEADLOCK_S after that ends the process
 * with a message, never a hang. One case at a time per process. */
#ifndef THREAD_WORLD_H
#define THREAD_WORLD_H

#include <stddef.h>
#include <stdint.h>

#include "cb_algo.h"

#define TW_MAXN 32        /* most ranks of a case */
#define TW_DEADLOCK_S 30  /* no wait of a correct schedule comes near it */

struct tw_case {
	const struct cb_algo_ops *algo; /* the code under test: a registry entry's
					 * one-sided ops, or its two_sided */
	int nccl;                       /* two-sided: NCCL's rules, else MPI's */
	int n, root, servers, in_place;
	size_t count;                   /* the collective's count (cb_coll.h) */
	size_t slice_bytes;             /* --slicebytes; 0: the backend's unit */
	enum cb_dtype dt;
	enum cb_op op;
};

struct tw_rank {
	enum cb_status st;     /* the first failure of setup, prepare or run */
	long long wrong;       /* elements of the checked call's result that differ */
	uint64_t tx, rx;       /* the checked call's bytes from and into this rank */
	uint64_t wait_ns;      /* wait time this rank's thread accounted, both calls */
	uint64_t sleeps;       /* its waits' sleeps in the kernel (cb_wait_stats) */
	uint64_t ticks;        /* of which ended by the tick, not a post: a lost
				* wake-up (tw_run fails the case) */
};

struct tw_result {
	struct tw_rank rank[TW_MAXN];
	char why[256];         /* what the fake transport or a wait saw go wrong, "" */
};

/* Runs c on c->n threads (1 .. TW_MAXN) and fills *res. Returns 0 when
 * every rank finished both calls with CB_OK, its result exact and nothing
 * went wrong in the transport; else -1 (res says what). Traffic is not
 * judged here: the caller compares res with what it expects. */
int tw_run(const struct tw_case *c, struct tw_result *res);

/* One line naming c, for failure messages: "one-sided ring n=3 count=7 ...". */
void tw_describe(const struct tw_case *c, char *buf, size_t len);

#endif
