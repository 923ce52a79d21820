/* cb_nctests: nccl-tests' ending of a run on rank 0: the footer under the
 * table (cb_nct.h), the NCCL_TESTS_MIN_BW gate and the -J (--output_file)
 * document (cb_nct_json.h), from the rows the report kept. */
#ifndef CB_NCTESTS_H
#define CB_NCTESTS_H

#include <jansson.h>
#include <stdio.h>

#include "cb_nct.h"
#include "cb_options.h"
#include "cb_peers.h"
#include "cb_preflight.h"

struct cb_nctests {
	struct cb_nct tally; /* filled by cb_report_row (cb_report_set_nct) */
	double min_bw;       /* NCCL_TESTS_MIN_BW in GB/s; < 0: unset */
	char start_time[32];
};

/* The exit status of a run whose average busbw is below NCCL_TESTS_MIN_BW
 * (the rows are complete and right): as for failed rows. */
#define CB_NCTESTS_BELOW_MIN_BW 1

/* Rank 0, before any row: reads NCCL_TESTS_MIN_BW and checks that -J's file
 * can be written (its temporary created and removed: nothing changes), then
 * says "# Writing JSON output to PATH" on out, as nccl-tests does. Errors:
 * CB_ERR_ARG (a bad NCCL_TESTS_MIN_BW), CB_ERR_IO (-J's path), logged. */
enum cb_status cb_nctests_start(struct cb_nctests *n, const struct cb_options *o, FILE *out);

/* Rank 0, after the last row: the footer on out, then -J's document. Returns
 * 0; CB_NCTESTS_BELOW_MIN_BW when the reference algorithm's average busbw
 * fails the gate (logged); -1 when the footer or -J could not be written
 * (logged; -J's file then left as it was). pf, peers: the devices list. */
int cb_nctests_finish(struct cb_nctests *n, const struct cb_options *o,
		      const struct cb_preflight *pf, const struct cb_peers *peers, int argc,
		      char **argv, FILE *out);

/* The metadata's "nccl_tests" object, after cb_nctests_finish: {"algorithm":
 * the reference's name or null, "avg_busbw" (GB/s, null: none measured),
 * "out_of_bounds", "min_bw" (NCCL_TESTS_MIN_BW, null: unset), "gate": "ok",
 * "failed" or "unchecked"}. NULL only when out of memory. */
json_t *cb_nctests_meta(const struct cb_nctests *n);

void cb_nctests_free(struct cb_nctests *n);

#endif
