/* p2p over NCCL point-to-point: the two-sided transport of GPU buffers
 * (contract in cb_p2p.h). A round is one NCCL group (ncclGroupStart, the
 * round's ncclSend/ncclRecv on the rank's stream, ncclGroupEnd): its
 * operations progress together and the group runs on the stream before
 * whatever the rank enqueues next, so the reduce kernel that follows a round
 * sees its data and round_wait has nothing to wait for. Bytes go as ncclUint8.
 * Its own world communicator (cb_nccl.h: non-blocking, polled, watching the
 * watchdog); NCCL needs one GPU per rank, so where ranks share a GPU it
 * reaches nobody and ps and ring over p2p skip, saying why. Compiled where
 * NCCL is (cmake/cuda.cmake); cb_p2p_nccl_stub.c elsewhere. */
#include <stdlib.h>

#include "cb_cuda.h"
#include "cb_cuda_util.h"
#include "cb_nccl.h"
#include "cb_p2p.h"

static ncclComm_t *comm_of(struct cb_p2p *p)
{
	return p->impl;
}

static enum cb_status nccl_open(struct cb_p2p *p, int max_ops)
{
	ncclComm_t *comm = calloc(1, sizeof(*comm));
	enum cb_status st;

	(void)max_ops; /* NCCL keeps a group's operations itself */
	if (!comm)
		return CB_ERR_NOMEM;
	st = cb_nccl_comm_init(p->be, comm);
	if (st != CB_OK) {
		free(comm);
		return st;
	}
	p->impl = comm;
	return CB_OK;
}

static void nccl_close(struct cb_p2p *p)
{
	cb_nccl_comm_close(p->be, *comm_of(p));
	free(p->impl);
	p->impl = NULL;
}

/* Zeroed on the rank's stream and waited for: cudaMemset would run on the
 * legacy default stream, which does not order with the rank's non-blocking
 * stream, and returns before it is done ("asynchronous with respect to the
 * host": Runtime API, API synchronization behavior), so it could land after
 * a receive into the buffer. */
static enum cb_status nccl_alloc(struct cb_p2p *p, size_t bytes, void **out)
{
	cudaStream_t s = cb_cuda_stream(p->be);
	enum cb_status st;

	*out = NULL;
	st = CB_CUDA(cudaMalloc(out, bytes));
	if (st == CB_OK)
		st = CB_CUDA(cudaMemsetAsync(*out, 0, bytes, s));
	if (st == CB_OK)
		st = CB_CUDA(cudaStreamSynchronize(s));
	if (st != CB_OK && *out) {
		cudaFree(*out);
		*out = NULL;
	}
	return st;
}

static void nccl_free(struct cb_p2p *p, void *ptr)
{
	(void)p;
	cudaFree(ptr);
}

static enum cb_status nccl_round_begin(struct cb_p2p *p)
{
	return CB_NCCL(ncclGroupStart(), *comm_of(p));
}

static enum cb_status nccl_send(struct cb_p2p *p, int peer, const void *buf, size_t bytes)
{
	return CB_NCCL_DONE(p->be, comm_of(p), ncclSend(buf, bytes, ncclUint8, peer, *comm_of(p),
							  cb_cuda_stream(p->be)));
}

static enum cb_status nccl_recv(struct cb_p2p *p, int peer, void *buf, size_t bytes)
{
	return CB_NCCL_DONE(p->be, comm_of(p), ncclRecv(buf, bytes, ncclUint8, peer, *comm_of(p),
							  cb_cuda_stream(p->be)));
}

static enum cb_status nccl_round_end(struct cb_p2p *p)
{
	return CB_NCCL_DONE(p->be, comm_of(p), ncclGroupEnd());
}

/* Ordered on the stream before the rank's next work: nothing to wait for. */
static enum cb_status nccl_round_wait(struct cb_p2p *p)
{
	(void)p;
	return CB_OK;
}

const struct cb_p2p_ops cb_p2p_nccl_ops = {
	.name = "NCCL point-to-point (ncclSend/ncclRecv in groups)",
	.reaches = cb_nccl_shared_gpu_reason,
	.open = nccl_open,
	.close = nccl_close,
	.alloc = nccl_alloc,
	.free = nccl_free,
	.round_begin = nccl_round_begin,
	.send = nccl_send,
	.recv = nccl_recv,
	.round_end = nccl_round_end,
	.round_wait = nccl_round_wait,
};
