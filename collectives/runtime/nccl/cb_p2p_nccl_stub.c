/* The p2p transport of GPU buffers where collbench was built without NCCL
 * (CMake found none, or CB_WITH_NCCL=OFF): the cuda backend still names a
 * two-sided transport, and ps and ring over p2p skip, saying why. Replaces
 * cb_p2p_nccl.c in such builds (cmake/cuda.cmake). */
#include "cb_p2p.h"

const struct cb_p2p_ops cb_p2p_nccl_ops = {
	.name = "NCCL point-to-point (not built)",
	.missing = "collbench was built without NCCL, which carries p2p for GPU buffers "
		   "(set NCCL_HOME and rebuild)",
};
