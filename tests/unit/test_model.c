/* Unit tests of the cost model's step evaluation: closed forms (docs/output.md
 * "Traffic", the ring's 2(n-1)/n S, ps through the root), the ring's
 * plan against a slice-by-slice walk of cb_pattern, a streamed plan against
 * the whole one, multi-host loads, and Open MPI's decision. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "cb_model.h"
#include "cb_model_reg.h"
#include "cb_plan.h"
#include "cb_plan_lib.h"
#include "cb_model_topo.h"
#include "cb_pattern.h"

#define GIB ((size_t)1 << 30)
#define P(name) cb_plan_coll_find(CB_COLL_ALLREDUCE, name)

/* One host of n ranks, links of bw bytes/s, alpha a, free reduce. */
static struct cb_topo one_host(int n, double bw, double a)
{
	struct cb_topo t = { .name = "test", .ranks_per_host = n, .intra = { bw, a },
			     .net = { 0, 0 }, .gamma = INFINITY, .copy_bw = bw,
			     .slice_bytes = 16u << 20 };
	return t;
}

/* Algorithm a's plan (NULL: the copy roofline) at n ranks, bytes per rank. */
static struct cb_model_result eval(const struct cb_topo *t, const char *a, int n, size_t bytes)
{
	struct cb_model_case c = { a ? P(a) : NULL, n, bytes / 4, 4, 0, 0, 0, 0, 0, 0, 0 };
	struct cb_model_result r;
	char why[256] = "";

	assert_int_equal(cb_model_eval(t, &c, &r, why, sizeof(why)), CB_OK);
	return r;
}

static void assert_rel(double got, double want, double tol)
{
	if (!(fabs(got - want) <= tol * fabs(want))) {
		fprintf(stderr, "got %.9g, want %.9g\n", got, want);
		fail();
	}
}

/* Ring, n = 8, S = 1 GiB, 100 GB/s, alpha 0: every rank sends and receives
 * 2(n-1)/n S, and the call takes 2(n-1)/n S / beta = 18.79 ms. */
static void test_ring_closed_form(void **state)
{
	struct cb_topo t = one_host(8, 100e9, 0);
	struct cb_model_result r = eval(&t, "ring", 8, GIB);
	double per_dir = 2.0 * 7 / 8 * (double)GIB;

	(void)state;
	assert_rel(r.txrx_max, 2 * per_dir, 1e-12);
	assert_rel(r.txrx_min, 2 * per_dir, 1e-12);
	assert_rel(r.time, per_dir / 100e9, 1e-12);
	assert_true(fabs(r.time * 1e3 - 18.79) < 0.005);
	assert_true(r.one_class);
	/* one-sided: reduce-scatter steps move and reduce the same bytes */
	assert_rel(r.terms.fused_bytes, per_dir / 2, 1e-12);
	assert_rel(r.terms.link_bytes, per_dir / 2, 1e-12);
	assert_rel(r.terms.reduce_bytes, 0, 0);
}

/* One-sided steps that move and reduce the same bytes cost them at the
 * fused rate (by default the slower of moving and reducing); two-sided ones
 * (bytes land, then are reduced) the sum. */
static void test_fused_and_two_sided(void **state)
{
	struct cb_topo t = one_host(4, 20e9, 0);
	struct cb_model_case c = { P("ring"), 4, GIB / 4, 4, 0, 0, 0, 0, 0, 0, 0 };
	struct cb_model_result r;
	double chunk = (double)GIB / 4;
	char why[128];

	(void)state;
	t.gamma = 5e9;
	assert_int_equal(cb_model_eval(&t, &c, &r, why, sizeof(why)), CB_OK);
	assert_rel(r.time, 3 * chunk / 5e9 + 3 * chunk / 20e9, 1e-12);
	c.two_sided = 1;
	assert_int_equal(cb_model_eval(&t, &c, &r, why, sizeof(why)), CB_OK);
	assert_rel(r.time, 3 * (chunk / 5e9 + chunk / 20e9) + 3 * chunk / 20e9, 1e-12);
	assert_rel(r.terms.fused_bytes, 0, 0);
	/* ps, 64 slices of 16 MiB: one-sided, the 64 rounds that reduce cost
	 * the root's reduce (the slower), the fill and the drain round a move */
	c.plan = P("ps");
	c.two_sided = 0;
	assert_int_equal(cb_model_eval(&t, &c, &r, why, sizeof(why)), CB_OK);
	assert_rel(r.time, 3 * (double)GIB / 5e9 + 6 * (double)t.slice_bytes / 20e9, 1e-12);
	/* two-sided: every round moves, 64 of them then reduce */
	c.two_sided = 1;
	assert_int_equal(cb_model_eval(&t, &c, &r, why, sizeof(why)), CB_OK);
	assert_rel(r.time, 3 * ((double)GIB + 2.0 * (double)t.slice_bytes) / 20e9 +
				   3 * (double)GIB / 5e9, 1e-12);
}

