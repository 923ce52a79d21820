/* cb_plan: an algorithm as data. A plan is the whole schedule of one
 * collective (cb_coll.h: allreduce, reduce-scatter, all-gather, broadcast,
 * reduce) of `count` elements on n ranks: ordered rounds of steps, each
 * step moving or reducing one element range of one buffer into another.
 * Every executor walks plans (one-sided: shared memory, CUDA IPC; two-sided:
 * MPI, NCCL point-to-point), the cost model prices them, the test oracle sums
 * their traffic, and an in-memory executor checks them (cb_plan_exec.h).
 * Prior art read for ideas: MSCCL's algorithm programs (chunks moved between
 * ranks' buffers in threadblock-ordered steps), NCCL's work elements.
 *
 * Buffers. Each rank r has three: SEND (its input, send_count elements),
 * RECV (its output, recv_count elements; the collective says how many and
 * what it holds) and STAGE (scratch of stage_count[r] elements, which a
 * plan uses for inputs it gathers before reducing them). In place, SEND and
 * RECV are one buffer, the smaller one at the collective's in-place offset
 * inside the larger (cb_coll_inplace_offset; allreduce: the same buffer): a
 * plan that is valid in place never reads a SEND range after a step of an
 * earlier round wrote the RECV range it aliases (the in-memory executor
 * checks both modes).
 *
 * A step: dst = a (COPY) or dst = a op b (REDUCE), over `count` elements,
 * each end a (rank, buffer, element offset); `exec` is the rank that carries
 * it out. One-sided, the exec rank loads and stores the ranks' memory
 * directly (a worker pushing its input into a root's STAGE, a rank pulling
 * a peer's chunk and reducing it into its own RECV). Two-sided, bytes move
 * only by messages: a step whose `a` is on another rank than `dst` is a
 * message from a.rank to dst.rank (received into staging when it is a
 * reduce). So that every plan runs on both kinds of transport, a REDUCE's
 * `b` is on dst's rank and exec is dst's rank or a's. `final` applies the op's last step to dst after (avg: divide by
 * n); a plan gives it exactly once to every element of every RECV.
 *
 * Rounds. A round is what each rank does between two synchronisations.
 * Its steps of one exec rank run in plan order; steps of different exec
 * ranks run at once, so they never touch a range one of them writes; and a
 * step that moves bytes between ranks reads only what earlier rounds wrote
 * (a two-sided executor posts a round's messages before its own work). A
 * round sees every write of the rounds before it. An executor needs no more:
 * before round k, a rank waits for each peer whose writes it reads to have
 * finished the round that last wrote them (read after write), and for each
 * peer that read or wrote a range it now writes to have finished that round
 * (write after read, write after write). cb_plan_finish derives these waits
 * (cb_plan_waits) once per plan and mode, so executors only look them up; a
 * rank posts k + 1 after a round k in which it acted.
 *
 * Traffic: a step moves `count` elements from a.rank to dst.rank (and from
 * b.rank, for a reduce) wherever the ranks differ: tx at the source, rx at
 * the destination, the rule the backends' counters follow (docs/output.md,
 * "Traffic"). cb_plan_traffic sums it, so the oracle of the tests and the
 * measurement talk about the same bytes.
 *
 * Ranges are elements; bytes are count * element size. No MPI, no CUDA. */
#ifndef CB_PLAN_H
#define CB_PLAN_H

#include <stddef.h>
#include <stdint.h>

#include "cb_coll.h"
#include "cb_status.h"

enum cb_plan_buf { CB_PLAN_SEND, CB_PLAN_RECV, CB_PLAN_STAGE, CB_PLAN_NBUFS };
enum cb_plan_op { CB_PLAN_COPY, CB_PLAN_REDUCE };

struct cb_plan_ref {
	int rank;
	enum cb_plan_buf buf;
	size_t off; /* elements */
};

struct cb_plan_step {
	enum cb_plan_op op;
	int exec;                 /* the rank that carries it out */
	int final;                /* 1: the op's last step on dst after */
	struct cb_plan_ref dst, a, b; /* b: REDUCE only */
	size_t count;             /* elements, >= 1 */
};

/* A wait: peer's rounds done >= rounds (a rank posts k + 1 after round k). */
struct cb_plan_wait {
	int peer;
	uint32_t rounds;
};

struct cb_plan {
	char name[48];
	enum cb_coll coll;        /* the collective it is a plan of */
	int n;                    /* ranks, >= 1 */
	int root;                 /* rooted collectives' root (cb_coll_desc.rooted) */
	size_t count;             /* the collective's count (cb_coll.h) */
	size_t send_count, recv_count; /* elements of each SEND, each RECV */
	size_t *stage_count;      /* [n] STAGE elements of each rank */
	size_t stage_slot;        /* elements of a STAGE slot where the plan has
				   * slots (a plan file's), 0: none; messages
				   * name the slot of a STAGE range by it */
	struct cb_plan_step *steps;
	size_t nsteps;
	size_t *round_first;      /* [nrounds + 1]: round k is steps
				   * round_first[k] .. round_first[k+1]-1 */
	size_t nrounds;
	/* derived by cb_plan_finish */
	int in_place;             /* the mode the waits were derived for */
	struct cb_plan_wait *waits;
	size_t *wait_first;       /* [n * nrounds + 1]: rank r's waits before
				   * round k start at wait_first[k * n + r] */
	size_t *fresh;            /* [nsteps]: elements of step i's sources (a,
				   * and b for a reduce) last written in this
				   * call by another exec rank than step i's:
				   * bytes another CPU or kernel just wrote, not
				   * inputs that were in place before the call */
	size_t step_cap, round_cap, wait_cap;
	const struct cb_plan_stream *stream; /* NULL: the whole plan is kept */
};

