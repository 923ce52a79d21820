/* cb_backend_cuda: what CUDA-specific algorithms (nccl) need from the cuda
 * backend: the rank's stream and how ranks share GPUs. The backend's own
 * state and the functions its files share are private
 * (cb_cuda_internal.h). */
#ifndef CB_BACKEND_CUDA_H
#define CB_BACKEND_CUDA_H

#include <cuda_runtime_api.h>

#include "cb_backend.h"

/* The rank's stream: every algorithm enqueues its work there. be must be a
 * cuda backend. */
cudaStream_t cb_cuda_stream(const struct cb_backend *be);

/* The most ranks that share one GPU anywhere in the job (1: a GPU each). */
int cb_cuda_max_ranks_per_gpu(const struct cb_backend *be);

#endif
