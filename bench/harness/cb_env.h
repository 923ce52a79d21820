/* cb_env: the environment variables that change what a run measures, in
 * one table: the ones collbench reads itself (the wait strategy's
 * CB_WAIT_SPIN_NS, CB_WAIT_YIELD_NS, CB_WAIT_TICK_MS; CB_CUDA_SYNC; the
 * machine label CB_MACHINE) and those of the allocator, NCCL, UCX and the
 * Open MPI components that move or reduce data. The pre-flight compares
 * them across ranks (cb_preflight.h) and the metadata records them
 * (cb_meta.h). Most must be the same on every rank; a few may differ by
 * rank (CB_ENV_PER_RANK): a launcher's GPU binding (CUDA_VISIBLE_DEVICES)
 * and what mpirun derives per host from the layout
 * (OMPI_MCA_mpi_oversubscribe). */
#ifndef CB_ENV_H
#define CB_ENV_H

#include <stddef.h>

enum cb_env_kind {
	CB_ENV_NONE,     /* not a setting that changes a measurement */
	CB_ENV_AGREE,    /* must be the same (or unset) on every rank */
	CB_ENV_PER_RANK, /* may differ by rank; recorded per rank when it does */
};

/* The kind of the variable of entry ("NAME=value", or a bare NAME). */
enum cb_env_kind cb_env_kind(const char *entry);

/* This process's settings: every environment entry of a kind other than
 * CB_ENV_NONE as "NAME=value\0", sorted by name, in a new buffer (free()
 * it) of *len bytes (0 when there are none). NULL only when out of memory. */
char *cb_env_pack(size_t *len);

/* The entry after `at` in a packed buffer of len bytes (at NULL: the first),
 * or NULL at the end. */
const char *cb_env_next(const char *buf, size_t len, const char *at);

/* The entry of NAME (the part of entry before '=') in a packed buffer, or
 * NULL when unset there. */
const char *cb_env_find(const char *buf, size_t len, const char *entry);

/* Whether entries a and b name the same variable. */
int cb_env_same_name(const char *a, const char *b);

#endif
