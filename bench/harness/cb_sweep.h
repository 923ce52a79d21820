/* cb_sweep: the message sizes of a run, per dtype, made once when the
 * options are parsed (cb_options_parse: o->sweep) from -b/-e/-f/-i or
 * --counts, and checked for every dtype of the run. */
#ifndef CB_SWEEP_H
#define CB_SWEEP_H

#include <stddef.h>

#include "cb_dtype.h"
#include "cb_status.h"

#define CB_MAX_SIZES 4096 /* message sizes in one run */

struct cb_sweep {
	size_t *bytes[CB_DTYPE_COUNT]; /* [n[dt]] ascending; NULL for dtypes not run */
	size_t n[CB_DTYPE_COUNT];
	size_t max_bytes;              /* the largest over every dtype of the run */
};

struct cb_options;

/* Makes *sw (zeroed before) for every dtype of o->dtype_mask from o's sizes
 * or counts. Errors (message in err, *sw freed and zeroed): CB_ERR_ARG for
 * a size that is not a multiple of a dtype's size, above 1 TiB
 * (CB_MAX_MESSAGE), or more than CB_MAX_SIZES sizes; CB_ERR_NOMEM. */
enum cb_status cb_sweep_build(struct cb_sweep *sw, const struct cb_options *o, char *err,
			      size_t errlen);

/* Frees what cb_sweep_build allocated; *sw is left zeroed. */
void cb_sweep_free(struct cb_sweep *sw);

#endif
