/* Host shared memory between the ranks of a node; see cb_shm.h. */
#define _GNU_SOURCE
#include "cb_shm.h"

#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>
#include <unistd.h>

#define CB_PAGE 4096u
/* Spins before the first yield: a few microseconds, the latency of a peer
 * that is already running. Past it a waiting rank yields its core so that
 * oversubscribed runs (more ranks than cores) still progress. */
#define CB_SPIN_LIMIT 4000u
#define CB_LIVENESS_EVERY 1024u

struct shm_buf {
	MPI_Win win;
};

struct host_flag {
	_Atomic uint64_t progress;
	int32_t pid;
	char pad[64 - sizeof(uint64_t) - sizeof(int32_t)];
};

struct cb_host_flags {
	struct cb_buf *buf;
};

void cb_backoff(unsigned long spins)
{
	if (spins < CB_SPIN_LIMIT) {
#if defined(__x86_64__) || defined(__i386__)
		__builtin_ia32_pause();
#elif defined(__aarch64__)
		__asm__ __volatile__("yield");
#endif
		return;
	}
	sched_yield();
}

/* Whether /dev/shm (where Open MPI backs shared windows) has `total` bytes
 * free, decided on node rank 0 and broadcast, so every rank gives the same
 * answer: a window that does not fit fails on the ranks that create it but
 * not on the others, which would then wait in the next collective. */
static enum cb_status shm_space(struct cb_backend *be, size_t padded)
{
	uint64_t mine = padded, total = 0;
	int ok = 1;
	struct statvfs sv;

	if (MPI_Allreduce(&mine, &total, 1, MPI_UINT64_T, MPI_SUM, be->node) != MPI_SUCCESS)
		return CB_ERR_MPI;
	if (be->rank == 0 && statvfs("/dev/shm", &sv) == 0 &&
	    (uint64_t)sv.f_bavail * sv.f_frsize < total) {
		cb_log("shared memory: %llu B needed on this host, %llu B free in /dev/shm",
		       (unsigned long long)total, (unsigned long long)sv.f_bavail * sv.f_frsize);
		ok = 0;
	}
	if (MPI_Bcast(&ok, 1, MPI_INT, 0, be->node) != MPI_SUCCESS)
		return CB_ERR_MPI;
	return ok ? CB_OK : CB_ERR_NOMEM;
}

enum cb_status cb_shm_alloc(struct cb_backend *be, size_t bytes, struct cb_buf **out)
{
	struct cb_buf *buf;
	struct shm_buf *hb;
	MPI_Info info;
	void *base = NULL;
	size_t padded = (bytes + CB_PAGE - 1) / CB_PAGE * CB_PAGE;
	enum cb_status st = CB_ERR_NOMEM;

	/* sizes are capped far below (CB_MAX_MESSAGE): rounding cannot wrap */
	st = shm_space(be, padded);
	if (st != CB_OK)
		return st;
	st = CB_ERR_NOMEM;
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

void cb_shm_free(struct cb_backend *be, struct cb_buf *buf)
{
	struct shm_buf *hb;

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

enum cb_status cb_host_flags_alloc(struct cb_backend *be, struct cb_host_flags **out)
{
	struct cb_host_flags *f = calloc(1, sizeof(*f));
	struct host_flag *mine;
	enum cb_status st;

	if (!f)
		return CB_ERR_NOMEM;
	st = cb_shm_alloc(be, sizeof(struct host_flag), &f->buf);
	if (st != CB_OK) {
		free(f);
		return st;
	}
	mine = f->buf->peer[be->rank];
	atomic_store(&mine->progress, 0);
	mine->pid = (int32_t)getpid();
	st = CB_MPI(MPI_Barrier(be->node)); /* pids visible before any wait */
	if (st != CB_OK) {
		cb_shm_free(be, f->buf);
		free(f);
		return st;
	}
	*out = f;
	return CB_OK;
}

void cb_host_flags_free(struct cb_backend *be, struct cb_host_flags *f)
{
	if (!f)
		return;
	cb_shm_free(be, f->buf);
	free(f);
}

void cb_host_flags_post(struct cb_backend *be, struct cb_host_flags *f, uint64_t value)
{
	struct host_flag *mine = f->buf->peer[be->rank];

	/* a full fence: orders non-temporal stores of a large memcpy too */
	atomic_thread_fence(memory_order_seq_cst);
	atomic_store_explicit(&mine->progress, value, memory_order_release);
}

int cb_host_flags_peer_alive(const struct cb_host_flags *f, int peer)
{
	const struct host_flag *pf = f->buf->peer[peer];

	return kill((pid_t)pf->pid, 0) == 0 || errno != ESRCH;
}

enum cb_status cb_host_flags_wait(struct cb_backend *be, struct cb_host_flags *f, int peer,
				  uint64_t value)
{
	struct host_flag *pf = f->buf->peer[peer];

	for (unsigned long spins = 0;; spins++) {
		if (atomic_load_explicit(&pf->progress, memory_order_acquire) >= value)
			return CB_OK;
		cb_backoff(spins);
		if (spins < CB_SPIN_LIMIT)
			continue;
		if (*be->abort_flag) {
			cb_log("gave up waiting for rank %d (its progress %llu, needed %llu)", peer,
			       (unsigned long long)atomic_load(&pf->progress),
			       (unsigned long long)value);
			return CB_ERR_TIMEOUT;
		}
		if (spins % CB_LIVENESS_EVERY == 0 && !cb_host_flags_peer_alive(f, peer)) {
			cb_log("rank %d (pid %d) died while this rank waited for it", peer,
			       (int)pf->pid);
			return CB_ERR_PEER;
		}
	}
}