/* ps on one host (one-sided): the root sends and receives (n-1)S, every
 * worker S. Pipelined in 64 slices (nslices + 2 rounds), the root's link
 * carries (n-1) slices each way every round: (n-1)(S + 2 slices)/beta,
 * about n/2 times the ring's 2(n-1)/n S/beta at alpha 0; at n = 2 the worker,
 * running both its push and its pull, is the bottleneck: 2S/beta, twice the
 * ring's. */
static void test_ps_root_bottleneck(void **state)
{
	(void)state;
	for (int n = 2; n <= 64; n *= 2) {
		struct cb_topo t = one_host(n, 50e9, 0);
		struct cb_model_result ps = eval(&t, "ps", n, GIB);
		struct cb_model_result ring = eval(&t, "ring", n, GIB);
		double slice = (double)t.slice_bytes, want;

		want = n == 2 ? 2.0 * (double)GIB / 50e9
			      : (n - 1) * ((double)GIB + 2 * slice) / 50e9;
		assert_rel(ps.txrx_max, 2.0 * (n - 1) * (double)GIB, 1e-12);
		assert_rel(ps.txrx_min, 2.0 * (double)GIB, 1e-12);
		assert_rel(ps.time, want, 1e-12);
		assert_rel(ps.time / ring.time, want / (2.0 * (n - 1) / n * (double)GIB / 50e9),
			   1e-12);
	}
}

/* Latency: ps pays one alpha per round (nslices + 2), the ring one per
 * slice of each of its 2(n-1) steps; gamma: ps reduces (n-1)S on the root
 * (moving and reducing at once: fused), the ring (n-1)/n S per rank. */
static void test_alpha_gamma_terms(void **state)
{
	struct cb_topo t = one_host(4, 1e18, 1e-6);
	struct cb_model_result ps, ring;

	(void)state;
	t.slice_bytes = 1u << 20; /* 64 MiB over 4 ranks: 16 MiB chunks, 16 slices */
	ps = eval(&t, "ps", 4, 64u << 20);
	ring = eval(&t, "ring", 4, 64u << 20);
	assert_rel(ps.terms.msgs, 64 + 2, 0);
	assert_rel(ring.terms.msgs, 2.0 * 3 * 16, 0);
	assert_rel(ring.time, 96e-6, 1e-5);
	assert_rel(ps.terms.reduce_bytes + ps.terms.fused_bytes, 3.0 * (64u << 20), 1e-12);
	assert_rel(ring.terms.fused_bytes, 3.0 / 4 * (64u << 20), 1e-12);
	t.gamma = 10e9;
	t.intra.alpha = 0;
	ps = eval(&t, "ps", 4, 64u << 20);
	assert_rel(ps.time, 3.0 * (64u << 20) / 10e9, 1e-6);
}

/* Expected terms and per-rank bytes of the ring from a walk over every rank,
 * step and slice with cb_pattern's functions, as cb_algo_ring.c runs them. */
static void ring_walk(size_t count, int n, size_t esize, size_t slice_bytes,
		      struct cb_model_terms *want, double *rx)
{
	size_t sc = cb_ring_slice_count(slice_bytes, esize), ns = cb_slice_num(count, n, sc);

	memset(want, 0, sizeof(*want));
	memset(rx, 0, (size_t)n * sizeof(double));
	for (int s = 0; s < cb_ring_nsteps(n); s++)
		for (size_t j = 0; j < ns; j++) {
			double maxb = 0;
			int red = 0;

			for (int r = 0; r < n; r++) {
				struct cb_ring_step st;
				size_t coff, cc, soff, scount;

				cb_ring_step(r, n, s, &st);
				assert_int_equal(st.src, cb_ring_left(r, n));
				cb_chunk(count, n, st.chunk, &coff, &cc);
				cb_slice(cc, sc, j, &soff, &scount);
				maxb = fmax(maxb, (double)(scount * esize));
				rx[r] += (double)(scount * esize);
				red = st.reduce;
			}
			want->msgs += 1;
			want->link_bytes += red ? 0 : maxb;
			want->fused_bytes += red ? maxb : 0;
		}
}

