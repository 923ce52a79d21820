/* The model's NCCL and NCCL's profiler plugins (NCCL 2.28's rules, the NCCL
 * whose headers the model is compiled against; src/plugin/profiler.cc and
 * plugin_open.cc in github.com/NVIDIA/nccl): at the first communicator's
 * creation, the library named by NCCL_PROFILER_PLUGIN is opened ("none" or
 * unset: no plugin; a name that is no path and not lib*.so is tried as
 * libnccl-profiler-<name>.so too) and its ncclProfiler_v5 is taken; init is
 * called for every communicator, finalize when it is destroyed; for every
 * collective the events NCCL starts where it enqueues one: a group event,
 * then the collective's (with the algorithm, protocol and channel count of
 * cm_nccl_pick), each stopped after; none for a communicator of one rank.
 * Only what the mask init returned asks for is started. Only v5 is spoken: a plugin without it is not loaded
 * (NCCL 2.28 would take v4 .. v1 through adapters). */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cb_coll.h"
#include "cb_nccl_prof_abi.h"
#include "cm_nccl.h"

static pthread_once_t once = PTHREAD_ONCE_INIT;
static const struct cb_nccl_profiler_v5 *plugin;

static void load(void)
{
	const char *name = getenv("NCCL_PROFILER_PLUGIN");
	size_t n = name ? strlen(name) : 0;
	char alt[512];
	void *lib = NULL;

	if (!n || !strcasecmp(name, "none"))
		return;
	lib = dlopen(name, RTLD_NOW | RTLD_LOCAL);
	if (!lib && !strchr(name, '/') &&
	    (strncmp(name, "lib", 3) || n < 3 || strcmp(name + n - 3, ".so"))) {
		snprintf(alt, sizeof(alt), "libnccl-profiler-%s.so", name);
		lib = dlopen(alt, RTLD_NOW | RTLD_LOCAL);
	}
	if (!lib) {
		cm_log("NCCL profiler plugin %s not loaded: %s", name, dlerror());
		return;
	}
	plugin = dlsym(lib, "ncclProfiler_v5");
	if (!plugin) {
		cm_log("NCCL profiler plugin %s: no ncclProfiler_v5 (the model speaks only v5)", name);
		dlclose(lib);
	}
}

void cm_nccl_prof_init(struct ncclComm *c)
{
	pthread_once(&once, load);
	if (!plugin)
		return;
	if (plugin->init(&c->prof_ctx, (uint64_t)(uintptr_t)c, &c->prof_mask, c->name, 1, c->nranks,
			 c->rank, NULL) != 0) {
		cm_log("NCCL profiler plugin %s: init failed: no events for this communicator",
		       plugin->name);
		c->prof_mask = 0;
	}
}

void cm_nccl_prof_fini(struct ncclComm *c)
{
	if (plugin && c->prof_ctx)
		plugin->finalize(c->prof_ctx);
	c->prof_ctx = NULL;
	c->prof_mask = 0;
}

void cm_nccl_prof_coll(struct ncclComm *c, int coll, const char *func, const void *sendbuff,
		       void *recvbuff, size_t count, const char *datatype, size_t bytes)
{
	struct cb_nccl_descr_v5 g = { .type = CB_NCCL_PROFILE_GROUP, .rank = c->rank };
	struct cb_nccl_descr_v5 d = { .type = CB_NCCL_PROFILE_COLL, .rank = c->rank };
	const char *algo, *proto;
	int nch;
	void *gev = NULL, *cev = NULL;

	/* one rank: NCCL runs a local copy and starts no event (NCCL 2.28
	 * src/enqueue.cc, ncclLaunchOneRank) */
	if (!plugin || c->nranks == 1 ||
	    !(c->prof_mask & (CB_NCCL_PROFILE_GROUP | CB_NCCL_PROFILE_COLL)))
		return;
	plugin->start_event(c->prof_ctx, &gev, &g);
	if (c->prof_mask & CB_NCCL_PROFILE_COLL) {
		cm_nccl_pick(c, coll, bytes, &algo, &proto, &nch);
		d.coll = (struct cb_nccl_coll_v4){ c->enq, func, sendbuff, recvbuff, count, -1,
						   datatype, (uint8_t)nch, 16, algo, proto, gev };
		plugin->start_event(c->prof_ctx, &cev, &d);
		if (cev)
			plugin->stop_event(cev);
	}
	if (gev)
		plugin->stop_event(gev);
}
