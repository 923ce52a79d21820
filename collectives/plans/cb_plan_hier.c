/* Hierarchical allreduce as a plan, for ranks on several hosts
 * (cb_plan_args.rank_host; NULL: one host). With K the fewest ranks of any
 * host, the buffer is cut into K shards (cb_chunk); on every host, the
 * host's k-th rank (in rank order) owns shard k. Round 0, inside each host:
 * each owner reduces its shard over the host's inputs, in rank order, into
 * its STAGE, which holds that shard alone (ceil(count / K) elements; a
 * reduce-scatter by direct reads). Then between hosts: the H
 * owners of shard k run a ring allreduce of it (cb_pattern.h's ring steps,
 * their partials as the ring's inputs, results into their RECV): 2(H-1)
 * rounds, every one a message between hosts. Last, inside each host: every
 * other rank copies each shard from its owner (an all-gather). On one host
 * it is a direct reduce-scatter and all-gather (two-shot's bytes).
 * Source: the two-level schemes of NCCL's CollNet and of Horovod's
 * hierarchical allreduce (reduce-scatter in the node, allreduce between
 * nodes, all-gather in the node); the bound: with H hosts of L ranks, each
 * host sends 2(H-1)/H S over the network, spread over its L ranks' links,
 * where a flat ring sends it through the one rank at each host boundary. */
#include "cb_pattern.h"
#include "cb_plan_lib.h"
#include "cb_plan_share.h"

#include <stdlib.h>

struct hosts {
	int n, nh, k;    /* ranks, hosts, shards (the fewest ranks of a host) */
	int *first, *cnt; /* [nh] index into rank[] of each host's ranks, their count */
	int *rank;       /* [n] ranks host by host, each host's in rank order */
};

/* The hosts of a's ranks, numbered in the order of their first rank.
 * Errors: CB_ERR_NOMEM, CB_ERR_ARG (a host index out of range). */
static enum cb_status hosts_make(struct hosts *h, const struct cb_plan_args *a)
{
	int n = a->n, *m = calloc(4 * (size_t)n, sizeof(int)), *id;

	if (!m)
		return CB_ERR_NOMEM;
	h->n = n, h->first = m, h->cnt = m + n, h->rank = m + 2 * n, id = m + 3 * n, h->nh = 0;
	for (int x = 0; x < n; x++)
		id[x] = -1;
	for (int r = 0; r < n; r++) {
		int x = a->rank_host ? a->rank_host[r] : 0;

		if (x < 0 || x >= n) {
			free(m);
			return CB_ERR_ARG;
		}
		if (id[x] < 0)
			id[x] = h->nh++;
		h->cnt[id[x]]++;
	}
	h->k = n;
	for (int x = 0; x < h->nh; x++) {
		h->first[x] = x ? h->first[x - 1] + h->cnt[x - 1] : 0;
		h->k = h->cnt[x] < h->k ? h->cnt[x] : h->k;
	}
	for (int x = 0; x < h->nh; x++)
		h->cnt[x] = 0;
	for (int r = 0; r < n; r++) {
		int x = id[a->rank_host ? a->rank_host[r] : 0];

		h->rank[h->first[x] + h->cnt[x]++] = r;
	}
	return CB_OK;
}

/* The owner of shard k on host x. */
static int owner(const struct hosts *h, int x, int k)
{
	return h->rank[h->first[x] + k];
}

/* Round 0: every owner reduces its shard over its host's inputs. */
static enum cb_status local_reduce(struct cb_plan *p, const struct hosts *h, int direct)
{
	enum cb_status st = CB_OK;

	for (int x = 0; x < h->nh && st == CB_OK; x++)
		for (int k = 0; k < h->k && st == CB_OK; k++) {
			size_t off, c;
			int o = owner(h, x, k);

			cb_chunk(p->count, h->k, k, &off, &c);
			st = cb_plan_reduce_chain(p, o, direct ? cb_pref(o, CB_PLAN_RECV, off)
							       : cb_pref(o, CB_PLAN_STAGE, 0),
						  h->rank + h->first[x], h->cnt[x], off, c, 0, direct);
		}
	return st;
}

/* Ring step s between the hosts' owners of every shard (cb_plan_ring.c's
 * step with each owner's partial, in its STAGE, as its input). */
static enum cb_status host_ring_round(struct cb_plan *p, const struct hosts *h, int s)
{
	enum cb_status st = cb_plan_round(p);

	for (int k = 0; k < h->k && st == CB_OK; k++) {
		size_t soff, sc;

		cb_chunk(p->count, h->k, k, &soff, &sc);
		for (int i = 0; i < h->nh && st == CB_OK; i++) {
			struct cb_ring_step step;
			size_t co, cc;
			int me = owner(h, i, k), src;

			cb_ring_step(i, h->nh, s, &step);
			cb_chunk(sc, h->nh, step.chunk, &co, &cc);
			co += soff, src = owner(h, step.src, k);
			if (step.reduce) /* STAGE holds the owner's shard alone: at co - soff */
				st = cb_plan_reduce(p, me, cb_pref(me, CB_PLAN_RECV, co),
						    step.peer_send ? cb_pref(src, CB_PLAN_STAGE, co - soff)
								   : cb_pref(src, CB_PLAN_RECV, co),
						    cb_pref(me, CB_PLAN_STAGE, co - soff), cc, s == h->nh - 2);
			else
				st = cb_plan_copy(p, me, cb_pref(me, CB_PLAN_RECV, co),
						  cb_pref(src, CB_PLAN_RECV, co), cc, 0);
		}
	}
	return st;
}

/* Last: every rank copies each shard it does not own from its host's owner. */
static enum cb_status local_gather(struct cb_plan *p, const struct hosts *h)
{
	enum cb_status st = cb_plan_round(p);

	for (int x = 0; x < h->nh && st == CB_OK; x++)
		for (int i = 0; i < h->cnt[x] && st == CB_OK; i++)
			for (int k = 0; k < h->k && st == CB_OK; k++) {
				size_t off, c;
				int r = h->rank[h->first[x] + i];

				cb_chunk(p->count, h->k, k, &off, &c);
				if (k != i)
					st = cb_plan_copy(p, r, cb_pref(r, CB_PLAN_RECV, off),
							  cb_pref(owner(h, x, k), CB_PLAN_RECV, off), c, 0);
			}
	return st;
}

enum cb_status cb_plan_build_allreduce_hier(struct cb_plan *p, const struct cb_plan_args *a)
{
	struct hosts h;
	enum cb_status st = hosts_make(&h, a);

	if (st != CB_OK)
		return st;
	st = cb_plan_init(p, "hier", a->n, a->count);
	if (st == CB_OK)
		st = local_reduce(p, &h, h.nh == 1);
	for (int s = 0; h.nh > 1 && s < cb_ring_nsteps(h.nh) && st == CB_OK; s++)
		st = host_ring_round(p, &h, s);
	if (st == CB_OK)
		st = local_gather(p, &h);
	free(h.first);
	if (st != CB_OK)
		cb_plan_free(p);
	return st;
}
