/* The model's topology (cm_model.h, cm_topo.c section): what the box its
 * GPUs sit in looks like, from CB_CUDA_MODEL_TOPO: a preset name or a file.
 *
 * A file has one "key value" per line ('#' starts a comment), the keys
 * being cm_topo_desc's fields:
 *     gpu_name        NVIDIA H100 80GB HBM3
 *     nvlink_version  4
 *     nvlink_links    18
 *     link_GBps       25
 *     nvswitch        1
 *     nvls            1
 *     pcie_gen        5
 *     pcie_width      16
 * Keys left out keep the pcie preset's values. A name that is neither a
 * preset nor a readable file, an unknown key or a bad number ends the
 * process with a message and exit status 2 (bad input). The presets' link
 * figures: NVIDIA's H100 and A100 Tensor Core GPU architecture whitepapers
 * (NVLink 4: 18 links x 25 GB/s per direction; NVLink 3: 12 x 25 GB/s). */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cm_model.h"

static const struct cm_topo_desc presets[] = {
	{ "pcie", "collbench CUDA model GPU", 0, 0, 0, 0, 0, 4, 16 },
	{ "8xH100", "NVIDIA H100 80GB HBM3", 4, 18, 25, 1, 1, 5, 16 },
	{ "8xH200", "NVIDIA H200", 4, 18, 25, 1, 1, 5, 16 },
	{ "8xA100", "NVIDIA A100-SXM4-80GB", 3, 12, 25, 1, 0, 4, 16 },
};

static struct cm_topo_desc topo;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void bad(const char *what, const char *where)
{
	fprintf(stderr, "cuda model: CB_CUDA_MODEL_TOPO: %s: %s (presets: pcie, 8xH100, 8xH200, "
		"8xA100; or a file of \"key value\" lines, tests/cuda_model/cm_topo.c)\n", where, what);
	exit(2);
}

/* One "key value" line into t; 0 for an unknown key or a bad value. */
static int set_key(struct cm_topo_desc *t, const char *key, const char *val)
{
	static const struct { const char *key; size_t off; } ints[] = {
		{ "nvlink_version", offsetof(struct cm_topo_desc, nvlink_version) },
		{ "nvlink_links", offsetof(struct cm_topo_desc, nvlink_links) },
		{ "nvswitch", offsetof(struct cm_topo_desc, nvswitch) },
		{ "nvls", offsetof(struct cm_topo_desc, nvls) },
		{ "pcie_gen", offsetof(struct cm_topo_desc, pcie_gen) },
		{ "pcie_width", offsetof(struct cm_topo_desc, pcie_width) },
	};
	char *end;

	if (strcmp(key, "gpu_name") == 0) {
		snprintf(t->gpu_name, sizeof(t->gpu_name), "%s", val);
		return 1;
	}
	if (strcmp(key, "link_GBps") == 0) {
		t->link_GBps = strtod(val, &end);
		return end != val && !*end && t->link_GBps >= 0;
	}
	for (size_t i = 0; i < sizeof(ints) / sizeof(ints[0]); i++)
		if (strcmp(key, ints[i].key) == 0) {
			long v = strtol(val, &end, 10);

			*(int *)((char *)t + ints[i].off) = (int)v;
			return end != val && !*end && v >= 0 && v <= 64;
		}
	return 0;
}

static void read_file(const char *path, struct cm_topo_desc *t)
{
	FILE *f = fopen(path, "r");
	char line[256], key[64], val[160];

	if (!f)
		bad("neither a preset nor a readable file", path);
	*t = presets[0];
	snprintf(t->name, sizeof(t->name), "file");
	while (fgets(line, sizeof(line), f)) {
		char *hash = strchr(line, '#');

		if (hash)
			*hash = 0;
		val[0] = 0;
		if (sscanf(line, " %63s %159[^\n]", key, val) < 1)
			continue;
		for (size_t n = strlen(val); n && (val[n - 1] == ' ' || val[n - 1] == '\t'); n--)
			val[n - 1] = 0;
		if (!set_key(t, key, val)) {
			fclose(f);
			bad(line, path);
		}
	}
	fclose(f);
	t->nvls = t->nvls && t->nvswitch && t->nvlink_links; /* NVLS needs NVSwitches */
}

static void init_topo(void)
{
	const char *v = getenv("CB_CUDA_MODEL_TOPO");

	topo = presets[0];
	if (!v || !*v)
		return;
	for (size_t i = 0; i < sizeof(presets) / sizeof(presets[0]); i++)
		if (strcmp(v, presets[i].name) == 0) {
			topo = presets[i];
			return;
		}
	read_file(v, &topo);
}

const struct cm_topo_desc *cm_topo(void)
{
	pthread_once(&once, init_topo);
	return &topo;
}

int cm_topo_has_nvlink(void)
{
	return cm_topo()->nvlink_links > 0;
}

int cm_topo_has_nvls(void)
{
	return cm_topo()->nvls;
}
