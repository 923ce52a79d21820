/* The expectations the collectives' descriptions are made of (contract in
 * cb_coll.h): apart from cb_coll.c, which calls the descriptions, so that
 * no two files call each other. */
#include "cb_coll.h"

#include "cb_check.h"

void cb_coll_expect_reduced(const struct cb_coll_desc *d, void *buf, size_t first, size_t m,
			    size_t count, enum cb_dtype dt, enum cb_op op, int r, int n)
{
	size_t at = d->recv_is_block ? (size_t)r * (count / (size_t)n) : 0;

	cb_fill_reference(buf, at + first, m, dt, op, n);
}

void cb_coll_expect_input(void *buf, size_t first, size_t m, enum cb_dtype dt, int rank, int n)
{
	cb_fill_input(buf, first, m, dt, CB_SUM, rank, n);
}

void cb_coll_expect_blocks(void *buf, size_t first, size_t m, size_t count, enum cb_dtype dt,
			   size_t at, int n)
{
	size_t block = count / (size_t)n, esz = cb_dtype_size(dt);

	for (size_t i = first; i < first + m;) {
		size_t q = i / block, in = i - q * block, len = block - in;

		if (len > first + m - i)
			len = first + m - i;
		cb_fill_input((char *)buf + (i - first) * esz, at + in, len, dt, CB_SUM, (int)q, n);
		i += len;
	}
}
