/* Byte sizes: parsing with K/M/G suffixes, human formatting, and the list of
 * message sizes a run sweeps. */
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>

#include "cb_options.h"

int cb_parse_size(const char *s, size_t *out)
{
	size_t v = 0, mult = 1;
	const char *p = s;

	if (!s || !isdigit((unsigned char)*p))
		return -1;
	for (; isdigit((unsigned char)*p); p++) {
		size_t d = (size_t)(*p - '0');

		if (v > (SIZE_MAX - d) / 10)
			return -1;
		v = v * 10 + d;
	}
	switch (*p) {
	case 'K': case 'k': mult = (size_t)1 << 10; p++; break;
	case 'M': case 'm': mult = (size_t)1 << 20; p++; break;
	case 'G': case 'g': mult = (size_t)1 << 30; p++; break;
	default: break;
	}
	if (mult > 1 && *p == 'i' && p[1] == 'B')
		p++;
	if (*p == 'B')
		p++;
	if (*p != '\0' || (v && mult > SIZE_MAX / v))
		return -1;
	*out = v * mult;
	return 0;
}

void cb_format_size(size_t bytes, char *buf, size_t len)
{
	static const char suffix[] = "KMGT";
	double v = (double)bytes;
	int i = -1;

	while (v >= 1024.0 && i < 3) {
		v /= 1024.0;
		i++;
	}
	if (i < 0)
		snprintf(buf, len, "%zu", bytes);
	else if (v == (double)(long)v)
		snprintf(buf, len, "%ld%c", (long)v, suffix[i]);
	else
		snprintf(buf, len, "%.3g%c", v, suffix[i]);
}

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
