/* cb_options_nccl: the setters of the rows of nccl-tests' options whose
 * values need more than their kind's check (-a, -z, -T, -r), and the checks
 * of those options across the command line (-t and -g against one rank per
 * process, -z against --timing). Rows and fields: cb_options.c, .h;
 * docs/running.md maps every nccl-tests option to what collbench does. */
#ifndef CB_OPTIONS_NCCL_H
#define CB_OPTIONS_NCCL_H

#include <stddef.h>

#include "cb_optable.h"
#include "cb_options.h"
#include "cb_status.h"

/* -a/--average: "" (the default: not given) -> CB_AVG_NONE; 0 1 2 3 as
 * nccl-tests (rank 0, mean, min, max over the ranks' mean times). */
enum cb_status cb_opt_set_average(const struct cb_optdef *row, void *target, const char *v,
				  char *err, size_t errlen);

/* -z/--blocking: "" -> -1 (not given); 0..3, nccl-tests' blocking modes
 * (cb_options_nccl_check sets --timing from it: 0..2 loop, 3 iter). */
enum cb_status cb_opt_set_blocking(const struct cb_optdef *row, void *target, const char *v,
				   char *err, size_t errlen);

/* -T/--timeout: seconds in (0, 1e6]; 0, nccl-tests' "no timeout", is 1e6 s. */
enum cb_status cb_opt_set_timeout(const struct cb_optdef *row, void *target, const char *v,
				  char *err, size_t errlen);

/* -r/--root: a rank in [0, 2^20]; "all" and -1 (nccl-tests' every root in
 * turn) refused with the reason. */
enum cb_status cb_opt_set_root(const struct cb_optdef *row, void *target, const char *v,
			       char *err, size_t errlen);

/* After parsing: -t or -g above 1 refused with the equivalent mpirun line
 * (built from argv without them), -z 0..2 made --timing loop and -z 3
 * --timing iter (refused beside an explicit other --timing: timing_given). Returns CB_OK or CB_ERR_ARG with
 * the message in err. */
enum cb_status cb_options_nccl_check(struct cb_options *o, int timing_given, int argc,
				     char **argv, char *err, size_t errlen);

#endif
