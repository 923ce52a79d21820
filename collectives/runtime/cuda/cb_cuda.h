/* cb_cuda: the cuda backend (cb_cuda.c: device set-up, data movement,
 * timing and the ops table; cb_cuda_ipc.c, cb_cuda_sync.c; what they share:
 * cb_cuda_internal.h). What its users outside it (the nccl algorithm, the
 * NCCL transport, cb_nccl) read of it is here: the rank's stream and how
 * ranks share GPUs, the head of the backend's state, read in place so that
 * reading it calls nothing of the backend (whose ops table names the NCCL
 * transport). */
#ifndef CB_CUDA_H
#define CB_CUDA_H

#include <cuda_runtime_api.h>
#include <stdio.h>

#include "cb_backend.h"

/* The first member of a cuda backend's state (be->impl, struct
 * cb_cuda_state), set at init and constant after it. */
struct cb_cuda_shared {
	cudaStream_t stream; /* the rank's stream: every algorithm enqueues its work there */
	int max_sharing;     /* the most ranks that share one GPU anywhere in the job (1: a GPU each) */
	int capturing;       /* the stream records into a CUDA graph (graph_begin .. graph_end) */
	char graph_why[160]; /* while capturing: why what was recorded cannot be replayed */
};

/* The rank's stream. be must be a cuda backend. */
static inline cudaStream_t cb_cuda_stream(const struct cb_backend *be)
{
	return ((const struct cb_cuda_shared *)be->impl)->stream;
}

/* The most ranks that share one GPU anywhere in the job (1: a GPU each). */
static inline int cb_cuda_max_ranks_per_gpu(const struct cb_backend *be)
{
	return ((const struct cb_cuda_shared *)be->impl)->max_sharing;
}

/* While the rank's stream records a CUDA graph: notes why (the first
 * reason wins; graph_end refuses the graph with it) and returns
 * CB_ERR_UNSUPPORTED; else CB_OK. For code that must not run in a graph (a
 * wait on the host). */
static inline enum cb_status cb_cuda_graph_refuse(struct cb_backend *be, const char *why)
{
	struct cb_cuda_shared *sh = be->impl;

	if (!sh->capturing)
		return CB_OK;
	if (!sh->graph_why[0])
		snprintf(sh->graph_why, sizeof(sh->graph_why), "%s", why);
	return CB_ERR_UNSUPPORTED;
}

#endif
