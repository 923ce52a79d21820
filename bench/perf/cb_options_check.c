/* Options: checks across several options, and the canonical form compared
 * between ranks by the pre-flight. */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>

#include "cb_options.h"
#include "cb_options_int.h"

/* --meta defaults to --csv with .csv replaced by .meta.json; no two outputs
 * may share a path (they would overwrite one another). */
static enum cb_status check_paths(struct cb_options *o, char *err, size_t n)
{
	const char *names[] = { "--csv", "--rank-csv", "--json", "--meta" };
	const char *paths[] = { o->csv, o->rank_csv, o->json, o->meta };
	size_t len = strlen(o->csv);

	if (!o->meta[0] && len) {
		if (len > 4 && strcmp(o->csv + len - 4, ".csv") == 0)
			len -= 4;
		if (len + sizeof(".meta.json") > sizeof(o->meta)) {
			snprintf(err, n, "--csv: path too long to derive the metadata path (give --meta)");
			return CB_ERR_ARG;
		}
		snprintf(o->meta, sizeof(o->meta), "%.*s.meta.json", (int)len, o->csv);
	}
	for (int i = 0; i < 4; i++)
		for (int j = i + 1; j < 4; j++)
			if (*paths[i] && strcmp(paths[i], paths[j]) == 0) {
				snprintf(err, n, "%s and %s name the same file '%s'", names[i], names[j],
					 paths[i]);
				return CB_ERR_ARG;
			}
	return CB_OK;
}

/* Checks that need several options together. */
enum cb_status cb_options_check(struct cb_options *o, char *err, size_t n)
{
	size_t sizes[CB_MAX_SIZES], k;

	if (o->minbytes > o->maxbytes) {
		snprintf(err, n, "-b/--minbytes (%zu) is larger than -e/--maxbytes (%zu)",
			 o->minbytes, o->maxbytes);
		return CB_ERR_ARG;
	}
	if (o->stepfactor <= 1 && o->stepbytes == 0 && o->minbytes < o->maxbytes) {
		snprintf(err, n, "-i/--stepbytes 0 with -f 1 never reaches -e/--maxbytes");
		return CB_ERR_ARG;
	}
	for (int dt = 0; dt < CB_DTYPE_COUNT; dt++) {
		enum cb_status st;

		if (!(o->dtype_mask & (1u << dt)))
			continue;
		st = cb_options_sizes(o, (enum cb_dtype)dt, sizes, CB_MAX_SIZES, &k, err, n);
		if (st != CB_OK)
			return st;
	}
	return check_paths(o, err, n);
}

/* Names of the set bits of mask, comma-separated, into buf. */
static void mask_names(unsigned mask, int n, const char *(*name)(int), char *buf, size_t len)
{
	size_t k = 0;

	buf[0] = '\0';
	for (int i = 0; i < n && k < len; i++)
		if (mask & (1u << i))
			k += (size_t)snprintf(buf + k, len - k, "%s%s", k ? "," : "", name(i));
}

static const char *dtype_name_int(int i)
{
	return cb_dtype_name((enum cb_dtype)i);
}

static const char *op_name_int(int i)
{
	return cb_op_name((enum cb_op)i);
}

const char *cb_timing_name(enum cb_timing t)
{
	return t == CB_TIMING_LOOP ? "loop" : "iter";
}

void cb_options_canonical(const struct cb_options *o, char *buf, size_t len)
{
	char dts[128], ops[64];
	int k;

	mask_names(o->dtype_mask, CB_DTYPE_COUNT, dtype_name_int, dts, sizeof(dts));
	mask_names(o->op_mask, CB_OP_COUNT, op_name_int, ops, sizeof(ops));
	k = snprintf(buf, len,
		     "minbytes=%zu;maxbytes=%zu;stepfactor=%lu;stepbytes=%zu;iters=%d;warmup=%d;"
		     "check=%d;repeat=%d;datatype=%s;op=%s;algo=%s;backend=%s;root=%d;"
		     "inplace=%d;slicebytes=%zu;timing=%s;wait=%s;help=%d;counts=",
		     o->minbytes, o->maxbytes, o->stepfactor, o->stepbytes, o->iters, o->warmup,
		     o->check, o->repeat, dts, ops, o->algos, o->backend, o->root, o->in_place,
		     o->slice_bytes, cb_timing_name(o->timing),
		     cb_wait_mode_name(o->wait), o->help);
	for (size_t i = 0; i < o->ncounts && k > 0 && (size_t)k < len; i++)
		k += snprintf(buf + k, len - (size_t)k, "%s%zu", i ? "," : "", o->counts[i]);
}
