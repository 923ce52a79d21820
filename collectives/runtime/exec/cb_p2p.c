/* Two-sided point-to-point: opening, round bookkeeping and traffic counting
 * shared by the implementations (contract in cb_p2p.h). */
#include "cb_p2p.h"

#include <stdlib.h>

const char *cb_p2p_unusable(const struct cb_backend *be)
{
	const struct cb_p2p_ops *ops = be->ops->p2p;

	if (!ops)
		return "the backend has no two-sided transport";
	if (ops->missing)
		return ops->missing;
	return ops->reaches ? ops->reaches(be) : NULL;
}

enum cb_status cb_p2p_open(struct cb_backend *be, int max_ops, struct cb_p2p **out)
{
	struct cb_p2p *p;
	enum cb_status st;

	*out = NULL;
	if (cb_p2p_unusable(be))
		return CB_ERR_UNSUPPORTED;
	p = calloc(1, sizeof(*p));
	if (!p)
		return CB_ERR_NOMEM;
	p->ops = be->ops->p2p;
	p->be = be;
	p->max_ops = max_ops;
	p->in_round = -1;
	st = p->ops->open(p, max_ops);
	if (st != CB_OK) {
		free(p);
		return st;
	}
	*out = p;
	return CB_OK;
}

void cb_p2p_close(struct cb_p2p *p)
{
	if (!p)
		return;
	p->ops->close(p);
	free(p);
}

void cb_p2p_close_staged(struct cb_p2p *p, void *const *stage, int n)
{
	for (int i = 0; i < n && p; i++)
		if (stage[i])
			p->ops->free(p, stage[i]);
	cb_p2p_close(p);
}

enum cb_status cb_p2p_round_begin(struct cb_p2p *p)
{
	if (p->in_round >= 0 || p->outstanding >= CB_P2P_ROUNDS) {
		cb_log("p2p: a round begun with %d outstanding%s (a schedule's bug)", p->outstanding,
		       p->in_round >= 0 ? " and one open" : "");
		return CB_ERR_ARG;
	}
	p->in_round = 0;
	return p->ops->round_begin(p);
}

/* One more operation in the open round, or CB_ERR_ARG. */
static enum cb_status one_more(struct cb_p2p *p)
{
	if (p->in_round < 0 || p->in_round >= p->max_ops) {
		cb_log("p2p: %s (a schedule's bug)", p->in_round < 0 ? "an operation outside a round" :
		       "more operations in a round than it was opened for");
		return CB_ERR_ARG;
	}
	p->in_round++;
	return CB_OK;
}

enum cb_status cb_p2p_send(struct cb_p2p *p, int peer, const void *buf, size_t bytes)
{
	enum cb_status st;
	struct cb_acct_span t0;

	if (bytes == 0)
		return CB_OK;
	st = one_more(p);
	t0 = cb_acct_begin(p->be); /* posting (an eager send copies): busy */
	if (st == CB_OK)
		st = p->ops->send(p, peer, buf, bytes);
	cb_acct_busy(p->be, t0);
	if (st == CB_OK) /* handed to a send: it leaves this rank's memory */
		p->be->tx[p->be->world_rank] += bytes;
	return st;
}

enum cb_status cb_p2p_recv(struct cb_p2p *p, int peer, void *buf, size_t bytes)
{
	enum cb_status st;
	struct cb_acct_span t0;

	if (bytes == 0)
		return CB_OK;
	st = one_more(p);
	t0 = cb_acct_begin(p->be);
	if (st == CB_OK)
		st = p->ops->recv(p, peer, buf, bytes);
	cb_acct_busy(p->be, t0);
	if (st == CB_OK) /* received: it arrives in this rank's memory */
		p->be->rx[p->be->world_rank] += bytes;
	return st;
}

enum cb_status cb_p2p_round_end(struct cb_p2p *p)
{
	if (p->in_round < 0) {
		cb_log("p2p: a round ended that was not begun (a schedule's bug)");
		return CB_ERR_ARG;
	}
	p->in_round = -1;
	p->outstanding++;
	return p->ops->round_end(p);
}

enum cb_status cb_p2p_round_wait(struct cb_p2p *p)
{
	if (p->outstanding == 0) {
		cb_log("p2p: a wait with no round outstanding (a schedule's bug)");
		return CB_ERR_ARG;
	}
	uint64_t t0;
	enum cb_status st;

	p->outstanding--;
	/* waiting for the peers; the library moves the bytes meanwhile */
	t0 = cb_acct_now(p->be);
	st = p->ops->round_wait(p);
	cb_acct_wait(p->be, t0);
	return st;
}