/* The model's shortcuts (equal chunks, full slices) give what the walk gives,
 * uneven counts included; rx of rank r is 2S - |chunk r| - |chunk r+1|. */
static void test_ring_matches_pattern_walk(void **state)
{
	static const size_t counts[] = { 1, 2, 7, 13, 64, 1000, 4099 };
	double rx[16];

	(void)state;
	for (size_t k = 0; k < sizeof(counts) / sizeof(counts[0]); k++)
		for (int n = 2; n <= 9; n++)
			for (size_t sb = 4; sb <= 4096; sb *= 8) {
				struct cb_topo t = one_host(n, 1e9, 1e-6);
				struct cb_model_case c = { P("ring"), n, counts[k], 4, 0, 0, 0, 0, 0, 0, 0 };
				struct cb_model_result r;
				struct cb_model_terms want;
				char why[128];
				double lo = INFINITY;

				t.slice_bytes = sb;
				assert_int_equal(cb_model_eval(&t, &c, &r, why, sizeof(why)), CB_OK);
				ring_walk(counts[k], n, 4, sb, &want, rx);
				assert_rel(r.terms.msgs, want.msgs, 1e-12);
				assert_rel(r.terms.link_bytes, want.link_bytes, 1e-12);
				assert_rel(r.terms.fused_bytes, want.fused_bytes, 1e-12);
				assert_rel(r.terms.reduce_bytes, 0, 0);
				for (int q = 0; q < n; q++) {
					size_t o, a, b;

					cb_chunk(counts[k], n, q, &o, &a);
					cb_chunk(counts[k], n, (q + 1) % n, &o, &b);
					assert_rel(rx[q], 4.0 * (double)(2 * counts[k] - a - b), 0);
					lo = fmin(lo, rx[q] + rx[(q + 1) % n]); /* tx_q = rx_q+1 */
				}
				assert_rel(r.txrx_min, lo, 1e-12);
			}
}

/* A plan priced as a stream of rounds (cb_plan_stream) costs what the whole
 * plan costs where fresh reads are free and every rank has a CPU: time,
 * every term, the busiest and least busy rank's and host's bytes; for every
 * plan algorithm of every collective, one- and two-sided, on one host and
 * across hosts (a NIC per host or per rank), even and uneven counts, one
 * slice and many. */
static void assert_stream_is_whole(const struct cb_topo *t, struct cb_model_case c)
{
	struct cb_model_result want, got;
	char why[256] = "";

	c.stream = 0;
	assert_int_equal(cb_model_eval(t, &c, &want, why, sizeof(why)), CB_OK);
	c.stream = 1;
	assert_int_equal(cb_model_eval(t, &c, &got, why, sizeof(why)), CB_OK);
	assert_rel(got.time, want.time, 1e-12);
	assert_rel(got.terms.msgs, want.terms.msgs, 1e-12);
	assert_true(fabs(got.terms.link_bytes - want.terms.link_bytes) <= 1e-9 * want.terms.link_bytes);
	assert_true(fabs(got.terms.fused_bytes - want.terms.fused_bytes) <= 1e-9 * want.terms.fused_bytes);
	assert_true(fabs(got.terms.reduce_bytes - want.terms.reduce_bytes) <=
		    1e-9 * want.terms.reduce_bytes);
	assert_rel(got.txrx_max, want.txrx_max, 1e-12);
	assert_rel(got.txrx_min, want.txrx_min, 1e-12);
	assert_true(fabs(got.host_max - want.host_max) <= 1e-12 * want.host_max);
	assert_true(fabs(got.host_min - want.host_min) <= 1e-12 * want.host_min);
	assert_int_equal(got.one_class, want.one_class);
}

