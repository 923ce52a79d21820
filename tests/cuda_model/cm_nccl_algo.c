/* The CUDA model's NCCL allreduce, by the algorithm NCCL's choice names
 * (cm_nccl_pick): bytes move between the ranks' GPUs over the
 * communicator's channels (cm_nccl.h: one ring buffer per ordered pair of
 * ranks in the shared segment), as NCCL's algorithms move them, and each
 * byte a rank writes into a channel is counted on the link between the two
 * model GPUs (cm_link_move), so per-GPU bytes differ by algorithm:
 *   Ring  reduce-scatter then all-gather around the ring of ranks (next
 *         rank + 1): 2(n-1) steps of a chunk of count/n elements, so each
 *         rank sends and receives 2(n-1)/n of the buffer (NCCL's ring
 *         allreduce, src/device/all_reduce.h, runRing);
 *   Tree  reduce up to the root, then broadcast down, on the tree NCCL
 *         builds within one node, a chain (rank 0 the root, rank r's parent
 *         r - 1; NCCL's trees are chains within a node and binary between
 *         nodes, src/graph/trees.cc): the ends send and receive the buffer
 *         once, every rank between them twice.
 * Protocols share the data path but not the wire format: Simple writes the
 * data as it is; LL writes 8-byte lines of 4 data bytes and a 4-byte flag
 * (2x the data); LL128 128-byte lines of 120 data bytes and an 8-byte flag
 * (128/120) (NCCL's LL and LL128, src/device/prims_ll.h, prims_ll128.h).
 * The model writes those lines into the channel and the receiver checks
 * each flag, so the counted bytes are the bytes written for a peer. */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cm_nccl.h"

#define PIECE ((size_t)7680) /* data bytes per encoded piece: 64 LL128 lines, 1920 LL words */
#define ENC_MAX (PIECE * 2)  /* LL's */
#define LIVENESS_POLLS 1024u

/* One direction of a transfer between this rank and peer, piece by piece. */
struct xfer {
	struct ncclComm *c;
	int peer, send, proto;
	char *data;      /* send: the bytes; receive: where they go (reduced into or copied) */
	size_t bytes, done;
	int reduce;      /* receive: data = data op received */
	enum cb_dtype dt;
	enum cb_op op;
	uint32_t seq;    /* the pieces' flags */
	size_t piece, enc, moved; /* the current piece: data bytes, its encoded bytes, moved of them */
	char stage[ENC_MAX], plain[PIECE];
};

static size_t enc_len(int proto, size_t d)
{
	return proto == CM_LL ? (d + 3) / 4 * 8 : proto == CM_LL128 ? (d + 119) / 120 * 128 : d;
}

static void encode(int proto, const char *src, size_t d, char *dst, uint32_t flag)
{
	if (proto == CM_LL) {
		for (size_t i = 0; 4 * i < d; i++) {
			uint32_t w[2] = { 0, flag };

			memcpy(&w[0], src + 4 * i, d - 4 * i < 4 ? d - 4 * i : 4);
			memcpy(dst + 8 * i, w, 8);
		}
	} else if (proto == CM_LL128) {
		for (size_t l = 0; 120 * l < d; l++) {
			uint64_t f = flag;
			size_t k = d - 120 * l < 120 ? d - 120 * l : 120;

			memset(dst + 128 * l, 0, 120);
			memcpy(dst + 128 * l, src + 120 * l, k);
			memcpy(dst + 128 * l + 120, &f, 8);
		}
	} else {
		memcpy(dst, src, d);
	}
}

/* 0 when a flag is not flag (a line not written for this piece). */
static int decode(int proto, const char *src, size_t d, char *dst, uint32_t flag)
{
	int ok = 1;

	if (proto == CM_LL) {
		for (size_t i = 0; 4 * i < d; i++) {
			uint32_t w[2];

			memcpy(w, src + 8 * i, 8);
			ok &= w[1] == flag;
			memcpy(dst + 4 * i, &w[0], d - 4 * i < 4 ? d - 4 * i : 4);
		}
	} else if (proto == CM_LL128) {
		for (size_t l = 0; 120 * l < d; l++) {
			uint64_t f;

			memcpy(&f, src + 128 * l + 120, 8);
			ok &= f == flag;
			memcpy(dst + 120 * l, src + 128 * l, d - 120 * l < 120 ? d - 120 * l : 120);
		}
	} else {
		memcpy(dst, src, d);
	}
	return ok;
}

