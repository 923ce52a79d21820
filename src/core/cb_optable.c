/* cb_optable: getopt_long driven by the table, the usage text, and the
 * helpers rows share (contract in cb_optable.h). The kinds' setters and
 * canonical forms: cb_optable_kind.c. */
#define _GNU_SOURCE
#include "cb_optable.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cb_optable_int.h"

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
			cb_opt_set_kind(row, target, value, err, errlen);
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
		cb_opt_format_kind(&t[i], target, buf + k, len - k);
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
	for (size_t i = 0; i < n; i++) {
		char lhs[80];

		snprintf(lhs, sizeof(lhs), "%c%c%s--%s%s%s", t[i].sname ? '-' : ' ',
			 t[i].sname ? t[i].sname : ' ', t[i].sname ? ", " : "  ", t[i].lname,
			 t[i].argname ? " " : "", t[i].argname ? t[i].argname : "");
		fprintf(f, "  %-*s %s", width, lhs, t[i].help);
		if (t[i].defval && *t[i].defval)
			fprintf(f, " [%s]", t[i].defval);
		fputc('\n', f);
	}
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
