/* cb_hist_time: start times (contract in cb_hist_time.h). */
#define _GNU_SOURCE
#include "cb_hist_time.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

/* n digits at *p as a number, *p moved past them; -1 when they are not. */
static int digits(const char **p, int n)
{
	int v = 0;

	for (int i = 0; i < n; i++, (*p)++) {
		if (!isdigit((unsigned char)**p))
			return -1;
		v = 10 * v + (**p - '0');
	}
	return v;
}

/* 1 when c is at *p (moved past it), else 0. */
static int take(const char **p, char c)
{
	if (**p != c)
		return 0;
	(*p)++;
	return 1;
}

/* The zone at p, in seconds east of UTC, into *off; the rest must be empty.
 * Returns 0, or -1 with the reason in why. */
static int zone(const char *p, long *off, char *why, size_t len)
{
	int sign, h, m = 0;

	if ((*p == 'Z' || *p == 'z') && p[1] == '\0') {
		*off = 0;
		return 0;
	}
	if (*p == '\0') {
		snprintf(why, len, "no time zone (a local time of an unknown zone): end it with Z "
			 "(UTC) or its offset, e.g. +01:00");
		return -1;
	}
	sign = *p == '+' ? 1 : *p == '-' ? -1 : 0;
	p += sign != 0;
	h = sign ? digits(&p, 2) : -1;
	if (h >= 0 && *p) {
		take(&p, ':');
		m = digits(&p, 2);
	}
	if (h < 0 || m < 0 || *p || h > 23 || m > 59) {
		snprintf(why, len, "the time zone is not Z or an offset +HH:MM, -HH:MM");
		return -1;
	}
	*off = sign * (h * 3600L + m * 60L);
	return 0;
}

/* The separator before field i (1: month .. 5: second) at *p, moved past
 * it: basic form none but the T, extended form "-", "-", "T" (or "t", " "),
 * ":", ":". Returns 0, or -1. */
static int separator(const char **p, int i, int basic)
{
	static const char ext[] = "--T::";

	if (i == 3)
		return take(p, 'T') || (!basic && (take(p, 't') || take(p, ' '))) ? 0 : -1;
	return basic || take(p, ext[i - 1]) ? 0 : -1;
}

/* The date and time fields at p into v[6] (year, month, day, hour, minute,
 * second); the rest (after a fraction of a second) into *rest. Returns 0,
 * or -1 when the layout is not one of the accepted ones. */
static int fields(const char *p, int v[6], const char **rest)
{
	static const int width[6] = { 4, 2, 2, 2, 2, 2 };
	int basic = strlen(p) >= 8 && isdigit((unsigned char)p[4]);

	for (int i = 0; i < 6; i++)
		if ((i > 0 && separator(&p, i, basic) != 0) || (v[i] = digits(&p, width[i])) < 0)
			return -1;
	if (!basic && take(&p, '.')) {
		if (!isdigit((unsigned char)*p))
			return -1;
		while (isdigit((unsigned char)*p))
			p++;
	}
	*rest = p;
	return basic && strcmp(p, "Z") != 0 ? -1 : 0;
}

enum cb_status cb_hist_time_parse(const char *text, char out[CB_HIST_TIME], long long *epoch,
				  char *why, size_t why_len)
{
	struct tm tm;
	const char *rest;
	int v[6];
	long off;
	time_t t;

	if (fields(text, v, &rest) != 0) {
		snprintf(why, why_len, "not a time: expected YYYY-MM-DDTHH:MM:SSZ (or an offset "
			 "instead of Z)");
		return CB_ERR_ARG;
	}
	if (zone(rest, &off, why, why_len) != 0)
		return CB_ERR_ARG;
	if (v[5] == 60) /* a leap second: read as the second before it */
		v[5] = 59;
	memset(&tm, 0, sizeof(tm));
	tm.tm_year = v[0] - 1900;
	tm.tm_mon = v[1] - 1;
	tm.tm_mday = v[2];
	tm.tm_hour = v[3];
	tm.tm_min = v[4];
	tm.tm_sec = v[5];
	t = timegm(&tm); /* normalises out-of-range fields: those are refused below */
	if (v[0] < 1970 || tm.tm_year != v[0] - 1900 || tm.tm_mon != v[1] - 1 ||
	    tm.tm_mday != v[2] || tm.tm_hour != v[3] || tm.tm_min != v[4] || tm.tm_sec != v[5]) {
		snprintf(why, why_len, "not a time: a field is out of range (or a year before "
			 "1970)");
		return CB_ERR_ARG;
	}
	t -= off;
	if (t < 0 || (long long)t > 253402300799LL) { /* 9999-12-31T23:59:59Z */
		snprintf(why, why_len, "not a time: outside 1970-9999 in UTC");
		return CB_ERR_ARG;
	}
	cb_hist_time_format((long long)t, out);
	if (epoch)
		*epoch = (long long)t;
	return CB_OK;
}

void cb_hist_time_format(long long epoch, char out[CB_HIST_TIME])
{
	time_t t = (time_t)epoch;
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(out, CB_HIST_TIME, "%Y-%m-%dT%H:%M:%SZ", &tm);
}
