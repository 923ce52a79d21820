/* The collectives (contract in cb_coll.h). */
#include "cb_coll.h"

#include <stdio.h>
#include <string.h>

#include "cb_check.h"

static const struct cb_coll_desc colls[CB_COLL_COUNT] = {
	[CB_COLL_ALLREDUCE] = { "allreduce", "all_reduce_perf", 1, 0, 0, 1 },
	[CB_COLL_REDUCE_SCATTER] = { "reduce_scatter", "reduce_scatter_perf", 1, 0, 1, 0 },
	[CB_COLL_ALL_GATHER] = { "all_gather", "all_gather_perf", 0, 0, 1, 1 },
	[CB_COLL_BROADCAST] = { "broadcast", "broadcast_perf", 0, 1, 0, 1 },
	[CB_COLL_REDUCE] = { "reduce", "reduce_perf", 1, 1, 0, 0 },
	[CB_COLL_ALLTOALL] = { "alltoall", "alltoall_perf", 0, 0, 1, 0 },
};

const struct cb_coll_desc *cb_coll_get(enum cb_coll c)
{
	return (unsigned)c < CB_COLL_COUNT ? &colls[c] : NULL;
}

int cb_coll_find(const char *name)
{
	for (int c = 0; c < CB_COLL_COUNT; c++)
		if (strcmp(colls[c].name, name) == 0)
			return c;
	return -1;
}

void cb_coll_names(char *buf, size_t len)
{
	size_t at = 0;

	for (int c = 0; c < CB_COLL_COUNT && len; c++) {
		int w = snprintf(buf + at, len - at, "%s%s", c ? ", " : "", colls[c].name);

		if (w < 0 || (size_t)w >= len - at)
			break;
		at += (size_t)w;
	}
}

size_t cb_coll_send_count(enum cb_coll c, int n, size_t count)
{
	return c == CB_COLL_ALL_GATHER ? count / (size_t)n : count;
}

size_t cb_coll_recv_count(enum cb_coll c, int n, size_t count)
{
	return c == CB_COLL_REDUCE_SCATTER ? count / (size_t)n : count;
}

size_t cb_coll_inplace_offset(enum cb_coll c, int n, size_t count, int r, int *send_inside)
{
	*send_inside = c == CB_COLL_ALL_GATHER;
	return colls[c].split && c != CB_COLL_ALLTOALL ? (size_t)r * (count / (size_t)n) : 0;
}

size_t cb_coll_count(enum cb_coll c, int n, size_t count)
{
	return colls[c].split && n > 0 ? count / (size_t)n * (size_t)n : count;
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
	if (colls[c].rooted)
		return 1.0;
	if (n <= 1)
		return 0.0;
	if (c == CB_COLL_ALLREDUCE)
		return 2.0 * (n - 1) / n;
	return colls[c].split ? (double)(n - 1) / n : 1.0;
}

int cb_coll_has_result(enum cb_coll c, int r, int root)
{
	return c != CB_COLL_REDUCE || r == root;
}

/* The op the inputs are made for: the given one where c reduces, else sum. */
static enum cb_op input_op(enum cb_coll c, enum cb_op op)
{
	return colls[c].reduces ? op : CB_SUM;
}

void cb_coll_fill_input(enum cb_coll c, void *buf, size_t count, enum cb_dtype dt,
			enum cb_op op, int r, int n)
{
	cb_fill_input(buf, 0, cb_coll_send_count(c, n, count), dt, input_op(c, op), r, n);
}

size_t cb_coll_reference_first(enum cb_coll c, int n, size_t count, int r)
{
	return c == CB_COLL_REDUCE_SCATTER ? (size_t)r * (count / (size_t)n) : 0;
}

void cb_coll_fill_expected_at(enum cb_coll c, void *buf, size_t first, size_t m, size_t count,
			      enum cb_dtype dt, enum cb_op op, int r, int root, int n)
{
	size_t block = count / (size_t)n, esz = cb_dtype_size(dt), from;

	if (!cb_coll_has_result(c, r, root))
		return;
	if (colls[c].reduces) {
		cb_fill_reference(buf, cb_coll_reference_first(c, n, count, r) + first, m, dt, op, n);
		return;
	}
	if (c == CB_COLL_BROADCAST) {
		cb_fill_input(buf, first, m, dt, CB_SUM, root, n);
		return;
	}
	from = c == CB_COLL_ALLTOALL ? (size_t)r * block : 0; /* where rank q's block for r is */
	for (size_t i = first; i < first + m;) { /* all_gather, alltoall: block by block */
		size_t q = i / block, in = i - q * block, len = block - in;

		if (len > first + m - i)
			len = first + m - i;
		cb_fill_input((char *)buf + (i - first) * esz, from + in, len, dt, CB_SUM, (int)q, n);
		i += len;
	}
}

void cb_coll_fill_expected(enum cb_coll c, void *buf, size_t count, enum cb_dtype dt,
			   enum cb_op op, int r, int root, int n)
{
	cb_coll_fill_expected_at(c, buf, 0, cb_coll_recv_count(c, n, count), count, dt, op, r, root,
				 n);
}
