/* The cuda backend where collbench was built without the CUDA toolkit
 * (CB_WITH_CUDA=OFF, or none found): its descriptor (collectives/catalog/cb_catalog.h)
 * stays in the backend table, so -B cuda is known (and refused with the
 * reason) and the algorithms' backend lists read the same in every build.
 * Replaces cb_cuda.c and its companions in such builds
 * (cmake/cuda.cmake). */
#include "cb_backend.h"

const struct cb_backend_ops cb_backend_cuda_ops = {
	.desc = &cb_desc_cuda,
	.missing = "collbench was built without CUDA (CB_WITH_CUDA=OFF, or no CUDA toolkit found)",
};
