/* The collectives (contract in cb_coll.h): the table of their
 * descriptions (each in its own file, cb_coll_<name>.c) and what every
 * collective computes from its description alone. */
#include "cb_coll.h"

#include <stdio.h>
#include <string.h>

#include "cb_check.h"

#define CB_COLL_PTR(id, name) [CB_COLL_##id] = &cb_coll_desc_##name,
static const struct cb_coll_desc *const colls[CB_COLL_COUNT] = { CB_COLLECTIVES(CB_COLL_PTR) };
#undef CB_COLL_PTR

const struct cb_coll_desc *cb_coll_get(enum cb_coll c)
{
	return (unsigned)c < CB_COLL_COUNT ? colls[c] : NULL;
}

int cb_coll_find(const char *name)
{
	for (int c = 0; c < CB_COLL_COUNT; c++)
		if (strcmp(colls[c]->name, name) == 0)
			return c;
	return -1;
}

void cb_coll_names(char *buf, size_t len)
{
	size_t at = 0;

	for (int c = 0; c < CB_COLL_COUNT && len; c++) {
		int w = snprintf(buf + at, len - at, "%s%s", c ? ", " : "", colls[c]->name);

		if (w < 0 || (size_t)w >= len - at)
			break;
		at += (size_t)w;
	}
}

size_t cb_coll_send_count(enum cb_coll c, int n, size_t count)
{
	return colls[c]->send_is_block ? count / (size_t)n : count;
}

size_t cb_coll_recv_count(enum cb_coll c, int n, size_t count)
{
	return colls[c]->recv_is_block ? count / (size_t)n : count;
}

size_t cb_coll_inplace_offset(enum cb_coll c, int n, size_t count, int r, int *send_inside)
{
	const struct cb_coll_desc *d = colls[c];

	*send_inside = d->send_is_block;
	return d->send_is_block || d->recv_is_block ? (size_t)r * (count / (size_t)n) : 0;
}

size_t cb_coll_count(enum cb_coll c, int n, size_t count)
{
	return colls[c]->split && n > 0 ? count / (size_t)n * (size_t)n : count;
}

void cb_coll_offsets(enum cb_coll c, int n, size_t count, int r, int in_place, size_t *send_off,
		     size_t *recv_off)
{
	int send_inside;
	size_t at = cb_coll_inplace_offset(c, n, count, r, &send_inside);

	*send_off = in_place && send_inside ? at : 0;
	*recv_off = in_place && !send_inside ? at : 0;
}

double cb_coll_busbw_factor(enum cb_coll c, int n)
{
	return colls[c]->busbw_factor(n);
}

int cb_coll_has_result(enum cb_coll c, int r, int root)
{
	return !colls[c]->root_only_result || r == root;
}

void cb_coll_fill_input(enum cb_coll c, void *buf, size_t count, enum cb_dtype dt,
			enum cb_op op, int r, int n)
{
	/* the op the inputs are made for: the given one where c reduces, else sum */
	cb_fill_input(buf, 0, cb_coll_send_count(c, n, count), dt, colls[c]->reduces ? op : CB_SUM,
		      r, n);
}

size_t cb_coll_reference_first(enum cb_coll c, int n, size_t count, int r)
{
	return colls[c]->recv_is_block ? (size_t)r * (count / (size_t)n) : 0;
}

void cb_coll_fill_expected_at(enum cb_coll c, void *buf, size_t first, size_t m, size_t count,
			      enum cb_dtype dt, enum cb_op op, int r, int root, int n)
{
	if (cb_coll_has_result(c, r, root) && m)
		colls[c]->expect(buf, first, m, count, dt, op, r, root, n);
}

void cb_coll_fill_expected(enum cb_coll c, void *buf, size_t count, enum cb_dtype dt,
			   enum cb_op op, int r, int root, int n)
{
	cb_coll_fill_expected_at(c, buf, 0, cb_coll_recv_count(c, n, count), count, dt, op, r, root,
				 n);
}
