/* The CUDA model's NCCL tuning (cm_nccl_tune.c): NCCL_ALGO/NCCL_PROTO in
 * NCCL's syntax, the choice by size, ranks and topology, the refusals as
 * NCCL gives them, and the protocols' wire bytes (cm_nccl_algo.c). The
 * checks that read the topology run in fresh processes (cm_child.h), with
 * their environment set before the model reads it. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cm_child.h"
#include "cm_nccl.h"

static void test_parse_list(void **state)
{
	const char *const *an = cm_algo_name, *const *pn = cm_proto_name;
	unsigned on;

	(void)state;
	cm_nccl_parse_list(NULL, CM_COLL_ALLREDUCE, an, CM_NALGO, &on);
	assert_int_equal(on, (1u << CM_NALGO) - 1);
	cm_nccl_parse_list("ring,TREE", CM_COLL_ALLREDUCE, an, CM_NALGO, &on);
	assert_int_equal(on, (1u << CM_RING) | (1u << CM_TREE));
	cm_nccl_parse_list("^LL128", CM_COLL_ALLREDUCE, pn, CM_NPROTO, &on);
	assert_int_equal(on, (1u << CM_LL) | (1u << CM_SIMPLE));
	cm_nccl_parse_list("nvlstree", CM_COLL_ALLREDUCE, an, CM_NALGO, &on);
	assert_int_equal(on, 1u << CM_NVLS_TREE); /* whole tokens: not NVLS too */
	/* a function's own list after the common one (NCCL 2.24) */
	cm_nccl_parse_list("Ring;allreduce:tree", CM_COLL_ALLREDUCE, an, CM_NALGO, &on);
	assert_int_equal(on, 1u << CM_TREE);
	cm_nccl_parse_list("Ring;allreduce:tree", CM_COLL_BROADCAST, an, CM_NALGO, &on);
	assert_int_equal(on, 1u << CM_RING);
	cm_nccl_parse_list("^ring;AllReduce:^tree,nvls", CM_COLL_ALLREDUCE, an, CM_NALGO, &on);
	assert_int_equal(on, ((1u << CM_NALGO) - 1) & ~((1u << CM_TREE) | (1u << CM_NVLS)));
	cm_nccl_parse_list("foo", CM_COLL_ALLREDUCE, an, CM_NALGO, &on);
	assert_int_equal(on, 0); /* unknown tokens are ignored, as NCCL's parseList does */
}

static void test_wire_bytes(void **state)
{
	(void)state;
	assert_int_equal(cm_nccl_wire_bytes(CM_SIMPLE, 1000), 1000);
	assert_int_equal(cm_nccl_wire_bytes(CM_LL, 1000), 2000);
	assert_int_equal(cm_nccl_wire_bytes(CM_LL, 6), 16);
	assert_int_equal(cm_nccl_wire_bytes(CM_LL128, 120), 128);
	assert_int_equal(cm_nccl_wire_bytes(CM_LL128, 121), 256);
	assert_int_equal(cm_nccl_wire_bytes(CM_LL128, 7680 * 3), 8192 * 3);
	assert_int_equal(cm_nccl_wire_bytes(CM_LL, 0), 0);
}

/* What the choice is for (coll, ranks, bytes) in the child's environment. */
struct pick_case {
	int coll, n;
	size_t bytes;
	const char *algo, *proto; /* NULL: none */
	int channels;
};

static void check_pick(const struct pick_case *k)
{
	struct ncclComm c;
	const char *a, *p;
	int ch;

	memset(&c, 0, sizeof(c));
	c.nranks = k->n;
	cm_nccl_tune_init(&c.tune);
	cm_nccl_pick(&c, k->coll, k->bytes, &a, &p, &ch);
	if (!k->algo) {
		CM_CHECK(!a && !p && ch == 0);
		return;
	}
	CM_CHECK(a && strcmp(a, k->algo) == 0);
	CM_CHECK(p && strcmp(p, k->proto) == 0);
	CM_CHECK(!k->channels || ch == k->channels);
}

