/* cb_plan_file: a plan from a file (allreduce_perf --plan FILE,
 * collbench-model --plan FILE): a user's schedule, which every executor
 * runs, the model prices and the in-memory executor checks, as it does a
 * built-in plan. docs/plans.md is the user's description.
 *
 * Format (JSON; unknown keys are refused, so a typo never passes):
 *   { "collbench_plan": 1, "name": NAME, "description": TEXT (optional),
 *     "collective": COLL (optional, default "allreduce": cb_coll.h's names),
 *     "root": RANK (optional, default 0: a rooted collective's root),
 *     "ranks": R, "chunks": C, "rounds": [ [STEP, ...], ... ] }
 *   STEP: { "op": "copy" | "reduce", "chunk": c, "nchunks": k (default 1),
 *           "dst": REF, "a": REF, "b": REF (reduce only: dst = a op b),
 *           "exec": rank (default: dst's), "final": true|false (default false) }
 *   REF:  [rank, "send"] | [rank, "recv"] | [rank, "stage", slot]
 * NAME: 1-31 of [a-z0-9_], starting with a letter. The buffer of count
 * elements is cut into C chunks as the built-in plans cut theirs (cb_chunk:
 * the first count % C chunks one element longer); a step moves chunks
 * c .. c+k-1, at their own offsets in SEND and RECV, and into or out of a
 * STAGE at slots slot .. slot+k-1, each slot ceil(count / C) elements. A
 * split collective's smaller buffer (reduce_scatter's RECV, all_gather's
 * SEND) holds its rank's block of the count: chunks name their global
 * offsets, rank r's block starting at r count/n. One
 * file is so the plan of every count (an empty chunk moves nothing), for R
 * ranks only. The step rules (what a round may hold, who may execute a
 * step) are cb_plan.h's; rounds and steps keep the file's order. */
#ifndef CB_PLAN_FILE_H
#define CB_PLAN_FILE_H

#include <jansson.h>
#include <stddef.h>

#include "cb_dtype.h"
#include "cb_plan.h"
#include "cb_plan_lib.h"
#include "cb_status.h"

#define CB_PLAN_FILE_MAX_RANKS 1024
#define CB_PLAN_FILE_MAX_CHUNKS 65536
#define CB_PLAN_FILE_MAX_STEPS 1000000
/* STAGE slots a file may use: at most this many buffers' worth */
#define CB_PLAN_FILE_STAGE_BUFFERS 64
/* a file's bytes: a million steps of a few hundred bytes each */
#define CB_PLAN_FILE_MAX_BYTES (256u << 20)
#define CB_PLAN_FILE_DIGEST_LEN 16

struct cb_plan_file;

/* Reads and checks the file at path (its syntax, keys, types, ranges and
 * names; not yet what it computes: cb_plan_file_check). Errors: CB_ERR_IO
 * (not readable) or CB_ERR_ARG (a directory, a device or FIFO, over
 * CB_PLAN_FILE_MAX_BYTES), each "PATH: cannot read the plan: " and the
 * reason (cb_input.h); CB_ERR_ARG (not JSON: the line and column; or a field
 * that breaks the format: its round, step and key), CB_ERR_NOMEM; each with
 * "PATH: ..." in err and *out NULL. */
enum cb_status cb_plan_file_load(const char *path, struct cb_plan_file **out, char *err,
				 size_t errlen);

void cb_plan_file_free(struct cb_plan_file *f);

const char *cb_plan_file_name(const struct cb_plan_file *f);
/* The collective the file's plan is of ("collective"). */
enum cb_coll cb_plan_file_coll(const struct cb_plan_file *f);
const char *cb_plan_file_path(const struct cb_plan_file *f);
int cb_plan_file_ranks(const struct cb_plan_file *f);
/* What the plan does, as CB_PLAN_FILE_DIGEST_LEN lower-case hex digits: a
 * 64-bit FNV-1a hash of its name, ranks, chunks and rounds of steps (every
 * field, defaults filled in), not of the file's bytes: two files differ in
 * digest when they schedule differently, never for their spacing, key
 * order or description. Ranks compare it before anything is timed
 * (cb_preflight.h); the metadata records it, and collbench-compare refuses
 * rows of one plan name whose digests differ. */
const char *cb_plan_file_digest(const struct cb_plan_file *f);
/* The file's JSON as read (borrowed: f keeps it). */
json_t *cb_plan_file_json(const struct cb_plan_file *f);
/* Its chunks, rounds and steps as written. */
void cb_plan_file_shape(const struct cb_plan_file *f, size_t *chunks, size_t *rounds,
			size_t *steps);

/* The plan algorithm of f (cb_plan_lib.h: build, ranks and data filled in;
 * the description and source name the file). */
struct cb_plan_algo cb_plan_file_algo(const struct cb_plan_file *f);

/* Adds f to the plan algorithms (cb_plan_algo_add) and keeps it, freed
 * when a file of the same name replaces it. Errors: CB_ERR_ARG (its name is
 * a built-in plan's, or no slot is left: err), f then still the caller's. */
enum cb_status cb_plan_file_add(struct cb_plan_file *f, char *err, size_t errlen);

/* The builder: a->data is the cb_plan_file. CB_ERR_ARG when a->n is not its
 * ranks, or for a rooted collective a->root not its root. */
enum cb_status cb_plan_build_file(struct cb_plan *p, const struct cb_plan_args *a);

/* The check's limits: what running every rank of f in one process may
 * allocate (bytes) and write (elements) at one count (cb_plan_check_cost),
 * and the dtype its values are checked on. */
#define CB_PLAN_FILE_CHECK_MAX_BYTES (2ull << 30)
#define CB_PLAN_FILE_CHECK_MAX_ELEMS (2ull << 30)
#define CB_PLAN_FILE_CHECK_DTYPE CB_INT32

/* Checks f in the modes of modes (bit 0: out of place, bit 1: in place) at
 * C and 3C + 1 elements (C its chunks: every chunk equal, then unequal).
 * First, at both counts, from its ranges alone: the rules of cb_plan.h (a
 * read of what nothing wrote among them: the schedule, not values, finds
 * it, so for every dtype and op) and the check's limits, before anything
 * is allocated per rank. Then its values on the in-memory executor
 * (cb_plan_exec.h) for each op of op_mask (bits 1 << enum value), on
 * CB_PLAN_FILE_CHECK_DTYPE only: a plan's moves are the same for every
 * dtype, and int32's wrapping arithmetic is exact at any rank count and
 * order, over inputs that span its range. Costs O(steps log steps) for the
 * rules and, for each op, O(n (send + recv + stage) + the elements the steps
 * move). Errors: CB_ERR_ARG with the first broken rule (round, step, rank,
 * buffer and range), the limit passed, or the first wrong element (its
 * rank, offset and the round that last wrote it) in err; CB_ERR_NOMEM. */
enum cb_status cb_plan_file_check(const struct cb_plan_file *f, unsigned op_mask, unsigned modes,
				  char *err, size_t errlen);

#endif
