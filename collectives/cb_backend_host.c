/* Host backend: buffers in MPI-3 shared-memory windows on the node
 * communicator (Open MPI places their backing files in /dev/shm, see
 * osc_sm_backing_directory), moved with direct loads and stores from a peer's
 * mapping: the host twin of CUDA IPC. Progress flags are cache-line-sized
 * atomics in another shared window. */
#define _GNU_SOURCE
#include "cb_backend.h"

#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define CB_PAGE 4096u
/* Spins before the first yield: a few microseconds, the latency of a peer
 * that is already running. Past it a waiting rank yields its core so that
 * oversubscribed runs (more ranks than cores) still progress. */
#define CB_SPIN_LIMIT 4000u
#define CB_LIVENESS_EVERY 1024u

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ __volatile__("yield");
#endif
}

struct host_buf {
	MPI_Win win;
};

struct host_flag {
	_Atomic uint64_t progress;
	int32_t pid;
	char pad[64 - sizeof(uint64_t) - sizeof(int32_t)];
};

struct cb_flags {
	struct cb_buf *buf;
};

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

static enum cb_status host_buf_alloc(struct cb_backend *be, size_t bytes, struct cb_buf **out)
{
	struct cb_buf *buf;
	struct host_buf *hb;
	MPI_Info info;
	void *base = NULL;
	size_t padded = (bytes + CB_PAGE - 1) / CB_PAGE * CB_PAGE;
	enum cb_status st = CB_ERR_NOMEM;

	buf = calloc(1, sizeof(*buf));
	hb = calloc(1, sizeof(*hb));
	if (!buf || !hb)
		goto out_free_structs;
	buf->peer = calloc((size_t)be->nranks, sizeof(void *));
	if (!buf->peer)
		goto out_free_structs;
	buf->bytes = bytes;
	buf->impl = hb;
	MPI_Info_create(&info);
	/* page-aligned, separately mapped parts: no false sharing between ranks */
	MPI_Info_set(info, "alloc_shared_noncontig", "true");
	st = CB_MPI(MPI_Win_allocate_shared((MPI_Aint)padded, 1, info, be->node, &base, &hb->win));
	MPI_Info_free(&info);
	if (st != CB_OK)
		goto out_free_structs;
	for (int r = 0; r < be->nranks; r++) {
		MPI_Aint sz;
		int disp;
		void *p = NULL;

		st = CB_MPI(MPI_Win_shared_query(hb->win, r, &sz, &disp, &p));
		if (st != CB_OK)
			goto out_free_win;
		buf->peer[r] = sz > 0 ? p : NULL;
	}
	/* the owner touches its pages first: pre-faulted, local to its socket */
	if (bytes)
		memset(base, 0, padded);
	st = CB_MPI(MPI_Win_lock_all(MPI_MODE_NOCHECK, hb->win));
	if (st != CB_OK)
		goto out_free_win;
	st = CB_MPI(MPI_Barrier(be->node));
	if (st != CB_OK)
		goto out_unlock;
	*out = buf;
	return CB_OK;

out_unlock:
	MPI_Win_unlock_all(hb->win);
out_free_win:
	MPI_Win_free(&hb->win);
out_free_structs:
	if (buf)
		free(buf->peer);
	free(buf);
	free(hb);
	return st;
}

static void host_buf_free(struct cb_backend *be, struct cb_buf *buf)
{
	struct host_buf *hb;

	(void)be;
	if (!buf)
		return;
	hb = buf->impl;
	MPI_Win_unlock_all(hb->win);
	MPI_Win_free(&hb->win);
	free(buf->peer);
	free(hb);
	free(buf);
}

static enum cb_status host_upload(struct cb_backend *be, struct cb_buf *buf, size_t off,
				  const void *host, size_t bytes)
{
	if (off + bytes > buf->bytes)
		return CB_ERR_ARG;
	memcpy((char *)buf->peer[be->rank] + off, host, bytes);
	return CB_OK;
}

static enum cb_status host_download(struct cb_backend *be, void *host, struct cb_buf *buf,
				    size_t off, size_t bytes)
{
	if (off + bytes > buf->bytes)
		return CB_ERR_ARG;
	memcpy(host, (char *)buf->peer[be->rank] + off, bytes);
	return CB_OK;
}

