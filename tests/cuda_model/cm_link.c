/* The model's links between GPUs (cm_model.h, cm_link.c section): the bytes
 * each model GPU sent and received over each of its links, in a
 * shared-memory segment that every process of one run maps (the model's
 * GPUs are shared: device k is the same GPU in every process), named
 * "/cbm-<parent pid>-links" as the time-slicing records are (cm_slice.c):
 * the ranks of one mpirun share it, separate runs do not. It is never
 * unlinked while that parent lives; cm_init removes it after (cm_error.c).
 * A pair's bytes go on one link of each end (src's link dst % links, dst's
 * link src % links): NVSwitch boxes spread them over all, but only the sum
 * over links is read back by the suite. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cm_model.h"

struct links {
	unsigned long long tx[CM_MAX_GPUS][CM_MAX_LINKS], rx[CM_MAX_GPUS][CM_MAX_LINKS];
};

static struct links *seg;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void map_seg(void)
{
	char name[64];
	int fd;
	void *p = MAP_FAILED;

	snprintf(name, sizeof(name), "/cbm-%d-links", (int)getppid());
	fd = shm_open(name, O_RDWR | O_CREAT, 0600);
	if (fd >= 0 && ftruncate(fd, sizeof(struct links)) == 0)
		p = mmap(NULL, sizeof(struct links), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (fd >= 0)
		close(fd);
	seg = p == MAP_FAILED ? NULL : p;
	if (!seg)
		cm_log("links: cannot map %s; the model's link counters count nothing", name);
}

static struct links *links(void)
{
	pthread_once(&once, map_seg);
	return seg;
}

static int nlinks(void)
{
	int n = cm_topo()->nvlink_links;

	return n < 1 ? 1 : n > CM_MAX_LINKS ? CM_MAX_LINKS : n;
}

void cm_link_move(int src, int dst, unsigned long long bytes)
{
	struct links *l = links();

	if (!l || src == dst || src < 0 || dst < 0 || src >= CM_MAX_GPUS || dst >= CM_MAX_GPUS || !bytes)
		return;
	__atomic_add_fetch(&l->tx[src][dst % nlinks()], bytes, __ATOMIC_RELAXED);
	__atomic_add_fetch(&l->rx[dst][src % nlinks()], bytes, __ATOMIC_RELAXED);
}

void cm_link_bytes(int dev, int link, unsigned long long *tx, unsigned long long *rx)
{
	struct links *l = links();

	*tx = *rx = 0;
	if (!l || dev < 0 || dev >= CM_MAX_GPUS)
		return;
	for (int k = 0; k < CM_MAX_LINKS; k++)
		if (link < 0 || k == link) {
			*tx += __atomic_load_n(&l->tx[dev][k], __ATOMIC_RELAXED);
			*rx += __atomic_load_n(&l->rx[dev][k], __ATOMIC_RELAXED);
		}
}

void cm_link_touch(int device, const void *p, size_t bytes, int write)
{
	int d = -1;
	enum cm_mem_kind k = cm_mem_lookup(p, bytes, &d);

	if ((k != CM_OWN && k != CM_MAPPED) || d == device || d < 0)
		return;
	if (write)
		cm_link_move(device, d, bytes);
	else
		cm_link_move(d, device, bytes);
}

void cm_link_copy(const void *dst, const void *src, size_t bytes)
{
	int ds = -1, dd = -1;
	enum cm_mem_kind ks = cm_mem_lookup(src, bytes, &ds), kd = cm_mem_lookup(dst, bytes, &dd);

	if ((ks == CM_OWN || ks == CM_MAPPED) && (kd == CM_OWN || kd == CM_MAPPED))
		cm_link_move(ds, dd, bytes);
}
