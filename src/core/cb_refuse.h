/* cb_refuse: how a reader or parser refuses its input, with the reason in the
 * caller's message buffer (the err, errlen pair every bench/ parser takes). */
#ifndef CB_REFUSE_H
#define CB_REFUSE_H

#include <stddef.h>

#include "cb_status.h"

/* Formats the message (printf-style, truncated to errlen bytes with its NUL)
 * into err and returns CB_ERR_ARG. */
enum cb_status cb_refuse(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
