#define _GNU_SOURCE
/* Harness set-up and the sweep loops; one row's measurement is in cb_row.c. */
#include "cb_harness.h"

#include <stdlib.h>
#include <string.h>

#include "cb_row.h"
#include "cb_watchdog.h"


static enum cb_status select_algos(struct cb_harness *h)
{
	const struct cb_backend_ops *be = h->be->ops;
	size_t n;
	const struct cb_algo_ops *const *reg = cb_algo_registry(&n);

	if (!*h->o->algos) {
		for (size_t i = 0; i < n && h->nalgos < CB_MAX_ALGOS; i++)
			if (cb_algo_runs_on(reg[i], be))
				h->algo[h->nalgos++] = reg[i];
		return CB_OK;
	}
	char buf[sizeof(h->o->algos)], *save = NULL;

	strcpy(buf, h->o->algos);
	for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		const struct cb_algo_ops *a = cb_algo_find(t);

		if (!cb_algo_runs_on(a, be)) {
			if (h->be->world_rank == 0)
				cb_log("-a/--algo: %s does not run on the %s backend", t, h->o->backend);
			return CB_ERR_ARG;
		}
		if (h->nalgos == CB_MAX_ALGOS)
			return CB_ERR_ARG;
		h->algo[h->nalgos++] = a;
	}
	return CB_OK;
}

/* Sets algorithm i up; a failure on any rank marks it on every rank. */
static enum cb_status setup_algo(struct cb_harness *h, size_t i)
{
	struct cb_setup_args sa = { h->max_bytes, h->o->root, h->o->slice_bytes };
	enum cb_status mine, worst;

	cb_watchdog_phase("setup", h->algo[i]->name, h->max_bytes, -1);
	mine = h->algo[i]->setup(h->be, &sa, &h->state[i]);
	worst = cb_agree(mine, h->be->world); /* its own failure reads as one of set-up */
	if (worst != CB_OK) {
		/* CB_ERR_PEER: this rank only learnt of another's failure, which
		 * that rank reports */
		if (mine != CB_OK && mine != CB_ERR_PEER)
			cb_log("%s: set-up failed: %s", h->algo[i]->name, cb_status_str(mine));
		/* a partly set-up algorithm is left as is: tearing it down is
		 * collective and the ranks that failed cannot join */
		h->state[i] = NULL;
		snprintf(h->setup_error[i], sizeof(h->setup_error[i]), "error:set-up failed (%s)",
			 cb_status_str(worst));
	}
	return CB_OK;
}

static enum cb_status alloc_arrays(struct cb_harness *h)
{
	size_t k = (size_t)h->o->repeat * (size_t)h->o->iters;
	size_t w = (size_t)h->be->world_size, nn = (size_t)h->be->nranks;

	h->times = calloc(k, sizeof(double));
	h->tmax = calloc(k, sizeof(double));
	h->tx = calloc(w, sizeof(uint64_t));
	h->rx = calloc(w, sizeof(uint64_t));
	h->node_tx = calloc(nn, sizeof(uint64_t));
	h->node_rx = calloc(nn, sizeof(uint64_t));
	h->rank_time = calloc(w, sizeof(double));
	if (!h->times || !h->tmax || !h->tx || !h->rx || !h->node_tx || !h->node_rx ||
	    !h->rank_time)
		return CB_ERR_NOMEM;
	return CB_OK;
}

enum cb_status cb_harness_init(struct cb_harness *h, const struct cb_options *o,
			       struct cb_backend *be, struct cb_report *rep)
{
	enum cb_status st;
	/* never a 0-byte buffer: its peers' addresses would be NULL */
	size_t alloc_bytes;

	memset(h, 0, sizeof(*h));
	h->o = o;
	h->be = be;
	h->rep = rep;
	st = select_algos(h);
	if (st == CB_OK)
		st = alloc_arrays(h);
	if (st != CB_OK)
		return st;
	h->max_bytes = o->sweep.max_bytes;
	alloc_bytes = h->max_bytes < 64 ? 64 : h->max_bytes;
	st = cb_verify_init(&h->verify, be, alloc_bytes);
	if (st != CB_OK)
		return st;
	cb_watchdog_phase("allocate", "buffers", alloc_bytes, -1);
	st = be->ops->buf_alloc(be, alloc_bytes, &h->send);
	if (st == CB_OK && !o->in_place)
		st = be->ops->buf_alloc(be, alloc_bytes, &h->recv);
	if (st != CB_OK && st != CB_ERR_PEER) { /* CB_ERR_PEER: the failing rank says why */
		cb_log("cannot allocate the send and receive buffers, %zu B each per rank "
		       "(host: space in /dev/shm; cuda: GPU memory): %s", alloc_bytes,
		       cb_status_str(st));
	}
	if (st != CB_OK)
		return st;
	if (o->in_place)
		h->recv = h->send;
	for (size_t i = 0; i < h->nalgos && st == CB_OK; i++)
		st = setup_algo(h, i);
	return st;
}

void cb_harness_fini(struct cb_harness *h)
{
	for (size_t i = 0; i < h->nalgos; i++)
		if (h->state[i])
			h->algo[i]->teardown(h->state[i]);
	if (h->recv && h->recv != h->send)
		h->be->ops->buf_free(h->be, h->recv);
	if (h->send)
		h->be->ops->buf_free(h->be, h->send);
	cb_verify_fini(&h->verify);
	free(h->times);
	free(h->tmax);
	free(h->tx);
	free(h->rx);
	free(h->node_tx);
	free(h->node_rx);
	free(h->rank_time);
	memset(h, 0, sizeof(*h));
}

/* Every size of one algorithm for one (dtype, op). */
static enum cb_status run_algo(struct cb_harness *h, size_t ai, enum cb_dtype dt, enum cb_op op,
			       const size_t *sizes, size_t nsizes)
{
	for (size_t k = 0; k < nsizes; k++) {
		struct cb_row row;
		enum cb_status st = cb_row_measure(h, ai, sizes[k], dt, op, &row);

		if (st != CB_OK)
			return st;
		if (strcmp(row.status, "ok") != 0 && strncmp(row.status, "skipped:", 8) != 0)
			h->failed_rows++;
		if (h->rep && cb_report_row(h->rep, &row) != CB_OK) {
			cb_log("writing results failed; stopping");
			return CB_ERR_IO;
		}
	}
	return CB_OK;
}

enum cb_status cb_harness_run(struct cb_harness *h)
{
	enum cb_status st = CB_OK;

	for (int dt = 0; dt < CB_DTYPE_COUNT && st == CB_OK; dt++) {
		const size_t *sizes = h->o->sweep.bytes[dt];
		size_t nsizes = h->o->sweep.n[dt], largest = nsizes ? sizes[nsizes - 1] : 0;

		if (!(h->o->dtype_mask & (1u << dt)))
			continue;
		for (int op = 0; op < CB_OP_COUNT && st == CB_OK; op++) {
			if (!(h->o->op_mask & (1u << op)))
				continue;
			st = cb_row_prepare(h, (enum cb_dtype)dt, (enum cb_op)op, largest);
			for (size_t ai = 0; ai < h->nalgos && st == CB_OK; ai++)
				st = run_algo(h, ai, (enum cb_dtype)dt, (enum cb_op)op, sizes, nsizes);
		}
	}
	return st;
}
