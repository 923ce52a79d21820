/* How the ranks of the cuda backend order their work (cb_cuda_internal.h),
 * chosen once at init and the same on every rank:
 *   1. CB_CUDA_SYNC=host, or a GPU without 64-bit stream memory operations:
 *      host ordering, no probe;
 *   2. otherwise a probe runs the stream mode for real: the node's ranks pass
 *      a token around (each waits for the previous rank's post, enqueues a
 *      small memset, posts), on a stream of its own, under a deadline. A
 *      refused stream memory operation or a wait that never completes makes
 *      every rank fall back to host ordering, the reason logged by rank 0 and
 *      named in the device text (CB_CUDA_SYNC=stream then fails instead);
 *   3. where ranks share a GPU (and CB_CUDA_SYNC is not set) the token goes
 *      around PROBE_ROUNDS times in both modes; host ordering is chosen when
 *      it takes less than HOST_MARGIN of the stream mode's time. Without MPS
 *      the contexts of one GPU time-slice, and a stream wait holds its
 *      context's slice until the slice ends, so each stream-ordered handoff
 *      can cost a whole slice; a host wait holds no GPU time.
 * A stream stuck in a probe wait is released by writing past the chain's
 * values into every counter from its owner's side; if even that does not
 * complete it, init fails (CB_ERR_CUDA, the advice to use CB_CUDA_SYNC=host):
 * nothing is freed under a pending wait, and a stuck stream would hang the
 * next call that synchronizes the device. */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cb_cuda_internal.h"
#include "cb_world.h"

#define PROBE_ROUNDS 10
#define PROBE_DEADLINE_NS 5000000000ull /* a token round trip on a GPU: microseconds */
#define HOST_MARGIN 0.8                 /* host must be clearly faster to win */

static uint64_t now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}

/* The index of v in words (n of them), -1 for unset or empty, -2 (and a
 * message from world rank 0) for anything else. */
static int setting(const struct cb_backend *be, const char *name, const char *const *words, int n)
{
	const char *v = getenv(name);

	if (!v || !*v)
		return -1;
	for (int i = 0; i < n; i++)
		if (strcmp(v, words[i]) == 0)
			return i;
	if (be->world_rank == 0)
		cb_log("%s=%s: expected %s or %s", name, v, words[0], words[1]);
	return -2;
}

/* Polls ev until it completes (1), the deadline or the abort flag (0), or
 * an error (0, *st set). */
static int drain_by(struct cb_backend *be, cudaEvent_t ev, uint64_t deadline, enum cb_status *st)
{
	for (unsigned long polls = 0;; polls++) {
		enum cb_cuda_poll p = CB_CUDA_POLL(ev, st);

		if (p != CB_CUDA_PENDING)
			return p == CB_CUDA_DONE;
		if (*be->abort_flag || now_ns() > deadline)
			return 0;
		cb_backoff(polls);
	}
}

/* The token's rounds on f (posts and waits on f's stream s): node rank r
 * waits for rank r-1's post of this round (rank 0 for the last rank's of the
 * round before), enqueues a memset, posts. */
static enum cb_status pass_token(struct cb_backend *be, struct cb_flags *f, cudaStream_t s,
				 void *scratch, int rounds)
{
	int me = be->node_rank, n = be->node_size;
	enum cb_status st = CB_OK;

	for (int i = 0; i < rounds && st == CB_OK; i++) {
		if (me > 0)
			st = cb_cuda_wait(be, f, me - 1, (uint64_t)i + 1);
		else if (i > 0)
			st = cb_cuda_wait(be, f, n - 1, (uint64_t)i);
		if (st == CB_OK)
			st = CB_CUDA(cudaMemsetAsync(scratch, i & 0xff, 8, s));
		if (st == CB_OK)
			st = cb_cuda_post(be, f, (uint64_t)i + 1);
	}
	return st;
}

struct probe {
	cudaStream_t s;
	cudaEvent_t end;
	void *scratch;
	struct cb_flags *f;
};

/* Stream mode's chain failed somewhere: every rank writes past the chain's
 * values into its own counters and drains; 1 when every rank's probe
 * stream completed, so its counters may be freed. */
