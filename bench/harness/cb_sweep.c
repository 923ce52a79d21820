/* cb_sweep: the message sizes of a run, made once per dtype when the
 * options are parsed (contract in cb_sweep.h). */
#include "cb_sweep.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cb_options.h"

/* --counts times the dtype size. */
static enum cb_status from_counts(const struct cb_options *o, enum cb_dtype dt, size_t *sizes,
				  size_t *n, char *err, size_t errlen)
{
	size_t esz = cb_dtype_size(dt);

	for (size_t i = 0; i < o->counts.n; i++) {
		if (o->counts.v[i] > SIZE_MAX / esz) {
			snprintf(err, errlen, "--counts: %zu elements of %s overflow", o->counts.v[i],
				 cb_dtype_name(dt));
			return CB_ERR_ARG;
		}
		sizes[i] = o->counts.v[i] * esz;
		if (sizes[i] > CB_MAX_MESSAGE) {
			snprintf(err, errlen, "--counts: %zu elements of %s are above collbench's "
				 "limit of 1 TiB per rank", o->counts.v[i], cb_dtype_name(dt));
			return CB_ERR_ARG;
		}
	}
	*n = o->counts.n;
	return CB_OK;
}

/* -b, then *f or +i, up to -e (a 0 start is followed by one element); at
 * most cap sizes. */
static enum cb_status from_range(const struct cb_options *o, enum cb_dtype dt, size_t *sizes,
				 size_t cap, size_t *n, char *err, size_t errlen)
{
	size_t esz = cb_dtype_size(dt), k = 0, size = o->minbytes, f = (size_t)o->stepfactor;

	while (size <= o->maxbytes) {
		size_t next;

		if (size > CB_MAX_MESSAGE) {
			snprintf(err, errlen, "message size %zu B is above collbench's limit of "
				 "1 TiB per rank", size);
			return CB_ERR_ARG;
		}
		if (size % esz) {
			snprintf(err, errlen, "message size %zu B is not a multiple of %s's %zu bytes "
				 "(check -b, -e, -i)", size, cb_dtype_name(dt), esz);
			return CB_ERR_ARG;
		}
		if (k == cap) {
			snprintf(err, errlen, "more than %zu message sizes; raise -f or -i, or narrow "
				 "-b/-e", cap);
			return CB_ERR_ARG;
		}
		sizes[k++] = size;
		next = f > 1 ? (size ? size * f : esz) : size + o->stepbytes;
		if (next <= size || (f > 1 && size && next / f != size))
			break; /* no progress (-i 0) or overflow: stop after this size */
		size = next;
	}
	*n = k;
	return CB_OK;
}

enum cb_status cb_sweep_build(struct cb_sweep *sw, const struct cb_options *o, char *err,
			      size_t errlen)
{
	enum cb_status st = CB_OK;

	for (int dt = 0; dt < CB_DTYPE_COUNT && st == CB_OK; dt++) {
		if (!(o->dtype_mask & (1u << dt)))
			continue;
		sw->bytes[dt] = malloc(CB_MAX_SIZES * sizeof(size_t));
		if (!sw->bytes[dt]) {
			snprintf(err, errlen, "out of memory");
			st = CB_ERR_NOMEM;
		} else if (o->counts.n) {
			st = from_counts(o, (enum cb_dtype)dt, sw->bytes[dt], &sw->n[dt], err, errlen);
		} else {
			st = from_range(o, (enum cb_dtype)dt, sw->bytes[dt], CB_MAX_SIZES, &sw->n[dt],
					err, errlen);
		}
		for (size_t i = 0; st == CB_OK && i < sw->n[dt]; i++)
			if (sw->bytes[dt][i] > sw->max_bytes)
				sw->max_bytes = sw->bytes[dt][i];
	}
	if (st != CB_OK)
		cb_sweep_free(sw);
	return st;
}

void cb_sweep_free(struct cb_sweep *sw)
{
	for (int dt = 0; dt < CB_DTYPE_COUNT; dt++)
		free(sw->bytes[dt]);
	memset(sw, 0, sizeof(*sw));
}