static void test_stream_is_whole(void **state)
{
	static const int ns[] = { 2, 3, 5, 8, 12 };
	static const size_t counts[] = { 1, 13, 1001, 4099 * 60 };
	const char *names[CB_MREG_MAX_PLANS];

	(void)state;
	for (int coll = 0;; coll++) {
		size_t na = cb_mreg_plan_names(coll, names, CB_MREG_MAX_PLANS);

		if (na == 0)
			break;
		for (size_t a = 0; a < na; a++)
			for (size_t i = 0; i < sizeof(ns) / sizeof(ns[0]); i++)
				for (size_t k = 0; k < sizeof(counts) / sizeof(counts[0]); k++)
					for (int v = 0; v < 4; v++) {
						struct cb_topo t = one_host(v < 2 ? 64 : 4, 7e9, 1e-6);
						size_t count = cb_coll_count((enum cb_coll)coll, ns[i],
									     counts[k]);
						struct cb_model_case c = { cb_mreg_plan(coll, names[a]),
									   ns[i], count, 4, ns[i] - 1,
									   0, v % 2, 1, 0, 0, 0 };

						if (count == 0)
							continue;
						t.net.bw = 3e9;
						t.net.alpha = 4e-6;
						t.net_attach = v == 3 ? CB_NET_PER_RANK : CB_NET_PER_HOST;
						t.gamma = 5e9;
						t.slice_bytes = 4096;
						assert_stream_is_whole(&t, c);
					}
	}
	/* rounds of more than CB_PLAN_STREAM_PART steps come in parts: 300^2 */
	for (int two = 0; two < 2; two++) {
		struct cb_topo t = one_host(300, 7e9, 1e-6);
		struct cb_model_case c = { P(two ? "twoshot" : "oneshot"), 300, 3000, 4, 0, 0, two,
					   1, 0, 0, 0 };

		assert_true(300 * 300 > CB_PLAN_STREAM_PART);
		assert_stream_is_whole(&t, c);
	}
}

/* Recursive doubling on a power of two takes log2 n rounds of S each way
 * per rank (two-sided: every byte reduced). */
static void test_plan_priced(void **state)
{
	const struct cb_plan_algo *rd = cb_plan_coll_find(CB_COLL_ALLREDUCE, "rd");
	struct cb_topo t = one_host(9, 20e9, 2e-6);
	char why[256] = "";

	(void)state;
	t.gamma = 8e9;
	t.slice_bytes = 4096;
	for (int n = 2; n <= 8; n *= 2) {
		struct cb_model_case c = { rd, n, 1 << 20, 4, 0, 0, 1, 0, 0, 0, 0 };
		struct cb_model_result r;
		int l = n == 2 ? 1 : n == 4 ? 2 : 3;

		assert_int_equal(cb_model_eval(&t, &c, &r, why, sizeof(why)), CB_OK);
		assert_rel(r.txrx_max, 2.0 * l * 4 * (1 << 20), 1e-12);
		assert_rel(r.terms.reduce_bytes, (double)l * 4 * (1 << 20), 1e-12);
	}
}

/* Time slicing (cb_model.h), on a host of 2 CPUs: one-shot (no rank waits) costs its
 * own time below the scheduler's slice and is stretched by (q - 1) past it;
 * two-shot at n = 4 waits once, for 3 peers: waits = q + 3/2 = 3.5, and its
 * loads are the host's summed over 2 CPUs; two-sided recursive doubling
 * (the library's schedule at 4 B) adds q + 1/2 per message round. */
