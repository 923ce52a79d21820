/* Host shared memory between the ranks of a node; see cb_shm.h. */
#define _GNU_SOURCE
#include "cb_shm.h"

#include <sched.h>
#include <stdint.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>

#include "cb_wait.h"

#define CB_PAGE 4096u
/* cb_backoff's spins before the first yield (collbench 0.1's wait) */
#define CB_SPIN_LIMIT 4000u

struct shm_buf {
	MPI_Win win;
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
	if (be->node_rank == 0 && statvfs("/dev/shm", &sv) == 0 &&
	    (uint64_t)sv.f_bavail * sv.f_frsize < total) {
		cb_log("shared memory: %llu B needed on this host, %llu B free in /dev/shm",
		       (unsigned long long)total, (unsigned long long)sv.f_bavail * sv.f_frsize);
		ok = 0;
	}
	if (MPI_Bcast(&ok, 1, MPI_INT, 0, be->node) != MPI_SUCCESS)
		return CB_ERR_MPI;
	return ok ? CB_OK : CB_ERR_NOMEM;
}

/* The node's shared window, padded bytes per rank, and where each rank's
 * part is mapped here (buf->peer). On error no window is left. */
static enum cb_status map_window(struct cb_backend *be, size_t padded, struct cb_buf *buf,
				 struct shm_buf *hb, void **base)
{
	MPI_Info info;
	enum cb_status st;

	MPI_Info_create(&info);
	/* page-aligned, separately mapped parts: no false sharing between ranks */
	MPI_Info_set(info, "alloc_shared_noncontig", "true");
	st = CB_MPI(MPI_Win_allocate_shared((MPI_Aint)padded, 1, info, be->node, base, &hb->win));
	MPI_Info_free(&info);
	for (int r = 0; r < be->node_size && st == CB_OK; r++) {
		MPI_Aint sz = 0;
		int disp;
		void *p = NULL;

		st = CB_MPI(MPI_Win_shared_query(hb->win, r, &sz, &disp, &p));
		buf->peer[r] = sz > 0 ? p : NULL;
		if (st != CB_OK)
			MPI_Win_free(&hb->win);
	}
	return st;
}

enum cb_status cb_shm_alloc(struct cb_backend *be, size_t bytes, struct cb_buf **out)
{
	struct cb_buf *buf;
	struct shm_buf *hb;
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
	buf->peer = calloc((size_t)be->node_size, sizeof(void *));
	if (!buf->peer)
		goto out_free_structs;
	buf->bytes = bytes;
	buf->impl = hb;
	st = map_window(be, padded, buf, hb, &base);
	if (st != CB_OK)
		goto out_free_structs;
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
	enum cb_status st;

	if (!f)
		return CB_ERR_NOMEM;
	st = cb_shm_alloc(be, sizeof(struct cb_flag), &f->buf);
	if (st != CB_OK) {
		free(f);
		return st;
	}
	cb_flag_init(f->buf->peer[be->node_rank]);
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
	cb_flag_post(f->buf->peer[be->node_rank], value);
}

int cb_host_flags_peer_alive(const struct cb_host_flags *f, int peer)
{
	return cb_flag_owner_alive(f->buf->peer[peer]);
}

int cb_host_flags_ready(struct cb_host_flags *f, int peer, uint64_t value)
{
	return cb_flag_ready(f->buf->peer[peer], value);
}

enum cb_status cb_host_flags_wait(struct cb_backend *be, struct cb_host_flags *f, int peer,
				  uint64_t value)
{
	struct cb_flag *pf = f->buf->peer[peer];
	enum cb_status st = cb_flag_wait(pf, value, &be->wait, be->abort_flag, NULL);

	if (st == CB_ERR_TIMEOUT)
		cb_log("gave up waiting for rank %d (its progress %llu, needed %llu; %s)", peer,
		       (unsigned long long)atomic_load(&pf->progress), (unsigned long long)value,
		       cb_abort_why(*be->abort_flag, st));
	else if (st == CB_ERR_PEER)
		cb_log("rank %d (pid %d) died while this rank waited for it", peer, (int)pf->pid);
	return st;
}
