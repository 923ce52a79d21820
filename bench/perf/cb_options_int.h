/* Internal to the options module (cb_options*.c). */
#ifndef CB_OPTIONS_INT_H
#define CB_OPTIONS_INT_H

#include "cb_options.h"

/* Checks that need several options together (-b <= -e, the size list for
 * every dtype, distinct output paths) and derives --meta from --csv.
 * Returns CB_ERR_ARG with a message in err. */
enum cb_status cb_options_check(struct cb_options *o, char *err, size_t n);

#endif