static int unstick(struct cb_backend *be, struct probe *p, int rounds)
{
	cudaStream_t s2 = NULL;
	enum cb_status st = CB_CUDA(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
	int done = 0, all = 0;

	if (st == CB_OK)
		st = cb_cuda_flags_release(be, p->f, s2, (uint64_t)rounds + 1);
	if (st == CB_OK)
		done = drain_by(be, p->end, now_ns() + PROBE_DEADLINE_NS, &st);
	if (s2)
		cudaStreamDestroy(s2);
	if (MPI_Allreduce(&done, &all, 1, MPI_INT, MPI_MIN, be->world) != MPI_SUCCESS)
		all = 0;
	if (!all && be->world_rank == 0)
		cb_log("cuda backend: a stream-ordering probe never completed, even released; "
		       "a stream stuck on the GPU would hang the next synchronizing call: run "
		       "again with CB_CUDA_SYNC=host (no probe)");
	return all;
}

/* The token's rounds on this node from a node barrier to this rank's
 * stream drained (*us, this rank's); 1 if every rank's part worked, and
 * *own_fail whether this rank's own part failed (cs->sync_why says why). */
static int time_token(struct cb_backend *be, struct probe *p, int rounds, double *us,
		      int *own_fail)
{
	struct cb_cuda_state *cs = be->impl;
	enum cb_status st = CB_MPI(MPI_Barrier(be->node));
	uint64_t t0 = now_ns();
	int mine = st == CB_OK && pass_token(be, p->f, p->s, p->scratch, rounds) == CB_OK &&
		   CB_CUDA(cudaEventRecord(p->end, p->s)) == CB_OK;
	int all = 0;

	/* a rank that could not enqueue its part never posts: its peers' waits
	 * would run into the deadline, so they learn it first */
	if (MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_MIN, be->node) != MPI_SUCCESS)
		all = mine = 0;
	if (all && !drain_by(be, p->end, t0 + PROBE_DEADLINE_NS, &st)) {
		all = mine = 0;
		if (st == CB_OK)
			snprintf(cs->sync_why, sizeof(cs->sync_why), "a stream wait did not "
				 "complete within %llu s", PROBE_DEADLINE_NS / 1000000000ull);
	}
	*own_fail = !mine;
	*us = (double)(now_ns() - t0) / 1e3;
	return all;
}

/* One probe of mode sync: *us the token's time, max over the world; *ok
 * agreed (MIN); *mine_failed whether this rank saw the failure itself
 * (cs->sync_why says what). A failure to set up (memory, MPI) is returned;
 * a refused or stuck stream operation is not. Collective over be->world. */
static enum cb_status run_probe(struct cb_backend *be, enum cb_cuda_sync sync, int rounds,
				double *us, int *ok, int *mine_failed)
{
	struct cb_cuda_state *cs = be->impl;
	struct probe p = { 0 };
	enum cb_status st = CB_CUDA(cudaStreamCreateWithFlags(&p.s, cudaStreamNonBlocking));
	int mine = 1, freeable = 1;
	double t = 0;

	*ok = 0;
	*mine_failed = 0;
	if (st == CB_OK)
		st = CB_CUDA(cudaEventCreateWithFlags(&p.end, cudaEventDisableTiming));
	if (st == CB_OK)
		st = CB_CUDA(cudaMalloc(&p.scratch, 256));
	st = cb_agree(st, be->world);
	if (st == CB_OK) /* collective over the node */
		st = cb_agree(cb_cuda_flags_make(be, sync, cs->wait_layout, p.s, &p.f), be->world);
	/* where ps and ring skip (no IPC), there is nothing to probe */
	if (st == CB_OK && !be->peer_unreachable)
		mine = time_token(be, &p, rounds, &t, mine_failed);
	if (st == CB_OK)
		st = CB_MPI(MPI_Allreduce(&mine, ok, 1, MPI_INT, MPI_MIN, be->world));
	if (st == CB_OK)
		st = CB_MPI(MPI_Allreduce(&t, us, 1, MPI_DOUBLE, MPI_MAX, be->world));
	if (st == CB_OK && !*ok && p.f)
		freeable = unstick(be, &p, rounds);
	if (!freeable) /* nothing it uses is freed under a pending wait */
		return CB_ERR_CUDA;
	cb_cuda_flags_free(be, p.f);
	if (p.s)
		cudaStreamDestroy(p.s);
	if (p.scratch)
		cudaFree(p.scratch);
	if (p.end)
		cudaEventDestroy(p.end);
	return st;
}

