/* cb_meta: the metadata's busy and wait time entry and its header line
 * (contract in cb_meta.h). */
#include "cb_meta.h"

#include "cb_straggler.h"

/* Busy and wait time (cb_backend.h, struct cb_time_acct): whether they were
 * measured, how, or why not. */
json_t *cb_meta_time_acct(const struct cb_backend *be)
{
	const char *why = be->ops->desc->time_unmeasured;
	const char *busy =
		be->acct.spans
			? "CLOCK_MONOTONIC around each copy, reduce and finalize of the backend and "
			  "each p2p send/receive posting, summed per iteration (--time-acct 2)"
			: "the iteration's own time less its wait: the rank working, not waiting "
			  "(copies, reduces, posting; --time-acct 1: no clock read per copy)";

	return json_pack(
		"{s:b,s:b,s:s,s:s,s:s,s:s,s:s?}", "on", be->acct.on, "cpu", be->acct.spans,
		"busy", busy,
		"busy_cpu", "CLOCK_THREAD_CPUTIME_ID over the busy spans (--time-acct 2): the "
			    "busy time less the time the rank was descheduled in them",
		"wait", "CLOCK_MONOTONIC around each wait for a peer's progress flag that was not "
			"already there (none read for one that was) and each p2p round wait (MPI "
			"moves the bytes there); the barrier before an iteration apart (barrier_us, "
			"not in time_us)",
		"straggler", "per iteration the rank with the largest time not spent waiting for "
			     "peers (time - wait; time where wait is unmeasured); library "
			     "algorithms (mpi, nccl): busy and wait empty",
		"unmeasured", why ? why : be->acct.on ? NULL : "turned off (--time-acct 0)");
}

/* The header's line on busy and wait time. */
void cb_meta_print_time_acct(FILE *f, const json_t *t)
{
	const char *why = json_string_value(json_object_get(t, "unmeasured"));

	if (why)
		fprintf(f, "# busy/wait: not measured: %s\n", why);
	else
		fprintf(f, "# busy/wait: per rank, CLOCK_MONOTONIC inside peer waits (wait) and %s "
			"(busy); straggler: most often the slowest not waiting, named where its "
			"share beats chance (binomial, p < %g) and it is >= %.2fx the others\n",
			json_is_true(json_object_get(t, "cpu")) ? "inside copy/reduce"
								: "the rest of the iteration",
			CB_STRAGGLER_ALPHA, CB_STRAGGLER_RATIO);
}
