/* cb_optable: what each kind of row does by itself (its setter with its
 * messages, its canonical text), getopt_long driven by the table, the usage
 * text, and the helpers rows share (contract in cb_optable.h). */
#define _GNU_SOURCE
#include "cb_optable.h"

#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* The field of row in target, as a pointer to type. */
#define FIELD(row, target, type) ((type *)(void *)((char *)(target) + (row)->offset))
#define CFIELD(row, target, type) \
	((const type *)(const void *)((const char *)(target) + (row)->offset))

enum cb_status cb_opt_refuse(const struct cb_optdef *row, char *err, size_t n, const char *fmt,
			     ...)
{
	char opt[64];
	size_t k;
	va_list ap;

	cb_opt_display(row, opt, sizeof(opt));
	snprintf(err, n, "%s: ", opt);
	k = strlen(err);
	va_start(ap, fmt);
	vsnprintf(err + k, n - k, fmt, ap);
	va_end(ap);
	return CB_ERR_ARG;
}

static const char *row_name(const void *ctx, int i)
{
	const struct cb_optdef *row = ctx;

	return row->name(i);
}

static enum cb_status set_int(const struct cb_optdef *row, void *target, const char *v, char *err,
			      size_t n)
{
	char *end;
	long x;

	errno = 0;
	x = strtol(v, &end, 10);
	if (errno || end == v || *end || x < row->lo || x > row->hi)
		return cb_opt_refuse(row, err, n, "expected an integer in [%d, %d]", (int)row->lo,
			      (int)row->hi);
	*FIELD(row, target, int) = (int)x;
	return CB_OK;
}

static enum cb_status set_double(const struct cb_optdef *row, void *target, const char *v,
				 char *err, size_t n)
{
	char *end;
	double x;
	int ok;

	errno = 0;
	x = strtod(v, &end);
	/* comparisons with a NaN are false: refused too */
	ok = !errno && end != v && !*end &&
	     (row->flags & CB_OPT_LO_OPEN ? x > row->lo : x >= row->lo) &&
	     (row->flags & CB_OPT_HI_OPEN ? x < row->hi : x <= row->hi);
	if (!ok)
		return row->what ? cb_opt_refuse(row, err, n, "'%s' is not %s", v, row->what) : CB_ERR_ARG;
	*FIELD(row, target, double) = x;
	return CB_OK;
}

static enum cb_status set_size(const struct cb_optdef *row, void *target, const char *v,
			       char *err, size_t n)
{
	if (cb_parse_size(v, FIELD(row, target, size_t)) != 0)
		return cb_opt_refuse(row, err, n, "'%s' is not a size (digits with an optional K, M or G "
			      "suffix)", v);
	return CB_OK;
}

static enum cb_status set_enum(const struct cb_optdef *row, void *target, const char *v,
			       char *err, size_t n)
{
	char names[256];

	for (int i = 0; i < row->count; i++)
		if (strcmp(v, row->name(i)) == 0) {
			*FIELD(row, target, int) = i;
			return CB_OK;
		}
	if (!row->what)
		return CB_ERR_ARG;
	cb_join_names(names, sizeof(names), row_name, row, row->count, ", ", " or ");
	if (!*row->what)
		return cb_opt_refuse(row, err, n, "'%s' is not %s", v, names);
	return cb_opt_refuse(row, err, n, "unknown %s '%s' (%s)", row->what, v, names);
}

/* A comma list of names, or "all", into a bit mask. */
static enum cb_status set_mask(const struct cb_optdef *row, void *target, const char *v,
			       char *err, size_t n)
{
	unsigned *mask = FIELD(row, target, unsigned);
	char buf[256], *save = NULL, *tok;

	if (strcmp(v, "all") == 0) {
		*mask = (1u << row->count) - 1;
		return CB_OK;
	}
	if (strlen(v) >= sizeof(buf) || !*v)
		return cb_opt_refuse(row, err, n, "'%s' is not a valid list", v);
	if (cb_list_has_empty(v))
		return cb_opt_refuse(row, err, n, "'%s' has an empty entry", v);
	strcpy(buf, v);
	*mask = 0;
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		int i = 0;

		while (i < row->count && strcmp(tok, row->name(i)) != 0)
			i++;
		if (i == row->count)
			return cb_opt_refuse(row, err, n, "unknown name '%s' (%s%ssee --help)", tok,
					     row->what ? row->what : "", row->what ? "; " : "");
		*mask |= 1u << i;
	}
	return *mask ? CB_OK : cb_opt_refuse(row, err, n, "'%s' is not a valid list", v);
}

static enum cb_status set_text(const struct cb_optdef *row, void *target, const char *v,
			       char *err, size_t n)
{
	if (row->flags & CB_OPT_LIST && cb_list_has_empty(v))
		return cb_opt_refuse(row, err, n, "'%s' has an empty entry", v);
	if (strlen(v) >= row->size)
		return cb_opt_refuse(row, err, n, "%s too long", row->what ? row->what : "value");
	strcpy(FIELD(row, target, char), v);
	return CB_OK;
}

