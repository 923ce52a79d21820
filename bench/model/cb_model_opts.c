/* cb_model_opts: collbench-model's option table (each option spelled once;
 * it also prints --help), its setters, the defaults, and which options each
 * verb takes (contract in cb_model_cli.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cb_dtype.h"
#include "cb_model_cli.h"
#include "cb_optable.h"
#include "cb_options.h"

enum {
	OPT_FORMAT = 1u << 0, OPT_OUTPUT = 1u << 1, OPT_FIT = 1u << 2, OPT_ALGO = 1u << 3,
	OPT_MINB = 1u << 4, OPT_TIERS = 1u << 5, OPT_NOGAMMA = 1u << 6, OPT_OVER = 1u << 7,
	OPT_FAR = 1u << 8, OPT_GATE = 1u << 9, OPT_SUMMARY = 1u << 10, OPT_TOPO = 1u << 11,
	OPT_RANKS = 1u << 12, OPT_BYTES = 1u << 13, OPT_FACTOR = 1u << 14, OPT_CROSS = 1u << 15,
	OPT_ROOT = 1u << 16, OPT_DTYPE = 1u << 17, OPT_BACKEND = 1u << 18, OPT_HELP = 1u << 19,
	OPT_TWOSIDED = 1u << 20,
};

/* Options each verb takes (help: every verb). */
static const unsigned verb_opts[] = {
	[VERB_FIT] = OPT_FORMAT | OPT_OUTPUT | OPT_ALGO | OPT_MINB | OPT_TIERS | OPT_NOGAMMA |
		     OPT_OVER | OPT_HELP,
	[VERB_CHECK] = OPT_FORMAT | OPT_FIT | OPT_ALGO | OPT_MINB | OPT_TIERS | OPT_NOGAMMA |
		       OPT_OVER | OPT_FAR | OPT_GATE | OPT_SUMMARY | OPT_HELP,
	[VERB_PREDICT] = OPT_FORMAT | OPT_FIT | OPT_TOPO | OPT_RANKS | OPT_BYTES | OPT_FACTOR |
			 OPT_CROSS | OPT_ROOT | OPT_DTYPE | OPT_BACKEND | OPT_TWOSIDED | OPT_HELP,
	[VERB_PRESETS] = OPT_FORMAT | OPT_HELP,
};

#define CLI(t) ((struct cli *)(t))

static enum cb_status set_format(void *t, const char *v, char *e, size_t n)
{
	static const char *const names[] = { "table", "csv", "markdown", "json" };

	(void)e, (void)n;
	CLI(t)->given |= OPT_FORMAT;
	CLI(t)->fmt_given = 1;
	for (int k = 0; k < 4; k++)
		if (strcmp(v, names[k]) == 0) {
			CLI(t)->fmt = (enum cb_mfmt)k;
			return CB_OK;
		}
	return CB_ERR_ARG;
}

/* Copies v into dst[cap] for the option bit; too long is an error. */
static enum cb_status set_text(struct cli *c, unsigned bit, char *dst, size_t cap, const char *v)
{
	c->given |= bit;
	if (strlen(v) >= cap || !*v)
		return CB_ERR_ARG;
	strcpy(dst, v);
	return CB_OK;
}

static enum cb_status set_output(void *t, const char *v, char *e, size_t n)
{
	(void)e, (void)n;
	return set_text(CLI(t), OPT_OUTPUT, CLI(t)->output, sizeof(CLI(t)->output), v);
}

static enum cb_status set_fit(void *t, const char *v, char *e, size_t n)
{
	(void)e, (void)n;
	return set_text(CLI(t), OPT_FIT, CLI(t)->fit_path, sizeof(CLI(t)->fit_path), v);
}

static enum cb_status set_topo(void *t, const char *v, char *e, size_t n)
{
	(void)e, (void)n;
	return set_text(CLI(t), OPT_TOPO, CLI(t)->topo, sizeof(CLI(t)->topo), v);
}

static enum cb_status set_backend(void *t, const char *v, char *e, size_t n)
{
	(void)e, (void)n;
	return set_text(CLI(t), OPT_BACKEND, CLI(t)->backend, sizeof(CLI(t)->backend), v);
}