static enum cb_status host_copy(struct cb_backend *be, struct cb_ref dst, struct cb_ref src,
				size_t bytes)
{
	if (bytes == 0)
		return CB_OK;
	memcpy(dst.ptr, src.ptr, bytes);
	cb_traffic_add(be, dst.rank, src.rank, bytes);
	return CB_OK;
}

static enum cb_status host_reduce(struct cb_backend *be, struct cb_ref dst, struct cb_ref a,
				  struct cb_ref b, size_t count, enum cb_dtype dt, enum cb_op op)
{
	size_t bytes = count * cb_dtype_size(dt);

	if (count == 0)
		return CB_OK;
	cb_reduce_host(dst.ptr, a.ptr, b.ptr, count, dt, op);
	cb_traffic_add(be, dst.rank, a.rank, bytes);
	cb_traffic_add(be, dst.rank, b.rank, bytes);
	return CB_OK;
}

static enum cb_status host_finalize(struct cb_backend *be, struct cb_ref buf, size_t count,
				    enum cb_dtype dt, enum cb_op op)
{
	cb_finalize_host(buf.ptr, count, dt, op, be->nranks);
	return CB_OK;
}

static enum cb_status host_flags_alloc(struct cb_backend *be, struct cb_flags **out)
{
	struct cb_flags *f = calloc(1, sizeof(*f));
	struct host_flag *mine;
	enum cb_status st;

	if (!f)
		return CB_ERR_NOMEM;
	st = host_buf_alloc(be, sizeof(struct host_flag), &f->buf);
	if (st != CB_OK) {
		free(f);
		return st;
	}
	mine = f->buf->peer[be->rank];
	atomic_store(&mine->progress, 0);
	mine->pid = (int32_t)getpid();
	st = CB_MPI(MPI_Barrier(be->node)); /* pids visible before any wait */
	if (st != CB_OK) {
		host_buf_free(be, f->buf);
		free(f);
		return st;
	}
	*out = f;
	return CB_OK;
}

static void host_flags_free(struct cb_backend *be, struct cb_flags *f)
{
	if (!f)
		return;
	host_buf_free(be, f->buf);
	free(f);
}

static enum cb_status host_post(struct cb_backend *be, struct cb_flags *f, uint64_t value)
{
	struct host_flag *mine = f->buf->peer[be->rank];

	/* a full fence: orders non-temporal stores of a large memcpy too */
	atomic_thread_fence(memory_order_seq_cst);
	atomic_store_explicit(&mine->progress, value, memory_order_release);
	return CB_OK;
}

static int peer_alive(pid_t pid)
{
	return kill(pid, 0) == 0 || errno != ESRCH;
}

static enum cb_status host_wait(struct cb_backend *be, struct cb_flags *f, int peer,
				uint64_t value)
{
	struct host_flag *pf = f->buf->peer[peer];

	for (unsigned long spins = 0;; spins++) {
		if (atomic_load_explicit(&pf->progress, memory_order_acquire) >= value)
			return CB_OK;
		if (spins < CB_SPIN_LIMIT) {
			cpu_relax();
			continue;
		}
		if (*be->abort_flag) {
			cb_log("gave up waiting for rank %d (its progress %llu, needed %llu)", peer,
			       (unsigned long long)atomic_load(&pf->progress),
			       (unsigned long long)value);
			return CB_ERR_TIMEOUT;
		}
		if (spins % CB_LIVENESS_EVERY == 0 && !peer_alive((pid_t)pf->pid)) {
			cb_log("rank %d (pid %d) died while this rank waited for it",
			       peer, (int)pf->pid);
			return CB_ERR_PEER;
		}
		sched_yield();
	}
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
	.name = "host",
	.init = host_init,
	.fini = host_fini,
	.buf_alloc = host_buf_alloc,
	.buf_free = host_buf_free,
	.upload = host_upload,
	.download = host_download,
	.copy = host_copy,
	.reduce = host_reduce,
	.finalize = host_finalize,
	.flags_alloc = host_flags_alloc,
	.flags_free = host_flags_free,
	.post = host_post,
	.wait = host_wait,
	.time_begin = host_time_begin,
	.time_end = host_time_end,
};
