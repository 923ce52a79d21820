/* The model's link counters (cm_link.c), its topology (cm_topo.c) and its
 * NVML (cm_nvml.c), read through the suite's own loader (cb_nvml.c) as the
 * cuda backend reads them: each check in a fresh process (cm_child.h), so
 * each has its own CB_CUDA_MODEL_TOPO and its own counters (the segment is
 * keyed by the parent: this test's children share it, so each check reads
 * differences). A child reports a failed check by exiting 1. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "cb_cuda_kernels.h"
#include "cb_nvml.h"
#include "cm_child.h"
#include "cm_model.h"

static struct cb_nvml *open_dev(int dev)
{
	char bus[32], why[CB_NVML_TEXT] = "";
	struct cb_nvml *nv;

	CM_CHECK(cudaDeviceGetPCIBusId(bus, sizeof(bus), dev) == cudaSuccess);
	nv = cb_nvml_open(bus, why, sizeof(why));
	if (!nv)
		fprintf(stderr, "cb_nvml_open(%s): %s\n", bus, why);
	CM_CHECK(nv != NULL);
	return nv;
}

/* 8xH100: a copy of 10000 B from GPU 0's memory to GPU 1's is 10000 B more
 * tx on GPU 0 and rx on GPU 1, to the KiB (NVML's unit); a reduce on GPU 1
 * reading GPU 0's memory adds 4096 B more; a copy within a GPU adds none. */
static void child_counts(int unused)
{
	struct cb_nvml *g0 = open_dev(0), *g1 = open_dev(1);
	uint64_t tx0, rx0, tx1, rx1, a, b, c, d;
	char *p0, *p1, *q1;
	cudaStream_t s;

	(void)unused;
	CM_CHECK(cudaSetDevice(0) == cudaSuccess && cudaMalloc((void **)&p0, 16384) == cudaSuccess);
	CM_CHECK(cudaSetDevice(1) == cudaSuccess && cudaMalloc((void **)&p1, 16384) == cudaSuccess);
	CM_CHECK(cudaMalloc((void **)&q1, 16384) == cudaSuccess && cudaStreamCreate(&s) == cudaSuccess);
	CM_CHECK(cb_nvml_read(g0, &tx0, &rx0) == NULL && cb_nvml_read(g1, &tx1, &rx1) == NULL);
	CM_CHECK(cudaMemcpyAsync(p1, p0, 10000, cudaMemcpyDeviceToDevice, s) == cudaSuccess);
	CM_CHECK(cudaMemcpyAsync(q1, p1, 10000, cudaMemcpyDeviceToDevice, s) == cudaSuccess);
	CM_CHECK(cudaStreamSynchronize(s) == cudaSuccess);
	CM_CHECK(cb_nvml_read(g0, &a, &b) == NULL && cb_nvml_read(g1, &c, &d) == NULL);
	CM_CHECK(a - tx0 == 9216 && b == rx0); /* 10000 B: 9 KiB whole, 784 B below the KiB */
	CM_CHECK(d - rx1 == 9216 && c == tx1);
	CM_CHECK(cb_cuda_reduce(q1, q1, p0, 1024, CB_FLOAT, CB_SUM, 1, s) == cudaSuccess);
	CM_CHECK(cudaStreamSynchronize(s) == cudaSuccess);
	CM_CHECK(cb_nvml_read(g0, &a, &b) == NULL && cb_nvml_read(g1, &c, &d) == NULL);
	CM_CHECK(a - tx0 == 13312 && d - rx1 == 13312); /* 14096 B: 13 KiB whole */
	cb_nvml_close(g0);
	cb_nvml_close(g1);
}

/* The facts follow the preset; pcie: no NVLink counters. */
static void child_facts(int nvlink)
{
	struct cb_nvml *nv = open_dev(0);
	struct cb_nvml_facts f;
	struct cudaDeviceProp p;
	uint64_t tx, rx;
	const char *why;

	cb_nvml_facts(nv, &f);
	CM_CHECK(f.known && cudaGetDeviceProperties(&p, 0) == cudaSuccess && strcmp(p.name, f.name) == 0);
	why = cb_nvml_read(nv, &tx, &rx);
	if (nvlink) {
		CM_CHECK(strcmp(f.name, "NVIDIA A100-SXM4-80GB") == 0 && f.nvlink_version == 3);
		CM_CHECK(f.nvlink_links == 12 && f.link_GBps == 25 && f.nvswitch && f.pcie_gen == 4);
		CM_CHECK(why == NULL);
	} else {
		CM_CHECK(f.nvlink_links == 0 && f.nvlink_version == 0 && f.pcie_width == 16);
		CM_CHECK(why && strstr(why, "no NVLink counters"));
	}
	cb_nvml_close(nv);
}

/* A description file: its keys over the pcie preset's. */
static void child_file(int unused)
{
	const struct cm_topo_desc *t = cm_topo();

	(void)unused;
	CM_CHECK(strcmp(t->gpu_name, "My GPU 7") == 0 && t->nvlink_links == 4 && t->nvlink_version == 2);
	CM_CHECK(t->link_GBps == 20 && !t->nvls && t->pcie_gen == 4 && cm_topo_has_nvlink() && !cm_topo_has_nvls());
}

static void test_counts(void **state)
{
	const char *env[] = { "CB_CUDA_MODEL_TOPO=8xH100", "CB_CUDA_MODEL_GPUS=2", NULL };

	(void)state;
	assert_int_equal(cm_child_run(child_counts, 0, env), 0);
}

static void test_facts(void **state)
{
	const char *a100[] = { "CB_CUDA_MODEL_TOPO=8xA100", NULL };
	const char *pcie[] = { "CB_CUDA_MODEL_TOPO=pcie", NULL };

	(void)state;
	assert_int_equal(cm_child_run(child_facts, 1, a100), 0);
	assert_int_equal(cm_child_run(child_facts, 0, pcie), 0);
}

static void test_file(void **state)
{
	char path[] = "/tmp/cm_topo_XXXXXX", env[64];
	const char *envs[] = { env, NULL }, *bad[] = { "CB_CUDA_MODEL_TOPO=9xNothing", NULL };
	FILE *f;
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	fputs("# a made-up box\ngpu_name My GPU 7\nnvlink_version 2\nnvlink_links 4\nlink_GBps 20\n"
	      "nvswitch 0\nnvls 1  # no NVSwitch: no NVLS\n", f);
	fclose(f);
	snprintf(env, sizeof(env), "CB_CUDA_MODEL_TOPO=%s", path);
	assert_int_equal(cm_child_run(child_file, 0, envs), 0);
	/* a name that is neither a preset nor a file: bad input, exit 2 */
	assert_int_equal(cm_child_run(child_file, 0, bad), 2);
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_counts),
		cmocka_unit_test(test_facts),
		cmocka_unit_test(test_file),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
