/* cb_peers: the ranks of this host that have ended (contract in cb_peers.h). */
#define _GNU_SOURCE
#include "cb_peers.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cb_world.h"

enum cb_status cb_peers_init(struct cb_peers *p, MPI_Comm world, const struct cb_preflight *pf)
{
	int mine = (int)getpid();
	enum cb_status st;

	memset(p, 0, sizeof(*p));
	MPI_Comm_size(world, &p->nranks);
	MPI_Comm_rank(world, &p->me);
	p->host_of = pf->host_of;
	p->pid = calloc((size_t)p->nranks, sizeof(*p->pid));
	if (!p->pid)
		return CB_ERR_NOMEM;
	st = CB_MPI(MPI_Allgather(&mine, 1, MPI_INT, p->pid, 1, MPI_INT, world));
	if (st != CB_OK) {
		free(p->pid);
		p->pid = NULL;
	}
	return st;
}

int cb_peers_gone(const struct cb_peers *p, char *buf, size_t len)
{
	size_t k = 0;
	int gone = 0;

	if (len)
		buf[0] = '\0';
	for (int r = 0; p->pid && p->host_of && r < p->nranks; r++) {
		if (r == p->me || p->host_of[r] != p->host_of[p->me] || p->pid[r] <= 0)
			continue;
		if (kill((pid_t)p->pid[r], 0) == 0 || errno != ESRCH)
			continue;
		if (k < len)
			k += (size_t)snprintf(buf + k, len - k, "%srank %d (pid %d)", gone ? ", " : "",
					      r, p->pid[r]);
		gone++;
	}
	return gone;
}

void cb_peers_free(struct cb_peers *p)
{
	free(p->pid);
	memset(p, 0, sizeof(*p));
}