static enum cb_status set_algo(void *t, const char *v, char *e, size_t n)
{
	if (cb_list_has_empty(v)) {
		snprintf(e, n, "--algo: '%s' has an empty entry", v);
		return CB_ERR_ARG;
	}
	if (set_text(CLI(t), OPT_ALGO, CLI(t)->algos, sizeof(CLI(t)->algos), v) != CB_OK)
		return CB_ERR_ARG;
	CLI(t)->sel.algos = CLI(t)->algos;
	return CB_OK;
}

static enum cb_status set_minb(void *t, const char *v, char *e, size_t n)
{
	size_t b;

	(void)e, (void)n;
	CLI(t)->given |= OPT_MINB;
	if (cb_parse_size(v, &b) != 0)
		return CB_ERR_ARG;
	CLI(t)->sel.min_bytes = (double)b;
	return CB_OK;
}

/* --tiers auto | N (tiers, boundaries chosen) | SIZE,SIZE,... (boundaries). */
static enum cb_status set_tiers(void *t, const char *v, char *e, size_t n)
{
	struct cb_fit_opts *o = &CLI(t)->sel.opts;
	char buf[128], *save = NULL;
	double prev = 0;

	CLI(t)->given |= OPT_TIERS;
	if (strcmp(v, "auto") == 0)
		return CB_OK;
	if (strlen(v) == 1 && v[0] >= '1' && v[0] <= '0' + CB_FIT_MAX_TIERS) {
		o->max_tiers = v[0] - '0';
		o->nbreaks = v[0] == '1' ? 0 : -1;
		return CB_OK;
	}
	snprintf(e, n, "--tiers: '%s' is not auto, 1..%d, or up to %d ascending sizes (1M,32M)", v,
		 CB_FIT_MAX_TIERS, CB_FIT_MAX_TIERS - 1);
	if (strlen(v) >= sizeof(buf) || cb_list_has_empty(v))
		return CB_ERR_ARG;
	strcpy(buf, v);
	o->nbreaks = 0;
	for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		size_t b;

		if (o->nbreaks == CB_FIT_MAX_TIERS - 1 || cb_parse_size(tok, &b) != 0 ||
		    (double)b <= prev)
			return CB_ERR_ARG;
		o->breaks[o->nbreaks++] = prev = (double)b;
	}
	return CB_OK;
}

static enum cb_status set_flag(void *t, unsigned bit, int *dst)
{
	CLI(t)->given |= bit;
	*dst = 1;
	return CB_OK;
}

static enum cb_status set_nogamma(void *t, const char *v, char *e, size_t n)
{
	(void)v, (void)e, (void)n;
	CLI(t)->given |= OPT_NOGAMMA;
	CLI(t)->sel.opts.fit_gamma = 0;
	return CB_OK;
}

static enum cb_status set_over(void *t, const char *v, char *e, size_t n)
{
	(void)v, (void)e, (void)n;
	return set_flag(t, OPT_OVER, &CLI(t)->sel.oversubscribed);
}

static enum cb_status set_gate(void *t, const char *v, char *e, size_t n)
{
	(void)v, (void)e, (void)n;
	return set_flag(t, OPT_GATE, &CLI(t)->gate);
}

static enum cb_status set_summary(void *t, const char *v, char *e, size_t n)
{
	(void)v, (void)e, (void)n;
	return set_flag(t, OPT_SUMMARY, &CLI(t)->summary);
}

static enum cb_status set_cross(void *t, const char *v, char *e, size_t n)
{
	(void)v, (void)e, (void)n;
	return set_flag(t, OPT_CROSS, &CLI(t)->crossover);
}

static enum cb_status set_twosided(void *t, const char *v, char *e, size_t n)
{
	(void)v, (void)e, (void)n;
	return set_flag(t, OPT_TWOSIDED, &CLI(t)->two_sided);
}

static enum cb_status set_help(void *t, const char *v, char *e, size_t n)
{
	(void)v, (void)e, (void)n;
	return set_flag(t, OPT_HELP, &CLI(t)->help);
}

static enum cb_status set_far(void *t, const char *v, char *e, size_t n)
{
	char *end;
	double pct;

