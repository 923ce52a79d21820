/* Plans: building them, their rules, their waits and their traffic
 * (contract in cb_plan.h). */
#include "cb_plan.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static enum cb_status refuse(char *err, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static enum cb_status refuse(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
	return CB_ERR_ARG;
}

/* Grows *v (of *cap elements of size) to hold need; 0 or -1 (no memory). */
static int grow(void **v, size_t *cap, size_t need, size_t size)
{
	size_t c = *cap ? *cap : 16;
	void *g;

	if (need <= *cap)
		return 0;
	while (c < need)
		c *= 2;
	g = realloc(*v, c * size);
	if (!g)
		return -1;
	*v = g;
	*cap = c;
	return 0;
}

static _Thread_local const struct cb_plan_stream *stream_next;

void cb_plan_stream_to(const struct cb_plan_stream *s)
{
	stream_next = s;
}

enum cb_status cb_plan_init_coll(struct cb_plan *p, const char *name, enum cb_coll coll, int n,
				 size_t count, int root)
{
	const struct cb_coll_desc *cd = cb_coll_get(coll);

	memset(p, 0, sizeof(*p));
	p->stream = stream_next;
	if (n < 1 || !cd || root < 0 || root >= n || (cd->split && count % (size_t)n))
		return CB_ERR_ARG;
	snprintf(p->name, sizeof(p->name), "%s", name);
	p->coll = coll;
	p->n = n;
	p->root = root;
	p->count = count;
	p->send_count = cb_coll_send_count(coll, n, count);
	p->recv_count = cb_coll_recv_count(coll, n, count);
	p->stage_count = calloc((size_t)n, sizeof(*p->stage_count));
	p->round_first = calloc(2, sizeof(*p->round_first));
	p->round_cap = 2;
	if (!p->stage_count || !p->round_first) {
		cb_plan_free(p);
		return CB_ERR_NOMEM;
	}
	return CB_OK;
}

enum cb_status cb_plan_init(struct cb_plan *p, const char *name, int n, size_t count)
{
	return cb_plan_init_coll(p, name, CB_COLL_ALLREDUCE, n, count, 0);
}

size_t cb_plan_buf_count(const struct cb_plan *p, int r, enum cb_plan_buf b)
{
	return b == CB_PLAN_STAGE ? p->stage_count[r] : b == CB_PLAN_SEND ? p->send_count
									  : p->recv_count;
}

void cb_plan_free(struct cb_plan *p)
{
	free(p->stage_count);
	free(p->steps);
	free(p->round_first);
	free(p->waits);
	free(p->wait_first);
	free(p->fresh);
	memset(p, 0, sizeof(*p));
}

/* Hands a streamed plan's steps to its stream (end: they close the round). */
static enum cb_status stream_part(struct cb_plan *p, int end)
{
	enum cb_status st;

	if (p->nsteps == 0 && (!end || p->nrounds == 0))
		return CB_OK; /* an empty end still closes a round handed over in parts */
	st = p->stream->part(p->stream->ctx, p, end); /* round 0 of 1: round_first {0, nsteps} */
	p->nsteps = 0;
	p->round_first[1] = 0;
	return st;
}

enum cb_status cb_plan_flush(struct cb_plan *p)
{
	return p->stream ? stream_part(p, 1) : CB_OK;
}

enum cb_status cb_plan_round(struct cb_plan *p)
{
	/* round_first[nrounds] is the end of the open round, nrounds - 1: an
	 * empty open round (or none yet) is kept for the next steps */
	if (p->stream)
		return cb_plan_flush(p);
	if (p->nrounds == 0 || p->round_first[p->nrounds - 1] == p->nsteps)
		return CB_OK;
	if (grow((void **)&p->round_first, &p->round_cap, p->nrounds + 2, sizeof(size_t)))
		return CB_ERR_NOMEM;
	p->nrounds++;
	p->round_first[p->nrounds] = p->nsteps;
	return CB_OK;
}

