/* cb_hist_cli: verbs and option tables of collbench-history (contract in
 * cb_hist_cli.h). */
#define _GNU_SOURCE
#include "cb_hist_cli.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cb_optable.h"
#include "cb_options.h"

#define PROG "collbench-history"
#define CLI(t) ((struct cb_hist_cli *)(t))

static enum cb_status copy_text(char *dst, size_t cap, const char *v)
{
	if (strlen(v) >= cap)
		return CB_ERR_ARG;
	strcpy(dst, v);
	return CB_OK;
}

/* A setter that copies the value into a text field (and points the filter
 * at it where there is one). */
#define TEXT_SETTER(fn, field, filter_field)                                             \
	static enum cb_status fn(void *t, const char *v, char *e, size_t n)             \
	{                                                                                \
		(void)e, (void)n;                                                        \
		if (copy_text(CLI(t)->field, sizeof(CLI(t)->field), v) != CB_OK || !*v) \
			return CB_ERR_ARG;                                               \
		filter_field;                                                            \
		return CB_OK;                                                            \
	}
TEXT_SETTER(set_db, db, (void)0)
TEXT_SETTER(set_label, label, (void)0)
TEXT_SETTER(set_machine, machine, CLI(t)->has_machine = 1)
TEXT_SETTER(set_backend, backend, CLI(t)->filter.backend = CLI(t)->backend)
TEXT_SETTER(set_dtype, dtype, CLI(t)->filter.dtype = CLI(t)->dtype)
TEXT_SETTER(set_op, op, CLI(t)->filter.op = CLI(t)->op)
TEXT_SETTER(set_transport, transport, CLI(t)->filter.transport = CLI(t)->transport)

static enum cb_status set_algo(void *t, const char *v, char *e, size_t n)
{
	if (cb_list_has_empty(v)) {
		snprintf(e, n, "--algo: '%s' has an empty entry", v);
		return CB_ERR_ARG;
	}
	if (copy_text(CLI(t)->algos, sizeof(CLI(t)->algos), v) != CB_OK)
		return CB_ERR_ARG;
	CLI(t)->filter.algos = CLI(t)->algos;
	return CB_OK;
}

/* A whole number in [lo, hi]. */
static int parse_int(const char *v, long lo, long hi, long *out)
{
	char *end;

	errno = 0;
	*out = strtol(v, &end, 10);
	return errno || end == v || *end || *out < lo || *out > hi ? -1 : 0;
}

static enum cb_status set_nranks(void *t, const char *v, char *e, size_t n)
{
	long x;

	(void)e, (void)n;
	if (parse_int(v, 1, 1 << 24, &x))
		return CB_ERR_ARG;
	CLI(t)->filter.nranks = (int)x;
	return CB_OK;
}

static enum cb_status set_in_place(void *t, const char *v, char *e, size_t n)
{
	long x;

	(void)e, (void)n;
	if (parse_int(v, 0, 1, &x))
		return CB_ERR_ARG;
	CLI(t)->filter.in_place = (int)x;
	return CB_OK;
}

static enum cb_status set_bytes(void *t, const char *v, char *e, size_t n)
{
	size_t b;

	(void)e, (void)n;
	if (cb_parse_size(v, &b) != 0)
		return CB_ERR_ARG;
	CLI(t)->filter.bytes = (long long)b;
	return CB_OK;
}

static enum cb_status set_min_bytes(void *t, const char *v, char *e, size_t n)
{
	size_t b;

	(void)e, (void)n;
	if (cb_parse_size(v, &b) != 0)
		return CB_ERR_ARG;
	CLI(t)->filter.min_bytes = b;
	return CB_OK;
}

/* v is one of names[0..k-1]: *out = its index. */
static enum cb_status pick(const char *v, const char *const *names, int k, int *out)
{
	for (int i = 0; i < k; i++)
		if (strcmp(v, names[i]) == 0) {
			*out = i;
			return CB_OK;
		}
	return CB_ERR_ARG;
}

static enum cb_status set_metric(void *t, const char *v, char *e, size_t n)
{
	static const char *const names[] = { "busbw", "algbw", "time" };
	int i;

	(void)e, (void)n;
	if (pick(v, names, 3, &i) != CB_OK)
		return CB_ERR_ARG;
	CLI(t)->metric = (enum cb_hist_metric)i;
	return CB_OK;
}

static enum cb_status set_stat(void *t, const char *v, char *e, size_t n)
{
	static const char *const names[] = { "median", "mean" };
	int i;

