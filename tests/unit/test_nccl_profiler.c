/* collbench's NCCL profiler plugin (collectives/runtime/nccl/profiler),
 * loaded with dlopen as NCCL loads it and called as NCCL calls it, in each
 * interface version it exports (v2 to v6, our own declarations in
 * cb_nccl_prof_abi.h): what its table counts, what the harness makes of it
 * (cb_nccl_choice_from), and what a call costs. argv[1]: the plugin. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "cb_nccl_choice.h"
#include "cb_nccl_prof_abi.h"
#include "cb_nccl_prof_table.h"

static void *lib;
static cb_nccl_prof_snapshot_fn snapshot;
static cb_nccl_prof_clear_fn clear;

static const void *sym(const char *name)
{
	const void *p = dlsym(lib, name);

	assert_non_null(p);
	return p;
}

static struct cb_nccl_prof_table table_now(void)
{
	struct cb_nccl_prof_table t;

	snapshot(&t);
	return t;
}

/* One group event and k collective events of (algo, proto, nch) in v5's
 * layout (v6 shares it), as NCCL 2.28 starts them. */
static void coll_v5(const struct cb_nccl_profiler_v5 *p, void *ctx, const char *algo,
		    const char *proto, int nch, int k)
{
	struct cb_nccl_descr_v5 g = { .type = CB_NCCL_PROFILE_GROUP };
	void *gev = NULL, *ev = NULL;

	assert_int_equal(p->start_event(ctx, &gev, &g), 0);
	assert_non_null(gev); /* before 2.27, collectives need their group's handle */
	for (int i = 0; i < k; i++) {
		struct cb_nccl_descr_v5 d = { .type = CB_NCCL_PROFILE_COLL };

		d.coll = (struct cb_nccl_coll_v4){ .func = "AllReduce", .count = 8, .datatype = "ncclFloat32",
						   .nchannels = (uint8_t)nch, .nwarps = 16, .algo = algo,
						   .proto = proto, .parent_group = gev };
		assert_int_equal(p->start_event(ctx, &ev, &d), 0);
		assert_int_equal(p->stop_event(ev), 0);
	}
	assert_int_equal(p->stop_event(gev), 0);
}

/* v5: init asks for collective events; the most frequent choice wins and
 * the note says the calls varied. */
static void test_v5_counts(void **state)
{
	const struct cb_nccl_profiler_v5 *p = sym("ncclProfiler_v5");
	struct cb_nccl_prof_table t;
	struct cb_summary s = { .nccl_channels = -1 };
	void *ctx = NULL;
	int mask = 0;

	(void)state;
	assert_int_equal(p->init(&ctx, 7, &mask, "c", 1, 2, 0, NULL), 0);
	assert_int_equal(mask, CB_NCCL_PROFILE_COLL);
	clear();
	coll_v5(p, ctx, "Ring", "LL", 2, 3);
	coll_v5(p, ctx, "Tree", "Simple", 4, 1);
	t = table_now();
	assert_int_equal(t.abi, 5);
	assert_int_equal(t.events, 4);
	assert_int_equal(t.n, 2);
	cb_nccl_choice_from(&t, NULL, &s);
	assert_string_equal(s.nccl_algo, "Ring");
	assert_string_equal(s.nccl_proto, "LL");
	assert_int_equal(s.nccl_channels, 2);
	assert_string_equal(s.nccl_note, "Ring/LL/2ch, varied: 3 of 4 calls");
	clear();
	t = table_now();
	assert_int_equal(t.events, 0);
	assert_int_equal(t.abi, 5); /* kept by a clear */
	assert_int_equal(p->finalize(ctx), 0);
}

/* NCCL's events spell "NVLS_TREE", "SIMPLE"; the row spells them as
 * NCCL_ALGO and NCCL_PROTO do. */
static void test_names(void **state)
{
	const struct cb_nccl_profiler_v5 *p = sym("ncclProfiler_v5");
	struct cb_summary s = { .nccl_channels = -1 };
	struct cb_nccl_prof_table t;
	void *ctx;
	int mask;

	(void)state;
	assert_int_equal(p->init(&ctx, 1, &mask, "c", 1, 2, 0, NULL), 0);
	clear();
	coll_v5(p, ctx, "NVLS_TREE", "SIMPLE", 32, 1);
	t = table_now();
	cb_nccl_choice_from(&t, NULL, &s);
	assert_string_equal(s.nccl_note, "NVLSTree/Simple/32ch");
	clear();
	coll_v5(p, ctx, "COLLNET_DIRECT", "LL128", 4, 1);
	t = table_now();
	cb_nccl_choice_from(&t, NULL, &s);
	assert_string_equal(s.nccl_algo, "CollNetDirect");
	assert_string_equal(s.nccl_proto, "LL128");
	clear();
	coll_v5(p, ctx, "RING_X", "LL", 4, 1); /* unknown: kept */
	t = table_now();
	cb_nccl_choice_from(&t, NULL, &s);
	assert_string_equal(s.nccl_algo, "RING_X");
}

/* The older layouts: each version's collective event lands with its own
 * algorithm, protocol and channels (a wrong offset reads garbage). */