static void stage_grow(struct cb_plan *p, struct cb_plan_ref r, size_t count)
{
	if (r.buf == CB_PLAN_STAGE && r.rank >= 0 && r.rank < p->n &&
	    r.off + count > p->stage_count[r.rank])
		p->stage_count[r.rank] = r.off + count;
}

static enum cb_status add(struct cb_plan *p, const struct cb_plan_step *s)
{
	if (s->count == 0)
		return CB_OK;
	if (grow((void **)&p->steps, &p->step_cap, p->nsteps + 1, sizeof(*s)))
		return CB_ERR_NOMEM;
	if (p->nrounds == 0) /* the first step opens round 0 */
		p->nrounds = 1;
	p->steps[p->nsteps++] = *s;
	p->round_first[p->nrounds] = p->nsteps;
	stage_grow(p, s->dst, s->count);
	stage_grow(p, s->a, s->count);
	if (s->op == CB_PLAN_REDUCE)
		stage_grow(p, s->b, s->count);
	return p->stream && p->nsteps >= CB_PLAN_STREAM_PART ? stream_part(p, 0) : CB_OK;
}

enum cb_status cb_plan_copy(struct cb_plan *p, int exec, struct cb_plan_ref dst,
			    struct cb_plan_ref a, size_t count, int final)
{
	struct cb_plan_step s = { CB_PLAN_COPY, exec, final, dst, a, dst, count };

	return add(p, &s);
}

enum cb_status cb_plan_reduce(struct cb_plan *p, int exec, struct cb_plan_ref dst,
			      struct cb_plan_ref a, struct cb_plan_ref b, size_t count, int final)
{
	struct cb_plan_step s = { CB_PLAN_REDUCE, exec, final, dst, a, b, count };

	return add(p, &s);
}

void cb_plan_traffic(const struct cb_plan *p, size_t esize, uint64_t *tx, uint64_t *rx)
{
	memset(tx, 0, (size_t)p->n * sizeof(*tx));
	memset(rx, 0, (size_t)p->n * sizeof(*rx));
	for (size_t i = 0; i < p->nsteps; i++) {
		const struct cb_plan_step *s = &p->steps[i];
		uint64_t bytes = (uint64_t)s->count * esize;

		if (s->a.rank != s->dst.rank)
			tx[s->a.rank] += bytes, rx[s->dst.rank] += bytes;
		if (s->op == CB_PLAN_REDUCE && s->b.rank != s->dst.rank)
			tx[s->b.rank] += bytes, rx[s->dst.rank] += bytes;
	}
}

static const char *buf_name(enum cb_plan_buf b)
{
	return b == CB_PLAN_SEND ? "send" : b == CB_PLAN_RECV ? "recv" : "stage";
}

/* A reference's range inside its buffer, and its rank in range. */
static enum cb_status ref_ok(const struct cb_plan *p, struct cb_plan_ref r, size_t count,
			     const char *what, size_t k, size_t i, char *err, size_t len)
{
	size_t size;

	if (r.rank < 0 || r.rank >= p->n || r.buf < 0 || r.buf >= CB_PLAN_NBUFS)
		return refuse(err, len, "round %zu, step %zu: %s names rank %d of %d", k, i, what,
			      r.rank, p->n);
	size = cb_plan_buf_count(p, r.rank, r.buf);
	if (r.off > size || count > size - r.off)
		return refuse(err, len, "round %zu, step %zu: %s [%zu, %zu) of rank %d's %s "
			      "(%zu elements)", k, i, what, r.off, r.off + count, r.rank,
			      buf_name(r.buf), size);
	return CB_OK;
}

/* The step rules of cb_plan_finish. */
static enum cb_status step_ok(const struct cb_plan *p, size_t k, size_t i, char *err, size_t len)
{
	const struct cb_plan_step *s = &p->steps[i];
	enum cb_status st = ref_ok(p, s->dst, s->count, "dst", k, i, err, len);

