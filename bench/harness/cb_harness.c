/* Harness set-up and the sweep loops (contract in cb_harness.h); one row's
 * measurement is in cb_row.c. */
#define _GNU_SOURCE
#include "cb_harness.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cb_nccl_choice.h"
#include "cb_linerate.h"
#include "cb_watchdog.h"

/* Adds a slot for registry entry a over the run's transport. */
static enum cb_status add_algo(struct cb_harness *h, const struct cb_algo_ops *a)
{
	const struct cb_transport *t = cb_transport_get(h->lay.transport);
	struct cb_algo_slot *s = &h->slot[h->nalgos];

	if (h->nalgos == CB_MAX_ALGOS)
		return CB_ERR_ARG;
	s->ops = cb_algo_over(a, t->one_sided);
	s->transport = s->ops->desc->moves ? s->ops->desc->moves : t->name;
	h->nalgos++;
	return CB_OK;
}

static enum cb_status select_algos(struct cb_harness *h)
{
	const struct cb_backend_ops *be = h->be->ops;
	char buf[sizeof(h->o->algos)], *save = NULL;
	size_t n;
	const struct cb_algo_ops *const *reg = cb_algo_registry_coll(h->o->coll, &n);
	enum cb_status st = CB_OK;

	if (!*h->o->algos) {
		for (size_t i = 0; i < n && st == CB_OK; i++)
			if (cb_algo_runs_on(reg[i], be) && !reg[i]->desc->on_request)
				st = add_algo(h, reg[i]);
		return st;
	}
	strcpy(buf, h->o->algos);
	for (char *t = strtok_r(buf, ",", &save); t && st == CB_OK; t = strtok_r(NULL, ",", &save)) {
		const struct cb_algo_ops *a = cb_algo_find_coll(h->o->coll, t);

		if (!cb_algo_runs_on(a, be)) {
			if (h->be->world_rank == 0)
				cb_log("--algo: %s does not run on the %s backend", t, h->o->backend);
			return CB_ERR_ARG;
		}
		st = add_algo(h, a);
	}
	return st;
}

/* Sets the algorithm of slot s up; a failure on any rank marks it on every
 * rank. */
static void setup_algo(struct cb_harness *h, struct cb_algo_slot *s, size_t max_bytes)
{
	struct cb_setup_args sa = { max_bytes, h->o->root, h->o->slice_bytes, h->o->servers,
				    s->ops->desc, h->lay.host_of };
	enum cb_status mine;

	cb_watchdog_setup("setup", s->ops->desc->name, max_bytes);
	mine = s->ops->setup(h->be, &sa, &s->state);
	s->setup_st = cb_agree(mine, h->be->world); /* its own failure reads as one of set-up */
	if (s->setup_st == CB_OK)
		return;
	/* CB_ERR_PEER: this rank only learnt of another's failure, which that
	 * rank reports */
	if (mine != CB_OK && mine != CB_ERR_PEER)
		cb_log("%s: set-up failed: %s", s->ops->desc->name, cb_status_str(mine));
	/* a partly set-up algorithm is left as is: tearing it down is collective
	 * and the ranks that failed cannot join */
	s->state = NULL;
}

/* The send and receive buffers, alloc_bytes each per rank: one with
 * --inplace 1, two otherwise (with both modes, the in-place rows use the
 * receive buffer alone, so the send buffer keeps the out-of-place input). */
static enum cb_status alloc_buffers(struct cb_harness *h, size_t alloc_bytes)
{
	struct cb_backend *be = h->be;
	enum cb_status st;

	cb_watchdog_setup("allocate", "buffers", alloc_bytes);
	st = be->ops->buf_alloc(be, alloc_bytes, &h->buf[0]);
	if (st == CB_OK && h->o->in_place != CB_INPLACE_IN)
		st = be->ops->buf_alloc(be, alloc_bytes, &h->buf[1]);
	if (st != CB_OK && st != CB_ERR_PEER) /* CB_ERR_PEER: the failing rank says why */
		cb_log("cannot allocate the send and receive buffers, %zu B each per rank "
		       "(host: space in /dev/shm; cuda: GPU memory): %s", alloc_bytes,
		       cb_status_str(st));
	return st;
}

/* The rows measured from now on run in mode in_place (0 or 1). */
static void set_mode(struct cb_harness *h, int in_place)
{
	struct cb_measure *m = &h->m;

	m->in_place = in_place;
	m->send = in_place && h->buf[1] ? h->buf[1] : h->buf[0];
	m->recv = h->buf[1] && !in_place ? h->buf[1] : m->send;
	cb_verify_coll(&m->verify, h->o->coll, h->o->root, in_place);
}

enum cb_status cb_harness_init(struct cb_harness *h, const struct cb_options *o,
			       struct cb_backend *be, const struct cb_layout *lay,
			       struct cb_report *rep)
{
	size_t max_bytes = o->sweep.max_bytes;
	/* never a 0-byte buffer: its peers' addresses would be NULL */
	size_t alloc_bytes = max_bytes < 64 ? 64 : max_bytes;
	enum cb_status st;

	memset(h, 0, sizeof(*h));
	h->o = h->m.o = o;
	h->be = h->m.be = be;
	h->lay = *lay;
	h->m.lay = &h->lay;
	h->rep = rep;
	if (!strcmp(o->backend, "cuda"))
		cb_nccl_choice_setup(); /* before any NCCL communicator */
	/* pct_line's reason until the backend's code stamps the topology */
	snprintf(h->topo.why_unknown, sizeof(h->topo.why_unknown),
		 "no topology known on the %s backend", o->backend);
	st = select_algos(h);
	if (st == CB_OK)
		st = cb_row_init(&h->row, be->world_size);
	if (st == CB_OK)
		st = cb_measure_init(&h->m, alloc_bytes);
	if (st == CB_OK)
		st = alloc_buffers(h, alloc_bytes);
	if (st == CB_OK)
		set_mode(h, o->in_place == CB_INPLACE_IN);
	for (size_t i = 0; i < h->nalgos && st == CB_OK; i++)
		setup_algo(h, &h->slot[i], max_bytes);
	return st;
}

