/* Internal to the options module (cb_options*.c, cb_sweep.c). */
#ifndef CB_OPTIONS_INT_H
#define CB_OPTIONS_INT_H

#include "cb_options.h"

/* Checks that need several options together (-b <= -e, distinct output
 * paths), derives --meta from --csv and makes o->sweep. Returns CB_ERR_ARG
 * with a message in err, with nothing allocated. */
enum cb_status cb_options_check(struct cb_options *o, char *err, size_t n);

/* Makes o->sweep for every dtype of o->dtype_mask (see cb_sweep.c). Errors
 * (CB_ERR_ARG, message in err, nothing allocated): a size that is not a
 * multiple of a dtype's size, above 1 TiB, more than CB_MAX_SIZES sizes;
 * CB_ERR_NOMEM. */
enum cb_status cb_sweep_build(struct cb_options *o, char *err, size_t errlen);

/* The custom rows' setters (cb_options_set.c): --counts, -a, -B. */
enum cb_status cb_set_counts(const struct cb_optdef *row, void *target, const char *v,
			     char *err, size_t n);
enum cb_status cb_set_algos(const struct cb_optdef *row, void *target, const char *v,
			    char *err, size_t n);
enum cb_status cb_set_backend(const struct cb_optdef *row, void *target, const char *v,
			      char *err, size_t n);

/* Backend i of the backend table by name (ctx unused): every one, or only
 * those built into this binary; NULL past the end. For cb_join_names. */
const char *cb_known_backend(const void *ctx, int i);
const char *cb_built_backend(const void *ctx, int i);
int cb_nbackends(void);

#endif
