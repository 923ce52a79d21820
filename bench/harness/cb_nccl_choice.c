/* Which algorithm NCCL chose (contract in cb_nccl_choice.h). The harness
 * opens the plugin itself, with dlopen, at the path it puts in
 * NCCL_PROFILER_PLUGIN: the dynamic loader keeps one copy of a file per
 * process, so NCCL's later dlopen of that path returns the same copy and
 * NCCL's calls fill the table read here through cb_nccl_prof_snapshot. */
#define _GNU_SOURCE
#include "cb_nccl_choice.h"

#include <ctype.h>
#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cb_nccl_prof_table.h"

static struct {
	int done;
	cb_nccl_prof_snapshot_fn snapshot;
	cb_nccl_prof_clear_fn clear;
	char why[160]; /* why the choice is unknown, when snapshot is NULL */
} pc;

/* The plugin's path beside the running binary into buf; 0, or -1. */
static int plugin_path(char *buf, size_t len)
{
	char exe[PATH_MAX];
	ssize_t k = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	char *slash;

	if (k <= 0)
		return -1;
	exe[k] = '\0';
	slash = strrchr(exe, '/');
	if (!slash)
		return -1;
	*slash = '\0';
	return snprintf(buf, len, "%s/%s", exe, CB_NCCL_PROF_FILE) < (int)len ? 0 : -1;
}

/* 1 when value, NCCL_PROFILER_PLUGIN's, is a path to collbench's plugin
 * (NCCL opens a value with a '/' as it is). */
static int own_file(const char *value)
{
	const char *slash = strrchr(value, '/');

	return slash && !strcmp(slash + 1, CB_NCCL_PROF_FILE);
}

void cb_nccl_choice_setup(void)
{
	const char *user = getenv("NCCL_PROFILER_PLUGIN");
	char path[PATH_MAX];
	void *lib;

	if (pc.done++)
		return;
	if (user && *user && !own_file(user)) {
		snprintf(pc.why, sizeof(pc.why), "user profiler plugin (NCCL_PROFILER_PLUGIN=%s)",
			 user);
		return;
	}
	if (user && *user) /* a path to collbench's plugin: that copy */
		snprintf(path, sizeof(path), "%s", user);
	else if (plugin_path(path, sizeof(path)) != 0 || access(path, R_OK) != 0) {
		snprintf(pc.why, sizeof(pc.why), "no %s beside the binary", CB_NCCL_PROF_FILE);
		return;
	}
	lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (lib) {
		pc.snapshot = (cb_nccl_prof_snapshot_fn)dlsym(lib, CB_NCCL_PROF_SNAPSHOT);
		pc.clear = (cb_nccl_prof_clear_fn)dlsym(lib, CB_NCCL_PROF_CLEAR);
	}
	if (!pc.snapshot || !pc.clear) {
		snprintf(pc.why, sizeof(pc.why), "cannot open the profiler plugin: %s",
			 lib ? "its functions are missing" : dlerror());
		pc.snapshot = NULL;
		return;
	}
	setenv("NCCL_PROFILER_PLUGIN", path, 1);
}

void cb_nccl_choice_clear(void)
{
	if (pc.clear)
		pc.clear();
}

/* 1 for a row of NCCL's. */
static int nccl_row(const struct cb_summary *s)
{
	return !strcmp(s->algo, "nccl") || !strncmp(s->algo, "nccl.", 5);
}

/* name in the spelling of NCCL_ALGO and NCCL_PROTO (NCCL's environment
 * documentation: Ring, Tree, CollNetDirect, CollNetChain, NVLS, NVLSTree,
 * PAT; LL, LL128, Simple): NCCL's profiler events carry ncclAlgoToString's
 * and ncclProtoToString's "RING", "NVLS_TREE", "SIMPLE" (src/collectives.cc,
 * NCCL 2.25-2.30). A name it does not know is kept as it is. */
static const char *canonical(const char *name)
{
	static const char *const known[] = { "Ring", "Tree", "CollNetDirect", "CollNetChain", "NVLS",
					     "NVLSTree", "PAT", "LL", "LL128", "Simple" };

	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++) {
		const char *a = name, *b = known[i];

		for (; *a && *b; a++) {
			if (*a == '_')
				continue;
			if (tolower((unsigned char)*a) != tolower((unsigned char)*b))
				break;
			b++;
		}
		if (!*a && !*b)
			return known[i];
	}
	return name;
}

void cb_nccl_choice_from(const struct cb_nccl_prof_table *t, const char *why,
			 struct cb_summary *s)
{
	const struct cb_nccl_prof_choice *best = NULL;
	int k;

	if (t && !t->abi)
		why = "NCCL did not load the profiler plugin (NCCL before 2.25?)";
	else if (t && !t->events)
		why = "NCCL reported no collective in the timed calls";
	for (int i = 0; t && t->events && i < t->n; i++)
		if (!best || t->c[i].calls > best->calls)
			best = &t->c[i];
	if (!best) {
		snprintf(s->nccl_note, sizeof(s->nccl_note), "unknown: %s", why ? why : "?");
		return;
	}
	snprintf(s->nccl_algo, sizeof(s->nccl_algo), "%s", canonical(best->algo));
	snprintf(s->nccl_proto, sizeof(s->nccl_proto), "%s", canonical(best->proto));
	s->nccl_channels = best->nchannels;
	k = snprintf(s->nccl_note, sizeof(s->nccl_note), "%s/%s/%dch", s->nccl_algo, s->nccl_proto,
		     best->nchannels);
	if (best->calls != t->events && k > 0 && (size_t)k < sizeof(s->nccl_note))
		snprintf(s->nccl_note + k, sizeof(s->nccl_note) - (size_t)k,
			 ", varied: %llu of %llu calls", best->calls, t->events);
}

void cb_nccl_choice_fill(struct cb_summary *s)
{
	struct cb_nccl_prof_table t;

	if (!nccl_row(s))
		return;
	if (!strcmp(s->collective, "alltoall")) { /* cb_algo_nccl.c: a group of send/recv */
		cb_nccl_choice_from(NULL, "alltoall runs as ncclSend/ncclRecv, which have no algorithm",
				    s);
		return;
	}
	if (s->nranks == 1) { /* NCCL 2.28 src/enqueue.cc: ncclLaunchOneRank, no plan */
		cb_nccl_choice_from(NULL, "one rank: NCCL copies locally and chooses no algorithm", s);
		return;
	}
	if (!pc.snapshot) {
		cb_nccl_choice_from(NULL, pc.done ? pc.why : "the plugin was not set up", s);
		return;
	}
	pc.snapshot(&t);
	cb_nccl_choice_from(&t, NULL, s);
}
