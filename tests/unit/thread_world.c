/* Ranks as threads of one process (contract in thread_world.h). */
#define _GNU_SOURCE
#include "thread_world.h"

#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdint.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cb_check.h"
#include "cb_coll.h"
#include "cb_p2p.h"
#include "cb_verify.h"
#include "cb_wait.h"

/* Odd ranks write the checked call's inputs this much later than even ones. */
#define TW_STAGGER_US 300
/* A sleeping wait's tick: no wait of a case comes near it. */
#define TW_TICK_MS 10000

/* A two-sided operation, pending until matched. */
struct op {
	int owner, round, done;
	void *buf;
	size_t bytes;
	struct op *next;
};

/* The world of the case running: the host's meeting point (collective
 * allocations and the case's own steps), the fake transport's unmatched
 * operations per (src, dst), the abort flag the waits watch. */
static struct {
	pthread_mutex_t mu;
	pthread_cond_t cv;            /* a rank finished */
	pthread_cond_t done[TW_MAXN]; /* one of the rank's operations completed */
	pthread_barrier_t bar;
	int nccl, finished, done_init;
	void *slot[2][TW_MAXN];
	struct op *sends[TW_MAXN][TW_MAXN], *recvs[TW_MAXN][TW_MAXN];
	volatile int abort;
	char why[256];
} W = { .mu = PTHREAD_MUTEX_INITIALIZER, .cv = PTHREAD_COND_INITIALIZER };

static int identity[TW_MAXN] = { 0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10,
				       11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21,
				       22, 23, 24, 25, 26, 27, 28, 29, 30, 31 };