static void test_time_slicing(void **state)
{
	const struct cb_plan_algo *one = cb_plan_coll_find(CB_COLL_ALLREDUCE, "oneshot");
	const struct cb_plan_algo *two = cb_plan_coll_find(CB_COLL_ALLREDUCE, "twoshot");
	struct cb_topo t = one_host(9, 20e9, 2e-6), solo;
	struct cb_model_result r, own;
	double slice = cb_model_base_slice(2), sw = 1.5e-6;
	char why[256] = "";

	(void)state;
	t.gamma = 8e9;
	t.slice_bytes = 4096;
	t.cpus_per_host = 2;
	t.switch_s = sw;
	assert_rel(slice, 1.5e-3, 1e-12); /* 0.75 ms x (1 + log2 2) */
	assert_rel(cb_model_base_slice(64), 3e-3, 1e-12); /* CPUs counted up to 8 */
	solo = t;
	solo.cpus_per_host = 0;
	assert_true(cb_model_ranks_per_cpu(&t, 2) == 0);
	assert_rel(cb_model_ranks_per_cpu(&t, 8), 4, 1e-12);
	for (size_t count = 256; count <= (16u << 20); count *= 256) {
		struct cb_model_case c = { one, 4, count, 4, 0, 0, 0, 0, 0, 0, 0 };

		assert_int_equal(cb_model_eval(&t, &c, &r, why, sizeof(why)), CB_OK);
		assert_int_equal(cb_model_eval(&solo, &c, &own, why, sizeof(why)), CB_OK);
		assert_true(r.terms.waits == 0 && r.terms.wait_time == 0);
		assert_rel(r.time, own.time + fmax(0, own.time - slice), 1e-12);
	}
	assert_true(own.time > 2 * slice); /* the last size was stretched */
	{
		struct cb_model_case c = { two, 4, 1 << 10, 4, 0, 0, 0, 0, 0, 0, 0 };

		assert_int_equal(cb_model_eval(&t, &c, &r, why, sizeof(why)), CB_OK);
		assert_int_equal(cb_model_eval(&solo, &c, &own, why, sizeof(why)), CB_OK);
		assert_rel(r.terms.waits, 3.5, 1e-12);
		assert_true(r.terms.wait_time > 0 && r.terms.wait_time < own.time);
		/* the busiest rank's loads, 4096 B in round 0 (3 KiB from peers and
		 * the 1 KiB one chain starts with) and 3072 in round 1; shared: the
		 * 4 ranks' 4096 + 3 x 3072 and 4 x 3072 B over 2 CPUs */
		assert_rel(own.terms.fused_bytes + own.terms.link_bytes, 4096.0 + 3072, 1e-12);
		assert_rel(r.terms.fused_bytes + r.terms.link_bytes, (13312.0 + 12288) / 2, 1e-12);
		assert_true(r.time > own.time + sw * 3.5);
	}
	{
		struct cb_model_case c = { P("rd"), 4, 1, 4, 0, 0, 1, 0, 0, 1, 0 };

		assert_int_equal(cb_model_eval(&t, &c, &r, why, sizeof(why)), CB_OK);
		assert_rel(r.terms.msgs, 2, 1e-12); /* recursive doubling, log2 4 */
		assert_rel(r.terms.waits, 2 * 2.5, 1e-12);
	}
}

static void test_multi_host_loads(void **state)
{
	struct cb_topo t = one_host(8, 400e9, 1e-6);
	struct cb_model_result ps, ring;
	double s = (double)GIB;
	int n = 32;

	(void)state;
	t.net.bw = 50e9;
	t.net.alpha = 5e-6;
	t.net_attach = CB_NET_PER_HOST;
	t.slice_bytes = GIB;
	ps = eval(&t, "ps", n, GIB);
	ring = eval(&t, "ring", n, GIB);
	assert_false(ps.one_class);
	assert_rel(ps.host_max, 2.0 * (n - 8) * s, 1e-12);
	assert_rel(ps.host_min, 2.0 * 8 * s, 1e-12);
	assert_rel(ps.time, 2 * (5e-6 + (n - 8) * s / 50e9), 1e-12);
	assert_rel(ring.host_max, 2 * 2.0 * (n - 1) / n * s, 1e-12);
	assert_rel(ring.host_min, ring.host_max, 1e-12);
	assert_rel(ring.time, 2.0 * (n - 1) * (5e-6 + s / n / 50e9), 1e-12);
	/* a NIC per rank: the root's own NIC still takes every remote input */
	t.net_attach = CB_NET_PER_RANK;
	ps = eval(&t, "ps", n, GIB);
	assert_rel(ps.time, 2 * (5e-6 + (n - 8) * s / 50e9), 1e-12);
}

static void test_no_network_refused(void **state)
{
	struct cb_topo t = one_host(2, 1e9, 0);
	struct cb_model_case c = { P("ring"), 4, 1024, 4, 0, 0, 0, 0, 0, 0, 0 };
	struct cb_model_result r;
	char why[256] = "";

	(void)state;
	assert_int_equal(cb_model_eval(&t, &c, &r, why, sizeof(why)), CB_ERR_UNSUPPORTED);
	assert_non_null(strstr(why, "no network"));
	c.root = 4;
	c.n = 2;
	assert_int_equal(cb_model_eval(&t, &c, &r, why, sizeof(why)), CB_ERR_ARG);
}

/* Copy, n = 1, 0 bytes. */
static void test_local_cases(void **state)
{
	struct cb_topo t = one_host(2, 10e9, 1e-6);
	struct cb_model_case c = { P("ps"), 1, 1000, 4, 0, 1, 0, 0, 0, 0, 0 };
	struct cb_model_result r;
	char why[128];

	(void)state;
	r = eval(&t, NULL, 2, 4000);
	assert_rel(r.time, 4000 / 10e9, 1e-12);
	assert_rel(r.txrx_max, 0, 0);
	assert_int_equal(cb_model_eval(&t, &c, &r, why, sizeof(why)), CB_OK);
	assert_rel(r.time, 0, 0); /* in place on one rank: nothing to move */
	r = eval(&t, "ring", 2, 0);
	assert_rel(r.time, 0, 0);
}

