/* Unit test: the two-sided executor (runtime/algo/cb_algo_plan_p2p.c) on n
 * ranks in one process, one thread per rank, over a fake p2p transport that
 * keeps the rules of each real one (cb_p2p.h), no MPI, no GPU:
 *   nccl mode: a round is a group run to completion at round_end (a GPU
 *              stream runs one group after the other), round_wait does
 *              nothing;
 *   mpi mode:  round_end returns at once, round_wait waits for the oldest
 *              round's operations;
 * in both, a send completes only when its receive is posted (rendezvous, the
 * strictest), its bytes are read then (a buffer changed before that shows
 * as a wrong result), and a send must meet a receive of its size (messages
 * between two ranks match in order). A rank posts only the plan rounds it
 * has messages in (cb_p2p.h); a schedule NCCL's groups would deadlock on
 * shows as a timed-out wait, a failure. Results are checked element by
 * element against the exact reference (cb_check.h), tx/rx against DESIGN.md
 * section 1's formulas (ps, ring) or the plan's sum (the rest of the family
 * and the example plan files, examples/plans). */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#include "cb_algo.h"
#include "cb_check.h"
#include "cb_p2p.h"
#include "cb_plan_file.h"
#include "cb_plan_lib.h"

#define MAXN 8

struct op {
	int round, done;
	void *buf;
	size_t bytes;
	struct op *next;
};

/* The world of one case: pending unmatched sends and receives per (src, dst);
 * its ranks meet at `met` once set up (a peer still building its plan is not
 * a deadlock) and before freeing their buffers (a rank that failed leaves
 * operations a peer may still match against). */
static struct {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	pthread_barrier_t met;
	int nccl;
	struct op *sends[MAXN][MAXN], *recvs[MAXN][MAXN];
	char why[256];
} W = { .mu = PTHREAD_MUTEX_INITIALIZER, .cv = PTHREAD_COND_INITIALIZER };

/* A deadlock's bound: no wait of a correct schedule comes near it, even under
 * the sanitizers on a loaded machine. */
#define DEADLOCK_S 30

/* One rank's transport: its operations per outstanding round. */
struct fake {
	struct op *ops[CB_P2P_ROUNDS][4 * MAXN];
	int n[CB_P2P_ROUNDS], head, cur, round;
};