	if (st == CB_OK)
		st = ref_ok(p, s->a, s->count, "a", k, i, err, len);
	if (st == CB_OK && s->op == CB_PLAN_REDUCE)
		st = ref_ok(p, s->b, s->count, "b", k, i, err, len);
	if (st != CB_OK)
		return st;
	if (s->op == CB_PLAN_REDUCE && s->b.rank != s->dst.rank)
		return refuse(err, len, "round %zu, step %zu: a reduce's b is on rank %d, its dst "
			      "on rank %d (b must be the receiver's)", k, i, s->b.rank, s->dst.rank);
	if (s->exec != s->dst.rank && s->exec != s->a.rank)
		return refuse(err, len, "round %zu, step %zu: exec rank %d is neither dst's (%d) "
			      "nor a's (%d)", k, i, s->exec, s->dst.rank, s->a.rank);
	if (s->dst.buf == CB_PLAN_SEND)
		return refuse(err, len, "round %zu, step %zu: writes a send buffer", k, i);
	if (s->final && !cb_coll_get(p->coll)->reduces)
		return refuse(err, len, "round %zu, step %zu: a final step in %s, which does not "
			      "reduce", k, i, cb_coll_get(p->coll)->name);
	return CB_OK;
}

/* ---- waits: who wrote and who read each range, round by round ---------- */

struct reader {
	int rank;
	uint32_t round;
};

/* A range [lo, hi) of one rank's buffer: its last writer (the exec rank and
 * round; round -1: none in this plan, and then exec SEG_INPUT where the range
 * holds the rank's input, SEG_NONE where nothing was written) and who read it
 * since. */
#define SEG_NONE (-1)
#define SEG_INPUT (-2)

struct seg {
	size_t lo, hi;
	int wexec;
	long wround;
	struct reader *rd;
	size_t nrd, caprd;
};

struct segmap {
	struct seg *s;
	size_t n, cap;
};

/* A wait found while walking round k: exec needs peer >= rounds. */
struct need {
	int exec, peer;
	uint32_t rounds;
};

struct walk {
	const struct cb_plan *p;
	struct segmap *maps; /* [n * 3]: rank r, buffer b at r * 3 + b */
	struct need *needs;
	size_t nneeds, capneeds;
	int oom;
};

struct cb_plan_ref cb_plan_canon_ref(const struct cb_plan *p, struct cb_plan_ref r)
{
	int send_inside;
	size_t at;

	if (!p->in_place || r.buf == CB_PLAN_STAGE)
		return r;
	at = cb_coll_inplace_offset(p->coll, p->n, p->count, r.rank, &send_inside);
	if (send_inside ? r.buf == CB_PLAN_SEND : r.buf == CB_PLAN_RECV) {
		r.off += at;
		r.buf = send_inside ? CB_PLAN_RECV : CB_PLAN_SEND;
	}
	return r;
}

static struct cb_plan_ref canon(const struct walk *w, struct cb_plan_ref r)
{
	return cb_plan_canon_ref(w->p, r);
}

/* The memory a plan's buffer b of rank r is, in place or not: its own, or
 * for the inside one, the larger's. */
static int buf_class(const struct walk *w, enum cb_plan_buf b)
{
	struct cb_plan_ref r = { 0, b, 0 };

	return (int)canon(w, r).buf;
}

/* r's map (r canonical). */
static struct segmap *map_of(struct walk *w, struct cb_plan_ref r)
{
	return &w->maps[(size_t)r.rank * CB_PLAN_NBUFS + (size_t)buf_class(w, r.buf)];
}

/* Splits the segment of m that holds x inside it at x; returns the index of
 * the segment starting at x (m->n when x is the end). */