static void failed(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void failed(const char *fmt, ...)
{
	va_list ap;

	pthread_mutex_lock(&W.mu);
	va_start(ap, fmt);
	if (!W.why[0])
		vsnprintf(W.why, sizeof(W.why), fmt, ap);
	va_end(ap);
	pthread_mutex_unlock(&W.mu);
}

static void meet(void)
{
	pthread_barrier_wait(&W.bar);
}

/* ---- the host: buffers and flags every thread addresses ----------------- */

/* One rank: its case, counters, waits and allocations (be->impl). */
struct rank_ctx {
	const struct tw_case *c;
	int rank;
	uint64_t *tx, *rx;     /* this thread's counters, by owner rank */
	struct tw_rank *out;
	struct cb_wait_stats waits;
	unsigned allocs;       /* tw_buf_alloc's calls */
};

/* Collective over the node's threads (node_size 1: this rank's alone): each
 * allocates its part, zeroed, cache-line aligned; peer[r] is rank r's (NULL
 * for 0 bytes). One meeting: the slots alternate between two sets, and a
 * thread can write the set again only after the next allocation's meeting,
 * which every thread reaches after it has read this one. */
static enum cb_status tw_buf_alloc(struct cb_backend *be, size_t bytes, struct cb_buf **out)
{
	struct rank_ctx *x = be->impl;
	struct cb_buf *b = calloc(1, sizeof(*b));
	void *mine = NULL, **slot = W.slot[x->allocs++ % 2];
	size_t padded = (bytes + 63) / 64 * 64;

	if (b)
		b->peer = calloc((size_t)be->node_size, sizeof(void *));
	if (bytes && (mine = aligned_alloc(64, padded)))
		memset(mine, 0, padded);
	if (!b || !b->peer || (bytes && !mine)) /* no room: fail before meeting */
		abort();
	b->bytes = bytes;
	if (be->node_size == 1) {
		b->peer[0] = mine;
	} else {
		slot[be->node_rank] = mine;
		meet();
		memcpy(b->peer, slot, (size_t)be->node_size * sizeof(void *));
	}
	*out = b;
	return CB_OK;
}

/* Frees this rank's part. No meeting: every free comes after rank_main's
 * last meeting (nobody reads a peer's buffers any more) or, in a failed
 * set-up, before any peer used the buffer. */
static void tw_buf_free(struct cb_backend *be, struct cb_buf *b)
{
	if (!b)
		return;
	free(b->peer[be->node_rank]);
	free(b->peer);
	free(b);
}

/* The flags: one struct cb_flag per rank in a buffer every thread maps. */
struct cb_flags {
	struct cb_buf *buf;
};

static enum cb_status tw_flags_alloc(struct cb_backend *be, struct cb_flags **out)
{
	struct cb_flags *f = calloc(1, sizeof(*f));

	if (!f)
		abort();
	tw_buf_alloc(be, sizeof(struct cb_flag), &f->buf);
	cb_flag_init(f->buf->peer[be->node_rank]);
	if (be->node_size > 1)
		meet(); /* every flag made before any wait */
	*out = f;
	return CB_OK;
}

static void tw_flags_free(struct cb_backend *be, struct cb_flags *f)
{
	if (!f)
		return;
	tw_buf_free(be, f->buf);
	free(f);
}

static enum cb_status tw_post(struct cb_backend *be, struct cb_flags *f, uint64_t value)
{
	cb_flag_post(f->buf->peer[be->node_rank], value);
	return CB_OK;
}

static enum cb_status tw_wait(struct cb_backend *be, struct cb_flags *f, int peer, uint64_t value)
{
	struct cb_flag *pf = f->buf->peer[peer];
	enum cb_status st = cb_flag_wait(pf, value, &be->wait, be->abort_flag,
					 &((struct rank_ctx *)be->impl)->waits);

	if (st != CB_OK)
		failed("rank %d gave up waiting for rank %d (its progress %llu, needed %llu)",
		       be->world_rank, peer, (unsigned long long)atomic_load(&pf->progress),
		       (unsigned long long)value);
	return st;
}

static int tw_ready(struct cb_backend *be, struct cb_flags *f, int peer, uint64_t value)
{
	(void)be;
	return cb_flag_ready(f->buf->peer[peer], value);
}

/* ---- the fake two-sided transport ---------------------------------------- */

/* One rank's transport: its operations per outstanding round. */
struct fake {
	struct op **ops[CB_P2P_ROUNDS];
	int n[CB_P2P_ROUNDS], head, cur, round, max;
};

static enum cb_status f_open(struct cb_p2p *p, int max_ops)
{
	struct fake *f = calloc(1, sizeof(*f));

	if (!f)
		return CB_ERR_NOMEM;
	f->max = max_ops;
	for (int k = 0; k < CB_P2P_ROUNDS; k++)
		if (!(f->ops[k] = calloc((size_t)max_ops + 1, sizeof(struct op *))))
			return CB_ERR_NOMEM;
	p->impl = f;
	return CB_OK;
}

static void f_close(struct cb_p2p *p)
{
	struct fake *f = p->impl;

	for (int k = 0; k < CB_P2P_ROUNDS; k++)
		free(f->ops[k]);
	free(f);
}

static enum cb_status f_alloc(struct cb_p2p *p, size_t bytes, void **out)
{
	(void)p;
	*out = calloc(1, bytes ? bytes : 1);
	return *out ? CB_OK : CB_ERR_NOMEM;
}

static void f_free(struct cb_p2p *p, void *ptr)
{
	(void)p;
	free(ptr);
}

static enum cb_status f_round_begin(struct cb_p2p *p)
{
	struct fake *f = p->impl;

	f->cur = (f->head + p->outstanding) % CB_P2P_ROUNDS;
	f->n[f->cur] = 0;
	return CB_OK;
}

/* Posts an operation between src and dst; matches it with the oldest one of
 * the other kind pending between them: the bytes move now. */
static enum cb_status post(struct cb_p2p *p, int send, int peer, void *buf, size_t bytes)
{
	struct fake *f = p->impl;
	int me = p->be->world_rank, src = send ? me : peer, dst = send ? peer : me;
	struct op *o = calloc(1, sizeof(*o)), **other, **mine;

	if (!o || f->n[f->cur] >= f->max)
		return o ? (free(o), CB_ERR_ARG) : CB_ERR_NOMEM;
	o->owner = me, o->round = f->round, o->buf = buf, o->bytes = bytes;
	f->ops[f->cur][f->n[f->cur]++] = o;
	pthread_mutex_lock(&W.mu);
	other = send ? &W.recvs[src][dst] : &W.sends[src][dst];
	mine = send ? &W.sends[src][dst] : &W.recvs[src][dst];
	if (*other) {
		struct op *m = *other;

		*other = m->next;
		if (m->bytes != bytes && !W.why[0])
			snprintf(W.why, sizeof(W.why), "%d -> %d: %zu B in round %d met %zu B in round %d",
				 src, dst, send ? bytes : m->bytes, send ? o->round : m->round,
				 send ? m->bytes : bytes, send ? m->round : o->round);
		else if (m->bytes == bytes)
			memcpy(send ? m->buf : buf, send ? buf : m->buf, bytes);
		m->done = o->done = 1;
		pthread_cond_signal(&W.done[m->owner]);
	} else {
		while (*mine)
			mine = &(*mine)->next;
		*mine = o;
	}
	pthread_mutex_unlock(&W.mu);
	return CB_OK;
}

static enum cb_status f_send(struct cb_p2p *p, int peer, const void *buf, size_t bytes)
{
	return post(p, 1, peer, (void *)buf, bytes);
}

static enum cb_status f_recv(struct cb_p2p *p, int peer, void *buf, size_t bytes)
{
	return post(p, 0, peer, buf, bytes);
}

/* Waits for the operations of slot k, until they complete or the world
 * aborts (a deadlock). */
static enum cb_status complete(struct fake *f, int me, int k)
{
	enum cb_status st = CB_OK;

	pthread_mutex_lock(&W.mu);
	for (int i = 0; i < f->n[k] && st == CB_OK; i++)
		while (!f->ops[k][i]->done && st == CB_OK) {
			struct timespec until;

			clock_gettime(CLOCK_REALTIME, &until);
			until.tv_nsec += 10 * 1000 * 1000;
			until.tv_sec += until.tv_nsec / 1000000000, until.tv_nsec %= 1000000000;
			pthread_cond_timedwait(&W.done[me], &W.mu, &until);
			if (W.abort) {
				if (!W.why[0])
					snprintf(W.why, sizeof(W.why), "deadlock: round %d never completed",
						 f->ops[k][i]->round);
				st = CB_ERR_TIMEOUT;
			}
		}
	pthread_mutex_unlock(&W.mu);
	for (int i = 0; i < f->n[k] && st == CB_OK; i++)
		free(f->ops[k][i]);
	f->n[k] = 0;
	return st;
}

static enum cb_status f_round_end(struct cb_p2p *p)
{
	struct fake *f = p->impl;

	f->round++;
	/* a group runs to its end */
	return W.nccl ? complete(f, p->be->world_rank, f->cur) : CB_OK;
}

static enum cb_status f_round_wait(struct cb_p2p *p)
{
	struct fake *f = p->impl;
	int k = f->head;

	f->head = (f->head + 1) % CB_P2P_ROUNDS;
	return W.nccl ? CB_OK : complete(f, p->be->world_rank, k);
}

static const struct cb_p2p_ops fake_p2p = {
	.name = "fake", .open = f_open, .close = f_close, .alloc = f_alloc, .free = f_free,
	.round_begin = f_round_begin, .send = f_send, .recv = f_recv, .round_end = f_round_end,
	.round_wait = f_round_wait,
};

/* The host backend's copies, reduces, staging and descriptor with the
 * buffers, flags and transport above. */
static const struct cb_backend_ops *tw_ops(void)
{
	static struct cb_backend_ops ops;

	if (!ops.desc) {
		ops = *cb_backend_find("host");
		ops.init = NULL, ops.fini = NULL, ops.time_begin = NULL, ops.time_end = NULL;
		ops.buf_alloc = tw_buf_alloc, ops.buf_free = tw_buf_free;
		ops.flags_alloc = tw_flags_alloc, ops.flags_free = tw_flags_free;
		ops.post = tw_post, ops.wait = tw_wait, ops.ready = tw_ready;
		ops.p2p = &fake_p2p;
	}
	return &ops;
}

/* ---- one rank ------------------------------------------------------------ */

/* This rank's backend: on the one host (one-sided) or a host of its own.
 * Its waits are shm's (futex, configured for n waiters on this machine's
 * CPUs) but that they sleep right after the poll, with no yield window:
 * up to 17 threads on two CPUs, yielding to each other, took 3 times as
 * long on a loaded machine, and the sleep is the path a lost wake-up would
 * hang (the tick, TW_TICK_MS, far above any wait of a case: a wait it ends
 * is counted, and fails the case). */
static void be_init(struct cb_backend *be, struct rank_ctx *x)
{
	const struct tw_case *c = x->c;
	int one_sided = !c->algo->two_sided_code;

	memset(be, 0, sizeof(*be));
	be->ops = tw_ops();
	be->world_rank = x->rank, be->world_size = c->n;
	be->node_rank = one_sided ? x->rank : 0;
	be->node_size = one_sided ? c->n : 1;
	be->world_of_node = one_sided ? identity : &identity[x->rank];
	be->single_node = be->node_size == be->world_size;
	be->tx = x->tx, be->rx = x->rx;
	be->abort_flag = &W.abort;
	cb_wait_configure(&be->wait, CB_WAIT_FUTEX, c->n, sysconf(_SC_NPROCESSORS_ONLN));
	be->wait.yield_ns = 0;
	be->wait.tick_ms = TW_TICK_MS;
	be->impl = x;
	cb_backend_set_acct(be, 1);
}

/* The stale inputs of the first call: poison over this rank's whole part. */
static void poison_all(struct cb_buf *b, int node_rank, enum cb_dtype dt)
{
	if (b->bytes)
		cb_fill_poison(b->peer[node_rank], b->bytes / cb_dtype_size(dt), dt);
}

/* One call as the harness's check makes it: the receive range poisoned,
 * the inputs written (stale: poison), then prepare and run. */
static enum cb_status call(const struct tw_case *c, struct cb_backend *be, struct cb_verify *v,
			   void *state, const struct cb_run_args *a, int stale)
{
	enum cb_status st = CB_OK;

	if (stale) {
		poison_all(a->send, be->node_rank, c->dt);
		if (a->recv != a->send)
			poison_all(a->recv, be->node_rank, c->dt);
	} else {
		st = cb_verify_poison(v, a->recv, c->count, c->dt);
		if (st == CB_OK)
			st = cb_verify_fill_input(v, c->in_place ? a->recv : a->send, c->count, c->dt,
						  c->op);
	}
	if (st == CB_OK && c->algo->prepare)
		st = c->algo->prepare(state, a);
	return st == CB_OK ? c->algo->run(state, a) : st;
}

/* Buffer bytes of this rank: send, receive (in place one, the larger). */
static void buffer_bytes(const struct tw_case *c, size_t *sb, size_t *rb)
{
	enum cb_coll coll = c->algo->desc->coll;
	size_t esz = cb_dtype_size(c->dt), s = cb_coll_send_count(coll, c->n, c->count),
	       r = cb_coll_recv_count(coll, c->n, c->count);

	*sb = (c->in_place && r > s ? r : s) * esz;
	*rb = (c->in_place && s > r ? s : r) * esz;
}

static void rank_main(struct rank_ctx *x)
{
	const struct tw_case *c = x->c;
	enum cb_coll coll = c->algo->desc->coll;
	struct cb_setup_args sa = { c->count * cb_dtype_size(c->dt) + 8, c->root, c->slice_bytes,
				    c->servers, c->algo->desc, NULL };
	struct cb_run_args a = { NULL, NULL, c->count, c->dt, c->op, coll, c->root };
	struct cb_backend be;
	struct cb_verify v;
	void *state = NULL;
	size_t sb, rb;
	uint64_t hash;
	enum cb_status st;

	be_init(&be, x);
	buffer_bytes(c, &sb, &rb);
	tw_buf_alloc(&be, sb, &a.send);
	if (c->in_place)
		a.recv = a.send;
	else
		tw_buf_alloc(&be, rb, &a.recv);
	st = cb_verify_init(&v, &be, sb > rb ? sb : rb);
	cb_verify_coll(&v, coll, c->root, c->in_place);
	if (st == CB_OK)
		st = cb_verify_prepare(&v, c->dt, c->op, c->count);
	if (st == CB_OK)
		st = c->algo->setup(&be, &sa, &state);
	if (st == CB_OK)
		st = call(c, &be, &v, state, &a, 1);
	meet(); /* every rank done with the stale call */
	if (x->rank % 2) {
		struct timespec d = { 0, TW_STAGGER_US * 1000L };

		nanosleep(&d, NULL);
	}
	memset(x->tx, 0, (size_t)c->n * sizeof(uint64_t));
	memset(x->rx, 0, (size_t)c->n * sizeof(uint64_t));
	if (st == CB_OK)
		st = call(c, &be, &v, state, &a, 0);
	if (st == CB_OK)
		st = cb_verify_check(&v, a.recv, c->count, c->dt, c->op, c->algo->desc->result,
				     &x->out->wrong, &hash);
	x->out->st = st;
	x->out->wait_ns = be.acct.wait_ns;
	x->out->sleeps = x->waits.sleeps;
	x->out->ticks = x->waits.ticks;
	meet(); /* nobody reads a peer's buffers any more */
	if (state)
		c->algo->teardown(state);
	cb_verify_fini(&v);
	if (!c->in_place)
		tw_buf_free(&be, a.recv);
	tw_buf_free(&be, a.send);
	pthread_mutex_lock(&W.mu);
	W.finished++;
	pthread_cond_broadcast(&W.cv);
	pthread_mutex_unlock(&W.mu);
}

/* The ranks' threads, made once and kept: a case hands rank r's context to
 * thread r (thread creation and its fresh stack cost a fifth of a case). */
static struct {
	pthread_t t[TW_MAXN];
	sem_t go[TW_MAXN];
	struct rank_ctx *job[TW_MAXN];
	int made;
} P;

static void *worker(void *arg)
{
	int i = (int)(intptr_t)arg;

	for (;;) {
		while (sem_wait(&P.go[i]))
			;
		rank_main(P.job[i]);
	}
	return NULL;
}

/* Starts rank r of the case on its thread (made on first use). */
static void start(int r, struct rank_ctx *x)
{
	for (; P.made <= r; P.made++)
		if (sem_init(&P.go[P.made], 0, 0) ||
		    pthread_create(&P.t[P.made], NULL, worker, (void *)(intptr_t)P.made))
			abort();
	P.job[r] = x;
	sem_post(&P.go[r]);
}

/* ---- the case ------------------------------------------------------------- */

/* Waits for the n threads; a deadlock sets the abort flag, and threads
 * still stuck after a second bound end the process. */
static void watch(int n)
{
	struct timespec until;

	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += TW_DEADLOCK_S;
	pthread_mutex_lock(&W.mu);
	while (W.finished < n)
		if (pthread_cond_timedwait(&W.cv, &W.mu, &until) == ETIMEDOUT) {
			if (W.abort) {
				fprintf(stderr, "thread_world: %d of %d ranks still stuck %d s after "
					"the abort: %s\n", n - W.finished, n, TW_DEADLOCK_S, W.why);
				_exit(1);
			}
			W.abort = 1;
			if (!W.why[0])
				snprintf(W.why, sizeof(W.why), "deadlock: no end after %d s",
					 TW_DEADLOCK_S);
			until.tv_sec += TW_DEADLOCK_S;
		}
	pthread_mutex_unlock(&W.mu);
}

static void world_reset(const struct tw_case *c)
{
	W.why[0] = '\0';
	W.abort = 0;
	W.finished = 0;
	W.nccl = c->nccl;
	memset(W.sends, 0, sizeof(W.sends));
	memset(W.recvs, 0, sizeof(W.recvs));
	pthread_barrier_init(&W.bar, NULL, (unsigned)c->n);
	for (int r = 0; r < TW_MAXN && !W.done_init; r++)
		pthread_cond_init(&W.done[r], NULL);
	W.done_init = 1;
}

int tw_run(const struct tw_case *c, struct tw_result *res)
{
	struct rank_ctx x[TW_MAXN];
	uint64_t *cnt;
	int ok = 1;

	if (c->n < 1 || c->n > TW_MAXN)
		abort();
	memset(res, 0, sizeof(*res));
	cnt = calloc(2 * (size_t)c->n * (size_t)c->n, sizeof(uint64_t));
	if (!cnt)
		abort();
	world_reset(c);
	for (int r = 0; r < c->n; r++) {
		x[r] = (struct rank_ctx){ c, r, cnt + 2 * (size_t)r * (size_t)c->n,
					  cnt + (2 * (size_t)r + 1) * (size_t)c->n, &res->rank[r], { 0 }, 0 };
		start(r, &x[r]);
	}
	watch(c->n);
	pthread_barrier_destroy(&W.bar);
	for (int r = 0; r < c->n; r++) /* each rank's bytes, summed over the threads */
		for (int q = 0; q < c->n; q++) {
			res->rank[r].tx += x[q].tx[r];
			res->rank[r].rx += x[q].rx[r];
		}
	for (int r = 0; r < c->n; r++) {
		ok &= res->rank[r].st == CB_OK && res->rank[r].wrong == 0;
		if (res->rank[r].ticks && !W.why[0])
			snprintf(W.why, sizeof(W.why), "rank %d: %llu wait(s) ended by the %d ms tick, "
				 "not by the peer's post: a lost wake-up", r,
				 (unsigned long long)res->rank[r].ticks, TW_TICK_MS);
	}
	memcpy(res->why, W.why, sizeof(res->why));
	free(cnt);
	return ok && !res->why[0] ? 0 : -1;
}

void tw_describe(const struct tw_case *c, char *buf, size_t len)
{
	snprintf(buf, len, "%s %s %s n=%d root=%d servers=%d count=%zu slice=%zu %s/%s in_place=%d",
		 !c->algo->two_sided_code ? "one-sided" : c->nccl ? "two-sided (NCCL's rules)"
								  : "two-sided (MPI's rules)",
		 cb_coll_get(c->algo->desc->coll)->name, c->algo->desc->name, c->n, c->root, c->servers,
		 c->count, c->slice_bytes, cb_dtype_name(c->dt), cb_op_name(c->op), c->in_place);
}
