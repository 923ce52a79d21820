/* cb_schema_parse: a CSV field back into its record, with the checks of its
 * column (contract in cb_schema_parse.h). */
#define _GNU_SOURCE
#include "cb_schema_parse.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define FIELD(c, rec, type) ((type *)(void *)((char *)(rec) + (c)->offset))

/* A name: 1..CB_NAME_MAX-1 characters of [A-Za-z0-9_.+-]. */
static enum cb_status parse_name(const struct cb_column *c, const char *s, void *rec, char *err,
				 size_t len)
{
	size_t n = strlen(s);

	if (n == 0 || n >= CB_NAME_MAX ||
	    strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.+-") != n)
		return cb_refuse(err, len, "column %s: '%.40s' is not a valid name", c->name, s);
	memcpy(FIELD(c, rec, char), s, n + 1);
	return CB_OK;
}

/* A whole number (digits only) within [lo, hi]. */
static enum cb_status parse_whole(const struct cb_column *c, const char *s, void *rec, char *err,
				  size_t len)
{
	unsigned long long v, lo = (unsigned long long)c->lo, hi = (unsigned long long)c->hi;
	char *end;

	if (strspn(s, "0123456789") != strlen(s))
		return cb_refuse(err, len, "column %s: '%.40s' is not a whole number", c->name, s);
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno == ERANGE || *end || v < lo || v > hi)
		return cb_refuse(err, len, "column %s: %.40s is out of range [%llu, %llu]", c->name,
				 s, lo, hi);
	if (c->type == CB_COL_U64)
		*FIELD(c, rec, unsigned long long) = v;
	else
		*FIELD(c, rec, int) = (int)v;
	return CB_OK;
}

/* A strict decimal: [+-]digits[.digits][(e|E)[+-]digits], fully consumed,
 * finite, within [lo, hi]. */
static enum cb_status parse_real(const struct cb_column *c, const char *s, void *rec, char *err,
				 size_t len)
{
	char *end;
	double v;

	if (strspn(s, "0123456789+-.eE") != strlen(s))
		return cb_refuse(err, len, "column %s: '%.40s' is not a number", c->name, s);
	errno = 0;
	v = strtod(s, &end);
	if (end == s || *end)
		return cb_refuse(err, len, "column %s: '%.40s' is not a number", c->name, s);
	if (errno == ERANGE || !isfinite(v) || v < c->lo || v > c->hi)
		return cb_refuse(err, len, "column %s: %.40s is out of range [%g, %g]", c->name, s,
				 c->lo, c->hi);
	*FIELD(c, rec, double) = v;
	return CB_OK;
}

/* A schema field: s's id or one of the older ids it accepts. */
static enum cb_status parse_schema(const struct cb_schema *s, const char *text, char *err,
				   size_t len)
{
	char ids[256];
	size_t k = 0;

	if (strcmp(text, s->id) == 0)
		return CB_OK;
	for (size_t i = 0; s->older && s->older[i]; i++)
		if (strcmp(text, s->older[i]) == 0)
			return CB_OK;
	/* "ID, OLDER1 or OLDER2" */
	k = (size_t)snprintf(ids, sizeof(ids), "%s", s->id);
	for (size_t i = 0; s->older && s->older[i] && k < sizeof(ids); i++)
		k += (size_t)snprintf(ids + k, sizeof(ids) - k, "%s%s",
				      s->older[i + 1] ? ", " : " or ", s->older[i]);
	return cb_refuse(err, len, "schema '%.40s' is not %s (a different format or version)", text,
			 ids);
}

/* 1 when column c may be empty in a row of this state. */
static int empty_ok(const struct cb_column *c, enum cb_row_state state)
{
	return c->flags & CB_COL_EMPTY_OK || (c->flags & CB_COL_NEED_IF_OK && state != CB_ROW_OK);
}

enum cb_status cb_schema_parse_field(const struct cb_schema *s, const struct cb_column *c,
				     const char *text, void *rec, enum cb_row_state state,
				     char *err, size_t len)
{
	int number = c->type == CB_COL_INT || c->type == CB_COL_BOOL || c->type == CB_COL_U64 ||
		     c->type == CB_COL_REAL;

	if ((number || (c->type == CB_COL_NAME && c->flags & CB_COL_EMPTY_OK)) && !*text)
		/* the empty value is what cb_schema_clear left */
		return empty_ok(c, state) ? CB_OK
					  : cb_refuse(err, len, "column %s is empty", c->name);
	switch (c->type) {
	case CB_COL_SCHEMA:
		return parse_schema(s, text, err, len);
	case CB_COL_NAME:
		return parse_name(c, text, rec, err, len);
	case CB_COL_INT:
	case CB_COL_BOOL:
	case CB_COL_U64:
		return parse_whole(c, text, rec, err, len);
	case CB_COL_REAL:
		return parse_real(c, text, rec, err, len);
	case CB_COL_STATUS:
		if (cb_row_status_parse(text, FIELD(c, rec, struct cb_row_status)) == 0)
			return CB_OK;
		return cb_refuse(err, len,
				 "status '%.40s' is not ok, skipped:<reason> or "
				 "error:<reason>",
				 text);
	}
	return CB_OK;
}