static size_t split_at(struct walk *w, struct segmap *m, size_t x)
{
	size_t lo = 0, hi = m->n;

	while (lo < hi) { /* the first segment with hi > x */
		size_t mid = (lo + hi) / 2;

		if (m->s[mid].hi <= x)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == m->n || m->s[lo].lo == x)
		return lo;
	if (grow((void **)&m->s, &m->cap, m->n + 1, sizeof(*m->s))) {
		w->oom = 1;
		return lo;
	}
	memmove(&m->s[lo + 1], &m->s[lo], (m->n - lo) * sizeof(*m->s));
	m->n++;
	m->s[lo + 1].lo = x;
	m->s[lo].hi = x;
	m->s[lo + 1].caprd = m->s[lo + 1].nrd;
	m->s[lo + 1].rd = NULL;
	if (m->s[lo].nrd) {
		m->s[lo + 1].rd = malloc(m->s[lo].nrd * sizeof(struct reader));
		if (!m->s[lo + 1].rd) {
			w->oom = 1;
			m->s[lo + 1].nrd = m->s[lo + 1].caprd = 0;
		} else {
			memcpy(m->s[lo + 1].rd, m->s[lo].rd, m->s[lo].nrd * sizeof(struct reader));
		}
	}
	return lo + 1;
}

static void need(struct walk *w, int exec, int peer, uint32_t rounds)
{
	if (peer == exec || rounds == 0)
		return;
	if (grow((void **)&w->needs, &w->capneeds, w->nneeds + 1, sizeof(*w->needs))) {
		w->oom = 1;
		return;
	}
	w->needs[w->nneeds++] = (struct need){ exec, peer, rounds };
}

/* The segments of r's range [off, off+count): [*first, *last). */
static void segs_of(struct walk *w, struct cb_plan_ref r, size_t count, size_t *first,
		    size_t *last)
{
	struct segmap *m = map_of(w, r);

	*first = split_at(w, m, r.off);
	*last = split_at(w, m, r.off + count);
	*first = split_at(w, m, r.off); /* the second split may have moved it */
}

/* The waits a step of exec in round k needs: read after write for its
 * sources, write after read and write after write for its destination.
 * Returns the elements of its sources that another exec rank wrote in an
 * earlier round (cb_plan.fresh). */
static size_t step_needs(struct walk *w, const struct cb_plan_step *s)
{
	struct cb_plan_ref src[2] = { canon(w, s->a), canon(w, s->b) }, dst = canon(w, s->dst);
	size_t f, l, fresh = 0;

	for (int i = 0; i < (s->op == CB_PLAN_REDUCE ? 2 : 1); i++) {
		segs_of(w, src[i], s->count, &f, &l);
		for (struct seg *g = &map_of(w, src[i])->s[f]; f < l; f++, g++) {
			if (g->wround >= 0)
				need(w, s->exec, g->wexec, (uint32_t)g->wround + 1);
			if (g->wround >= 0 && g->wexec != s->exec)
				fresh += g->hi - g->lo;
		}
	}
	segs_of(w, dst, s->count, &f, &l);
	for (struct seg *g = &map_of(w, dst)->s[f]; f < l; f++, g++) {
		if (g->wround >= 0)
			need(w, s->exec, g->wexec, (uint32_t)g->wround + 1);
		for (size_t j = 0; j < g->nrd; j++)
			need(w, s->exec, g->rd[j].rank, g->rd[j].round + 1);
	}
	return fresh;
}

/* " (stage slot S)" for a STAGE range of a plan with slots, else "". */
static const char *slot_note(const struct cb_plan *p, struct cb_plan_ref r, char *buf,
			     size_t len)
{
	*buf = '\0';
	if (r.buf == CB_PLAN_STAGE && p->stage_slot)
		snprintf(buf, len, " (stage slot %zu)", r.off / p->stage_slot);
	return buf;
}

/* The rule that a step reads only what its rank's input holds or an earlier
 * step wrote (not STAGE or RECV that nothing wrote: what is there is not
 * data, whatever its value), step i of round k. */
