/* cb_model_sched_int: the step evaluator's state, shared by cb_model_sched.c
 * (ps, copy, the dispatch) and cb_model_ring.c (the ring). Internal. */
#ifndef CB_MODEL_SCHED_INT_H
#define CB_MODEL_SCHED_INT_H

#include "cb_model.h"

/* Scratch and accumulators of one evaluation. */
struct ev {
	const struct cb_topo *t;
	int n, nhosts, nlinks;  /* nlinks: network links (hosts or ranks) */
	double *out, *in, *red; /* [n] this step's intra-host loads and reduce bytes */
	double *nout, *nin;     /* [nlinks] this step's network loads */
	double *tx, *rx;        /* [n] bytes per call, per rank */
	double *htx, *hrx;      /* [nhosts] network bytes per call, per host */
	int *list;              /* [n + nlinks] indexes touched this step */
	size_t nlist;
	unsigned *mark;         /* [n + nlinks] step stamp of the last listing */
	unsigned stamp;         /* this step's stamp */
	double alpha;           /* this step's latency */
	int msgs;               /* this step sent a message (even of 0 bytes) */
	int fused;              /* one-sided: moving and reducing overlap */
	enum cb_ring_eval ring_how;
	struct cb_model_result *r;
};

static inline int host_of(const struct ev *e, int r)
{
	return e->t->rank_host ? e->t->rank_host[r] : r / e->t->ranks_per_host;
}

static inline int link_of(const struct ev *e, int r)
{
	return e->t->net_attach == CB_NET_PER_RANK ? r : host_of(e, r);
}

/* Adds a transfer of bytes from src to dst (dst reduces `reduce` bytes of it)
 * to the open step, and mult times to the per-call totals. */
void cb_ev_xfer(struct ev *e, int src, int dst, double bytes, double reduce, double mult);

/* Closes the open step, counted mult times. */
void cb_ev_close(struct ev *e, double mult);

/* Accounts one step, counted mult times, from its latency, its slowest link
 * time, its most loaded link's bytes and its most reduce bytes. */
void cb_ev_account(struct ev *e, double alpha, double bwt, double maxb, double maxred, int msgs,
		   double mult);

/* The ring (cb_model_ring.c). Returns CB_OK or CB_ERR_NOMEM. */
enum cb_status cb_ev_ring(struct ev *e, const struct cb_model_case *c);

#endif
