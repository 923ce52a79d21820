/* The CUDA model's stream capture and graphs: a capturing stream records
 * its operations instead of queueing them (Runtime API, cudaStreamBeginCapture:
 * "all operations pushed into the stream will not be executed, but will
 * instead be captured into a graph"), and a launch queues the recorded
 * operations again, in order, on the stream it is given (cudaGraphLaunch:
 * "Each launch is ordered behind both any previous work in stream and any
 * previous launches of graphExec"). A recorded operation runs once per
 * launch on the same argument, so it must not consume it (the model's
 * operations keep theirs until dropped); they are dropped with the last of
 * the graph and its executable graphs. Operations that wait for a
 * capturing stream on the host (cudaStreamSynchronize, cudaStreamQuery)
 * are not allowed: cudaErrorStreamCaptureUnsupported, and the capture is
 * invalidated (cudaStreamEndCapture then returns
 * cudaErrorStreamCaptureInvalidated and no graph). Contract in cm_model.h. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "cm_model.h"

#define CM_MAX_CAPTURES 16

struct node {
	cm_run_fn run;
	void (*drop)(void *arg);
	void *arg;
	const char *what;
	struct cm_span *spans;
	int nspans;
};

struct CUgraph_st {
	struct node *nodes;
	size_t n, cap;
	int refs; /* the graph and each executable graph of it; under mu */
};

struct CUgraphExec_st {
	struct CUgraph_st *g;
	cudaStream_t last; /* the stream of the last launch */
};

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static struct {
	cudaStream_t s;
	struct CUgraph_st *g;
	int invalid;
} cap[CM_MAX_CAPTURES];

/* The capture slot of stream s, or -1; mu held. */
static int slot_of(cudaStream_t s)
{
	for (int i = 0; i < CM_MAX_CAPTURES; i++)
		if (cap[i].g && cap[i].s == s)
			return i;
	return -1;
}

static void unref(struct CUgraph_st *g)
{
	int last;

	pthread_mutex_lock(&mu);
	last = --g->refs == 0;
	pthread_mutex_unlock(&mu);
	if (!last)
		return;
	for (size_t i = 0; i < g->n; i++) {
		if (g->nodes[i].drop)
			g->nodes[i].drop(g->nodes[i].arg);
		free(g->nodes[i].spans);
	}
	free(g->nodes);
	free(g);
}

int cm_graph_record(cudaStream_t s, const char *what, cm_run_fn run, void (*drop)(void *arg),
		    void *arg, const struct cm_span *spans, int nspans, cudaError_t *e)
{
	struct node *nd;
	int i;

	pthread_mutex_lock(&mu);
	i = slot_of(s);
	if (i < 0) {
		pthread_mutex_unlock(&mu);
		return 0;
	}
	*e = cudaSuccess;
	if (cap[i].g->n == cap[i].g->cap) {
		size_t c = cap[i].g->cap ? 2 * cap[i].g->cap : 16;
		struct node *more = realloc(cap[i].g->nodes, c * sizeof(*more));

		if (!more)
			*e = cudaErrorMemoryAllocation;
		else
			cap[i].g->nodes = more, cap[i].g->cap = c;
	}
	if (*e == cudaSuccess) {
		nd = &cap[i].g->nodes[cap[i].g->n];
		*nd = (struct node){ run, drop, arg, what, NULL, nspans };
		if (nspans && !(nd->spans = malloc(sizeof(*spans) * (size_t)nspans)))
			*e = cudaErrorMemoryAllocation;
		else if (nspans)
			memcpy(nd->spans, spans, sizeof(*spans) * (size_t)nspans);
		if (*e == cudaSuccess)
			cap[i].g->n++;
	}
	pthread_mutex_unlock(&mu);
	if (*e != cudaSuccess && drop)
		drop(arg);
	return 1;
}

cudaError_t cm_graph_forbid(cudaStream_t s, const char *call)
{
	int i;

	pthread_mutex_lock(&mu);
	i = slot_of(s);
	if (i >= 0)
		cap[i].invalid = 1;
	pthread_mutex_unlock(&mu);
	if (i < 0)
		return cudaSuccess;
	cm_log("%s on stream %p while it captures a graph: not permitted (the capture is "
	       "invalidated)", call, (void *)s);
	return cudaErrorStreamCaptureUnsupported;
}

/* Runtime API, cudaStreamBeginCapture: "Capture may not be initiated if
 * stream is cudaStreamLegacy ... it may only be initiated if the stream is
 * not already in capture mode". */
