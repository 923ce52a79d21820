/* The parameter server as a plan, with k servers (BytePS-style sharding:
 * Jiang et al., "A Unified Architecture for Accelerating Distributed DNN
 * Training in Heterogeneous GPU/CPU Clusters", OSDI 2020): the buffer is cut
 * into k shards (cb_chunk); server j, rank (root + j) mod n, owns shard j.
 * Every other rank pushes its shard j into its slot of server j's STAGE,
 * server j reduces its own input and the n - 1 slots in rank order into its
 * receive buffer and finishes the op, and every other rank pulls the result.
 * k = 1 is the naive ps of the seed (root tx = rx = (n-1)S, each worker's S);
 * k = n is a direct reduce-scatter then all-gather (two-shot).
 *
 * Pipelined in slices of each shard: round u pushes slice u, reduces slice
 * u - 1 and pulls slice u - 2, so a transfer in, a reduce and a transfer out
 * overlap (nslices + 2 rounds). Slots are 256 B apart at least (cb_pattern.h's
 * cb_ps_slot_bytes), so every slot is as aligned as its buffer. */
#include "cb_pattern.h"
#include "cb_plan_lib.h"

struct ps_geom {
	int n, k, root;
	size_t count, slice, nslices, stride; /* stride: elements between slots */
};

static int server_of(const struct ps_geom *g, int j)
{
	return (g->root + j) % g->n;
}

/* Slice u of shard j: its element offset and count (0: past its end). */
static size_t ps_slice(const struct ps_geom *g, int j, size_t u, size_t *off)
{
	size_t soff, scount, sh_off, sh_count;

	cb_chunk(g->count, g->k, j, &sh_off, &sh_count);
	cb_slice(sh_count, g->slice, u, &soff, &scount);
	*off = sh_off + soff;
	return scount;
}

/* Server j's reduce of slice u: own input op slot 0 op slot 1 ..., in rank order. */
static enum cb_status ps_reduce(struct cb_plan *p, const struct ps_geom *g, int j, size_t u)
{
	int srv = server_of(g, j);
	size_t off, c = ps_slice(g, j, u, &off), sh_off, sh_count;
	struct cb_plan_ref acc = cb_pref(srv, CB_PLAN_RECV, off), lhs = cb_pref(srv, CB_PLAN_SEND, off);
	enum cb_status st = CB_OK;
	int left = g->n - 1;

	cb_chunk(g->count, g->k, j, &sh_off, &sh_count);
	for (int w = 0; w < g->n && st == CB_OK; w++) {
		if (w == srv)
			continue;
		st = cb_plan_reduce(p, srv, acc,
				    cb_pref(srv, CB_PLAN_STAGE, (size_t)cb_ps_slot(w, srv) * g->stride +
								 (off - sh_off)),
				    lhs, c, --left == 0);
		lhs = acc;
	}
	return st;
}

/* Round u: pushes of slice u, the servers' reduces of u - 1, pulls of u - 2. */
static enum cb_status ps_round(struct cb_plan *p, const struct ps_geom *g, size_t u)
{
	enum cb_status st = cb_plan_round(p);

	for (int j = 0; j < g->k && st == CB_OK; j++) {
		int srv = server_of(g, j);
		size_t off, c, sh_off, sh_count;

		cb_chunk(g->count, g->k, j, &sh_off, &sh_count);
		c = u < g->nslices ? ps_slice(g, j, u, &off) : 0;
		for (int w = 0; w < g->n && st == CB_OK && c; w++)
			if (w != srv) /* push: my slice into my slot at the server */
				st = cb_plan_copy(p, w,
						  cb_pref(srv, CB_PLAN_STAGE, (size_t)cb_ps_slot(w, srv) *
									g->stride + (off - sh_off)),
						  cb_pref(w, CB_PLAN_SEND, off), c, 0);
		if (st == CB_OK && u >= 1 && u - 1 < g->nslices)
			st = ps_reduce(p, g, j, u - 1);
		c = u >= 2 && u - 2 < g->nslices ? ps_slice(g, j, u - 2, &off) : 0;
		for (int w = 0; w < g->n && st == CB_OK && c; w++)
			if (w != srv) /* pull: the result out of the server */
				st = cb_plan_copy(p, w, cb_pref(w, CB_PLAN_RECV, off),
						  cb_pref(srv, CB_PLAN_RECV, off), c, 0);
	}
	return st;
}

enum cb_status cb_plan_build_allreduce_ps(struct cb_plan *p, const struct cb_plan_args *a)
{
	struct ps_geom g = { a->n, a->servers ? a->servers : 1, a->root, a->count, 0, 0, 0 };
	size_t shard = cb_chunk_max(a->count, g.k);
	enum cb_status st;

	if (g.k < 1 || g.k > g.n || g.root < 0 || g.root >= g.n)
		return CB_ERR_ARG;
	g.slice = a->slice_count && a->slice_count < shard ? a->slice_count : shard;
	g.nslices = cb_slice_num(a->count, g.k, g.slice ? g.slice : 1);
	g.stride = cb_ps_slot_bytes(shard * a->esize) / a->esize;
	st = cb_plan_init(p, "ps", g.n, a->count);
	for (size_t u = 0; st == CB_OK && a->count && u < g.nslices + 2; u++)
		st = ps_round(p, &g, u);
	if (st != CB_OK)
		cb_plan_free(p);
	return st;
}
