/* cb_verify: moves deterministic inputs into a backend buffer and checks a
 * result buffer against the exact reference, through a bounded host staging
 * area (so a 2 GiB message needs no 2 GiB host copy). The reference for the
 * largest count of a (dtype, op) is computed once and cached when it fits
 * (<= 1 GiB); otherwise each piece is computed when compared. */
#ifndef CB_VERIFY_H
#define CB_VERIFY_H

#include <stddef.h>
#include <stdint.h>

#include "cb_algo.h"
#include "cb_backend.h"
#include "cb_dtype.h"
#include "cb_status.h"

struct cb_verify {
	struct cb_backend *be;
	size_t piece_bytes;   /* staging size, a multiple of 8 */
	void *stage, *ref_piece;
	void *ref_cache;      /* [cache_count] elements, or NULL */
	size_t cache_count, cache_cap_bytes;
	int cache_dt, cache_op; /* -1: empty */
};

/* Allocates staging for messages up to max_bytes. Errors: CB_ERR_NOMEM. */
enum cb_status cb_verify_init(struct cb_verify *v, struct cb_backend *be, size_t max_bytes);
void cb_verify_fini(struct cb_verify *v);

/* Writes this rank's input elements [0, count) into its part of buf. */
enum cb_status cb_verify_fill_input(struct cb_verify *v, struct cb_buf *buf, size_t count,
				    enum cb_dtype dt, enum cb_op op);

/* Writes the poison pattern (cb_fill_poison) over elements [0, count). */
enum cb_status cb_verify_poison(struct cb_verify *v, struct cb_buf *buf, size_t count,
				enum cb_dtype dt);

/* Makes the reference of (dt, op) for counts up to max_count available
 * (computes the cache if it fits and is not there yet). Errors: none but the
 * backend's; a reference too big to cache is computed piecewise later. */
enum cb_status cb_verify_prepare(struct cb_verify *v, enum cb_dtype dt, enum cb_op op,
				 size_t max_count);

/* Compares elements [0, count) of this rank's part of buf with the expected
 * result (the allreduce reference, or this rank's own input for
 * CB_RESULT_COPY): *wrong = mismatching elements, *hash = a hash of the bytes
 * (equal outputs give equal hashes on every rank). */
enum cb_status cb_verify_check(struct cb_verify *v, struct cb_buf *buf, size_t count,
			       enum cb_dtype dt, enum cb_op op, enum cb_result result,
			       long long *wrong, uint64_t *hash);

#endif