cudaError_t cudaStreamBeginCapture(cudaStream_t stream, enum cudaStreamCaptureMode mode)
{
	cudaError_t e = cm_enter();
	struct CUgraph_st *g;
	int i, free_slot = -1;

	(void)mode;
	if (e != cudaSuccess)
		return e;
	if (stream == NULL || stream == cudaStreamLegacy || stream == cudaStreamPerThread ||
	    cm_stream_device(stream) < 0)
		return cm_ret(cudaErrorStreamCaptureUnsupported);
	g = calloc(1, sizeof(*g));
	if (!g)
		return cm_ret(cudaErrorMemoryAllocation);
	g->refs = 1;
	pthread_mutex_lock(&mu);
	for (i = 0; i < CM_MAX_CAPTURES && free_slot < 0; i++)
		if (!cap[i].g)
			free_slot = i;
	if (slot_of(stream) >= 0 || free_slot < 0) {
		pthread_mutex_unlock(&mu);
		free(g);
		return cm_ret(cudaErrorIllegalState);
	}
	cap[free_slot].s = stream;
	cap[free_slot].g = g;
	cap[free_slot].invalid = 0;
	pthread_mutex_unlock(&mu);
	return cudaSuccess;
}

cudaError_t cudaStreamEndCapture(cudaStream_t stream, cudaGraph_t *pGraph)
{
	struct CUgraph_st *g = NULL;
	int i, invalid = 0;

	cm_init();
	*pGraph = NULL;
	pthread_mutex_lock(&mu);
	i = slot_of(stream);
	if (i >= 0) {
		g = cap[i].g;
		invalid = cap[i].invalid;
		cap[i].g = NULL;
	}
	pthread_mutex_unlock(&mu);
	if (!g)
		return cm_ret(cudaErrorIllegalState);
	if (invalid) {
		unref(g);
		return cm_ret(cudaErrorStreamCaptureInvalidated);
	}
	*pGraph = g;
	return cudaSuccess;
}

cudaError_t cudaStreamIsCapturing(cudaStream_t stream, enum cudaStreamCaptureStatus *status)
{
	int i;

	cm_init();
	pthread_mutex_lock(&mu);
	i = slot_of(stream);
	*status = i < 0 ? cudaStreamCaptureStatusNone :
		  cap[i].invalid ? cudaStreamCaptureStatusInvalidated : cudaStreamCaptureStatusActive;
	pthread_mutex_unlock(&mu);
	return cudaSuccess;
}

cudaError_t cudaGraphInstantiate(cudaGraphExec_t *pGraphExec, cudaGraph_t graph,
				 unsigned long long flags)
{
	struct CUgraphExec_st *x;

	cm_init();
	if (!graph || flags)
		return cm_ret(cudaErrorInvalidValue);
	x = calloc(1, sizeof(*x));
	if (!x)
		return cm_ret(cudaErrorMemoryAllocation);
	pthread_mutex_lock(&mu);
	graph->refs++;
	pthread_mutex_unlock(&mu);
	x->g = graph;
	*pGraphExec = x;
	return cudaSuccess;
}

/* Nothing to upload: the recorded operations are host code. */
cudaError_t cudaGraphUpload(cudaGraphExec_t graphExec, cudaStream_t stream)
{
	cudaError_t e = cm_enter();

	if (e != cudaSuccess)
		return e;
	return cm_ret(graphExec && cm_stream_device(stream) >= 0 ? cudaSuccess :
								   cudaErrorInvalidValue);
}

cudaError_t cudaGraphLaunch(cudaGraphExec_t graphExec, cudaStream_t stream)
{
	cudaError_t e = cm_enter();
	struct CUgraph_st *g;

	if (e != cudaSuccess)
		return e;
	if (!graphExec)
		return cm_ret(cudaErrorInvalidValue);
	g = graphExec->g;
	graphExec->last = stream;
	for (size_t i = 0; i < g->n && e == cudaSuccess; i++)
		e = cm_enqueue_touching(stream, g->nodes[i].what, g->nodes[i].run, NULL, g->nodes[i].arg,
					g->nodes[i].spans, g->nodes[i].nspans);
	return cm_ret(e);
}

/* Runtime API, cudaGraphExecDestroy: a launch in flight completes; the
 * model waits for it before it drops what the launch still runs. */
cudaError_t cudaGraphExecDestroy(cudaGraphExec_t graphExec)
{
	cm_init();
	if (!graphExec)
		return cm_ret(cudaErrorInvalidValue);
	if (graphExec->last)
		(void)cudaStreamSynchronize(graphExec->last);
	unref(graphExec->g);
	free(graphExec);
	return cudaSuccess;
}

cudaError_t cudaGraphDestroy(cudaGraph_t graph)
{
	cm_init();
	if (!graph)
		return cm_ret(cudaErrorInvalidValue);
	unref(graph);
	return cudaSuccess;
}