static enum cb_status step_reads_written(struct walk *w, size_t k, size_t i, char *err,
					 size_t len)
{
	const struct cb_plan_step *s = &w->p->steps[i];
	struct cb_plan_ref src[2] = { s->a, s->b };
	size_t f, l;

	for (int j = 0; j < (s->op == CB_PLAN_REDUCE ? 2 : 1); j++) {
		struct cb_plan_ref c = canon(w, src[j]);

		segs_of(w, c, s->count, &f, &l);
		for (struct seg *g = &map_of(w, c)->s[f]; f < l && !w->oom; f++, g++) {
			char slot[48], part[64] = "which";
			size_t lo = g->lo - (c.off - src[j].off), hi = g->hi - (c.off - src[j].off);

			if (g->wround >= 0 || g->wexec == SEG_INPUT)
				continue;
			if (lo != src[j].off || hi != src[j].off + s->count)
				snprintf(part, sizeof(part), "of which [%zu, %zu)", lo, hi);
			return refuse(err, len, "round %zu, step %zu: its %s reads rank %d's %s [%zu, "
				      "%zu)%s, %s nothing wrote before (neither the input nor an "
				      "earlier step)", k, i, j ? "b" : "a", src[j].rank,
				      buf_name(src[j].buf), src[j].off, src[j].off + s->count,
				      slot_note(w->p, src[j], slot, sizeof(slot)), part);
		}
	}
	return w->oom ? CB_ERR_NOMEM : CB_OK;
}

/* The rule that out of place every RECV that holds a result is written
 * whole (in place it starts as the input, which the values check). */
static enum cb_status results_written(struct walk *w, char *err, size_t len)
{
	const struct cb_plan *p = w->p;
	size_t f, l;

	for (int r = 0; r < p->n && !p->in_place && p->recv_count; r++) {
		struct cb_plan_ref rr = cb_pref(r, CB_PLAN_RECV, 0);

		if (!cb_coll_has_result(p->coll, r, p->root))
			continue;
		segs_of(w, rr, p->recv_count, &f, &l);
		for (struct seg *g = &map_of(w, rr)->s[f]; f < l && !w->oom; f++, g++)
			if (g->wround < 0)
				return refuse(err, len, "rank %d's result, recv [%zu, %zu) of [0, %zu), "
					      "is never written", r, g->lo, g->hi, p->recv_count);
	}
	return w->oom ? CB_ERR_NOMEM : CB_OK;
}

/* Records a step of round k: its reads, then its write. */
static void step_record(struct walk *w, const struct cb_plan_step *s, uint32_t k)
{
	struct cb_plan_ref src[2] = { canon(w, s->a), canon(w, s->b) }, dst = canon(w, s->dst);
	size_t f, l;

	for (int i = 0; i < (s->op == CB_PLAN_REDUCE ? 2 : 1); i++) {
		segs_of(w, src[i], s->count, &f, &l);
		for (struct seg *g = &map_of(w, src[i])->s[f]; f < l; f++, g++) {
			size_t j = 0;

			while (j < g->nrd && g->rd[j].rank != s->exec)
				j++;
			if (j == g->nrd &&
			    grow((void **)&g->rd, &g->caprd, g->nrd + 1, sizeof(*g->rd))) {
				w->oom = 1;
				continue;
			}
			if (j == g->nrd)
				g->nrd++;
			g->rd[j] = (struct reader){ s->exec, k };
		}
	}
	segs_of(w, dst, s->count, &f, &l);
	for (struct seg *g = &map_of(w, dst)->s[f]; f < l; f++, g++) {
		g->wexec = s->exec;
		g->wround = k;
		g->nrd = 0;
	}
}

/* ---- one round's own rule: nothing written twice, or written and read ---- */

