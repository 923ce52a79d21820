/* cb_catalog_nccl_paths: NCCL's newer paths as rows of their own, and the
 * rules of when NCCL takes them (data about the runtime: the nccl code that
 * runs them is collectives/runtime/nccl/cb_algo_nccl_sym.c).
 *
 *   nccl.sym  the collective's NCCL call on send and receive buffers that
 *             come from ncclMemAlloc and are registered on the row's own
 *             communicator as symmetric windows (ncclCommWindowRegister with
 *             NCCL_WIN_COLL_SYMMETRIC, on every rank; NCCL 2.27). NCCL then
 *             picks among its symmetric kernels (load/store over NVLink or
 *             PCIe P2P, and multicast where the box has NVLS) by size.
 *   nccl.ce   the same windows on a communicator created with
 *             ncclConfig_t.CTAPolicy = NCCL_CTA_POLICY_ZERO (NCCL 2.28):
 *             NCCL's copy-engine collectives, which use no SMs.
 *   nccl.reg  the call on ncclMemAlloc buffers registered with
 *             ncclCommRegister (user buffer registration, NCCL 2.19): NCCL's
 *             own algorithm choice, zero-copy where it can (NVLS where the
 *             GPUs have NVLink SHARP, peer buffers over IPC).
 * They run on request only (-a nccl.sym,nccl.ce,nccl.reg), with one GPU per
 * rank; sym and ce on one node. Sources of the rules are at each rule in
 * the .c file. */
#ifndef CB_CATALOG_NCCL_PATHS_H
#define CB_CATALOG_NCCL_PATHS_H

#include "cb_catalog.h"

enum cb_nccl_path { CB_NCCL_SYM, CB_NCCL_CE, CB_NCCL_REG, CB_NCCL_NPATHS };

/* Each path's row of every collective (the runtime's ops point at them). */
extern const struct cb_algo_desc cb_desc_nccl_path[CB_NCCL_NPATHS][CB_COLL_COUNT];

/* Why NCCL would not take path p for collective c on dt and op, or NULL
 * when it does: version is the NCCL that runs (ncclGetVersion's code,
 * 2.28.9 = 22809), driver the CUDA driver's (cudaDriverGetVersion: 12050
 * is 12.5). The text is static (valid until the next call). Pure. */
const char *cb_nccl_path_why(enum cb_nccl_path p, enum cb_coll c, enum cb_dtype dt,
			     enum cb_op op, int version, int driver);

#endif
