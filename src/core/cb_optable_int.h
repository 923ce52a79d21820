/* Internal to cb_optable*.c: what each kind of row does by itself. */
#ifndef CB_OPTABLE_INT_H
#define CB_OPTABLE_INT_H

#include "cb_optable.h"

/* Stores value into row's field as its kind says, or refuses it with the
 * kind's message (cb_optable.h). */
enum cb_status cb_opt_set_kind(const struct cb_optdef *row, void *target, const char *value,
			       char *err, size_t errlen);

/* Writes the field's value as the canonical text shows it. */
void cb_opt_format_kind(const struct cb_optdef *row, const void *target, char *buf,
			size_t len);

#endif
