/* Unit tests: chunk offsets (uneven counts), slices, the ring step map. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "cb_pattern.h"

/* Chunks tile [0, count) in order, the first count % n one element longer. */
static void test_chunks_tile_uneven_counts(void **state)
{
	static const size_t counts[] = { 0, 1, 2, 7, 8, 9, 1000, 1048573 };
	(void)state;
	for (size_t k = 0; k < sizeof(counts) / sizeof(counts[0]); k++)
		for (int n = 1; n <= 9; n++) {
			size_t next = 0, extra = counts[k] % (size_t)n;

			for (int c = 0; c < n; c++) {
				size_t off, cc;

				cb_chunk(counts[k], n, c, &off, &cc);
				assert_int_equal(off, next);
				assert_int_equal(cc, counts[k] / (size_t)n + ((size_t)c < extra));
				next += cc;
			}
			assert_int_equal(next, counts[k]);
			assert_int_equal(cb_chunk_max(counts[k], n),
					 counts[k] / (size_t)n + (extra ? 1 : 0));
		}
}

static void test_chunk_example(void **state)
{
	size_t off, cc;

	(void)state;
	/* 10 elements on 4 ranks: 3 3 2 2 */
	cb_chunk(10, 4, 1, &off, &cc);
	assert_int_equal(off, 3);
	assert_int_equal(cc, 3);
	cb_chunk(10, 4, 3, &off, &cc);
	assert_int_equal(off, 8);
	assert_int_equal(cc, 2);
}

/* 64-bit counts: chunk arithmetic does not wrap past 2^32 elements. */
static void test_chunk_large_count(void **state)
{
	size_t count = ((size_t)1 << 31) + 8, off, cc;

	(void)state;
	cb_chunk(count, 2, 1, &off, &cc);
	assert_int_equal(off, ((size_t)1 << 30) + 4);
	assert_int_equal(cc, ((size_t)1 << 30) + 4);
	count = ((size_t)5 << 32) + 3;
	cb_chunk(count, 3, 2, &off, &cc);
	assert_int_equal(off + cc, count);
}

static void test_slices_cover_chunk(void **state)
{
	(void)state;
	for (size_t ccount = 0; ccount < 40; ccount++)
		for (size_t sl = 1; sl < 12; sl++) {
			size_t nsl = ccount / sl + (ccount % sl ? 1 : 0) + 2, sum = 0, expect = 0;

			for (size_t j = 0; j < nsl; j++) {
				size_t off, sc;

				cb_slice(ccount, sl, j, &off, &sc);
				if (sc)
					assert_int_equal(off, expect);
				expect += sc;
				sum += sc;
				assert_true(sc <= sl);
			}
			assert_int_equal(sum, ccount);
		}
	assert_int_equal(cb_slice_num(0, 4, 8), 0);
	assert_int_equal(cb_slice_num(33, 4, 4), 3); /* largest chunk 9 */
}

/* Every rank receives each chunk but its own in the reduce-scatter and each
 * but chunk r+1 in the all-gather; it finishes reduce-scatter owning r+1. */
static void test_ring_steps(void **state)
{
	(void)state;
	for (int n = 2; n <= 9; n++)
		for (int r = 0; r < n; r++) {
			int seen_rs[16] = { 0 }, seen_ag[16] = { 0 };
			struct cb_ring_step st;

			for (int s = 0; s < cb_ring_nsteps(n); s++) {
				cb_ring_step(r, n, s, &st);
				assert_true(st.chunk >= 0 && st.chunk < n);
				if (st.reduce)
					seen_rs[st.chunk]++;
				else
					seen_ag[st.chunk]++;
				assert_int_equal(st.peer_send, s == 0);
				assert_int_equal(st.gather_index, s < n - 1 ? -1 : s - (n - 1));
			}
			cb_ring_step(r, n, n - 2, &st);
			assert_int_equal(st.chunk, (r + 1) % n);
			for (int c = 0; c < n; c++) {
				assert_int_equal(seen_rs[c], c == r ? 0 : 1);
				assert_int_equal(seen_ag[c], c == (r + 1) % n ? 0 : 1);
			}
		}
}

/* The chunk a rank reduces at step s is the one its left neighbour reduced
 * at step s - 1 (pull from the left). */
static void test_ring_pulls_left_partial(void **state)
{
	(void)state;
	for (int n = 2; n <= 9; n++)
		for (int r = 0; r < n; r++)
			for (int s = 1; s < cb_ring_nsteps(n); s++) {
				struct cb_ring_step mine, left;

				cb_ring_step(r, n, s, &mine);
				cb_ring_step(cb_ring_left(r, n), n, s - 1, &left);
				if (s != n - 1) /* first all-gather step reads the left's final chunk */
					assert_int_equal(mine.chunk, left.chunk);
			}
}

static void test_ps_slots(void **state)
{
	(void)state;
	assert_int_equal(cb_ps_slot(0, 2), 0);
	assert_int_equal(cb_ps_slot(1, 2), 1);
	assert_int_equal(cb_ps_slot(3, 2), 2);
	assert_int_equal(cb_ps_slot(1, 0), 0);
}

/* Slots are 256 B apart (16-byte vector access at the root for any size),
 * never closer than the largest message. */
static void test_ps_slot_bytes(void **state)
{
	static const size_t max[] = { 0, 1, 4, 12, 255, 256, 257, 1000, 1048573, (size_t)1 << 30 };

	(void)state;
	for (size_t i = 0; i < sizeof(max) / sizeof(max[0]); i++) {
		size_t s = cb_ps_slot_bytes(max[i]);

		assert_true(s >= max[i]);
		assert_true(s < max[i] + CB_PS_SLOT_ALIGN);
		assert_int_equal(s % CB_PS_SLOT_ALIGN, 0);
		for (int w = 1; w < 8; w++) /* root 0: worker w's slot offset */
			assert_int_equal((size_t)cb_ps_slot(w, 0) * s % 256, 0);
	}
	assert_int_equal(cb_ps_slot_bytes(12), 256);
	assert_int_equal(cb_ps_slot_bytes(256), 256);
	assert_int_equal(cb_ps_slot_bytes((size_t)1 << 40), (size_t)1 << 40);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_chunks_tile_uneven_counts),
		cmocka_unit_test(test_chunk_example),
		cmocka_unit_test(test_chunk_large_count),
		cmocka_unit_test(test_slices_cover_chunk),
		cmocka_unit_test(test_ring_steps),
		cmocka_unit_test(test_ring_pulls_left_partial),
		cmocka_unit_test(test_ps_slots),
		cmocka_unit_test(test_ps_slot_bytes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