	(void)e, (void)n;
	CLI(t)->given |= OPT_FAR;
	errno = 0;
	pct = strtod(v, &end);
	if (errno || end == v || *end || !(pct > 0 && pct < 1e6))
		return CB_ERR_ARG;
	CLI(t)->far = pct / 100;
	return CB_OK;
}

/* A whole number in [lo, hi]; -1 when v is not one. */
static long long whole(const char *v, long long lo, long long hi)
{
	char *end;
	long long x;

	errno = 0;
	x = strtoll(v, &end, 10);
	return errno || end == v || *end || x < lo || x > hi ? -1 : x;
}

/* --ranks 2,8,64 or A:B (A, 2A, 4A, ... up to B). */
static enum cb_status set_ranks(void *t, const char *v, char *e, size_t n)
{
	struct cli *c = CLI(t);
	char buf[512], *colon, *save = NULL;

	c->given |= OPT_RANKS;
	c->nranks = 0;
	snprintf(e, n, "--ranks: '%s' is not a list of rank counts (1..%d) or A:B", v, 1 << 20);
	if (strlen(v) >= sizeof(buf) || cb_list_has_empty(v))
		return CB_ERR_ARG;
	strcpy(buf, v);
	colon = strchr(buf, ':');
	if (colon) {
		long long a, b;

		*colon = '\0';
		a = whole(buf, 1, 1 << 20);
		b = whole(colon + 1, 1, 1 << 20);
		if (a < 1 || b < a)
			return CB_ERR_ARG;
		for (long long r = a; r <= b && c->nranks < CB_CLI_MAX_RANKS; r *= 2)
			c->ranks[c->nranks++] = (int)r;
		return CB_OK;
	}
	for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		long long r = whole(tok, 1, 1 << 20);

		if (r < 1 || c->nranks == CB_CLI_MAX_RANKS)
			return CB_ERR_ARG;
		c->ranks[c->nranks++] = (int)r;
	}
	return CB_OK;
}

static enum cb_status set_size(void *t, const char *v, size_t *dst)
{
	CLI(t)->given |= OPT_BYTES;
	return cb_parse_size(v, dst) == 0 && *dst > 0 ? CB_OK : CB_ERR_ARG;
}

static enum cb_status set_minbytes(void *t, const char *v, char *e, size_t n)
{
	(void)e, (void)n;
	return set_size(t, v, &CLI(t)->minbytes);
}

static enum cb_status set_maxbytes(void *t, const char *v, char *e, size_t n)
{
	(void)e, (void)n;
	return set_size(t, v, &CLI(t)->maxbytes);
}

static enum cb_status set_factor(void *t, const char *v, char *e, size_t n)
{
	long long f = whole(v, 2, 1 << 20);

	(void)e, (void)n;
	CLI(t)->given |= OPT_FACTOR;
	CLI(t)->factor = (size_t)f;
	return f < 2 ? CB_ERR_ARG : CB_OK;
}

static enum cb_status set_root(void *t, const char *v, char *e, size_t n)
{
	long long r = whole(v, 0, (1 << 20) - 1);

	(void)e, (void)n;
	CLI(t)->given |= OPT_ROOT;
	CLI(t)->root = (int)r;
	return r < 0 ? CB_ERR_ARG : CB_OK;
}

static enum cb_status set_dtype(void *t, const char *v, char *e, size_t n)
{
	enum cb_dtype dt;

	(void)e, (void)n;
	CLI(t)->given |= OPT_DTYPE;
	if (cb_dtype_parse(v, &dt) != 0)
		return CB_ERR_ARG;
	CLI(t)->esize = cb_dtype_size(dt);
	return CB_OK;
}