void cb_harness_fini(struct cb_harness *h)
{
	for (size_t i = 0; i < h->nalgos; i++)
		if (h->slot[i].state)
			h->slot[i].ops->teardown(h->slot[i].state);
	for (int i = 0; i < 2; i++)
		if (h->buf[i])
			h->be->ops->buf_free(h->be, h->buf[i]);
	cb_measure_fini(&h->m);
	cb_row_fini(&h->row);
	memset(h, 0, sizeof(*h));
}

/* 1 for the slot of the copy roofline. */
static int is_copy(const struct cb_algo_slot *s)
{
	return strcmp(s->ops->desc->name, "copy") == 0;
}

/* Writes the row just measured (rank 0), with its percents of the line rate
 * and of the copy roofline. */
static enum cb_status report(struct cb_harness *h)
{
	struct cb_row *row = &h->row;
	struct cb_rank_values ranks = { row->traffic ? row->tx : NULL,
					row->traffic ? row->rx : NULL, row->rank_time_us,
					h->lay.host_of, row->acct ? row->rank_busy_us : NULL,
					row->acct ? row->rank_wait_us : NULL, row->rank_barrier_us,
					row->acct ? row->rank_busy_cpu_us : NULL,
					row->kept ? &h->m.iters : NULL, row->hw ? row->hw_tx : NULL,
					row->hw ? row->hw_rx : NULL };

	char why[CB_REASON_MAX];

	if (strcmp(row->s.algo, "copy") == 0 && row->s.status.state == CB_ROW_OK)
		h->copy_algbw = row->s.algbw; /* (in place it is skipped) */
	/* an nccl row's bound is that of the algorithm NCCL chose (NVLS's own) */
	row->s.pct_line = cb_pct_line(&h->topo, &row->s,
				      row->s.nccl_algo[0] ? row->s.nccl_algo : NULL, why, sizeof(why));
	row->s.pct_copy = cb_pct_copy(&row->s, h->copy_algbw);
	if (cb_row_state_failed(row->s.status.state))
		h->failed_rows++;
	if (h->rep && cb_report_row(h->rep, &row->s, row->measured ? &ranks : NULL) != CB_OK) {
		cb_log("writing results failed; stopping");
		return CB_ERR_IO;
	}
	return CB_OK;
}

/* Size k of the sweep for dt as the collective takes it (cb_coll_count: a
 * split one's count rounded down to a multiple of n, as nccl-tests does). */
static size_t coll_bytes(const struct cb_harness *h, enum cb_dtype dt, size_t k)
{
	size_t esz = cb_dtype_size(dt);

	return cb_coll_count(h->o->coll, h->be->world_size, h->o->sweep.bytes[dt][k] / esz) * esz;
}

/* Size k of the sweep for one (dtype, op), every algorithm in turn, so that
 * the rows compared at a point are one size's rows apart, not a whole sweep
 * (a drift of the machine between them reads as a difference of the
 * algorithms), copy first; with --inplace both, each algorithm out of place,
 * then in place, back to back (one line of the table). A size that rounds to the one
 * before it is left out (one row per size and mode). */
static enum cb_status run_size(struct cb_harness *h, enum cb_dtype dt, enum cb_op op, size_t k)
{
	enum cb_status st = CB_OK;
	size_t bytes = coll_bytes(h, dt, k);

	if (k && bytes == coll_bytes(h, dt, k - 1))
		return CB_OK;
	h->copy_algbw = NAN;
	/* pass 0: the copy roofline, which the other rows are put against */
	for (size_t j = 0; j < 2 * h->nalgos && st == CB_OK; j++) {
		size_t i = j % h->nalgos;

		if (is_copy(&h->slot[i]) != (j < h->nalgos))
			continue;
		for (int ip = 0; ip < 2 && st == CB_OK; ip++) {
			if (h->o->in_place != CB_INPLACE_BOTH && h->o->in_place != ip)
				continue;
			set_mode(h, ip);
			st = cb_row_measure(&h->m, &h->slot[i], bytes, dt, op, &h->row);
			if (st == CB_OK)
				st = report(h);
		}
	}
	return st;
}

enum cb_status cb_harness_run(struct cb_harness *h)
{
	enum cb_status st = CB_OK;

	for (int dt = 0; dt < CB_DTYPE_COUNT && st == CB_OK; dt++) {
		size_t n = h->o->sweep.n[dt];

		if (!(h->o->dtype_mask & (1u << dt)))
			continue;
		/* a collective that does not reduce runs once, as sum (its rows: "none") */
		int reduces = cb_coll_get(h->o->coll)->reduces;

		for (int op = 0; op < (reduces ? CB_OP_COUNT : 1) && st == CB_OK; op++) {
			if (reduces && !(h->o->op_mask & (1u << op)))
				continue;
			set_mode(h, h->o->in_place == CB_INPLACE_IN); /* the input to m->send */
			st = cb_row_prepare(&h->m, (enum cb_dtype)dt, (enum cb_op)op,
					    n ? h->o->sweep.bytes[dt][n - 1] : 0);
			for (size_t k = 0; k < n && st == CB_OK; k++)
				st = run_size(h, (enum cb_dtype)dt, (enum cb_op)op, k);
		}
	}
	return st;
}
