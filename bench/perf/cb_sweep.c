/* The message sizes a run sweeps (contract in cb_options.h). */
#include <stdint.h>
#include <stdio.h>

#include "cb_options.h"

enum cb_status cb_options_sizes(const struct cb_options *o, enum cb_dtype dt, size_t *sizes,
				size_t cap, size_t *n, char *err, size_t errlen)
{
	size_t esz = cb_dtype_size(dt), k = 0, size = o->minbytes;

	if (o->ncounts) {
		for (size_t i = 0; i < o->ncounts; i++) {
			if (o->counts[i] > SIZE_MAX / esz) {
				snprintf(err, errlen, "--counts: %zu elements of %s overflow", o->counts[i],
					 cb_dtype_name(dt));
				return CB_ERR_ARG;
			}
			if (i >= cap)
				goto too_many;
			sizes[i] = o->counts[i] * esz;
			if (sizes[i] > CB_MAX_MESSAGE) {
				snprintf(err, errlen, "--counts: %zu elements of %s are above collbench's "
					 "limit of 1 TiB per rank", o->counts[i], cb_dtype_name(dt));
				return CB_ERR_ARG;
			}
		}
		*n = o->ncounts;
		return CB_OK;
	}
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
		if (k == cap)
			goto too_many;
		sizes[k++] = size;
		if (o->stepfactor > 1)
			next = size ? size * o->stepfactor : esz;
		else
			next = size + o->stepbytes;
		if (next <= size || (o->stepfactor > 1 && size && next / o->stepfactor != size))
			break; /* no progress (-i 0) or overflow: stop after this size */
		size = next;
	}
	*n = k;
	return CB_OK;

too_many:
	snprintf(err, errlen, "more than %zu message sizes; raise -f or -i, or narrow -b/-e", cap);
	return CB_ERR_ARG;
}
