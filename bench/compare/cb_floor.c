/* cb_floor: the absolute busbw gate (contract in cb_floor.h). */
#define _GNU_SOURCE
#include "cb_floor.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cb_size.h"

/* One rule, "ALGO[@SIZE[-SIZE]]=GBPS", into *r. Returns 0, or -1 with why
 * in err. */
static int parse_rule(char *text, struct cb_floor_rule *r, char *err, size_t errlen)
{
	char *eq = strrchr(text, '='), *at = strchr(text, '@'), *dash, *end;
	size_t lo = 0, hi = 0;

	if (!eq || eq == text || (at && at > eq)) {
		snprintf(err, errlen, "--min-busbw: '%s' is not ALGO[@SIZE[-SIZE]]=GBPS", text);
		return -1;
	}
	*eq = '\0';
	errno = 0;
	r->gbps = strtod(eq + 1, &end);
	if (errno || end == eq + 1 || *end || !(r->gbps > 0) || !isfinite(r->gbps)) {
		snprintf(err, errlen, "--min-busbw: '%s' is not a bandwidth > 0 in GB/s", eq + 1);
		return -1;
	}
	if (at)
		*at = '\0';
	if (strlen(text) >= sizeof(r->algo) || !*text) {
		snprintf(err, errlen, "--min-busbw: bad algorithm name '%s'", text);
		return -1;
	}
	snprintf(r->algo, sizeof(r->algo), "%s", text);
	r->lo = 0;
	r->hi = ULLONG_MAX;
	if (!at)
		return 0;
	dash = strchr(at + 1, '-');
	if (dash)
		*dash = '\0';
	if (cb_parse_size(at + 1, &lo) != 0 || (dash && cb_parse_size(dash + 1, &hi) != 0) ||
	    (dash && hi < lo)) {
		snprintf(err, errlen, "--min-busbw: bad size range for %s (SIZE or SIZE-SIZE, "
			 "ascending, K M G suffixes)", r->algo);
		return -1;
	}
	r->lo = lo;
	r->hi = dash ? hi : ULLONG_MAX;
	return 0;
}

enum cb_status cb_floor_parse(const char *rules, struct cb_floors *out, char *err, size_t errlen)
{
	char *copy = strdup(rules), *save = NULL, *tok;
	size_t cap = 1;

	memset(out, 0, sizeof(*out));
	for (const char *p = rules; *p; p++)
		cap += *p == ',';
	out->rule = calloc(cap, sizeof(*out->rule));
	if (!copy || !out->rule) {
		free(copy);
		cb_floors_free(out);
		return CB_ERR_NOMEM;
	}
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (parse_rule(tok, &out->rule[out->n], err, errlen) != 0) {
			free(copy);
			cb_floors_free(out);
			return CB_ERR_ARG;
		}
		out->n++;
	}
	free(copy);
	if (out->n == 0) {
		snprintf(err, errlen, "--min-busbw: no rule given");
		cb_floors_free(out);
		return CB_ERR_ARG;
	}
	return CB_OK;
}

void cb_floors_free(struct cb_floors *f)
{
	free(f->rule);
	memset(f, 0, sizeof(*f));
}

static int matches(const struct cb_floor_rule *r, const struct cb_summary *s)
{
	return (strcmp(r->algo, "*") == 0 || strcmp(r->algo, s->algo) == 0) && s->bytes >= r->lo &&
	       s->bytes <= r->hi;
}

/* The highest floor of the rules row s matches; 0 when none does. */
static double floor_of(const struct cb_floors *f, const struct cb_summary *s)
{
	double best = 0;

	for (size_t i = 0; i < f->n; i++)
		if (matches(&f->rule[i], s) && f->rule[i].gbps > best)
			best = f->rule[i].gbps;
	return best;
}

void cb_floor_check(const struct cb_floors *f, const struct cb_results *res, enum cb_stat stat,
		    FILE *out, struct cb_floor_result *r)
{
	char name[128];

	memset(r, 0, sizeof(*r));
	for (size_t i = 0; i < res->nrows; i++) {
		const struct cb_res_row *row = &res->rows[i];
		double floor = floor_of(f, &row->v);
		struct cb_band b;
		int ignored = 0, no_median = 0;

		if (floor == 0 || row->v.status.state == CB_ROW_SKIPPED)
			continue;
		cb_row_name(&row->v, name, sizeof(name));
		if (cb_row_state_failed(row->v.status.state)) {
			r->failed++;
			fprintf(out, "below floor: %s failed (%s)\n", name, row->v.status.reason);
			continue;
		}
		cb_row_read(row, CB_METRIC_BUSBW, stat, &b, &ignored, &no_median);
		if (!(b.value > 0)) {
			r->no_busbw++;
			continue;
		}
		r->checked++;
		if (b.value < floor) {
			r->below++;
			fprintf(out, "below floor: %s busbw %.3f GB/s (%s) < %g GB/s\n", name, b.value,
				cb_stat_name(stat), floor);
		}
	}
	fprintf(out, "floor: %zu row(s) at or above, %zu below, %zu failed; %zu without a busbw "
		"not judged\n", r->checked - r->below, r->below, r->failed, r->no_busbw);
}
