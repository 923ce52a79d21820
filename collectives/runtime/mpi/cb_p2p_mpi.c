/* p2p over MPI non-blocking point-to-point: the two-sided transport of host
 * buffers (contract in cb_p2p.h). Its own communicator (a dup of the world),
 * so its messages never meet the harness's; one tag, so messages between two
 * ranks match in the order they were posted (MPI's non-overtaking rule),
 * which is the order of the rounds. A round is a set of requests; waiting for
 * it polls MPI_Testall (which progresses every request) with a pause, then a
 * yield, between polls, watching the watchdog's flag. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "cb_p2p.h"
#include "cb_shm.h"

#define CB_P2P_TAG 4242

struct mpi_p2p {
	MPI_Comm comm;
	MPI_Request *req; /* [CB_P2P_ROUNDS][max_ops] */
	int n[CB_P2P_ROUNDS];
	int head;         /* slot of the oldest outstanding round */
	int cur;          /* slot of the open round */
};

static struct mpi_p2p *impl(struct cb_p2p *p)
{
	return p->impl;
}

static enum cb_status mpi_open(struct cb_p2p *p, int max_ops)
{
	struct mpi_p2p *m = calloc(1, sizeof(*m));
	enum cb_status st;

	if (!m)
		return CB_ERR_NOMEM;
	m->req = calloc((size_t)CB_P2P_ROUNDS * (size_t)max_ops, sizeof(*m->req));
	if (!m->req) {
		free(m);
		return CB_ERR_NOMEM;
	}
	st = CB_MPI(MPI_Comm_dup(p->be->world, &m->comm));
	if (st != CB_OK) {
		free(m->req);
		free(m);
		return st;
	}
	p->impl = m;
	return CB_OK;
}

static void mpi_close(struct cb_p2p *p)
{
	struct mpi_p2p *m = impl(p);

	MPI_Comm_free(&m->comm);
	free(m->req);
	free(m);
	p->impl = NULL;
}

/* Page-aligned, zeroed (and so faulted in) by this rank. */
static enum cb_status mpi_alloc(struct cb_p2p *p, size_t bytes, void **out)
{
	(void)p;
	if (posix_memalign(out, 4096, bytes) != 0) {
		*out = NULL;
		return CB_ERR_NOMEM;
	}
	memset(*out, 0, bytes);
	return CB_OK;
}

static void mpi_free(struct cb_p2p *p, void *ptr)
{
	(void)p;
	free(ptr);
}

static enum cb_status mpi_round_begin(struct cb_p2p *p)
{
	struct mpi_p2p *m = impl(p);

	m->cur = (m->head + p->outstanding) % CB_P2P_ROUNDS;
	m->n[m->cur] = 0;
	return CB_OK;
}

static MPI_Request *next_request(struct cb_p2p *p)
{
	struct mpi_p2p *m = impl(p);

	return &m->req[(size_t)m->cur * (size_t)p->max_ops + (size_t)m->n[m->cur]++];
}

static enum cb_status mpi_send(struct cb_p2p *p, int peer, const void *buf, size_t bytes)
{
	return CB_MPI(MPI_Isend(buf, (int)bytes, MPI_BYTE, peer, CB_P2P_TAG, impl(p)->comm,
				next_request(p)));
}

static enum cb_status mpi_recv(struct cb_p2p *p, int peer, void *buf, size_t bytes)
{
	return CB_MPI(MPI_Irecv(buf, (int)bytes, MPI_BYTE, peer, CB_P2P_TAG, impl(p)->comm,
				next_request(p)));
}

static enum cb_status mpi_round_end(struct cb_p2p *p)
{
	(void)p;
	return CB_OK;
}

/* The oldest round: every request complete. */
static enum cb_status mpi_round_wait(struct cb_p2p *p)
{
	struct mpi_p2p *m = impl(p);
	MPI_Request *req = &m->req[(size_t)m->head * (size_t)p->max_ops];
	int n = m->n[m->head], done = 0;
	enum cb_status st = CB_OK;

	for (unsigned long polls = 0; st == CB_OK && !done; polls++) {
		st = CB_MPI(MPI_Testall(n, req, &done, MPI_STATUSES_IGNORE));
		if (st == CB_OK && !done && *p->be->abort_flag) {
			cb_log("p2p: gave up waiting for a round of %d MPI requests (%s)", n,
			       *p->be->abort_flag == CB_ABORT_SIGNAL ? "stopped by a signal" : "watchdog");
			st = CB_ERR_TIMEOUT;
		}
		if (st == CB_OK && !done)
			cb_backoff(polls);
	}
	m->head = (m->head + 1) % CB_P2P_ROUNDS;
	return st;
}

const struct cb_p2p_ops cb_p2p_mpi_ops = {
	.name = "MPI point-to-point (MPI_Isend/MPI_Irecv)",
	.open = mpi_open,
	.close = mpi_close,
	.alloc = mpi_alloc,
	.free = mpi_free,
	.round_begin = mpi_round_begin,
	.send = mpi_send,
	.recv = mpi_recv,
	.round_end = mpi_round_end,
	.round_wait = mpi_round_wait,
};