/* Stores value into row's field as its kind says, or refuses it with the
 * kind's message (cb_optable.h). */
static enum cb_status set_kind(const struct cb_optdef *row, void *target, const char *value,
			       char *err, size_t errlen)
{
	switch (row->kind) {
	case CB_OPT_FLAG: *FIELD(row, target, int) = 1; return CB_OK;
	case CB_OPT_INT: return set_int(row, target, value, err, errlen);
	case CB_OPT_DOUBLE: return set_double(row, target, value, err, errlen);
	case CB_OPT_SIZE: return set_size(row, target, value, err, errlen);
	case CB_OPT_ENUM: return set_enum(row, target, value, err, errlen);
	case CB_OPT_MASK: return set_mask(row, target, value, err, errlen);
	case CB_OPT_TEXT: return set_text(row, target, value, err, errlen);
	case CB_OPT_SIZES: break; /* a row of this kind brings its own setter */
	}
	return cb_opt_refuse(row, err, errlen, "no setter for this option (a bug)");
}

/* Names of the set bits of mask, comma-separated. */
static void format_mask(const struct cb_optdef *row, unsigned mask, char *buf, size_t len)
{
	size_t k = 0;

	buf[0] = '\0';
	for (int i = 0; i < row->count && k + 1 < len; i++)
		if (mask & (1u << i)) {
			snprintf(buf + k, len - k, "%s%s", k ? "," : "", row->name(i));
			k = strlen(buf);
		}
}

static void format_sizes(const struct cb_size_list *l, char *buf, size_t len)
{
	size_t k = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < l->n && k + 1 < len; i++) {
		snprintf(buf + k, len - k, "%s%zu", i ? "," : "", l->v[i]);
		k = strlen(buf);
	}
}

/* Writes the field's value as the canonical text shows it. */
static void format_kind(const struct cb_optdef *row, const void *target, char *buf, size_t len)
{
	int e;

	switch (row->kind) {
	case CB_OPT_FLAG:
	case CB_OPT_INT: snprintf(buf, len, "%d", *CFIELD(row, target, int)); return;
	case CB_OPT_DOUBLE: snprintf(buf, len, "%g", *CFIELD(row, target, double)); return;
	case CB_OPT_SIZE: snprintf(buf, len, "%zu", *CFIELD(row, target, size_t)); return;
	case CB_OPT_ENUM:
		e = *CFIELD(row, target, int);
		snprintf(buf, len, "%s", e >= 0 && e < row->count ? row->name(e) : "?");
		return;
	case CB_OPT_MASK: format_mask(row, *CFIELD(row, target, unsigned), buf, len); return;
	case CB_OPT_TEXT: snprintf(buf, len, "%s", CFIELD(row, target, char)); return;
	case CB_OPT_SIZES: format_sizes(CFIELD(row, target, struct cb_size_list), buf, len); return;
	}
}

/* getopt_long's val for a long-only option: past every short letter */
#define LONG_ONLY_BASE 256

static int opt_val(const struct cb_optdef *t, size_t i)
{
	return t[i].sname ? t[i].sname : LONG_ONLY_BASE + (int)i;
}

/* Stores value through row's setter; the generic message when it refused
 * without one. */
static enum cb_status apply(const struct cb_optdef *row, void *target, const char *value,
			    char *err, size_t errlen)
{
	enum cb_status st;

	err[0] = '\0';
	st = row->set ? row->set(row, target, value, err, errlen) :
			set_kind(row, target, value, err, errlen);
	if (st != CB_OK && !err[0])
		snprintf(err, errlen, "--%s: invalid value '%s' (expected %s)", row->lname,
			 value ? value : "", row->argname ? row->argname : "no value");
	return st;
}

/* getopt_long's option strings for t; NULL when out of memory. */
static char *option_strings(const struct cb_optdef *t, size_t n, struct option **longopts)
{
	char *shortopts = calloc(2 * n + 2, 1), *p = shortopts;

	*longopts = calloc(n + 1, sizeof(**longopts));
	if (!shortopts || !*longopts) {
		free(shortopts);
		free(*longopts);
		return NULL;
	}
	*p++ = ':'; /* a missing value comes back as ':' */
	for (size_t i = 0; i < n; i++) {
		(*longopts)[i] = (struct option){ t[i].lname,
						  t[i].argname ? required_argument : no_argument,
						  NULL, opt_val(t, i) };
		if (t[i].sname) {
			*p++ = (char)t[i].sname;
			if (t[i].argname)
				*p++ = ':';
		}
	}
	return shortopts;
}

enum cb_status cb_optable_parse(const struct cb_optdef *t, size_t n, void *target, int argc,
				char **argv, char *err, size_t errlen)
{
	return cb_optable_parse_given(t, n, target, argc, argv, NULL, err, errlen);
}