static void test_older_layouts(void **state)
{
	const struct cb_nccl_profiler_v4 *p4 = sym("ncclProfiler_v4");
	const struct cb_nccl_profiler_v3 *p3 = sym("ncclProfiler_v3");
	const struct cb_nccl_profiler_v2 *p2 = sym("ncclProfiler_v2");
	struct cb_nccl_descr_v4 d4 = { .type = CB_NCCL_PROFILE_COLL };
	struct cb_nccl_descr_v3 d3 = { .type = CB_NCCL_PROFILE_COLL };
	struct cb_nccl_descr_v2 d2 = { .type = CB_NCCL_PROFILE_COLL };
	struct cb_nccl_prof_table t;
	void *ctx, *ev;
	int mask;

	(void)state;
	d4.coll = (struct cb_nccl_coll_v4){ .seq = 1, .nchannels = 24, .algo = "NVLS", .proto = "Simple" };
	d3.coll = (struct cb_nccl_coll_v3){ .name = "c", .comm_hash = 9, .nchannels = 8, .algo = "Tree",
					    .proto = "LL128" };
	d2.coll = (struct cb_nccl_coll_v2){ .name = "c", .traffic_bytes = 4096, .nchannels = 2,
					    .algo = "Ring", .proto = "LL" };
	clear();
	assert_int_equal(p4->init(&ctx, &mask, "c", 1, 1, 2, 0, NULL), 0);
	assert_int_equal(p4->start_event(ctx, &ev, &d4), 0);
	assert_int_equal(p3->init(&ctx, &mask), 0);
	assert_int_equal(p3->start_event(ctx, &ev, &d3), 0);
	assert_int_equal(p2->init(&ctx, &mask), 0);
	assert_int_equal(p2->start_event(ctx, &ev, &d2), 0);
	t = table_now();
	assert_int_equal(t.abi, 2);
	assert_int_equal(t.events, 3);
	assert_int_equal(t.n, 3);
	assert_string_equal(t.c[0].algo, "NVLS"), assert_int_equal(t.c[0].nchannels, 24);
	assert_string_equal(t.c[1].algo, "Tree"), assert_string_equal(t.c[1].proto, "LL128");
	assert_int_equal(t.c[1].nchannels, 8);
	assert_string_equal(t.c[2].proto, "LL"), assert_int_equal(t.c[2].nchannels, 2);
	/* a group event of v4 (8-bit type) is counted as no collective */
	d4.type = CB_NCCL_PROFILE_GROUP;
	assert_int_equal(p4->start_event(ctx, &ev, &d4), 0);
	assert_non_null(ev);
	assert_int_equal(table_now().events, 3);
}

/* More distinct choices than the table holds: counted as overflow, the
 * total still right. */
static void test_overflow(void **state)
{
	const struct cb_nccl_profiler_v5 *p = sym("ncclProfiler_v6"); /* v5's layout */
	void *ctx;
	int mask;
	struct cb_nccl_prof_table t;

	(void)state;
	assert_int_equal(p->init(&ctx, 1, &mask, "c", 1, 2, 0, NULL), 0);
	clear();
	for (int i = 1; i <= CB_NCCL_PROF_CHOICES + 2; i++)
		coll_v5(p, ctx, "Ring", "Simple", i, 1);
	t = table_now();
	assert_int_equal(t.abi, 6);
	assert_int_equal(t.n, CB_NCCL_PROF_CHOICES);
	assert_int_equal(t.events, CB_NCCL_PROF_CHOICES + 2);
	assert_int_equal(t.overflow, 2);
}

/* The reasons the choice is unknown. */
static void test_unknown(void **state)
{
	struct cb_nccl_prof_table t = { 0 };
	struct cb_summary s = { .nccl_channels = -1 };

	(void)state;
	cb_nccl_choice_from(NULL, "user profiler plugin (NCCL_PROFILER_PLUGIN=x)", &s);
	assert_string_equal(s.nccl_note, "unknown: user profiler plugin (NCCL_PROFILER_PLUGIN=x)");
	assert_string_equal(s.nccl_algo, "");
	cb_nccl_choice_from(&t, NULL, &s);
	assert_non_null(strstr(s.nccl_note, "did not load the profiler plugin"));
	t.abi = 5;
	cb_nccl_choice_from(&t, NULL, &s);
	assert_string_equal(s.nccl_note, "unknown: NCCL reported no collective in the timed calls");
	assert_int_equal(s.nccl_channels, -1);
}

/* The cost NCCL pays per collective: a group event and a collective event
 * (start and stop each) of v5, timed over many; printed, and bounded far
 * above what it takes (a few tens of ns) so only a blunder fails. */
static void test_cost(void **state)
{
	const struct cb_nccl_profiler_v5 *p = sym("ncclProfiler_v5");
	struct timespec a, b;
	int n = 200000, mask;
	void *ctx;
	double ns;

	(void)state;
	assert_int_equal(p->init(&ctx, 1, &mask, "c", 1, 2, 0, NULL), 0);
	clear();
	clock_gettime(CLOCK_MONOTONIC, &a);
	for (int i = 0; i < n; i++)
		coll_v5(p, ctx, i & 1 ? "Ring" : "Tree", "LL128", 16, 1);
	clock_gettime(CLOCK_MONOTONIC, &b);
	ns = ((double)(b.tv_sec - a.tv_sec) * 1e9 + (double)(b.tv_nsec - a.tv_nsec)) / n;
	printf("nccl profiler plugin: %.0f ns per collective (group + collective event)\n", ns);
	assert_int_equal(table_now().events, n);
	assert_true(ns < 5000);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_v5_counts), cmocka_unit_test(test_names),
		cmocka_unit_test(test_older_layouts),
		cmocka_unit_test(test_overflow),  cmocka_unit_test(test_unknown),
		cmocka_unit_test(test_cost),
	};

	if (argc != 2 || !(lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL))) {
		fprintf(stderr, "usage: test_nccl_profiler PLUGIN.so (%s)\n", argc == 2 ? dlerror() : "");
		return 2;
	}
	snapshot = (cb_nccl_prof_snapshot_fn)dlsym(lib, CB_NCCL_PROF_SNAPSHOT);
	clear = (cb_nccl_prof_clear_fn)dlsym(lib, CB_NCCL_PROF_CLEAR);
	if (!snapshot || !clear)
		return 2;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