/* A stream: a plan handed over as its builder makes it, in parts of at
 * most CB_PLAN_STREAM_PART steps, each part's steps dropped after, so a
 * plan too large to hold (the cost model's at thousands of ranks, whose
 * rounds alone may have n^2 steps) is read in a bounded memory.
 * part(ctx, p, end) sees p->steps holding the next steps of the open round
 * (p->nrounds 1); end is 1 for a round's last part (the round closes;
 * it may hold no step, after parts), 0 when more of it follows. An error it returns ends the build with that
 * status. */
#define CB_PLAN_STREAM_PART ((size_t)1 << 16)
struct cb_plan_stream {
	enum cb_status (*part)(void *ctx, const struct cb_plan *p, int end);
	void *ctx;
};

/* Plans this thread initialises from now on stream to s (NULL: none, the
 * default): set it around a cb_plan_make, then cb_plan_flush the last
 * round. Such a plan can be priced or counted, not finished or run. */
void cb_plan_stream_to(const struct cb_plan_stream *s);

/* Hands a streamed plan's open round, if any, to its stream (after the
 * builder's last step); nothing for a whole plan. Errors: the stream's. */
enum cb_status cb_plan_flush(struct cb_plan *p);

/* ---- building ---------------------------------------------------------- */

/* An empty plan named name of collective coll for n ranks, count elements
 * (cb_coll.h) and root. Errors: CB_ERR_ARG (n < 1, root out of range, a
 * split collective's count not a multiple of n), CB_ERR_NOMEM; p is left
 * zeroed. cb_plan_init: an allreduce's. */
enum cb_status cb_plan_init_coll(struct cb_plan *p, const char *name, enum cb_coll coll, int n,
				 size_t count, int root);
enum cb_status cb_plan_init(struct cb_plan *p, const char *name, int n, size_t count);
void cb_plan_free(struct cb_plan *p);

/* Starts the next round (the first step opens round 0 by itself). */
enum cb_status cb_plan_round(struct cb_plan *p);

/* Appends a step to the open round; nothing for count 0. Its STAGE ranges
 * grow stage_count as needed. Errors: CB_ERR_NOMEM. */
enum cb_status cb_plan_copy(struct cb_plan *p, int exec, struct cb_plan_ref dst,
			    struct cb_plan_ref a, size_t count, int final);
enum cb_status cb_plan_reduce(struct cb_plan *p, int exec, struct cb_plan_ref dst,
			      struct cb_plan_ref a, struct cb_plan_ref b, size_t count, int final);

static inline struct cb_plan_ref cb_pref(int rank, enum cb_plan_buf buf, size_t off)
{
	struct cb_plan_ref r = { rank, buf, off };
	return r;
}

/* Checks p's rules (ranks in range, ranges inside their buffers, a reduce's
 * b on dst's rank, exec one of the step's ranks, no range written twice or
 * written and read in one round, no final where the collective does not
 * reduce; a step reads only a rank's input or what an earlier step wrote,
 * and out of place every result RECV is written whole: found from the
 * ranges, not from values, so for every dtype and op) and derives the waits and the fresh elements of each step for
 * the mode (in place: SEND and RECV alias). Errors: CB_ERR_ARG with the first broken rule
 * in err (naming the round and step), CB_ERR_NOMEM. */
enum cb_status cb_plan_finish(struct cb_plan *p, int in_place, char *err, size_t errlen);

/* Rank r's waits before round k (after cb_plan_finish): *n of them. */
static inline const struct cb_plan_wait *cb_plan_waits(const struct cb_plan *p, int r, size_t k,
						       size_t *n)
{
	size_t i = k * (size_t)p->n + (size_t)r;

	*n = p->wait_first[i + 1] - p->wait_first[i];
	return p->waits + p->wait_first[i];
}

/* The peers rank r shares ranges with: those it waits for in any round or
 * that wait for r, and those whose ranges r's steps touch or whose steps
 * touch r's (a plan without waits, one-shot out of place, still reads its
 * peers' inputs). At the start of a call, r waits for each to have entered
 * it, so to have finished the previous call and written this call's input.
 * Writes at most n - 1 entries to peers; returns how many, -1 out of
 * memory. */
int cb_plan_neighbours(const struct cb_plan *p, int r, int *peers);

/* The elements of rank r's buffer b in p. */
size_t cb_plan_buf_count(const struct cb_plan *p, int r, enum cb_plan_buf b);

/* r as the memory it names: in place, the smaller of SEND and RECV is a
 * range of the larger (cb_coll_inplace_offset: all_gather's SEND at r's
 * block of RECV, reduce_scatter's RECV at r's block of SEND; allreduce,
 * broadcast and reduce at 0), so a ref to it becomes a ref into the larger
 * at that offset; any other ref, and every ref out of place, is r. */
struct cb_plan_ref cb_plan_canon_ref(const struct cb_plan *p, struct cb_plan_ref r);

/* Whether a and b are one schedule: the same collective, ranks, root, count,
 * buffers and rounds, and in every round each exec rank's steps alike (op,
 * ranges, final) and in the same order; steps of different exec ranks
 * may come in any order (they run at once). Two algorithms that build the
 * same plan for a point (Rabenseifner and dbtree at 2 ranks, unsliced; hier
 * and twoshot on one host) run the same moves there. Returns 1 (the same),
 * 0, or -1 out of memory. */
int cb_plan_same(const struct cb_plan *a, const struct cb_plan *b);

/* Bytes each rank sends and receives in one run of p with elements of esize
 * bytes (tx, rx: arrays of n), by the rule at the top. */
void cb_plan_traffic(const struct cb_plan *p, size_t esize, uint64_t *tx, uint64_t *rx);

#endif
