/* cb_p2p: two-sided point-to-point, the p2p transport (cb_transport.h). A
 * rank hands a span of its own buffer to a send to a peer; the peer receives
 * it into a span of its own. Each backend has one implementation in its ops
 * table (cb_backend_ops.p2p): MPI non-blocking point-to-point for host
 * buffers (cb_p2p_mpi.c), NCCL ncclSend/ncclRecv for GPU buffers, one rank
 * per GPU (cb_p2p_nccl.c; a stub that says why where NCCL is not built).
 * Peers are world ranks.
 *
 * Rounds. Work is posted in rounds: cb_p2p_round_begin, sends and receives,
 * cb_p2p_round_end. The operations of one round progress together. The
 * executor (cb_algo_plan_p2p.c) posts a rank's rounds in the plan's order,
 * one per plan round in which the rank has messages, so every rank's rounds
 * are a subsequence of the plan's and, messages between two ranks matching
 * in order (MPI's non-overtaking rule, one tag; NCCL's order per peer), a
 * send of plan round k meets its peer's receive of plan round k. That is
 * what NCCL's grouped point-to-point needs to be deadlock-free (a group
 * completes when all of its operations have, a send waits for its receive,
 * groups run in the order of their stream: the groups of plan round k can
 * complete once those before k have, by induction), and MPI's is then too. After round_end a round's buffers belong to the transport
 * until cb_p2p_round_wait has returned for it (the oldest round first):
 *   MPI:  round_wait waits for every request of the round (polling, so the
 *         watchdog can end it); a host reduce after it sees the data;
 *   NCCL: the round is ordered on the rank's stream before what the rank
 *         enqueues next (the reduce kernel): round_wait returns at once.
 * At most CB_P2P_ROUNDS rounds are outstanding, of at most the max_ops given
 * to cb_p2p_open operations each.
 *
 * Traffic is counted here, where bytes move: the bytes this rank hands to a
 * send are added to its tx, the bytes it receives to its rx (be->tx, be->rx
 * at its world rank), when the operation is posted. 0-byte operations move
 * nothing and post nothing (both sides compute the same sizes). */
#ifndef CB_P2P_H
#define CB_P2P_H

#include <stddef.h>

#include "cb_backend.h"

#define CB_P2P_ROUNDS 2
/* Largest span of one operation: MPI counts are int; schedules cut larger
 * slices to this. */
#define CB_P2P_MAX_SPAN ((size_t)1 << 30)

/* An open transport; the round bookkeeping is cb_p2p.c's, impl the
 * implementation's. */
struct cb_p2p {
	const struct cb_p2p_ops *ops;
	struct cb_backend *be;
	int max_ops;     /* operations per round */
	int in_round;    /* operations in the open round; -1: none open */
	int outstanding; /* rounds ended and not yet waited */
	void *impl;
};

struct cb_p2p_ops {
	const char *name;    /* "MPI point-to-point", for the metadata */
	const char *missing; /* NULL when built; else why not (the rows say it) */
	/* NULL when it connects every rank of be; else why not, the same text on
	 * every rank (NCCL: ranks that share a GPU). */
	const char *(*reaches)(const struct cb_backend *be);
	/* Collective over be->world: p->impl for rounds of up to max_ops
	 * operations. Errors: CB_ERR_NOMEM, CB_ERR_MPI, CB_ERR_NCCL; on error
	 * nothing is left allocated. */
	enum cb_status (*open)(struct cb_p2p *p, int max_ops);
	void (*close)(struct cb_p2p *p); /* collective; after every round waited */
	/* Local scratch of the buffers' kind (host or device memory), zeroed:
	 * where receives land before a reduce. Errors: CB_ERR_NOMEM, CB_ERR_CUDA. */
	enum cb_status (*alloc)(struct cb_p2p *p, size_t bytes, void **out);
	void (*free)(struct cb_p2p *p, void *ptr);
	enum cb_status (*round_begin)(struct cb_p2p *p);
	enum cb_status (*send)(struct cb_p2p *p, int peer, const void *buf, size_t bytes);
	enum cb_status (*recv)(struct cb_p2p *p, int peer, void *buf, size_t bytes);
	enum cb_status (*round_end)(struct cb_p2p *p);
	/* Errors: CB_ERR_TIMEOUT when the watchdog fired, the library's. */
	enum cb_status (*round_wait)(struct cb_p2p *p);
};

/* NULL when the p2p transport of be connects its ranks; else why not: the
 * backend has none, it is not built (ops->missing), or ops->reaches. */
const char *cb_p2p_unusable(const struct cb_backend *be);

/* Opens be's p2p transport into *out (see ops->open). Errors: as open;
 * CB_ERR_UNSUPPORTED when cb_p2p_unusable(be). On error *out is NULL. */
enum cb_status cb_p2p_open(struct cb_backend *be, int max_ops, struct cb_p2p **out);
void cb_p2p_close(struct cb_p2p *p); /* NULL: nothing */

/* Frees the buffers stage[0..n-1] that p's ops->alloc gave (NULL ones
 * skipped), then closes p (cb_p2p_close). p NULL: nothing. */
void cb_p2p_close_staged(struct cb_p2p *p, void *const *stage, int n);

/* The round calls, through the ops; send and recv count traffic (see the
 * top) and skip 0 bytes. A round with more than max_ops operations, or a
 * round begun with CB_P2P_ROUNDS outstanding, is CB_ERR_ARG (a schedule's
 * bug). */
enum cb_status cb_p2p_round_begin(struct cb_p2p *p);
enum cb_status cb_p2p_send(struct cb_p2p *p, int peer, const void *buf, size_t bytes);
enum cb_status cb_p2p_recv(struct cb_p2p *p, int peer, void *buf, size_t bytes);
enum cb_status cb_p2p_round_end(struct cb_p2p *p);
enum cb_status cb_p2p_round_wait(struct cb_p2p *p);

#endif