/* Open MPI 4.1.4 tuned's fixed decision, as transcribed, and the library's
 * rows priced as the plan of the schedule the catalogue maps its choice to
 * (unsliced, two-sided); a forced algorithm with no such plan is not
 * priced, and says why. */
static void test_ompi_decision(void **state)
{
	static const struct { int n; size_t bytes; const char *plan; } cases[] = {
		{ 2, 1024, "rd" }, { 2, 4096, "ring" }, { 2, 1 << 20, "rabenseifner" },
		{ 4, 1024, "rd" }, { 4, 1 << 20, "rabenseifner" }, { 8, 64 << 10, "rabenseifner" },
		{ 2, 4, "rd" }, /* < 8 B: ring, which falls back for count < n */
		{ 2, 16384, "ring" }, { 16, 64, "rd" }, { 16, 8192, "rabenseifner" },
	};
	static const struct { const char *algo, *plan; } forced[] = {
		{ "mpi.basic_linear", "ps" }, { "mpi.recursive_doubling", "rd" },
		{ "mpi.ring", "ring" }, { "mpi.segmented_ring", "ring" },
		{ "mpi.rabenseifner", "rabenseifner" }, { "nccl", "ring" },
	};
	struct cb_mreg_algo ma;
	char why[256] = "";

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_int_equal(cb_mreg_algo(CB_COLL_ALLREDUCE, "mpi", cases[i].n, cases[i].bytes,
					      cases[i].bytes / 4, &ma, why, sizeof(why)), 0);
		assert_ptr_equal(ma.plan, P(cases[i].plan));
		assert_true(ma.library && ma.unsliced);
	}
	for (size_t i = 0; i < sizeof(forced) / sizeof(forced[0]); i++) {
		assert_int_equal(cb_mreg_algo(CB_COLL_ALLREDUCE, forced[i].algo, 4, 1024, 256, &ma, why,
					      sizeof(why)), 0);
		assert_ptr_equal(ma.plan, P(forced[i].plan));
	}
	assert_int_equal(cb_mreg_algo(CB_COLL_ALLREDUCE, "mpi.nonoverlapping", 4, 1024, 256, &ma,
				      why, sizeof(why)), -1);
	assert_non_null(strstr(why, "not priced"));
	/* n = 256, 64 KiB: Open MPI's choice is nonoverlapping: not priced, named */
	assert_int_equal(cb_mreg_algo(CB_COLL_ALLREDUCE, "mpi", 256, 1024, 256, &ma, why,
				      sizeof(why)), -1);
	assert_non_null(strstr(why, "mpi.nonoverlapping"));
	assert_int_equal(cb_mreg_algo(CB_COLL_ALLREDUCE, "no-such", 4, 1024, 256, &ma, why,
				      sizeof(why)), -1);
	assert_non_null(strstr(why, "not in the catalogue"));
	assert_int_equal(cb_mreg_algo(CB_COLL_ALLREDUCE, "copy", 4, 1024, 256, &ma, why,
				      sizeof(why)), 0);
	assert_true(ma.local && !ma.plan);
	/* one- and two-sidedness from the catalogue's transports */
	assert_int_equal(cb_mreg_one_sided("shm"), 1);
	assert_int_equal(cb_mreg_one_sided("ipc"), 1);
	assert_int_equal(cb_mreg_one_sided("p2p"), 0);
	assert_int_equal(cb_mreg_one_sided("rdma"), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ring_closed_form),
		cmocka_unit_test(test_ps_root_bottleneck),
		cmocka_unit_test(test_fused_and_two_sided),
		cmocka_unit_test(test_alpha_gamma_terms),
		cmocka_unit_test(test_ring_matches_pattern_walk),
		cmocka_unit_test(test_stream_is_whole),
		cmocka_unit_test(test_plan_priced),
		cmocka_unit_test(test_time_slicing),
		cmocka_unit_test(test_multi_host_loads),
		cmocka_unit_test(test_no_network_refused),
		cmocka_unit_test(test_local_cases),
		cmocka_unit_test(test_ompi_decision),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
