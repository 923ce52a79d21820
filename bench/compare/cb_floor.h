/* cb_floor: an absolute pass/fail gate on bus bandwidth (issue 13), for a
 * machine with a known-good figure but no baseline run yet, as nccl-tests'
 * minimum-busbw check: collbench-compare --min-busbw RULES.
 *
 * RULES is a comma list of ALGO[@SIZE[-SIZE]]=GBPS: ALGO an algorithm name
 * or `*`; SIZE bytes per rank with K, M, G suffixes (powers of 1024), one
 * size meaning that size and above, SIZE-SIZE an inclusive range, none every
 * size; GBPS the floor in GB/s (1 GB = 1e9 B, as busbw_GBps). Example:
 * `ring@16M-64M=5,ps@1M=1.5,*@256M=8`. Every rule a row matches applies.
 *
 * A row is judged on its busbw under the statistic of the comparison
 * (--stat: the median time by default, cb_rowval.h):
 *   below   busbw < floor of a matching rule: a failure
 *   failed  an error row that a rule matches: a failure
 *   ok      at or above every matching floor
 * Rows that no rule matches, skipped rows and rows without a busbw (copy,
 * n = 1, 0 bytes) are not judged (the last are counted). */
#ifndef CB_FLOOR_H
#define CB_FLOOR_H

#include <stddef.h>
#include <stdio.h>

#include "cb_results.h"
#include "cb_rowval.h"
#include "cb_status.h"

struct cb_floor_rule {
	char algo[CB_NAME_MAX]; /* "*": every algorithm */
	unsigned long long lo, hi; /* bytes per rank, inclusive */
	double gbps;
};

struct cb_floors {
	struct cb_floor_rule *rule;
	size_t n;
};

/* What cb_floor_check found. */
struct cb_floor_result {
	size_t checked, below, failed, no_busbw;
};

/* Parses RULES (see the top) into *out. Errors: CB_ERR_ARG with a message
 * naming the rule in err (nothing allocated), CB_ERR_NOMEM. */
enum cb_status cb_floor_parse(const char *rules, struct cb_floors *out, char *err, size_t errlen);
void cb_floors_free(struct cb_floors *f);

/* Judges every row of res against the floors (see the top) under stat;
 * names each failing row on out (one line each, "below floor: ..."), then
 * a summary line. Returns the counts in *r. Pure but for the writes. */
void cb_floor_check(const struct cb_floors *f, const struct cb_results *res, enum cb_stat stat,
		    FILE *out, struct cb_floor_result *r);

#endif
