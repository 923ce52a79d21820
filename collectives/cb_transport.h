/* cb_transport: where bytes move between ranks, the second axis beside where
 * buffers live (the backend; DESIGN.md section 2):
 *   shm  one-sided, host buffers: a rank loads and stores into its peers'
 *        MPI-3 shared-memory windows and waits on their progress counters
 *        (cb_shm.h); reaches the ranks of one host;
 *   ipc  one-sided, CUDA buffers: the same through CUDA IPC mappings, work
 *        ordered on the ranks' streams (cb_cuda_internal.h); one host;
 *   p2p  two-sided: the sender hands a span of its buffer to a send, the
 *        receiver receives it into its own (cb_p2p.h: MPI point-to-point for
 *        host buffers, NCCL ncclSend/ncclRecv for GPU buffers); any hosts.
 * ps and ring run the same schedule (cb_pattern.h) over either kind: the
 * one-sided code in cb_algo_ps.c and cb_algo_ring.c, the two-sided code in
 * cb_algo_ps_p2p.c and cb_algo_ring_p2p.c. The library algorithms (mpi,
 * nccl) move their bytes inside their library and copy moves none between
 * ranks: their rows record "library" and "local" instead (cb_algo_ops.moves).
 *
 * A backend offers a transport when it has the capabilities the transport
 * needs (CB_CAP_*); --transport auto takes the backend's one-sided transport
 * when every rank shares a host, p2p otherwise. */
#ifndef CB_TRANSPORT_H
#define CB_TRANSPORT_H

#include <stddef.h>

#include "cb_backend.h"

/* --transport's values, in the option table's order. */
enum cb_transport_id {
	CB_TRANSPORT_AUTO,
	CB_TRANSPORT_SHM,
	CB_TRANSPORT_IPC,
	CB_TRANSPORT_P2P,
	CB_TRANSPORT_COUNT
};

struct cb_transport {
	const char *name;        /* "auto", "shm", "ipc", "p2p": the rows' transport column */
	unsigned needs;          /* CB_CAP_* a backend must provide; 0 for auto */
	int one_sided;           /* 1: shm, ipc */
	const char *description; /* one line for --help */
};

/* The transport of id (AUTO included), or NULL past CB_TRANSPORT_COUNT. */
const struct cb_transport *cb_transport_get(int id);

/* NULL when a run of backend be can use transport id (AUTO always can);
 * else why not, in one sentence for a --transport error, written to buf
 * ("--transport shm moves host memory; the cuda backend offers ipc, p2p").
 * Pure: decided from the tables, the same on every rank. */
const char *cb_transport_refuses(int id, const struct cb_backend_ops *be, char *buf,
				 size_t len);

/* The transport a run uses: requested itself (cb_transport_refuses passed),
 * or for AUTO the backend's one-sided transport when be->single_node, else
 * p2p. The same on every rank. */
enum cb_transport_id cb_transport_resolve(int requested, const struct cb_backend *be);

/* The transport column of a row of algorithm algo on backend backend in a
 * run on one host with the default --transport: the algorithm's own
 * (cb_algo_ops.moves: "library", "local"), else the backend's one-sided
 * transport ("shm", "ipc"); NULL for a name neither table knows. For
 * reading files written before the column existed. Pure. */
const char *cb_transport_one_host(const char *backend, const char *algo);

#endif
