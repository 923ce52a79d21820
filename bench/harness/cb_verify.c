#include "cb_verify.h"

#include <stdlib.h>
#include <string.h>

#include "cb_check.h"
#include "cb_coll.h"

#define CB_STAGE_BYTES ((size_t)32 << 20)
#define CB_REF_CACHE_MAX ((size_t)1 << 30)

enum cb_status cb_verify_init(struct cb_verify *v, struct cb_backend *be, size_t max_bytes)
{
	memset(v, 0, sizeof(*v));
	v->be = be;
	v->piece_bytes = max_bytes < CB_STAGE_BYTES ? (max_bytes + 7) / 8 * 8 : CB_STAGE_BYTES;
	if (v->piece_bytes == 0)
		v->piece_bytes = 8;
	v->stage = malloc(v->piece_bytes);
	v->ref_piece = malloc(v->piece_bytes);
	v->cache_cap_bytes = max_bytes <= CB_REF_CACHE_MAX ? max_bytes : 0;
	v->cache_dt = v->cache_op = -1;
	if (!v->stage || !v->ref_piece) {
		cb_verify_fini(v);
		return CB_ERR_NOMEM;
	}
	return CB_OK;
}

void cb_verify_coll(struct cb_verify *v, enum cb_coll coll, int root, int in_place)
{
	v->coll = coll;
	v->root = root;
	v->in_place = in_place;
}

/* This rank's send and receive ranges for count: their element offsets in
 * the buffers handed over and their lengths. */
static void ranges(const struct cb_verify *v, size_t count, size_t *so, size_t *sn, size_t *ro,
		   size_t *rn)
{
	int n = v->be->world_size;

	cb_coll_offsets(v->coll, n, count, v->be->world_rank, v->in_place, so, ro);
	*sn = cb_coll_send_count(v->coll, n, count);
	*rn = cb_coll_recv_count(v->coll, n, count);
}

void cb_verify_fini(struct cb_verify *v)
{
	free(v->stage);
	free(v->ref_piece);
	free(v->ref_cache);
	memset(v, 0, sizeof(*v));
}

/* Elements per staging piece for dt. */
static size_t piece_count(const struct cb_verify *v, enum cb_dtype dt)
{
	return v->piece_bytes / cb_dtype_size(dt);
}

enum cb_status cb_verify_fill_input(struct cb_verify *v, struct cb_buf *buf, size_t count,
				    enum cb_dtype dt, enum cb_op op)
{
	size_t esz = cb_dtype_size(dt), step = piece_count(v, dt), at, ro, rn;
	enum cb_op in_op = cb_coll_get(v->coll)->reduces ? op : CB_SUM;

	ranges(v, count, &at, &count, &ro, &rn);
	for (size_t i = 0; i < count; i += step) {
		size_t c = count - i < step ? count - i : step;
		enum cb_status st;

		cb_fill_input(v->stage, i, c, dt, in_op, v->be->world_rank, v->be->world_size);
		st = v->be->ops->upload(v->be, buf, (at + i) * esz, v->stage, c * esz);
		if (st != CB_OK)
			return st;
	}
	return CB_OK;
}

enum cb_status cb_verify_poison(struct cb_verify *v, struct cb_buf *buf, size_t count,
				enum cb_dtype dt)
{
	size_t esz = cb_dtype_size(dt), step = piece_count(v, dt), so, sn, at;

	ranges(v, count, &so, &sn, &at, &count);
	cb_fill_poison(v->stage, step, dt);
	for (size_t i = 0; i < count; i += step) {
		size_t c = count - i < step ? count - i : step;
		enum cb_status st = v->be->ops->upload(v->be, buf, (at + i) * esz, v->stage, c * esz);

		if (st != CB_OK)
			return st;
	}
	return CB_OK;
}

