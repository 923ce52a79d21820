/* cb_nccl_choice: which algorithm, protocol and channel count NCCL chose for
 * a row's timed calls, from collbench's NCCL profiler plugin
 * (collectives/runtime/nccl/profiler: NCCL calls it once per collective, in
 * this process, and it counts each choice in a small table that this module
 * reads). docs/library.md says which NCCL versions it works with. */
#ifndef CB_NCCL_CHOICE_H
#define CB_NCCL_CHOICE_H

#include "cb_schema.h"

/* Once, before the first NCCL communicator of the process: unless the user
 * set NCCL_PROFILER_PLUGIN to another plugin (then the choice stays
 * unknown, and says so), sets it to the plugin beside the running binary
 * (or keeps the user's path to a libnccl-profiler-collbench.so) and opens
 * that file (the same copy NCCL opens later). Never fails: what went wrong
 * becomes the rows' reason. */
void cb_nccl_choice_setup(void);

/* Before a row's timed calls: forgets the calls before them (warm-up). */
void cb_nccl_choice_clear(void);

/* After them (before any checked call), on rank 0, for a row of NCCL (algo
 * "nccl" or "nccl.<...>"): s->nccl_algo, nccl_proto, nccl_channels from the
 * most frequent choice, and s->nccl_note the table's note: "Ring/LL128/16ch"
 * (", varied: k of N calls" when they differ), or "unknown: <why>". Other
 * rows are left empty. */
void cb_nccl_choice_fill(struct cb_summary *s);

/* The pure part, for tests: the most frequent choice of t into s (t NULL or
 * without events: unknown because of why). */
struct cb_nccl_prof_table;
void cb_nccl_choice_from(const struct cb_nccl_prof_table *t, const char *why,
			 struct cb_summary *s);

#endif
