/* The in-memory executor of plans (contract in cb_plan_exec.h). */
#include "cb_plan_exec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cb_check.h"

/* Every rank's buffers, and (track: on the pass that explains a wrong
 * result) the round that last wrote each RECV element. */
struct mem {
	const struct cb_plan *p;
	size_t esz;
	char **buf[CB_PLAN_NBUFS]; /* [buf][rank] */
	long **lastw;              /* [rank][element], NULL: not tracked */
	int track;
	int inside;                /* in place: the buffer inside the other (-1: none) */
};

static void mem_free(struct mem *m)
{
	for (int r = 0; r < m->p->n; r++) {
		for (int b = 0; b < CB_PLAN_NBUFS; b++)
			if (m->buf[b] && b != m->inside)
				free(m->buf[b][r]);
		if (m->lastw)
			free(m->lastw[r]);
	}
	for (int b = 0; b < CB_PLAN_NBUFS; b++)
		free(m->buf[b]);
	free(m->lastw);
}

/* Rank r's SEND and RECV: two buffers, or in place one, the smaller at
 * the collective's offset inside the larger. */
static enum cb_status mem_pair(struct mem *m, int r)
{
	const struct cb_plan *p = m->p;
	size_t sn = p->send_count ? p->send_count : 1, rn = p->recv_count ? p->recv_count : 1;
	int send_inside;
	size_t at = cb_coll_inplace_offset(p->coll, p->n, p->count, r, &send_inside);
	int big = send_inside ? CB_PLAN_RECV : CB_PLAN_SEND;

	if (!p->in_place) {
		m->buf[CB_PLAN_SEND][r] = malloc(sn * m->esz);
		m->buf[CB_PLAN_RECV][r] = malloc(rn * m->esz);
	} else {
		m->buf[big][r] = malloc((sn > rn ? sn : rn) * m->esz);
		m->buf[m->inside][r] = m->buf[big][r] ? m->buf[big][r] + at * m->esz : NULL;
	}
	return m->buf[CB_PLAN_SEND][r] && m->buf[CB_PLAN_RECV][r] ? CB_OK : CB_ERR_NOMEM;
}

/* Poison in RECV and STAGE, then the inputs in SEND (in place, over the
 * RECV range they alias). */
static enum cb_status mem_init(struct mem *m, enum cb_dtype dt, enum cb_op op)
{
	const struct cb_plan *p = m->p;
	int n = p->n, send_inside;

	(void)cb_coll_inplace_offset(p->coll, n, p->count, 0, &send_inside);
	m->inside = !p->in_place ? -1 : send_inside ? CB_PLAN_SEND : CB_PLAN_RECV;
	for (int b = 0; b < CB_PLAN_NBUFS; b++)
		if (!(m->buf[b] = calloc((size_t)n, sizeof(char *))))
			return CB_ERR_NOMEM;
	if (m->track && !(m->lastw = calloc((size_t)n, sizeof(long *))))
		return CB_ERR_NOMEM;
	for (int r = 0; r < n; r++) {
		size_t rn = p->recv_count ? p->recv_count : 1;
		size_t stn = p->stage_count[r] ? p->stage_count[r] : 1;

		if (mem_pair(m, r) != CB_OK || !(m->buf[CB_PLAN_STAGE][r] = malloc(stn * m->esz)))
			return CB_ERR_NOMEM;
		if (m->track && !(m->lastw[r] = malloc(rn * sizeof(long))))
			return CB_ERR_NOMEM;
		cb_fill_poison(m->buf[CB_PLAN_RECV][r], p->recv_count, dt);
		cb_fill_poison(m->buf[CB_PLAN_STAGE][r], p->stage_count[r], dt);
		cb_coll_fill_input(p->coll, m->buf[CB_PLAN_SEND][r], p->count, dt, op, r, n);
		for (size_t i = 0; m->track && i < p->recv_count; i++)
			m->lastw[r][i] = -1;
	}
	return CB_OK;
}

static void *at(const struct mem *m, struct cb_plan_ref r)
{
	return m->buf[r.buf][r.rank] + r.off * m->esz;
}

/* One step, its traffic counted where given. */
static void run_step(struct mem *m, const struct cb_plan_step *s, long round, enum cb_dtype dt,
		     enum cb_op op, struct cb_plan_report *rep)
{
	uint64_t bytes = (uint64_t)s->count * m->esz;
	void *dst = at(m, s->dst);

	if (s->op == CB_PLAN_COPY)
		memmove(dst, at(m, s->a), s->count * m->esz);
	else
		cb_reduce_host(dst, at(m, s->a), at(m, s->b), s->count, dt, op);
	if (s->final)
		cb_finalize_host(dst, s->count, dt, op, m->p->n);
	if (m->lastw && s->dst.buf != CB_PLAN_STAGE)
		for (size_t i = 0; i < s->count; i++)
			m->lastw[s->dst.rank][s->dst.off + i] = round;
	if (!rep->tx)
		return;
	if (s->a.rank != s->dst.rank)
		rep->tx[s->a.rank] += bytes, rep->rx[s->dst.rank] += bytes;
	if (s->op == CB_PLAN_REDUCE && s->b.rank != s->dst.rank)
		rep->tx[s->b.rank] += bytes, rep->rx[s->dst.rank] += bytes;
}

