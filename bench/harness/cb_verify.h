/* cb_verify: moves deterministic inputs into a backend buffer and checks a
 * result buffer against the exact reference, through a bounded host staging
 * area (so a 2 GiB message needs no 2 GiB host copy). The reference for the
 * largest count of a (dtype, op) is computed once and cached when it fits
 * (<= 1 GiB); otherwise each piece is computed when compared. Counts are
 * the collective's (cb_coll.h); a rank's send and receive ranges are its
 * collective's sizes, in place at its in-place offsets (cb_coll_offsets),
 * its inputs and expected result the collective's. */
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
	enum cb_coll coll;    /* what is checked: allreduce unless cb_verify_coll */
	int root, in_place;
};

/* Allocates staging for messages up to max_bytes. Errors: CB_ERR_NOMEM. */
enum cb_status cb_verify_init(struct cb_verify *v, struct cb_backend *be, size_t max_bytes);
void cb_verify_fini(struct cb_verify *v);

/* The collective, root and mode every later call is about. Never fails. */
void cb_verify_coll(struct cb_verify *v, enum cb_coll coll, int root, int in_place);

/* Writes this rank's input (its send range for count) into its part of buf. */
enum cb_status cb_verify_fill_input(struct cb_verify *v, struct cb_buf *buf, size_t count,
				    enum cb_dtype dt, enum cb_op op);

/* Writes the poison pattern (cb_fill_poison) over its receive range for count. */
enum cb_status cb_verify_poison(struct cb_verify *v, struct cb_buf *buf, size_t count,
				enum cb_dtype dt);

/* Makes the reference of (dt, op) for counts up to max_count available
 * (computes the cache if it fits and is not there yet). Errors: none but the
 * backend's; a reference too big to cache is computed piecewise later. */
enum cb_status cb_verify_prepare(struct cb_verify *v, enum cb_dtype dt, enum cb_op op,
				 size_t max_count);

/* Compares this rank's receive range for count in its part of buf with the
 * expected result (its collective's, or this rank's own input for
 * CB_RESULT_COPY): *wrong = mismatching elements, *hash = a hash of the bytes
 * (equal outputs give equal hashes on every rank). A rank without a result
 * (reduce's non-roots) compares nothing: 0 and the empty hash. */
enum cb_status cb_verify_check(struct cb_verify *v, struct cb_buf *buf, size_t count,
			       enum cb_dtype dt, enum cb_op op, enum cb_result result,
			       long long *wrong, uint64_t *hash);

#endif
