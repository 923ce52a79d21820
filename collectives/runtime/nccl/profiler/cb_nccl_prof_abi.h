/* cb_nccl_prof_abi: the parts of NCCL's profiler plugin interface that
 * collbench's plugin (cb_nccl_profiler.c) reads and the CUDA model's NCCL
 * (tests/cuda_model/cm_nccl_prof.c) calls. NCCL ships no header for it; these
 * are our own declarations, written from NCCL's
 * plugins/profiler/example/nccl/profiler_v{2..6}.h and profiler.h
 * (github.com/NVIDIA/nccl; ext-profiler/ before 2.29). Versions and the
 * NCCL releases that introduced them:
 *   v2 NCCL 2.25, v3 2.26: init(ctx, mask); the collective's part starts
 *      with the communicator's name and hash; nMaxChannels (v2 also has
 *      trafficBytes before it);
 *   v4 2.27: init gains commName, commHash, nNodes, nranks, rank and the
 *      logger; the collective's part starts with seqNumber; nChannels;
 *   v5 2.28, v6 2.29: init takes the commId second; the descriptor's type
 *      is 64 bits; the collective's part as v4 (parentGroup after proto,
 *      not read here); more event types (API, kernel launch, v6's CE).
 * Only what a collective event carries is declared: the union of per-type
 * parts that follows the rank is read through its collective member. */
#ifndef CB_NCCL_PROF_ABI_H
#define CB_NCCL_PROF_ABI_H

#include <stddef.h>
#include <stdint.h>

/* Event types (bits of the activation mask init returns). */
enum { CB_NCCL_PROFILE_GROUP = 1 << 0, CB_NCCL_PROFILE_COLL = 1 << 1 };

typedef int cb_nccl_result; /* ncclResult_t; 0: ncclSuccess */
typedef void (*cb_nccl_logger)(int level, unsigned long flags, const char *file, int line,
			       const char *fmt, ...);

/* The collective's part, v4 to v6 (v5, v6 add parentGroup at the end). */
struct cb_nccl_coll_v4 {
	uint64_t seq;
	const char *func;
	const void *sendbuff;
	void *recvbuff;
	size_t count;
	int root;
	const char *datatype;
	uint8_t nchannels, nwarps;
	const char *algo, *proto;
	void *parent_group; /* v5, v6 only */
};
/* v3: the communicator's name and hash first; nMaxChannels. */
struct cb_nccl_coll_v3 {
	const char *name;
	uint64_t comm_hash, seq;
	const char *func;
	const void *sendbuff;
	void *recvbuff;
	size_t count;
	int root;
	const char *datatype;
	uint8_t nchannels, nwarps;
	const char *algo, *proto;
};
/* v2: as v3, with trafficBytes before nMaxChannels. */
struct cb_nccl_coll_v2 {
	const char *name;
	uint64_t comm_hash, seq;
	const char *func;
	const void *sendbuff;
	void *recvbuff;
	size_t count;
	int root;
	const char *datatype;
	size_t traffic_bytes;
	uint8_t nchannels, nwarps;
	const char *algo, *proto;
};

/* The descriptors: type, parent object, rank, then the per-type part. */
struct cb_nccl_descr_v2 { uint8_t type; void *parent; int rank; struct cb_nccl_coll_v2 coll; };
struct cb_nccl_descr_v3 { uint8_t type; void *parent; int rank; struct cb_nccl_coll_v3 coll; };
struct cb_nccl_descr_v4 { uint8_t type; void *parent; int rank; struct cb_nccl_coll_v4 coll; };
struct cb_nccl_descr_v5 { uint64_t type; void *parent; int rank; struct cb_nccl_coll_v4 coll; };

/* The exported object ncclProfiler_v<N>: the same six members in every
 * version, init's parameters as above. */
#define CB_NCCL_PROFILER_STRUCT(v, init_params) \
	struct cb_nccl_profiler_v##v { \
		const char *name; \
		cb_nccl_result (*init) init_params; \
		cb_nccl_result (*start_event)(void *context, void **event, \
					      struct cb_nccl_descr_v##v *descr); \
		cb_nccl_result (*stop_event)(void *event); \
		cb_nccl_result (*record_state)(void *event, int state, void *args); \
		cb_nccl_result (*finalize)(void *context); \
	}
CB_NCCL_PROFILER_STRUCT(2, (void **context, int *mask));
CB_NCCL_PROFILER_STRUCT(3, (void **context, int *mask));
CB_NCCL_PROFILER_STRUCT(4, (void **context, int *mask, const char *comm_name,
			    uint64_t comm_hash, int nnodes, int nranks, int rank, cb_nccl_logger log));
CB_NCCL_PROFILER_STRUCT(5, (void **context, uint64_t comm_id, int *mask, const char *comm_name,
			    int nnodes, int nranks, int rank, cb_nccl_logger log));
/* v6: v5's functions; its descriptor as v5's for the members read here */
#define cb_nccl_profiler_v6 cb_nccl_profiler_v5
#undef CB_NCCL_PROFILER_STRUCT

#endif
