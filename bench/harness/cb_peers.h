/* cb_peers: which ranks of this host have ended, for the message of a run
 * that stops. When a rank dies (SIGKILL, the OOM killer, a crash), mpirun
 * sends SIGTERM to the others; a rank stopped so, or one whose wait gave
 * up, then names the dead peer instead of calling it a timeout or a signal
 * alone. One allgather of the ranks' process ids at the start; at the end,
 * kill(pid, 0) on the ranks of this host (cb_preflight's host_of): ESRCH
 * means the process is gone. Ranks of other hosts cannot be asked, and are
 * not named. */
#ifndef CB_PEERS_H
#define CB_PEERS_H

#include <mpi.h>
#include <stddef.h>

#include "cb_preflight.h"
#include "cb_status.h"

struct cb_peers {
	int nranks, me;
	int *pid;           /* [nranks] each rank's process id; NULL: not known */
	const int *host_of; /* [nranks] the pre-flight's host index of each rank */
};

/* Collective over world: gathers every rank's pid. pf must outlive p.
 * Errors: CB_ERR_NOMEM, CB_ERR_MPI (p then knows no pid: cb_peers_gone
 * names nobody). */
enum cb_status cb_peers_init(struct cb_peers *p, MPI_Comm world, const struct cb_preflight *pf);

/* Writes "rank R (pid P)[, rank R2 (pid P2) ...]" into buf (len bytes) for
 * the other ranks of this host whose process is gone; "" when none is (or
 * none can be known). Returns how many are gone. Makes no MPI call: safe
 * while the job is coming down. */
int cb_peers_gone(const struct cb_peers *p, char *buf, size_t len);

void cb_peers_free(struct cb_peers *p);

#endif