/* Every rank learns the reason of the lowest world rank that failed. */
static enum cb_status share_why(struct cb_backend *be, int failed)
{
	struct cb_cuda_state *cs = be->impl;
	int mine = failed ? be->world_rank : be->world_size, first = 0;

	if (CB_MPI(MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, be->world)) != CB_OK)
		return CB_ERR_MPI;
	if (first == be->world_size)
		return CB_OK;
	return CB_MPI(MPI_Bcast(cs->sync_why, sizeof(cs->sync_why), MPI_CHAR, first, be->world));
}

/* Stream ordering works here (CB_CUDA_SYNC unset); on a shared GPU, the
 * faster mode by measurement. */
static enum cb_status choose(struct cb_backend *be, int rounds, double t_stream)
{
	struct cb_cuda_state *cs = be->impl;
	double t_host = 0, hops = (double)rounds * be->node_size;
	int ok = 0, failed = 0;
	enum cb_status st = run_probe(be, CB_CUDA_SYNC_HOST, rounds, &t_host, &ok, &failed);

	if (st != CB_OK)
		return st;
	cs->sync = ok && t_host < HOST_MARGIN * t_stream ? CB_CUDA_SYNC_HOST : CB_CUDA_SYNC_STREAM;
	snprintf(cs->sync_why, sizeof(cs->sync_why),
		 "ranks share a GPU: the probe's handoff took %.1f us host-ordered, %.1f us "
		 "stream-ordered", t_host / hops, t_stream / hops);
	if (be->world_rank == 0)
		cb_log("cuda backend: ordering ranks %s (%s)",
		       cs->sync == CB_CUDA_SYNC_HOST ? "through the host" : "on the GPU's streams",
		       cs->sync_why);
	return CB_OK;
}

/* CB_CUDA_SYNC is stream or unset and the GPUs have the operations. */
static enum cb_status probe_stream(struct cb_backend *be, int forced)
{
	struct cb_cuda_state *cs = be->impl;
	int measure = !forced && cs->shared.max_sharing > 1, rounds = measure ? PROBE_ROUNDS : 1;
	int ok = 0, failed = 0;
	double t_stream = 0;
	enum cb_status st;

	cs->sync_why[0] = 0;
	st = run_probe(be, CB_CUDA_SYNC_STREAM, rounds, &t_stream, &ok, &failed);
	if (st == CB_OK)
		st = share_why(be, failed);
	if (st != CB_OK)
		return st;
	if (ok) {
		cs->sync = CB_CUDA_SYNC_STREAM;
		cs->sync_why[0] = 0;
		return measure ? choose(be, rounds, t_stream) : CB_OK;
	}
	if (be->world_rank == 0)
		cb_log(forced ? "cuda backend: CB_CUDA_SYNC=stream, but %s" :
				"cuda backend: ordering ranks through the host: %s", cs->sync_why);
	cs->sync = CB_CUDA_SYNC_HOST;
	return forced ? CB_ERR_ARG : CB_OK;
}

enum cb_status cb_cuda_sync_init(struct cb_backend *be)
{
	static const char *const modes[] = { "stream", "host" }, *const layouts[] = { "own", "peer" };
	struct cb_cuda_state *cs = be->impl;
	int want = setting(be, "CB_CUDA_SYNC", modes, 2);
	int layout = setting(be, "CB_CUDA_WAIT", layouts, 2);
	int mine = want == -2 || layout == -2 ? -1 : cb_cuda_stream_ops_usable(cs), all = 0;
	enum cb_status st = CB_MPI(MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_MIN, be->world));

	if (st != CB_OK || all < 0)
		return st != CB_OK ? st : CB_ERR_ARG;
	cs->wait_layout = layout == 1 ? CB_CUDA_WAIT_PEER : CB_CUDA_WAIT_OWN;
	cs->sync = CB_CUDA_SYNC_HOST;
	if (want == 1) {
		snprintf(cs->sync_why, sizeof(cs->sync_why), "CB_CUDA_SYNC=host");
		return CB_OK;
	}
	if (!all) {
		snprintf(cs->sync_why, sizeof(cs->sync_why),
			 "a GPU lacks 64-bit stream memory operations");
		if (be->world_rank == 0)
			cb_log(want == 0 ? "cuda backend: CB_CUDA_SYNC=stream, but %s" :
					   "cuda backend: %s; ordering ranks through the host", cs->sync_why);
		return want == 0 ? CB_ERR_ARG : CB_OK;
	}
	return probe_stream(be, want == 0);
}
