#include "cb_verify.h"

#include <stdlib.h>
#include <string.h>

#include "cb_check.h"

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
	size_t esz = cb_dtype_size(dt), step = piece_count(v, dt);

	for (size_t i = 0; i < count; i += step) {
		size_t c = count - i < step ? count - i : step;
		enum cb_status st;

		cb_fill_input(v->stage, i, c, dt, op, v->be->world_rank, v->be->world_size);
		st = v->be->ops->upload(v->be, buf, i * esz, v->stage, c * esz);
		if (st != CB_OK)
			return st;
	}
	return CB_OK;
}

enum cb_status cb_verify_poison(struct cb_verify *v, struct cb_buf *buf, size_t count,
				enum cb_dtype dt)
{
	size_t esz = cb_dtype_size(dt), step = piece_count(v, dt);

	cb_fill_poison(v->stage, step, dt);
	for (size_t i = 0; i < count; i += step) {
		size_t c = count - i < step ? count - i : step;
		enum cb_status st = v->be->ops->upload(v->be, buf, i * esz, v->stage, c * esz);

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

/* Expected elements [first, first + c) into v->ref_piece, or a pointer into the cache. */
static const void *expected(struct cb_verify *v, size_t first, size_t c, enum cb_dtype dt,
			    enum cb_op op, enum cb_result result)
{
	if (result == CB_RESULT_COPY) {
		cb_fill_input(v->ref_piece, first, c, dt, op, v->be->world_rank, v->be->world_size);
		return v->ref_piece;
	}
	if (v->ref_cache && v->cache_dt == (int)dt && v->cache_op == (int)op &&
	    first + c <= v->cache_count)
		return (const char *)v->ref_cache + first * cb_dtype_size(dt);
	cb_fill_reference(v->ref_piece, first, c, dt, op, v->be->world_size);
	return v->ref_piece;
}

enum cb_status cb_verify_check(struct cb_verify *v, struct cb_buf *buf, size_t count,
			       enum cb_dtype dt, enum cb_op op, enum cb_result result,
			       long long *wrong, uint64_t *hash)
{
	size_t esz = cb_dtype_size(dt), step = piece_count(v, dt);
	/* a copy must be bit-exact: compare it as a sum (no avg tolerance) */
	enum cb_op cmp_op = result == CB_RESULT_COPY ? CB_SUM : op;

	*wrong = 0;
	*hash = 0xcbf29ce484222325ull;
	for (size_t i = 0; i < count; i += step) {
		size_t c = count - i < step ? count - i : step;
		enum cb_status st = v->be->ops->download(v->be, v->stage, buf, i * esz, c * esz);

		if (st != CB_OK)
			return st;
		*wrong += (long long)cb_count_wrong(v->stage, expected(v, i, c, dt, op, result), c, dt,
						    cmp_op, v->be->world_size);
		*hash = hash_bytes(*hash, v->stage, c * esz);
	}
	return CB_OK;
}