enum cb_status cb_verify_prepare(struct cb_verify *v, enum cb_dtype dt, enum cb_op op,
				 size_t max_count)
{
	size_t bytes = max_count * cb_dtype_size(dt);

	if (v->cache_dt == (int)dt && v->cache_op == (int)op && v->cache_count >= max_count)
		return CB_OK;
	free(v->ref_cache);
	v->ref_cache = NULL;
	v->cache_dt = v->cache_op = -1;
	v->cache_count = 0;
	if (bytes == 0 || bytes > v->cache_cap_bytes)
		return CB_OK; /* computed piecewise in cb_verify_check */
	v->ref_cache = malloc(bytes);
	if (!v->ref_cache)
		return CB_OK; /* fall back to piecewise: slower, same answer */
	cb_fill_reference(v->ref_cache, 0, max_count, dt, op, v->be->world_size);
	v->cache_dt = (int)dt;
	v->cache_op = (int)op;
	v->cache_count = max_count;
	return CB_OK;
}

/* FNV-style hash over 8-byte words, then the tail bytes. */
static uint64_t hash_bytes(uint64_t h, const unsigned char *p, size_t n)
{
	size_t i = 0;

	for (; i + 8 <= n; i += 8) {
		uint64_t w;

		memcpy(&w, p + i, 8);
		h = (h ^ w) * 0x100000001b3ull;
	}
	for (; i < n; i++)
		h = (h ^ p[i]) * 0x100000001b3ull;
	return h;
}

/* Expected receive elements [first, first + c) of a call of count into
 * v->ref_piece, or a pointer into the cache. */
static const void *expected(struct cb_verify *v, size_t count, size_t first, size_t c,
			    enum cb_dtype dt, enum cb_op op, enum cb_result result)
{
	int me = v->be->world_rank, n = v->be->world_size;
	size_t g = first + cb_coll_reference_first(v->coll, n, count, me);

	if (result == CB_RESULT_COPY) {
		cb_fill_input(v->ref_piece, first, c, dt, op, me, n);
		return v->ref_piece;
	}
	if (!cb_coll_get(v->coll)->reduces) {
		cb_coll_fill_expected_at(v->coll, v->ref_piece, first, c, count, dt, op, me, v->root, n);
		return v->ref_piece;
	}
	if (v->ref_cache && v->cache_dt == (int)dt && v->cache_op == (int)op &&
	    g + c <= v->cache_count)
		return (const char *)v->ref_cache + g * cb_dtype_size(dt);
	cb_fill_reference(v->ref_piece, g, c, dt, op, n);
	return v->ref_piece;
}

enum cb_status cb_verify_check(struct cb_verify *v, struct cb_buf *buf, size_t count,
			       enum cb_dtype dt, enum cb_op op, enum cb_result result,
			       long long *wrong, uint64_t *hash)
{
	size_t esz = cb_dtype_size(dt), step = piece_count(v, dt), so, sn, at, rn;
	/* a copy, and what no op made, must be bit-exact: compare it as a sum
	 * (no avg tolerance) */
	enum cb_op cmp_op = result == CB_RESULT_COPY || !cb_coll_get(v->coll)->reduces ? CB_SUM : op;

	*wrong = 0;
	*hash = 0xcbf29ce484222325ull;
	ranges(v, count, &so, &sn, &at, &rn);
	if (!cb_coll_has_result(v->coll, v->be->world_rank, v->root))
		rn = 0;
	for (size_t i = 0; i < rn; i += step) {
		size_t c = rn - i < step ? rn - i : step;
		enum cb_status st = v->be->ops->download(v->be, v->stage, buf, (at + i) * esz, c * esz);

		if (st != CB_OK)
			return st;
		*wrong += (long long)cb_count_wrong(v->stage,
						    expected(v, count, i, c, dt, op, result), c, dt,
						    cmp_op, v->be->world_size);
		*hash = hash_bytes(*hash, v->stage, c * esz);
	}
	return CB_OK;
}