static const struct pick_case pcie[] = {
	{ CM_COLL_ALLREDUCE, 2, 8, "Ring", "LL", 1 },
	{ CM_COLL_ALLREDUCE, 4, 8, "Tree", "LL", 1 }, /* small, 4 ranks: the tree */
	{ CM_COLL_ALLREDUCE, 4, 1 << 20, "Ring", "Simple", 2 }, /* no LL128 without NVLink */
	{ CM_COLL_ALLREDUCE, 2, 64 << 20, "Ring", "Simple", 2 },
	{ CM_COLL_BROADCAST, 4, 8, "Ring", "LL", 1 },
	{ CM_COLL_ALL_GATHER, 4, 64 << 20, "Ring", "Simple", 2 },
	{ CM_NCOLL, 4, 8, NULL, NULL, 0 }, /* alltoall: no algorithm to pick */
};
static const struct pick_case h100[] = {
	{ CM_COLL_ALLREDUCE, 8, 1 << 20, "Ring", "LL128", 16 },
	{ CM_COLL_ALLREDUCE, 8, 64 << 20, "Ring", "Simple", 16 },
};

static void child_pick(int which)
{
	static const struct pick_case forced[] = {
		{ CM_COLL_ALLREDUCE, 2, 64 << 20, "Tree", "LL128", 0 }, /* NCCL_PROTO names it */
		{ CM_COLL_BROADCAST, 2, 8, NULL, NULL, 0 },             /* no Tree broadcast */
	};
	const struct pick_case *k = which == 0 ? pcie : which == 1 ? h100 : forced;
	size_t n = which == 0 ? sizeof(pcie) / sizeof(pcie[0]) :
		   which == 1 ? sizeof(h100) / sizeof(h100[0]) : sizeof(forced) / sizeof(forced[0]);

	for (size_t i = 0; i < n; i++)
		check_pick(&k[i]);
}

static void test_pick(void **state)
{
	const char *const on_pcie[] = { "CB_CUDA_MODEL_TOPO=pcie", "NCCL_ALGO=", "NCCL_PROTO=", NULL };
	const char *const on_h100[] = { "CB_CUDA_MODEL_TOPO=8xH100", "NCCL_ALGO=", "NCCL_PROTO=", NULL };
	const char *const forced[] = { "CB_CUDA_MODEL_TOPO=pcie", "NCCL_ALGO=^ring",
				       "NCCL_PROTO=LL128", NULL };

	(void)state;
	assert_int_equal(cm_child_run(child_pick, 0, on_pcie), 0);
	assert_int_equal(cm_child_run(child_pick, 1, on_h100), 0);
	assert_int_equal(cm_child_run(child_pick, 2, forced), 0);
}

/* NVLS forced: where the box has none, NCCL's error at the call; on the
 * 8xH100 box NCCL would run it and the model says it does not. */
static void child_refuse(int nvls_box)
{
	struct ncclComm c;
	int a, p;

	memset(&c, 0, sizeof(c));
	c.nranks = 4;
	cm_nccl_tune_init(&c.tune);
	if (!nvls_box) {
		CM_CHECK(cm_nccl_choose(&c, CM_COLL_ALLREDUCE, 1024, ncclFloat32, &a, &p) ==
			 ncclInternalError);
		CM_CHECK(strcmp(ncclGetLastError(NULL), "no algorithm/protocol available for function "
				"AllReduce with datatype ncclFloat32. NCCL_ALGO was set to NVLS.") == 0);
		return;
	}
	CM_CHECK(cm_nccl_choose(&c, CM_COLL_ALLREDUCE, 1024, ncclFloat32, &a, &p) == ncclInvalidUsage);
	CM_CHECK(a == CM_NVLS && p == CM_SIMPLE);
	CM_CHECK(strstr(ncclGetLastError(NULL), "NVLS is not modelled"));
}

static void test_refuse(void **state)
{
	const char *const pcie_env[] = { "CB_CUDA_MODEL_TOPO=pcie", "NCCL_ALGO=NVLS", NULL };
	const char *const h100_env[] = { "CB_CUDA_MODEL_TOPO=8xH100", "NCCL_ALGO=NVLS", NULL };

	(void)state;
	assert_int_equal(cm_child_run(child_refuse, 0, pcie_env), 0);
	assert_int_equal(cm_child_run(child_refuse, 1, h100_env), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_list),
		cmocka_unit_test(test_wire_bytes),
		cmocka_unit_test(test_pick),
		cmocka_unit_test(test_refuse),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
