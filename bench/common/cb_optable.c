#define _GNU_SOURCE
#include "cb_optable.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

/* getopt_long's val for a long-only option: past every short letter */
#define LONG_ONLY_BASE 256

static int opt_val(const struct cb_optdef *t, size_t i)
{
	return t[i].sname ? t[i].sname : LONG_ONLY_BASE + (int)i;
}

enum cb_status cb_optable_parse(const struct cb_optdef *t, size_t n, void *target, int argc,
				char **argv, char *err, size_t errlen)
{
	char *shortopts = calloc(2 * n + 2, 1), *p = shortopts, scratch[256];
	struct option *longopts = calloc(n + 1, sizeof(*longopts));
	enum cb_status st = CB_OK;
	int c;

	if (!shortopts || !longopts) {
		snprintf(err, errlen, "out of memory");
		st = CB_ERR_NOMEM;
		goto out_free;
	}
	*p++ = ':'; /* a missing value comes back as ':' */
	for (size_t i = 0; i < n; i++) {
		longopts[i] = (struct option){ t[i].lname,
					       t[i].argname ? required_argument : no_argument, NULL,
					       opt_val(t, i) };
		if (t[i].sname) {
			*p++ = (char)t[i].sname;
			if (t[i].argname)
				*p++ = ':';
		}
		if (t[i].defval)
			(void)t[i].set(target, t[i].defval, scratch, sizeof(scratch));
	}
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
		err[0] = '\0';
		if (t[i].set(target, optarg, err, errlen) != CB_OK) {
			if (!err[0])
				snprintf(err, errlen, "--%s: invalid value '%s' (expected %s)", t[i].lname,
					 optarg ? optarg : "", t[i].argname ? t[i].argname : "no value");
			st = CB_ERR_ARG;
		}
	}
out_free:
	free(shortopts);
	free(longopts);
	return st;
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

void cb_join_names(char *buf, size_t len, const char *(*name)(const void *ctx, int i),
		   const void *ctx, int n, const char *sep, const char *last)
{
	int total = 0, done = 0;
	size_t k = 0;

	for (int i = 0; i < n; i++)
		total += name(ctx, i) != NULL;
	buf[0] = '\0';
	for (int i = 0; i < n && k < len; i++) {
		const char *s = name(ctx, i);

		if (!s)
			continue;
		k += (size_t)snprintf(buf + k, len - k, "%s%s",
				      done == 0 ? "" : done == total - 1 ? last : sep, s);
		done++;
	}
}
