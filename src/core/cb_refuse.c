/* cb_refuse: refusing input with a reason (contract in cb_refuse.h). */
#include "cb_refuse.h"

#include <stdarg.h>
#include <stdio.h>

enum cb_status cb_refuse(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return CB_ERR_ARG;
}