/* The transfer's next piece: at most PIECE data bytes, their wire length
 * in the protocol, none of it moved yet. */
static void next_piece(struct xfer *x)
{
	x->piece = x->bytes - x->done < PIECE ? x->bytes - x->done : PIECE;
	x->enc = enc_len(x->proto, x->piece);
	x->moved = 0;
}

static size_t step_send(struct xfer *x)
{
	struct ncclComm *c = x->c;
	size_t k;

	if (x->done == x->bytes)
		return 0;
	if (!x->enc) {
		next_piece(x);
		encode(x->proto, x->data + x->done, x->piece, x->stage, ++x->seq);
	}
	k = cm_chan_move(c, c->rank, x->peer, x->stage + x->moved, x->enc - x->moved, 1);
	if (k)
		cm_link_move(c->device, c->seg->rank[x->peer].device, k);
	x->moved += k;
	if (x->moved == x->enc) {
		x->done += x->piece;
		x->enc = 0;
	}
	return k;
}

/* Bytes moved; sets *bad on a flag that does not match. */
static size_t step_recv(struct xfer *x, int *bad)
{
	size_t k;

	if (x->done == x->bytes)
		return 0;
	if (!x->enc)
		next_piece(x);
	k = cm_chan_move(x->c, x->peer, x->c->rank, x->stage + x->moved, x->enc - x->moved, 0);
	x->moved += k;
	if (x->moved < x->enc)
		return k;
	*bad |= !decode(x->proto, x->stage, x->piece, x->plain, ++x->seq);
	if (x->reduce)
		cm_elem_reduce(x->data + x->done, x->data + x->done, x->plain,
			       x->piece / cb_dtype_size(x->dt), x->dt, x->op);
	else
		memcpy(x->data + x->done, x->plain, x->piece);
	x->done += x->piece;
	x->enc = 0;
	return k;
}

/* Runs tx and rx (either may be NULL) together to their ends; 0 when the
 * communicator was aborted or a flag did not match. A dead peer is NCCL's
 * ncclRemoteError, and the wait goes on until ncclCommAbort (as
 * cm_nccl_ops.c's waits). */
static int exchange(struct xfer *tx, struct xfer *rx)
{
	struct ncclComm *c = (tx ? tx : rx)->c;
	int bad = 0;

	for (unsigned long polls = 0; (tx && tx->done < tx->bytes) || (rx && rx->done < rx->bytes);
	     polls++) {
		size_t k = (tx ? step_send(tx) : 0) + (rx ? step_recv(rx, &bad) : 0);

		if (bad) {
			cm_nccl_fail(c, ncclInternalError, "cuda model: a %s line from rank %d had a stale flag",
				     cm_proto_name[rx->proto], rx->peer);
			return 0;
		}
		if (__atomic_load_n(&c->aborted, __ATOMIC_SEQ_CST))
			return 0;
		if (k) {
			polls = 0;
			continue;
		}
		if (polls % LIVENESS_POLLS == LIVENESS_POLLS - 1)
			for (int i = 0; i < 2; i++) {
				struct xfer *x = i ? rx : tx;

				if (x && cm_comm_peer_dead(c, x->peer))
					cm_nccl_fail(c, ncclRemoteError, "rank %d exited", x->peer);
			}
		cm_backoff(polls);
	}
	return 1;
}

/* x set up for a transfer of bytes at data with peer. */
static void xfer_at(struct xfer *x, const struct cm_coll *o, int send, int peer, char *data,
		    size_t bytes, int reduce)
{
	x->c = o->comm, x->peer = peer, x->send = send, x->proto = o->proto;
	x->data = data, x->bytes = bytes, x->done = 0, x->reduce = reduce;
	x->dt = o->dt, x->op = o->op, x->enc = 0, x->moved = 0;
	x->seq = 0; /* each transfer's pieces are flagged 1, 2, ... on both sides */
}