/* Every RECV that holds a result against the collective's: the count and
 * the first wrong element. The expected result, O(count n) to make, is
 * made once where every rank's is the same (cb_coll_desc.same_result), so
 * the check costs O(count n), not O(count n^2). */
static void compare(const struct mem *m, void *ref, enum cb_dtype dt, enum cb_op op,
		    struct cb_plan_report *rep)
{
	const struct cb_plan *p = m->p;
	int made = 0;

	for (int r = 0; r < p->n; r++) {
		const char *out = m->buf[CB_PLAN_RECV][r];
		size_t w;

		if (!cb_coll_has_result(p->coll, r, p->root))
			continue;
		if (!made || !cb_coll_get(p->coll)->same_result)
			cb_coll_fill_expected(p->coll, ref, p->count, dt, op, r, p->root, p->n);
		made = 1;
		w = cb_count_wrong(out, ref, p->recv_count, dt, op, p->n);
		rep->wrong += w;
		for (size_t i = 0; w && rep->rank < 0 && i < p->recv_count; i++)
			if (cb_count_wrong(out + i * m->esz, (const char *)ref + i * m->esz, 1, dt, op,
					   p->n)) {
				rep->rank = r, rep->offset = i, rep->round = m->lastw ? m->lastw[r][i] : -1;
			}
	}
}

/* One run of p on m (tracking or not), compared. */
static enum cb_status run_once(const struct cb_plan *p, enum cb_dtype dt, enum cb_op op,
			       int track, struct cb_plan_report *rep)
{
	struct mem m = { p, cb_dtype_size(dt), { NULL }, NULL, track, -1 };
	void *ref = malloc((p->recv_count ? p->recv_count : 1) * cb_dtype_size(dt));
	enum cb_status st = ref ? mem_init(&m, dt, op) : CB_ERR_NOMEM;

	rep->wrong = 0, rep->rank = -1, rep->offset = 0, rep->round = -1;
	if (rep->tx) {
		memset(rep->tx, 0, (size_t)p->n * sizeof(*rep->tx));
		memset(rep->rx, 0, (size_t)p->n * sizeof(*rep->rx));
	}
	for (size_t k = 0; st == CB_OK && k < p->nrounds; k++)
		for (size_t i = p->round_first[k]; i < p->round_first[k + 1]; i++)
			run_step(&m, &p->steps[i], (long)k, dt, op, rep);
	if (st == CB_OK)
		compare(&m, ref, dt, op, rep);
	free(ref);
	mem_free(&m);
	return st;
}

enum cb_status cb_plan_check(const struct cb_plan *p, enum cb_dtype dt, enum cb_op op,
			     struct cb_plan_report *rep)
{
	enum cb_status st = run_once(p, dt, op, 0, rep);

	/* a wrong result: once more, keeping who wrote what, to name the round */
	if (st == CB_OK && rep->wrong)
		st = run_once(p, dt, op, 1, rep);
	return st;
}

enum cb_status cb_plan_check_values(const struct cb_plan *p, enum cb_dtype dt, enum cb_op op,
				    char *err, size_t errlen)
{
	struct cb_plan_report rep = { 0, -1, 0, -1, NULL, NULL };
	enum cb_status st = cb_plan_check(p, dt, op, &rep);
	char when[48] = "never written";

	if (st != CB_OK || !rep.wrong)
		return st;
	if (rep.round >= 0)
		snprintf(when, sizeof(when), "last written in round %ld", rep.round);
	snprintf(err, errlen, "plan %s on %d ranks, count %zu, %s %s, %s: %zu wrong "
		 "element(s); the first: rank %d, element %zu of its result (%s)",
		 p->name, p->n, p->count, cb_dtype_name(dt), cb_op_name(op),
		 p->in_place ? "in place" : "out of place", rep.wrong, rep.rank, rep.offset, when);
	return CB_ERR_ARG;
}

enum cb_status cb_plan_validate(struct cb_plan *p, enum cb_dtype dt, enum cb_op op,
				unsigned modes, char *err, size_t errlen)
{
	enum cb_status st = CB_OK;

	for (int ip = 0; ip < 2 && st == CB_OK; ip++) {
		if (!(modes & (1u << ip)))
			continue;
		st = cb_plan_finish(p, ip, err, errlen);
		if (st == CB_OK)
			st = cb_plan_check_values(p, dt, op, err, errlen);
	}
	return st;
}

void cb_plan_check_cost(const struct cb_plan *p, enum cb_dtype dt, uint64_t *bytes,
			uint64_t *elems)
{
	uint64_t b = p->recv_count, e = 0; /* the reference */

	for (int r = 0; r < p->n; r++) {
		b += (uint64_t)p->send_count + p->recv_count + p->stage_count[r];
		e += (uint64_t)p->send_count + 2 * (uint64_t)p->recv_count; /* fill, compare */
	}
	for (size_t i = 0; i < p->nsteps; i++)
		e += (uint64_t)p->steps[i].count * (p->steps[i].op == CB_PLAN_REDUCE ? 2 : 1);
	*bytes = b * cb_dtype_size(dt);
	*elems = e;
}