enum cb_status cb_optable_parse_given(const struct cb_optdef *t, size_t n, void *target,
				      int argc, char **argv, unsigned char *given, char *err,
				      size_t errlen)
{
	struct option *longopts;
	char *shortopts = option_strings(t, n, &longopts), scratch[256];
	enum cb_status st = CB_OK;
	int c;

	if (!shortopts) {
		snprintf(err, errlen, "out of memory");
		return CB_ERR_NOMEM;
	}
	if (given)
		memset(given, 0, n);
	for (size_t i = 0; i < n; i++)
		if (t[i].defval)
			(void)apply(&t[i], target, t[i].defval, scratch, sizeof(scratch));
	opterr = 0;
	optind = 0; /* glibc: full re-initialisation */
	while (st == CB_OK && (c = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
		size_t i = 0;

		while (i < n && opt_val(t, i) != c)
			i++;
		if (c == '?' || c == ':' || i == n) {
			snprintf(err, errlen, "'%s' %s (see --help)", argv[optind - 1],
				 c == ':' ? "needs a value" : "is not a known option");
			st = CB_ERR_ARG;
			break;
		}
		st = apply(&t[i], target, optarg, err, errlen);
		if (given)
			given[i] = 1;
	}
	free(shortopts);
	free(longopts);
	return st;
}

void cb_optable_canonical(const struct cb_optdef *t, size_t n, const void *target, char *buf,
			  size_t len)
{
	size_t k = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < n && k + 1 < len; i++) {
		if (t[i].flags & CB_OPT_LOCAL)
			continue;
		snprintf(buf + k, len - k, "%s%s=", k ? ";" : "", t[i].lname);
		k = strlen(buf);
		format_kind(&t[i], target, buf + k, len - k);
		k = strlen(buf);
	}
}

void cb_opt_display(const struct cb_optdef *row, char *buf, size_t len)
{
	if (row->sname)
		snprintf(buf, len, "-%c/--%s", row->sname, row->lname);
	else
		snprintf(buf, len, "--%s", row->lname);
}

void cb_optable_usage(FILE *f, const struct cb_optdef *t, size_t n, int width)
{
	cb_optable_usage_group(f, t, n, width, 0, 0);
}

void cb_optable_usage_group(FILE *f, const struct cb_optdef *t, size_t n, int width,
			    unsigned flag, int with)
{
	for (size_t i = 0; i < n; i++) {
		char lhs[80];

		if (!(t[i].flags & flag) != !with)
			continue;
		snprintf(lhs, sizeof(lhs), "%c%c%s--%s%s%s", t[i].sname ? '-' : ' ',
			 t[i].sname ? t[i].sname : ' ', t[i].sname ? ", " : "  ", t[i].lname,
			 t[i].argname ? " " : "", t[i].argname ? t[i].argname : "");
		fprintf(f, "  %-*s %s", width, lhs, t[i].help);
		if (t[i].defval && *t[i].defval)
			fprintf(f, " [%s]", t[i].defval);
		fputc('\n', f);
	}
}

void cb_optable_print(FILE *f, const struct cb_optdef *t, size_t n, const void *target)
{
	for (size_t i = 0; i < n; i++) {
		char v[2048];

		format_kind(&t[i], target, v, sizeof(v));
		fprintf(f, "%s=%s\n", t[i].lname, v);
	}
}

/* An integer as strtol base 0 reads it, the whole text; -1 when it is not. */
static int parse_int(const char *v, long *x)
{
	char *end;

	errno = 0;
	*x = strtol(v, &end, 0);
	return errno || end == v || *end ? -1 : 0;
}

enum cb_status cb_opt_set_fixed(const struct cb_optdef *row, void *target, const char *v,
				char *err, size_t n)
{
	long x, def;

	if (parse_int(v, &x) != 0)
		return cb_opt_refuse(row, err, n, "'%s' is not an integer", v);
	if (parse_int(row->defval, &def) != 0 || x != def)
		return cb_opt_refuse(row, err, n, "%s is not supported: %s (only %s is taken)", v,
				     row->what ? row->what : "no other value", row->defval);
	*FIELD(row, target, int) = (int)x;
	return CB_OK;
}

int cb_list_has_empty(const char *v)
{
	size_t n = strlen(v);

	return n == 0 || v[0] == ',' || v[n - 1] == ',' || strstr(v, ",,") != NULL;
}

int cb_list_selects(const char *list, const char *name)
{
	size_t n = strlen(name);

	if (!list || !*list)
		return 1;
	for (const char *p = list; *p;) {
		size_t k = strcspn(p, ",");

		if (k == n && strncmp(p, name, n) == 0)
			return 1;
		p += k + (p[k] == ',');
	}
	return 0;
}

void cb_join_names(char *buf, size_t len, const char *(*name)(const void *ctx, int i),
		   const void *ctx, int n, const char *sep, const char *last)
{
	int total = 0, done = 0;
	size_t k = 0;

	for (int i = 0; i < n; i++)
		total += name(ctx, i) != NULL;
	buf[0] = '\0';
	for (int i = 0; i < n && k + 1 < len; i++) {
		const char *s = name(ctx, i);

		if (!s)
			continue;
		snprintf(buf + k, len - k, "%s%s", done == 0 ? "" : done == total - 1 ? last : sep, s);
		k = strlen(buf);
		done++;
	}
}