/* Chunk k of the ring: [*first, *first + *n) elements of count. */
static void chunk(const struct cm_coll *o, int k, size_t *first, size_t *n)
{
	int nr = o->comm->nranks;
	size_t per = (o->count + (size_t)nr - 1) / (size_t)nr;

	k = ((k % nr) + nr) % nr;
	*first = (size_t)k * per < o->count ? (size_t)k * per : o->count;
	*n = o->count - *first < per ? o->count - *first : per;
}

static void ring(struct cm_coll *o, struct xfer *tx, struct xfer *rx)
{
	struct ncclComm *c = o->comm;
	int n = c->nranks, r = c->rank, next = (r + 1) % n, prev = (r + n - 1) % n;
	size_t esz = cb_dtype_size(o->dt), sf, sn, rf, rn;

	for (int s = 0; s < n - 1; s++) { /* reduce-scatter */
		chunk(o, r - s, &sf, &sn);
		chunk(o, r - s - 1, &rf, &rn);
		xfer_at(tx, o, 1, next, o->recv + sf * esz, sn * esz, 0);
		xfer_at(rx, o, 0, prev, o->recv + rf * esz, rn * esz, 1);
		if (!exchange(tx, rx))
			return;
	}
	chunk(o, r + 1, &rf, &rn); /* this rank's chunk, reduced over all */
	if (o->op == CB_AVG)
		cm_elem_finalize(o->recv + rf * esz, rn, o->dt, n);
	for (int s = 0; s < n - 1; s++) { /* all-gather */
		chunk(o, r + 1 - s, &sf, &sn);
		chunk(o, r - s, &rf, &rn);
		xfer_at(tx, o, 1, next, o->recv + sf * esz, sn * esz, 0);
		xfer_at(rx, o, 0, prev, o->recv + rf * esz, rn * esz, 0);
		if (!exchange(tx, rx))
			return;
	}
}

static void tree(struct cm_coll *o, struct xfer *tx, struct xfer *rx)
{
	struct ncclComm *c = o->comm;
	int r = c->rank, parent = r - 1, child = r + 1 < c->nranks ? r + 1 : -1;
	size_t bytes = o->count * cb_dtype_size(o->dt);

	if (child >= 0) { /* up: the child's partial reduction into this rank's */
		xfer_at(rx, o, 0, child, o->recv, bytes, 1);
		if (!exchange(NULL, rx))
			return;
	}
	if (parent >= 0) {
		xfer_at(tx, o, 1, parent, o->recv, bytes, 0);
		xfer_at(rx, o, 0, parent, o->recv, bytes, 0); /* down: the result */
		if (!exchange(tx, NULL) || !exchange(NULL, rx))
			return;
	} else if (o->op == CB_AVG) {
		cm_elem_finalize(o->recv, o->count, o->dt, c->nranks);
	}
	if (child >= 0) {
		xfer_at(tx, o, 1, child, o->recv, bytes, 0);
		exchange(tx, NULL);
	}
}

size_t cm_nccl_wire_bytes(int proto, size_t bytes)
{
	size_t whole = bytes / PIECE, rest = bytes % PIECE;

	return whole * enc_len(proto, PIECE) + enc_len(proto, rest);
}

void cm_nccl_allreduce_run(struct cm_coll *o)
{
	struct xfer *x = malloc(2 * sizeof(*x));

	if (!x) {
		cm_nccl_fail(o->comm, ncclSystemError, "cuda model: out of memory");
		return;
	}
	if (o->send != o->recv) /* this GPU's own copy: no link */
		memmove(o->recv, o->send, o->count * cb_dtype_size(o->dt));
	if (o->algo == CM_TREE)
		tree(o, &x[0], &x[1]);
	else
		ring(o, &x[0], &x[1]);
	free(x);
}
