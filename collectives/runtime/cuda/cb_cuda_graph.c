/* CUDA graphs of the cuda backend (-G, the ops table's graph_* entries,
 * contract in cb_backend.h): the rank's stream records one call's work with
 * cudaStreamBeginCapture .. cudaStreamEndCapture (thread-local mode, as
 * nccl-tests captures), instantiated once and launched on the same stream.
 * Copies, reduce kernels, NCCL's calls and the stream mode's waits
 * (cuStreamWaitValue64: a memory-operation node) replay as recorded; posts
 * are recorded as counter kernels and re-based per launch (cb_cuda_sync.c:
 * captured_post). What cannot be replayed (host ordering, CB_CUDA_WAIT=peer)
 * is refused while recording (cb_cuda_graph_refuse), with the reason. */
#include <stdio.h>
#include <stdlib.h>

#include "cb_cuda_internal.h"

struct cuda_graph {
	cudaGraph_t graph;
	cudaGraphExec_t exec;
};

enum cb_status cb_cuda_graph_begin(struct cb_backend *be)
{
	struct cb_cuda_state *cs = be->impl;
	enum cb_status st = CB_CUDA(cudaStreamBeginCapture(cs->shared.stream,
							   cudaStreamCaptureModeThreadLocal));

	if (st == CB_OK) {
		cs->shared.capturing = 1;
		cs->shared.graph_why[0] = 0;
		cs->ncap = 0;
	}
	return st;
}

/* Ends the capture whatever happened inside it; *g only on success. */
static enum cb_status end_capture(struct cb_cuda_state *cs, cudaGraph_t *g)
{
	cudaGraph_t graph = NULL;
	enum cb_status st = CB_CUDA(cudaStreamEndCapture(cs->shared.stream, &graph));

	cs->shared.capturing = 0;
	if (st != CB_OK && graph)
		cudaGraphDestroy(graph);
	*g = st == CB_OK ? graph : NULL;
	return st;
}

enum cb_status cb_cuda_graph_end(struct cb_backend *be, void **out, char *why, size_t cap)
{
	struct cb_cuda_state *cs = be->impl;
	struct cuda_graph *g = calloc(1, sizeof(*g));
	enum cb_status st = g ? CB_OK : CB_ERR_NOMEM;

	*out = NULL;
	/* the launch's last work; nothing where the graph is refused */
	if (cb_cuda_flags_rebase(be, st == CB_OK && !cs->shared.graph_why[0]) != CB_OK)
		st = CB_ERR_CUDA;
	if (end_capture(cs, g ? &g->graph : &(cudaGraph_t){ NULL }) != CB_OK && st == CB_OK)
		st = CB_ERR_CUDA;
	if (st == CB_OK && cs->shared.graph_why[0]) {
		snprintf(why, cap, "%s", cs->shared.graph_why);
		st = CB_ERR_UNSUPPORTED;
	}
	if (st == CB_OK)
		st = CB_CUDA(cudaGraphInstantiate(&g->exec, g->graph, 0));
	if (st == CB_OK) /* the upload now, not in the first timed launch */
		st = CB_CUDA(cudaGraphUpload(g->exec, cs->shared.stream));
	if (st != CB_OK) {
		cb_cuda_graph_free(be, g);
		return st;
	}
	*out = g;
	return CB_OK;
}

enum cb_status cb_cuda_graph_launch(struct cb_backend *be, void *graph)
{
	struct cb_cuda_state *cs = be->impl;
	struct cuda_graph *g = graph;

	return CB_CUDA(cudaGraphLaunch(g->exec, cs->shared.stream));
}

void cb_cuda_graph_free(struct cb_backend *be, void *graph)
{
	struct cuda_graph *g = graph;

	(void)be;
	if (!g)
		return;
	if (g->exec)
		cudaGraphExecDestroy(g->exec);
	if (g->graph)
		cudaGraphDestroy(g->graph);
	free(g);
}