struct touch {
	size_t key, lo, hi, step;
	int write, exec, remote; /* remote: a read of a step that moves bytes between ranks */
};

static int touch_cmp(const void *x, const void *y)
{
	const struct touch *a = x, *b = y;

	if (a->key != b->key)
		return a->key < b->key ? -1 : 1;
	return a->lo < b->lo ? -1 : a->lo > b->lo;
}

/* The two largest ends of earlier ranges from two different exec ranks. */
struct top2 {
	size_t hi[2];
	int who[2];
};

static void top2_add(struct top2 *t, size_t hi, int who)
{
	if (who == t->who[0]) {
		if (hi > t->hi[0])
			t->hi[0] = hi;
	} else if (hi > t->hi[0]) {
		t->hi[1] = t->hi[0], t->who[1] = t->who[0];
		t->hi[0] = hi, t->who[0] = who;
	} else if (hi > t->hi[1]) {
		t->hi[1] = hi, t->who[1] = who;
	}
}

/* 1 when an earlier range of another exec rank than who (any, for who -1)
 * ends after lo. */
static int top2_hits(const struct top2 *t, size_t lo, int who)
{
	return (t->who[0] != who && t->hi[0] > lo) || (t->who[1] != who && t->hi[1] > lo);
}

#define TOP2_NONE { { 0, 0 }, { -2, -2 } }

/* r's map key (r canonical). */
static size_t touch_key(const struct walk *w, struct cb_plan_ref r)
{
	return (size_t)r.rank * CB_PLAN_NBUFS + (size_t)buf_class(w, r.buf);
}

/* A round's rules: steps of different exec ranks never touch a range one of
 * them writes; a step that moves bytes between ranks reads nothing the round
 * writes (a two-sided executor posts its messages before the round's own
 * work). Steps of one exec rank may depend on one another, in plan order. */
static enum cb_status round_ok(struct walk *w, size_t k, char *err, size_t len)
{
	const struct cb_plan *p = w->p;
	size_t first = p->round_first[k], n = p->round_first[k + 1] - first, m = 0;
	struct touch *t = malloc(3 * (n ? n : 1) * sizeof(*t));
	struct top2 wr = TOP2_NONE, rd = TOP2_NONE;
	size_t wall = 0, rremote = 0; /* the largest end of any write, of any message's read */
	enum cb_status st = CB_OK;

	if (!t)
		return CB_ERR_NOMEM;
	for (size_t i = first; i < first + n; i++) {
		const struct cb_plan_step *s = &p->steps[i];
		int moves = s->a.rank != s->dst.rank;
		struct cb_plan_ref d = canon(w, s->dst), sa = canon(w, s->a), sb = canon(w, s->b);

		t[m++] = (struct touch){ touch_key(w, d), d.off, d.off + s->count, i, 1, s->exec, 0 };
		t[m++] = (struct touch){ touch_key(w, sa), sa.off, sa.off + s->count, i, 0, s->exec,
					 moves };
		if (s->op == CB_PLAN_REDUCE)
			t[m++] = (struct touch){ touch_key(w, sb), sb.off, sb.off + s->count, i, 0,
						 s->exec, 0 };
	}
	if (m)
		qsort(t, m, sizeof(*t), touch_cmp);
	for (size_t i = 0; i < m && st == CB_OK; i++) {
		int clash;

		if (i == 0 || t[i].key != t[i - 1].key) {
			wr = rd = (struct top2)TOP2_NONE;
			wall = rremote = 0;
		}
		clash = top2_hits(&wr, t[i].lo, t[i].exec) ||
			(t[i].write && (top2_hits(&rd, t[i].lo, t[i].exec) || rremote > t[i].lo)) ||
			(t[i].remote && wall > t[i].lo);
		if (clash)
			st = refuse(err, len, "round %zu: step %zu %s rank %zu's %s [%zu, %zu), which the "
				    "round %s", k, t[i].step,
				    t[i].write ? "writes" : "reads", t[i].key / CB_PLAN_NBUFS,
				    buf_name((enum cb_plan_buf)(t[i].key % CB_PLAN_NBUFS)), t[i].lo,
				    t[i].hi, "also touches: steps of different exec ranks may not touch "
				    "what one of them writes, and a message reads only earlier rounds");
		top2_add(t[i].write ? &wr : &rd, t[i].hi, t[i].exec);
		if (t[i].write && t[i].hi > wall)
			wall = t[i].hi;
		if (t[i].remote && t[i].hi > rremote)
			rremote = t[i].hi;
	}
	free(t);
	return st;
}