	(void)e, (void)n;
	if (pick(v, names, 2, &i) != CB_OK)
		return CB_ERR_ARG;
	CLI(t)->stat = (enum cb_hist_stat)i;
	return CB_OK;
}

static enum cb_status set_format(void *t, const char *v, char *e, size_t n)
{
	static const char *const names[] = { "table", "csv", "markdown", "tsv" };
	int i;

	(void)e, (void)n;
	if (pick(v, names, 4, &i) != CB_OK)
		return CB_ERR_ARG;
	CLI(t)->fmt = (enum cb_hist_fmt)i;
	return CB_OK;
}

static enum cb_status set_pvalue(void *t, const char *v, char *e, size_t n)
{
	char *end;
	double p;

	(void)e, (void)n;
	errno = 0;
	p = strtod(v, &end);
	if (errno || end == v || *end || !(p > 0 && p < 1))
		return CB_ERR_ARG;
	CLI(t)->cpd.max_pvalue = p;
	return CB_OK;
}

static enum cb_status set_window(void *t, const char *v, char *e, size_t n)
{
	long x;

	(void)e, (void)n;
	if (parse_int(v, 4, 100000, &x))
		return CB_ERR_ARG;
	CLI(t)->cpd.window = (size_t)x;
	return CB_OK;
}

static enum cb_status set_min_change(void *t, const char *v, char *e, size_t n)
{
	char *end;
	double pct;

	(void)e, (void)n;
	errno = 0;
	pct = strtod(v, &end);
	if (errno || end == v || *end || !(pct >= 0 && pct < 1000))
		return CB_ERR_ARG;
	CLI(t)->cpd.min_magnitude = pct / 100;
	return CB_OK;
}

static enum cb_status set_recent(void *t, const char *v, char *e, size_t n)
{
	long x;

	(void)e, (void)n;
	if (parse_int(v, 0, 1L << 30, &x))
		return CB_ERR_ARG;
	CLI(t)->recent = (size_t)x;
	return CB_OK;
}

static enum cb_status set_help(void *t, const char *v, char *e, size_t n)
{
	(void)v, (void)e, (void)n;
	CLI(t)->help = 1;
	return CB_OK;
}

#include "cb_hist_cli_tables.h"

int cb_hist_cli_parse(int argc, char **argv, struct cb_hist_cli *c)
{
	char err[512];
	int v;

	memset(c, 0, sizeof(*c));
	c->filter = (struct cb_hist_filter){ .nranks = -1, .in_place = -1, .bytes = -1 };
	c->verb = CB_VERB_COUNT;
	if (argc >= 2 && (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0)) {
		c->help = 1;
		return 0;
	}
	for (v = 0; v < CB_VERB_COUNT && argc >= 2; v++)
		if (strcmp(argv[1], verbs[v].name) == 0)
			break;
	if (argc < 2 || v == CB_VERB_COUNT) {
		fprintf(stderr, PROG ": %s%s%s: expected a verb: ingest, trend, detect, gate, runs or "
			"check (see --help)\n", argc < 2 ? "no verb" : "unknown verb '",
			argc < 2 ? "" : argv[1], argc < 2 ? "" : "'");
		return -1;
	}
	c->verb = (enum cb_hist_verb)v;
	if (cb_optable_parse(verbs[v].opts, verbs[v].nopts, c, argc - 1, argv + 1, err,
			     sizeof(err)) != CB_OK) {
		fprintf(stderr, PROG " %s: %s\n", verbs[v].name, err);
		return -1;
	}
	optind += 1; /* past the verb, in argv's numbering */
	if (!c->help && (v == CB_VERB_INGEST ? argc - optind < 1 : argc - optind > 0)) {
		fprintf(stderr, PROG " %s: %s (see %s --help)\n", verbs[v].name,
			v == CB_VERB_INGEST ? "expected one or more run folders or summary CSV files"
					    : "takes no operands", verbs[v].name);
		return -1;
	}
	return 0;
}

void cb_hist_cli_usage(FILE *f, enum cb_hist_verb verb)
{
	for (int v = 0; v < CB_VERB_COUNT; v++) {
		if (verb != CB_VERB_COUNT && v != (int)verb)
			continue;
		fprintf(f, "usage: " PROG " %s\n%s\n", verbs[v].synopsis, verbs[v].about);
		if (verb != CB_VERB_COUNT) {
			fprintf(f, "\noptions:\n");
			cb_optable_usage(f, verbs[v].opts, verbs[v].nopts, 30);
		}
		fputc('\n', f);
	}
	fprintf(f, "%s", usage_tail);
}
