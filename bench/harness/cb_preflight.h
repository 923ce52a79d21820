/* cb_preflight: before any timed work, one allgather of every rank's parse
 * result, canonical options and host name, and one of its settings in the
 * environment that change a measurement (cb_env.h), so that arguments or
 * settings that differ between ranks, or a rank that could not parse its
 * arguments, end the run on every rank with a clear message instead of a
 * hang or a wrong number. */
#ifndef CB_PREFLIGHT_H
#define CB_PREFLIGHT_H

#include <mpi.h>

#include "cb_backend.h"
#include "cb_options.h"
#include "cb_status.h"

#define CB_HOST_MAX 64

struct cb_preflight {
	int nranks;
	char (*hosts)[CB_HOST_MAX]; /* [nranks] host name of each rank */
	const char **distinct;      /* [nhosts] distinct host names, first-seen order */
	int *host_of;               /* [nranks] index in distinct of each rank's host */
	int nhosts, ranks_per_node;
	char *env;                  /* every rank's cb_env_pack, one after another */
	int *env_off, *env_len;     /* [nranks] where rank r's is in env, its bytes */
};

/* Collective over world. parse_st/parse_err: this rank's cb_options_parse
 * result. Returns CB_OK with pf filled; CB_ERR_ARG when a rank could not parse
 * its arguments or the root is out of range (the lowest such rank printed
 * its message); CB_ERR_MISMATCH when ranks read plans of different digests
 * under --plan (rank 0 printed which ranks, the names and digests), when
 * ranks' options differ (every rank printed which ranks differ, and in what)
 * or their settings of kind CB_ENV_AGREE do
 * (set on some ranks only, or to other values: rank 0 printed which ranks,
 * which variables and their values); CB_ERR_NOMEM, CB_ERR_MPI. On error pf
 * holds nothing to free. */
enum cb_status cb_preflight_run(MPI_Comm world, enum cb_status parse_st, const char *parse_err,
				const struct cb_options *o, struct cb_preflight *pf);

/* The options that need the world size n: --world-size, the root, the
 * servers, a plan file's ranks. Returns CB_OK, or CB_ERR_ARG with what is
 * wrong logged when say (rank 0's, or --check-args --world-size n). Needs
 * no MPI. */
enum cb_status cb_preflight_world_size(const struct cb_options *o, int n, int say);

void cb_preflight_free(struct cb_preflight *pf);

#endif