/* ---- cb_plan_finish ------------------------------------------------------ */

static int need_cmp(const void *x, const void *y)
{
	const struct need *a = x, *b = y;

	if (a->exec != b->exec)
		return a->exec - b->exec;
	if (a->peer != b->peer)
		return a->peer - b->peer;
	return a->rounds < b->rounds ? 1 : a->rounds > b->rounds ? -1 : 0; /* largest first */
}

/* In place with the send buffer inside the receive buffer (all_gather),
 * the input is the receive buffer's range that the send buffer is. */
static enum cb_status mark_inside_input(struct walk *w)
{
	const struct cb_plan *p = w->p;
	struct cb_plan_ref in = cb_plan_canon_ref(p, cb_pref(0, CB_PLAN_SEND, 0));
	size_t f, l;

	if (in.buf == CB_PLAN_SEND || !p->send_count)
		return CB_OK;
	for (int r = 0; r < p->n; r++) {
		in = cb_plan_canon_ref(p, cb_pref(r, CB_PLAN_SEND, 0));
		segs_of(w, in, p->send_count, &f, &l);
		for (struct seg *g = &map_of(w, in)->s[f]; f < l; f++, g++)
			g->wexec = SEG_INPUT;
	}
	return w->oom ? CB_ERR_NOMEM : CB_OK;
}

static enum cb_status maps_init(struct walk *w)
{
	const struct cb_plan *p = w->p;

	w->maps = calloc((size_t)p->n * CB_PLAN_NBUFS, sizeof(*w->maps));
	if (!w->maps)
		return CB_ERR_NOMEM;
	for (int r = 0; r < p->n; r++)
		for (int b = 0; b < CB_PLAN_NBUFS; b++) {
			struct segmap *m = &w->maps[(size_t)r * CB_PLAN_NBUFS + (size_t)b];
			size_t size = cb_plan_buf_count(p, r, (enum cb_plan_buf)b);

			if (!size)
				continue;
			m->s = calloc(1, sizeof(*m->s));
			if (!m->s)
				return CB_ERR_NOMEM;
			m->n = m->cap = 1;
			m->s[0] = (struct seg){ 0, size, b == CB_PLAN_SEND ? SEG_INPUT : SEG_NONE, -1,
						NULL, 0, 0 };
		}
	return p->in_place ? mark_inside_input(w) : CB_OK;
}

static void maps_free(struct walk *w)
{
	for (size_t i = 0; w->maps && i < (size_t)w->p->n * CB_PLAN_NBUFS; i++) {
		for (size_t j = 0; j < w->maps[i].n; j++)
			free(w->maps[i].s[j].rd);
		free(w->maps[i].s);
	}
	free(w->maps);
	free(w->needs);
}

/* Round k's needs, deduplicated (the largest per exec and peer), into the
 * waits of its ranks: rank r's at wait_first[k * n + r]. */
static enum cb_status round_waits(struct walk *w, struct cb_plan *p, size_t k)
{
	size_t at = 0, nw = p->wait_first[k * (size_t)p->n];

