/* Unit tests: the cuda backend's decisions that need no GPU (cb_cuda_plan.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "cb_cuda_plan.h"
#include "cb_pattern.h"

static void test_ipc_alloc_bytes(void **state)
{
	(void)state;
	assert_int_equal(cb_ipc_alloc_bytes(0), CB_IPC_GRANULE);
	assert_int_equal(cb_ipc_alloc_bytes(1), CB_IPC_GRANULE);
	assert_int_equal(cb_ipc_alloc_bytes(CB_IPC_GRANULE), CB_IPC_GRANULE);
	assert_int_equal(cb_ipc_alloc_bytes(CB_IPC_GRANULE + 1), 2 * CB_IPC_GRANULE);
	assert_int_equal(cb_ipc_alloc_bytes(((size_t)1 << 31) + 8), ((size_t)1 << 31) + CB_IPC_GRANULE);
}

/* Ranks bind to local rank mod GPUs: 4 ranks on 1 GPU all use GPU 0. */
static void test_local_device(void **state)
{
	(void)state;
	assert_int_equal(cb_local_device(0, 1), 0);
	assert_int_equal(cb_local_device(3, 1), 0);
	assert_int_equal(cb_local_device(5, 8), 5);
	assert_int_equal(cb_local_device(9, 8), 1);
}

static void test_sharing(void **state)
{
	char ids[4][32] = { "0000:19:00.0", "0000:3b:00.0", "0000:19:00.0", "0000:19:00.0" };

	(void)state;
	assert_int_equal(cb_ranks_sharing_gpu(&ids[0][0], 32, 4, 0), 3);
	assert_int_equal(cb_ranks_sharing_gpu(&ids[0][0], 32, 4, 1), 1);
	assert_int_equal(cb_ranks_sharing_gpu(&ids[0][0], 32, 1, 0), 1);
}

/* head + 16-byte vectors + tail cover the span exactly, and the vector part
 * starts on a 16-byte boundary of all three pointers. */
static void test_vec_split_covers(void **state)
{
	static const size_t esz[] = { 1, 2, 4, 8 };

	(void)state;
	for (size_t e = 0; e < 4; e++)
		for (uintptr_t off = 0; off < 32; off += esz[e])
			for (size_t count = 0; count < 70; count++) {
				uintptr_t base = 0x1000 + off;
				struct cb_vec_plan p = cb_vec_split(base, base + 4096, base + 8192,
								    count, esz[e]);

				assert_int_equal(p.head + p.nvec * (16 / esz[e]) + p.tail, count);
				if (p.nvec)
					assert_int_equal((base + p.head * esz[e]) % 16, 0);
				assert_true(p.tail < 16 / esz[e]);
			}
}

static void test_vec_split_misaligned_is_scalar(void **state)
{
	struct cb_vec_plan p = cb_vec_split(0x1000, 0x1004, 0x1000, 100, 4);

	(void)state;
	assert_int_equal(p.head, 100);
	assert_int_equal(p.nvec, 0);
	assert_int_equal(p.tail, 0);
	p = cb_vec_split(0x1001, 0x2001, 0x3001, 100, 2); /* not even element-aligned */
	assert_int_equal(p.nvec, 0);
	p = cb_vec_split(0x1008, 0x2008, 0x3008, 100, 4); /* 2 floats to the boundary */
	assert_int_equal(p.head, 2);
	assert_int_equal(p.nvec, 24);
	assert_int_equal(p.tail, 2);
}

/* The root's ps reduce (recv = send op slot) keeps 16-byte vectors for every
 * slot and message size: slots are 256 B apart on 256 B-aligned allocations
 * (cudaMalloc). Spaced max_bytes apart, a 12-byte message would put slot 1
 * at offset 12 (a 1000-byte one at 1000), and the whole reduce would be scalar. */
static void test_ps_slots_vector_aligned(void **state)
{
	static const size_t sizes[] = { 4, 12, 20, 1000, 1048572, 4194300 };
	uintptr_t send = 0x7f0000000000, recv = 0x7f0040000000, slots = 0x7f0080000000;

	(void)state;
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		size_t stride = cb_ps_slot_bytes(sizes[i]), count = sizes[i] / 4;

		for (int w = 1; w < 8; w++) {
			struct cb_vec_plan p = cb_vec_split(recv, send, slots + (size_t)cb_ps_slot(w, 0) * stride,
							    count, 4);

			assert_int_equal(p.head, 0);
			assert_int_equal(p.nvec, count / 4);
		}
	}
	/* the old spacing, for contrast: slot 1 of a 1000-byte message is scalar */
	assert_int_equal(cb_vec_split(recv, send, slots + 1000, 250, 4).nvec, 0);
}

static void test_grid_blocks(void **state)
{
	(void)state;
	assert_int_equal(cb_grid_blocks(0, 512, 4, 528), 1);
	assert_int_equal(cb_grid_blocks(1, 512, 4, 528), 1);
	assert_int_equal(cb_grid_blocks(2048, 512, 4, 528), 1);
	assert_int_equal(cb_grid_blocks(2049, 512, 4, 528), 2);
	assert_int_equal(cb_grid_blocks((size_t)1 << 30, 512, 4, 528), 528);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ipc_alloc_bytes),
		cmocka_unit_test(test_local_device),
		cmocka_unit_test(test_sharing),
		cmocka_unit_test(test_vec_split_covers),
		cmocka_unit_test(test_vec_split_misaligned_is_scalar),
		cmocka_unit_test(test_ps_slots_vector_aligned),
		cmocka_unit_test(test_grid_blocks),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
