/* The cuda backend where collbench was built without the CUDA toolkit
 * (CB_WITH_CUDA=OFF, or none found): its name, capabilities and ring slice
 * stay in the backend table, so -B cuda is known (and refused with the
 * reason), the algorithms' backend lists read the same in every build, and
 * the cost model reads cuda runs on any machine. Replaces
 * cb_backend_cuda.c and its companions in such builds (cmake/cuda.cmake). */
#include "cb_backend.h"

const struct cb_backend_ops cb_backend_cuda_ops = {
	.name = "cuda",
	.caps = CB_CAP_PEER_MEMORY | CB_CAP_CUDA_MEMORY,
	.pipeline_bytes = CB_CUDA_PIPELINE_BYTES,
	.time_unmeasured = CB_CUDA_TIME_UNMEASURED,
	.missing = "collbench was built without CUDA (CB_WITH_CUDA=OFF, or no CUDA toolkit found)",
};