	if (w->nneeds) /* qsort wants an array, even of none */
		qsort(w->needs, w->nneeds, sizeof(*w->needs), need_cmp);
	for (int r = 0; r < p->n; r++) {
		p->wait_first[k * (size_t)p->n + (size_t)r] = nw;
		for (; at < w->nneeds && w->needs[at].exec == r; at++) {
			if (at > 0 && w->needs[at - 1].exec == r && w->needs[at - 1].peer == w->needs[at].peer)
				continue; /* a smaller need of the same peer */
			if (grow((void **)&p->waits, &p->wait_cap, nw + 1, sizeof(*p->waits)))
				return CB_ERR_NOMEM;
			p->waits[nw++] = (struct cb_plan_wait){ w->needs[at].peer, w->needs[at].rounds };
		}
	}
	p->wait_first[(k + 1) * (size_t)p->n] = nw;
	w->nneeds = 0;
	return CB_OK;
}

enum cb_status cb_plan_finish(struct cb_plan *p, int in_place, char *err, size_t errlen)
{
	struct walk w = { p, NULL, NULL, 0, 0, 0 };
	enum cb_status st = CB_OK;

	free(p->waits);
	free(p->wait_first);
	free(p->fresh);
	p->waits = NULL, p->wait_cap = 0;
	p->in_place = in_place;
	p->wait_first = calloc((size_t)p->n * p->nrounds + 1, sizeof(*p->wait_first));
	p->fresh = calloc(p->nsteps ? p->nsteps : 1, sizeof(*p->fresh));
	if (!p->wait_first || !p->fresh)
		return CB_ERR_NOMEM;
	for (size_t k = 0; k < p->nrounds && st == CB_OK; k++)
		for (size_t i = p->round_first[k]; i < p->round_first[k + 1] && st == CB_OK; i++)
			st = step_ok(p, k, i, err, errlen);
	if (st == CB_OK)
		st = maps_init(&w);
	for (size_t k = 0; k < p->nrounds && st == CB_OK; k++) {
		st = round_ok(&w, k, err, errlen);
		/* in plan order: a rank's own steps of a round follow one another */
		for (size_t i = p->round_first[k]; i < p->round_first[k + 1] && st == CB_OK; i++) {
			st = step_reads_written(&w, k, i, err, errlen);
			if (st != CB_OK)
				break;
			p->fresh[i] = step_needs(&w, &p->steps[i]);
			step_record(&w, &p->steps[i], (uint32_t)k);
		}
		if (st == CB_OK)
			st = w.oom ? CB_ERR_NOMEM : round_waits(&w, p, k);
	}
	if (st == CB_OK)
		st = results_written(&w, err, errlen);
	maps_free(&w);
	return st;
}

/* Marks other as r's neighbour (once). */
static void neighbour(int r, int other, char *seen, int *peers, int *k)
{
	if (other >= 0 && other != r && !seen[other])
		seen[other] = 1, peers[(*k)++] = other;
}

int cb_plan_neighbours(const struct cb_plan *p, int r, int *peers)
{
	char *seen = calloc((size_t)p->n, 1);
	int k = 0;

	if (!seen)
		return -1;
	for (size_t i = 0; i < p->n * p->nrounds; i++) {
		int who = (int)(i % (size_t)p->n);

		for (size_t j = p->wait_first[i]; j < p->wait_first[i + 1]; j++)
			neighbour(r, who == r ? p->waits[j].peer : p->waits[j].peer == r ? who : -1, seen,
				  peers, &k);
	}
	/* a plan without waits (one-shot out of place) still reads or writes
	 * peers' ranges: those peers too */
	for (size_t i = 0; i < p->nsteps; i++) {
		const struct cb_plan_step *s = &p->steps[i];
		int touched[3] = { s->dst.rank, s->a.rank, s->op == CB_PLAN_REDUCE ? s->b.rank : -1 };

		for (int t = 0; t < 3; t++)
			neighbour(r, s->exec == r ? touched[t] : touched[t] == r ? s->exec : -1, seen,
				  peers, &k);
	}
	free(seen);
	return k;
}
