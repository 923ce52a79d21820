/* cb_hist_time: a run's start time, parsed and normalised to UTC.
 *
 * Accepted (ISO 8601 / RFC 3339 forms, as metadata and people write them):
 *   YYYY-MM-DDTHH:MM:SS[.fraction]ZONE, with a space (or a lowercase t)
 *   instead of the T, ZONE one of Z (or z), +HH:MM, -HH:MM, +HHMM, -HHMM,
 *   +HH, -HH (a local time with its offset: converted to UTC);
 *   YYYYMMDDTHHMMSSZ (the basic form of sweep.sh's "created_utc").
 * Refused: anything else, among it a time without a zone (a local time of
 * an unknown zone cannot be placed), fields out of range (month 13, 30
 * February, hour 24, an offset beyond 23:59) and years before 1970; a
 * leap second (:60) is read as :59.
 * The normal form is "YYYY-MM-DDTHH:MM:SSZ" (the fraction dropped): such
 * texts sort as their times do. */
#ifndef CB_HIST_TIME_H
#define CB_HIST_TIME_H

#include <stddef.h>

#include "cb_status.h"

#define CB_HIST_TIME 21 /* "YYYY-MM-DDTHH:MM:SSZ" and its NUL */

/* Parses text (see the top) into out (its normal form) and *epoch (seconds
 * since 1970-01-01T00:00:00Z; may be NULL). Errors: CB_ERR_ARG, with what
 * is wrong in why (why_len bytes), out and *epoch unchanged. */
enum cb_status cb_hist_time_parse(const char *text, char out[CB_HIST_TIME], long long *epoch,
				  char *why, size_t why_len);

/* The normal form of epoch into out. */
void cb_hist_time_format(long long epoch, char out[CB_HIST_TIME]);

#endif