static void failed(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void failed(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (!W.why[0])
		vsnprintf(W.why, sizeof(W.why), fmt, ap);
	va_end(ap);
}

static enum cb_status f_open(struct cb_p2p *p, int max_ops)
{
	if (max_ops > 4 * MAXN)
		return CB_ERR_ARG;
	p->impl = calloc(1, sizeof(struct fake));
	return p->impl ? CB_OK : CB_ERR_NOMEM;
}

static void f_close(struct cb_p2p *p)
{
	free(p->impl);
}

static enum cb_status f_alloc(struct cb_p2p *p, size_t bytes, void **out)
{
	(void)p;
	*out = calloc(1, bytes);
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

	if (!o)
		return CB_ERR_NOMEM;
	o->round = f->round, o->buf = buf, o->bytes = bytes;
	f->ops[f->cur][f->n[f->cur]++] = o;
	pthread_mutex_lock(&W.mu);
	other = send ? &W.recvs[src][dst] : &W.sends[src][dst];
	mine = send ? &W.sends[src][dst] : &W.recvs[src][dst];
	if (*other) {
		struct op *m = *other;

		*other = m->next;
		if (m->bytes != bytes)
			failed("%d -> %d: %zu B in round %d met %zu B in round %d", src, dst,
			       send ? bytes : m->bytes, send ? o->round : m->round,
			       send ? m->bytes : bytes, send ? m->round : o->round);
		else
			memcpy(send ? m->buf : buf, send ? buf : m->buf, bytes);
		m->done = o->done = 1;
		pthread_cond_broadcast(&W.cv);
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

/* Waits (at most DEADLOCK_S: longer is a deadlock) for the operations of slot k. */
static enum cb_status complete(struct fake *f, int k)
{
	struct timespec until;
	enum cb_status st = CB_OK;

	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += DEADLOCK_S;
	pthread_mutex_lock(&W.mu);
	for (int i = 0; i < f->n[k] && st == CB_OK; i++)
		while (!f->ops[k][i]->done && st == CB_OK)
			if (pthread_cond_timedwait(&W.cv, &W.mu, &until) == ETIMEDOUT) {
				failed("deadlock: round %d never completed", f->ops[k][i]->round);
				st = CB_ERR_TIMEOUT;
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
	return W.nccl ? complete(f, f->cur) : CB_OK; /* a group runs to its end */
}

static enum cb_status f_round_wait(struct cb_p2p *p)
{
	struct fake *f = p->impl;
	int k = f->head;

	f->head = (f->head + 1) % CB_P2P_ROUNDS;
	return W.nccl ? CB_OK : complete(f, k);
}

static const struct cb_p2p_ops fake_ops = {
	.name = "fake", .open = f_open, .close = f_close, .alloc = f_alloc, .free = f_free,
	.round_begin = f_round_begin, .send = f_send, .recv = f_recv, .round_end = f_round_end,
	.round_wait = f_round_wait,
};

/* One case: an algorithm on n ranks. */
struct tcase {
	const struct cb_algo_ops *algo;
	int n, root, in_place;
	size_t count, slice_bytes;
	enum cb_dtype dt;
	enum cb_op op;
};

struct rank_out {
	const struct tcase *c;
	int rank;
	size_t wrong;
	uint64_t tx, rx;
	enum cb_status st;
};

static struct cb_backend_ops fake_backend;
static volatile int no_abort;

/* A buffer of this rank alone (node rank 0). */
static struct cb_buf *buf_new(size_t bytes)
{
	struct cb_buf *b = calloc(1, sizeof(*b));

	b->peer = calloc(1, sizeof(void *));
	b->peer[0] = calloc(1, bytes);
	b->bytes = bytes;
	return b;
}

static void buf_free(struct cb_buf *b)
{
	free(b->peer[0]);
	free(b->peer);
	free(b);
}

/* Runs the algorithm twice (two calls must follow one another cleanly) on
 * fresh inputs; checks the second, counting its traffic. */
static void *rank_main(void *arg)
{
	struct rank_out *out = arg;
	const struct tcase *c = out->c;
	size_t esz = cb_dtype_size(c->dt), bytes = c->count * esz + 8;
	struct cb_setup_args sa = { bytes, c->root, c->slice_bytes, 1, c->algo->desc, NULL };
	struct cb_run_args a;
	struct cb_backend be;
	void *state = NULL, *ref = calloc(1, bytes);
	int w0 = out->rank;

	memset(&be, 0, sizeof(be));
	be.ops = &fake_backend;
	be.world_rank = out->rank, be.world_size = c->n, be.world_of_node = &w0;
	be.node_size = 1, be.single_node = c->n == 1;
	be.tx = calloc((size_t)c->n, sizeof(uint64_t)), be.rx = calloc((size_t)c->n, sizeof(uint64_t));
	be.abort_flag = &no_abort;
	a.send = buf_new(bytes), a.count = c->count, a.dt = c->dt, a.op = c->op;
	a.recv = c->in_place ? a.send : buf_new(bytes);
	out->st = c->algo->setup(&be, &sa, &state);
	pthread_barrier_wait(&W.met);
	for (int call = 0; call < 2 && out->st == CB_OK; call++) {
		cb_fill_input(a.send->peer[0], 0, c->count, c->dt, c->op, out->rank, c->n);
		if (!c->in_place)
			cb_fill_poison(a.recv->peer[0], c->count, c->dt);
		memset(be.tx, 0, (size_t)c->n * sizeof(uint64_t));
		memset(be.rx, 0, (size_t)c->n * sizeof(uint64_t));
		if (c->algo->prepare && out->st == CB_OK)
			out->st = c->algo->prepare(state, &a);
		if (out->st == CB_OK)
			out->st = c->algo->run(state, &a);
	}
	cb_fill_reference(ref, 0, c->count, c->dt, c->op, c->n);
	out->wrong = cb_count_wrong(a.recv->peer[0], ref, c->count, c->dt, c->op, c->n);
	out->tx = be.tx[out->rank], out->rx = be.rx[out->rank];
	pthread_barrier_wait(&W.met);
	if (state)
		c->algo->teardown(state);
	if (!c->in_place)
		buf_free(a.recv);
	buf_free(a.send);
	free(ref), free(be.tx), free(be.rx);
	return NULL;
}

/* The bytes rank r moves in the plan of c's algorithm (cb_plan_traffic). */
static void plan_sum(const struct tcase *c, int r, uint64_t *tx, uint64_t *rx)
{
	struct cb_plan_args a = { .n = c->n, .count = c->count, .esize = cb_dtype_size(c->dt),
				  .root = c->root, .servers = 1 };
	uint64_t ptx[MAXN], prx[MAXN];
	struct cb_plan p;

	assert_int_equal(cb_plan_build(c->algo->desc->name, &a, &p), CB_OK);
	cb_plan_traffic(&p, a.esize, ptx, prx);
	cb_plan_free(&p);
	*tx = ptx[r], *rx = prx[r];
}

/* DESIGN.md section 1, uneven chunks included (as tests/mpi/check_results.c). */
static void expected(const struct tcase *c, int r, uint64_t *tx, uint64_t *rx)
{
	uint64_t n = (uint64_t)c->n, esz = cb_dtype_size(c->dt), S = c->count * esz;

	*tx = *rx = 0;
	if (c->n == 1 || c->count == 0)
		return;
	if (strcmp(c->algo->desc->name, "ps") && strcmp(c->algo->desc->name, "ring")) {
		plan_sum(c, r, tx, rx);
		return;
	}
	if (strcmp(c->algo->desc->name, "ps") == 0) {
		*tx = *rx = r == c->root ? (n - 1) * S : S;
		return;
	}
#define CHUNK(k) ((c->count / n + ((uint64_t)(k) < c->count % n)) * esz)
	*rx = 2 * S - CHUNK(r) - CHUNK((r + 1) % c->n);
	*tx = 2 * S - CHUNK((r + 1) % c->n) - CHUNK((r + 2) % c->n);
#undef CHUNK
}

static void run_case(const struct tcase *c)
{
	pthread_t t[MAXN];
	struct rank_out out[MAXN];

	W.why[0] = '\0';
	memset(W.sends, 0, sizeof(W.sends));
	memset(W.recvs, 0, sizeof(W.recvs));
	assert_int_equal(pthread_barrier_init(&W.met, NULL, (unsigned)c->n), 0);
	for (int r = 0; r < c->n; r++) {
		out[r] = (struct rank_out){ .c = c, .rank = r };
		assert_int_equal(pthread_create(&t[r], NULL, rank_main, &out[r]), 0);
	}
	for (int r = 0; r < c->n; r++)
		pthread_join(t[r], NULL);
	pthread_barrier_destroy(&W.met);
	for (int r = 0; r < c->n; r++) {
		uint64_t tx, rx;

		expected(c, r, &tx, &rx);
		if (out[r].st != CB_OK || out[r].wrong || out[r].tx != tx || out[r].rx != rx || W.why[0])
			fail_msg("%s %s n=%d root=%d count=%zu slice=%zu %s/%s in_place=%d, rank %d: "
				 "status %d, %zu wrong, tx/rx %llu/%llu (expected %llu/%llu) %s",
				 W.nccl ? "nccl" : "mpi", c->algo->desc->name, c->n, c->root, c->count,
				 c->slice_bytes, cb_dtype_name(c->dt), cb_op_name(c->op), c->in_place, r,
				 out[r].st, out[r].wrong, (unsigned long long)out[r].tx,
				 (unsigned long long)out[r].rx, (unsigned long long)tx,
				 (unsigned long long)rx, W.why);
	}
}

/* Every world size, count shape (0, 1, n-1, n+1, many), slice (one element,
 * a few, 1 KiB, the default), in place or not, ps with its root first or
 * last, each dtype/op in turn; over both transports' rules. */
static void sweep(const char *algo)
{
	static const int ns[] = { 1, 2, 3, 4, 5, 8 };
	static const size_t slices[] = { 1, 40, 1024, 0 };
	static const enum cb_dtype dts[] = { CB_FLOAT, CB_INT32, CB_DOUBLE, CB_INT8, CB_HALF };
	static const enum cb_op ops[] = { CB_SUM, CB_PROD, CB_AVG, CB_MAX, CB_MIN };
	int k = 0;

	for (W.nccl = 0; W.nccl < 2; W.nccl++)
		for (size_t i = 0; i < sizeof(ns) / sizeof(ns[0]); i++)
			for (size_t s = 0; s < sizeof(slices) / sizeof(slices[0]); s++)
				for (int ip = 0; ip < 2; ip++) {
					const size_t counts[] = { 0, 1, (size_t)ns[i] - 1, (size_t)ns[i] + 1,
								  1003 };

					for (size_t j = 0; j < 5; j++, k++) {
						struct tcase c = {
							cb_algo_find(algo)->two_sided, ns[i],
							k % 2 ? ns[i] - 1 : 0, ip, counts[j], slices[s],
							dts[k % 5], ops[k / 5 % 5] };

						run_case(&c);
					}
				}
}

static void test_ring(void **state)
{
	(void)state;
	sweep("ring");
}

static void test_ps(void **state)
{
	(void)state;
	sweep("ps");
}

/* The rest of the family (every plan algorithm but ps and ring): each world
 * size, count shape and mode, the backend's slice, each dtype/op in turn;
 * over both transports' rules. */
static void test_family(void **state)
{
	static const int ns[] = { 1, 2, 3, 4, 5, 8 };
	size_t na;
	const struct cb_algo_ops *const *reg = cb_algo_registry(&na);
	int k = 0;

	(void)state;
	for (size_t i = 0; i < na; i++) {
		const char *name = reg[i]->desc->name;

		if (!reg[i]->desc->plan || !strcmp(name, "ps") || !strcmp(name, "ring"))
			continue;
		for (W.nccl = 0; W.nccl < 2; W.nccl++)
			for (size_t j = 0; j < sizeof(ns) / sizeof(ns[0]); j++)
				for (int ip = 0; ip < 2; ip++) {
					const size_t counts[] = { 0, 1, (size_t)ns[j] - 1, (size_t)ns[j] + 1, 1003 };

					for (size_t m = 0; m < 5; m++, k++) {
						struct tcase c = { reg[i]->two_sided, ns[j], 0, ip, counts[m], 0,
								   k % 2 ? CB_INT32 : CB_FLOAT, (enum cb_op)(k / 2 % 5) };

						run_case(&c);
					}
				}
	}
	assert_true(k >= 6 * 120); /* oneshot, twoshot, rd, rabenseifner, dbtree, hier at least */
}

/* The example plan files (examples/plans) at their world sizes. */
static void test_plan_files(void **state)
{
	static const struct { const char *file; int n; } ex[] = { { "binomial4.json", 4 },
								 { "ring3.json", 3 } };
	char path[1024], err[512];

	(void)state;
	for (size_t i = 0; i < sizeof(ex) / sizeof(ex[0]); i++) {
		struct cb_plan_file *f;
		const struct cb_algo_ops *a;

		snprintf(path, sizeof(path), "%s/%s", CB_EXAMPLES_DIR, ex[i].file);
		if (cb_plan_file_load(path, &f, err, sizeof(err)) != CB_OK ||
		    cb_plan_file_add(f, err, sizeof(err)) != CB_OK)
			fail_msg("%s", err);
		a = cb_algo_find(cb_plan_file_name(f));
		assert_non_null(a);
		for (W.nccl = 0; W.nccl < 2; W.nccl++)
			for (int ip = 0; ip < 2; ip++)
				for (size_t count = 0; count < 12; count += 5) {
					struct tcase c = { a->two_sided, ex[i].n, 0, ip, count * 331, 0, CB_FLOAT,
							   ip ? CB_AVG : CB_SUM };

					run_case(&c);
				}
	}
}

/* A long message in many slices, ps's root in the middle. */
static void test_many_slices(void **state)
{
	struct tcase c = { cb_algo_find("ps")->two_sided, 5, 2, 0, 16411, 1024, CB_FLOAT, CB_SUM };

	(void)state;
	for (W.nccl = 0; W.nccl < 2; W.nccl++) {
		c.algo = cb_algo_find("ps")->two_sided;
		run_case(&c);
		c.algo = cb_algo_find("ring")->two_sided;
		run_case(&c);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ring),
		cmocka_unit_test(test_ps),
		cmocka_unit_test(test_many_slices),
		cmocka_unit_test(test_family),
		cmocka_unit_test(test_plan_files),
	};

	fake_backend = *cb_backend_find("host");
	fake_backend.p2p = &fake_ops;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
