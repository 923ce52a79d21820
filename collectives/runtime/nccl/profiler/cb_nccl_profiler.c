/* collbench's NCCL profiler plugin: which algorithm, protocol and channel
 * count NCCL chose for each collective, counted in a small table that the
 * harness reads in-process (cb_nccl_prof_table.h).
 *
 * NCCL (2.25 and later) loads the library named by NCCL_PROFILER_PLUGIN at
 * communicator creation and takes the newest ncclProfiler_v<N> symbol it
 * knows: an object of function pointers (name, init, startEvent, stopEvent,
 * recordEventState, finalize). init returns the mask of event types the
 * plugin wants; this plugin asks for collective events only, so NCCL calls
 * it once per collective (and once per group, the collectives' parent)
 * where it enqueues the work, on the calling thread. The interface's layouts
 * are our own declarations (cb_nccl_prof_abi.h); docs/library.md lists the
 * NCCL versions.
 * v1 (NCCL 2.23-2.24) numbered algorithms and protocols: not spoken.
 * Before 2.27, NCCL starts a collective's event only under a live group
 * event, so group events get a handle too (one static byte); no event is
 * ever stopped for real, so stopEvent does nothing.
 *
 * Cost per collective: a lock, a scan of at most CB_NCCL_PROF_CHOICES
 * entries with two short string compares each, an increment. */
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "cb_nccl_prof_abi.h"
#include "cb_nccl_prof_table.h"

#define EXPORT __attribute__((visibility("default")))

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct cb_nccl_prof_table table;
static char handle; /* every event's handle */

/* Counts one collective event with NCCL's choice. */
static void record(const char *algo, const char *proto, int nchannels)
{
	struct cb_nccl_prof_choice *c = table.c;
	int i;

	algo = algo ? algo : "?";
	proto = proto ? proto : "?";
	pthread_mutex_lock(&lock);
	table.events++;
	for (i = 0; i < table.n; i++)
		if (c[i].nchannels == nchannels && !strcmp(c[i].algo, algo) &&
		    !strcmp(c[i].proto, proto))
			break;
	if (i == table.n && i < CB_NCCL_PROF_CHOICES) {
		snprintf(c[i].algo, sizeof(c[i].algo), "%s", algo);
		snprintf(c[i].proto, sizeof(c[i].proto), "%s", proto);
		c[i].nchannels = nchannels;
		table.n++;
	}
	if (i < CB_NCCL_PROF_CHOICES)
		c[i].calls++;
	else
		table.overflow++;
	pthread_mutex_unlock(&lock);
}

EXPORT void cb_nccl_prof_snapshot(struct cb_nccl_prof_table *out)
{
	pthread_mutex_lock(&lock);
	*out = table;
	pthread_mutex_unlock(&lock);
}

EXPORT void cb_nccl_prof_clear(void)
{
	pthread_mutex_lock(&lock);
	table.events = table.overflow = 0;
	table.n = 0;
	memset(table.c, 0, sizeof(table.c));
	pthread_mutex_unlock(&lock);
}

static cb_nccl_result start(int abi, void **context, int *mask)
{
	pthread_mutex_lock(&lock);
	table.abi = abi;
	table.comms++;
	pthread_mutex_unlock(&lock);
	*context = &handle;
	*mask = CB_NCCL_PROFILE_COLL;
	return 0;
}

static cb_nccl_result init_v2(void **context, int *mask)
{
	return start(2, context, mask);
}

static cb_nccl_result init_v3(void **context, int *mask)
{
	return start(3, context, mask);
}

static cb_nccl_result init_v4(void **context, int *mask, const char *comm_name, uint64_t comm_hash,
			   int nnodes, int nranks, int rank, cb_nccl_logger log)
{
	(void)comm_name, (void)comm_hash, (void)nnodes, (void)nranks, (void)rank, (void)log;
	return start(4, context, mask);
}

static cb_nccl_result init_v5(void **context, uint64_t comm_id, int *mask, const char *comm_name,
			   int nnodes, int nranks, int rank, cb_nccl_logger log)
{
	(void)comm_id, (void)comm_name, (void)nnodes, (void)nranks, (void)rank, (void)log;
	return start(5, context, mask);
}

static cb_nccl_result init_v6(void **context, uint64_t comm_id, int *mask, const char *comm_name,
			   int nnodes, int nranks, int rank, cb_nccl_logger log)
{
	(void)comm_id, (void)comm_name, (void)nnodes, (void)nranks, (void)rank, (void)log;
	return start(6, context, mask);
}

/* Each version's startEvent: record a collective's choice; a handle for
 * every event (before 2.27 a collective needs its group's). */
#define START_EVENT(v, is_coll) \
	static cb_nccl_result start_v##v(void *context, void **ev, struct cb_nccl_descr_v##v *d) \
	{ \
		(void)context; \
		if (is_coll) \
			record(d->coll.algo, d->coll.proto, d->coll.nchannels); \
		*ev = &handle; \
		return 0; \
	}
START_EVENT(2, d->type == CB_NCCL_PROFILE_COLL)
START_EVENT(3, d->type == CB_NCCL_PROFILE_COLL)
START_EVENT(4, d->type == CB_NCCL_PROFILE_COLL)
START_EVENT(5, d->type == CB_NCCL_PROFILE_COLL)
#undef START_EVENT

static cb_nccl_result stop_event(void *ev)
{
	(void)ev;
	return 0;
}

static cb_nccl_result record_state(void *ev, int state, void *args)
{
	(void)ev, (void)state, (void)args;
	return 0;
}

static cb_nccl_result finalize(void *context)
{
	(void)context;
	pthread_mutex_lock(&lock);
	table.comms--;
	pthread_mutex_unlock(&lock);
	return 0;
}

#define PLUGIN(v, init_fn, start_fn) \
	EXPORT const struct cb_nccl_profiler_v##v ncclProfiler_v##v = { \
		"collbench", init_fn, start_fn, stop_event, record_state, finalize \
	};
PLUGIN(2, init_v2, start_v2)
PLUGIN(3, init_v3, start_v3)
PLUGIN(4, init_v4, start_v4)
PLUGIN(5, init_v5, start_v5)
PLUGIN(6, init_v6, start_v5)
#undef PLUGIN
