/* Host backend: buffers in MPI-3 shared-memory windows on the node
 * communicator, moved with direct loads and stores from a peer's mapping:
 * the host twin of CUDA IPC (transport shm). Progress flags are
 * cache-line-sized atomics in another shared window (cb_shm.c). Across hosts
 * its buffers move over MPI point-to-point (transport p2p, cb_p2p_mpi.c). */
#define _GNU_SOURCE
#include "cb_backend.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cb_shm.h"

extern const struct cb_p2p_ops cb_p2p_mpi_ops;

struct host_state {
	struct timespec t0;
};

static enum cb_status host_init(struct cb_backend *be)
{
	be->impl = calloc(1, sizeof(struct host_state));
	if (!be->impl)
		return CB_ERR_NOMEM;
	be->device_desc[0] = '\0';
	return CB_OK;
}

static void host_fini(struct cb_backend *be)
{
	free(be->impl);
	be->impl = NULL;
}

static enum cb_status host_upload(struct cb_backend *be, struct cb_buf *buf, size_t off,
				  const void *host, size_t bytes)
{
	if (off + bytes > buf->bytes)
		return CB_ERR_ARG;
	memcpy((char *)buf->peer[be->node_rank] + off, host, bytes);
	return CB_OK;
}

static enum cb_status host_download(struct cb_backend *be, void *host, struct cb_buf *buf,
				    size_t off, size_t bytes)
{
	if (off + bytes > buf->bytes)
		return CB_ERR_ARG;
	memcpy(host, (char *)buf->peer[be->node_rank] + off, bytes);
	return CB_OK;
}

static enum cb_status host_copy(struct cb_backend *be, struct cb_ref dst, struct cb_ref src,
				size_t bytes)
{
	(void)be;
	memcpy(dst.ptr, src.ptr, bytes);
	return CB_OK;
}

static enum cb_status host_reduce(struct cb_backend *be, struct cb_ref dst, struct cb_ref a,
				  struct cb_ref b, size_t count, enum cb_dtype dt, enum cb_op op)
{
	(void)be;
	cb_reduce_host(dst.ptr, a.ptr, b.ptr, count, dt, op);
	return CB_OK;
}

static enum cb_status host_finalize(struct cb_backend *be, struct cb_ref buf, size_t count,
				    enum cb_dtype dt, enum cb_op op)
{
	cb_finalize_host(buf.ptr, count, dt, op, be->world_size);
	return CB_OK;
}

static enum cb_status host_flags_alloc(struct cb_backend *be, struct cb_flags **out)
{
	return cb_host_flags_alloc(be, (struct cb_host_flags **)out);
}

static void host_flags_free(struct cb_backend *be, struct cb_flags *f)
{
	cb_host_flags_free(be, (struct cb_host_flags *)f);
}

static enum cb_status host_post(struct cb_backend *be, struct cb_flags *f, uint64_t value)
{
	cb_host_flags_post(be, (struct cb_host_flags *)f, value);
	return CB_OK;
}

static enum cb_status host_wait(struct cb_backend *be, struct cb_flags *f, int peer,
				uint64_t value)
{
	return cb_host_flags_wait(be, (struct cb_host_flags *)f, peer, value);
}

static int host_ready(struct cb_backend *be, struct cb_flags *f, int peer, uint64_t value)
{
	(void)be;
	return cb_host_flags_ready((struct cb_host_flags *)f, peer, value);
}

static enum cb_status host_time_begin(struct cb_backend *be)
{
	struct host_state *hs = be->impl;

	clock_gettime(CLOCK_MONOTONIC, &hs->t0);
	return CB_OK;
}

static enum cb_status host_time_end(struct cb_backend *be, double *us)
{
	struct host_state *hs = be->impl;
	struct timespec t1;

	clock_gettime(CLOCK_MONOTONIC, &t1);
	*us = (double)(t1.tv_sec - hs->t0.tv_sec) * 1e6 +
	      (double)(t1.tv_nsec - hs->t0.tv_nsec) * 1e-3;
	return CB_OK;
}

const struct cb_backend_ops cb_backend_host_ops = {
	.desc = &cb_desc_host,
	.init = host_init,
	.fini = host_fini,
	.buf_alloc = cb_shm_alloc,
	.buf_free = cb_shm_free,
	.upload = host_upload,
	.download = host_download,
	.copy = host_copy,
	.reduce = host_reduce,
	.finalize = host_finalize,
	.flags_alloc = host_flags_alloc,
	.flags_free = host_flags_free,
	.post = host_post,
	.wait = host_wait,
	.ready = host_ready,
	.time_begin = host_time_begin,
	.time_end = host_time_end,
	.p2p = &cb_p2p_mpi_ops,
};