static const struct cb_optdef table[] = {
	{ "format", 'f', "FMT", NULL, "table, csv, markdown or json (fit: json by default, the others table)", set_format },
	{ "output", 'o', "FILE", NULL, "fit: also write the fit (JSON) to FILE, replaced atomically; the table goes to stdout", set_output },
	{ "fit", 0, "FILE", NULL, "check: the model's parameters from FILE (collbench-model fit -o), else fitted on RUN itself; predict: use FILE's link, reduce and copy rates on --topo's layout", set_fit },
	{ "algo", 'a', "LIST", NULL, "fit, check: only these algorithms (comma list; default ps, ring, copy, mpi, nccl)", set_algo },
	{ "min-bytes", 0, "SIZE", NULL, "fit, check: leave out rows below SIZE bytes (K, M, G)", set_minb },
	{ "tiers", 0, "auto|N|LIST", NULL, "fit: bandwidth tiers by message size: auto (1 to 3 tiers, chosen by BIC), N tiers, or the boundaries (1M,32M) [auto]", set_tiers },
	{ "no-gamma", 0, NULL, NULL, "fit: leave the reduce rate out (reducing costs nothing)", set_nogamma },
	{ "oversubscribed", 0, NULL, NULL, "fit: also fit launches with more ranks than CPUs (time slicing, which the model does not describe)", set_over },
	{ "far", 0, "PCT", NULL, "check: flag rows whose model time is more than PCT percent off and outside the repeats' band [25]", set_far },
	{ "gate", 0, NULL, NULL, "check: exit 1 when a row is flagged", set_gate },
	{ "summary", 0, NULL, NULL, "check: print only the error summary by size range", set_summary },
	{ "topo", 't', "NAME|FILE", NULL, "predict: a preset (collbench-model presets) or a topology file [dgx-h100]", set_topo },
	{ "ranks", 'n', "LIST|A:B", NULL, "predict: rank counts, a list or A:B doubling [2:4096]", set_ranks },
	{ "minbytes", 'b', "SIZE", NULL, "predict: smallest message per rank [8]", set_minbytes },
	{ "maxbytes", 'e', "SIZE", NULL, "predict: largest message per rank [4G]", set_maxbytes },
	{ "factor", 0, "N", NULL, "predict: size step factor [2]", set_factor },
	{ "crossover", 0, NULL, NULL, "predict: per rank count, the largest size at which ps is no slower than the ring", set_cross },
	{ "root", 'r', "RANK", NULL, "predict: the ps root [0]", set_root },
	{ "dtype", 'd', "TYPE", NULL, "predict: element type (its size splits chunks) [float]", set_dtype },
	{ "backend", 0, "NAME", NULL, "predict --fit: the backend whose one-sided fit to use [the first]", set_backend },
	{ "two-sided", 0, NULL, NULL, "predict: bytes land in a buffer, then are reduced (a two-sided transport: move and reduce add up) rather than one-sided as collbench's ps and ring today", set_twosided },
	{ "help", 'h', NULL, NULL, "print this help", set_help },
};
#define NOPTS (sizeof(table) / sizeof(table[0]))


const struct cb_optdef *cb_cli_options(size_t *n)
{
	*n = NOPTS;
	return table;
}

void cb_cli_defaults(struct cli *c)
{
	memset(c, 0, sizeof(*c));
	c->fmt = CB_MFMT_TABLE;
	c->far = 0.25;
	c->sel.opts.max_tiers = 3;
	c->sel.opts.nbreaks = -1;
	c->sel.opts.fit_gamma = 1;
	snprintf(c->topo, sizeof(c->topo), "dgx-h100");
	c->minbytes = 8;
	c->maxbytes = (size_t)4 << 30;
	c->factor = 2;
	c->esize = 4;
	for (int r = 2; r <= 4096; r *= 2)
		c->ranks[c->nranks++] = r;
}

/* The first option given that the verb does not take, or NULL. */
const char *cb_cli_foreign_option(const struct cli *c)
{
	static const char *const names[] = { "--format", "--output", "--fit", "--algo",
		"--min-bytes", "--tiers", "--no-gamma", "--oversubscribed", "--far", "--gate",
		"--summary", "--topo", "--ranks", "--minbytes/--maxbytes", "--factor",
		"--crossover", "--root", "--dtype", "--backend", "--help", "--two-sided" };
	unsigned extra = c->given & ~verb_opts[c->verb];

	for (unsigned b = 0; b < sizeof(names) / sizeof(names[0]); b++)
		if (extra & (1u << b))
			return names[b];
	return NULL;
}

