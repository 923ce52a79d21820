/* Unit test: NVML loaded at run time (cb_nvml.c) where it is missing or
 * fails, against a fake library (fake_nvml.c, named by CB_NVML_LIB): each
 * failure is a NULL handle or a reason, never a crash, and the reason says
 * what failed; and the topology stamp's JSON (cb_topo.c) read back. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cb_nvml.h"
#include "cb_topo.h"

static const char *fake; /* the fake library's path (argv[1]) */

/* cb_nvml_open with CB_NVML_LIB=lib and FAKE_NVML=mode ("" unsets it). */
static struct cb_nvml *open_with(const char *lib, const char *mode, char *why, size_t cap)
{
	setenv("CB_NVML_LIB", lib, 1);
	if (*mode)
		setenv("FAKE_NVML", mode, 1);
	else
		unsetenv("FAKE_NVML");
	why[0] = 0;
	return cb_nvml_open("0000:11:00.0", why, cap);
}

static void test_missing(void **state)
{
	char why[CB_NVML_TEXT];

	(void)state;
	assert_null(open_with("/nonexistent/libnvidia-ml.so.1", "", why, sizeof(why)));
	assert_true(strncmp(why, "no NVML (", 9) == 0 && strstr(why, "/nonexistent/libnvidia-ml.so.1"));
	/* a library without NVML's functions */
	assert_null(open_with("libc.so.6", "", why, sizeof(why)));
	assert_string_equal(why, "no NVML (the library lacks nvmlInit_v2)");
}

static void test_fails(void **state)
{
	char why[CB_NVML_TEXT];

	(void)state;
	assert_null(open_with(fake, "init", why, sizeof(why)));
	assert_string_equal(why, "no NVML (nvmlInit: Driver Not Loaded)");
	assert_null(open_with(fake, "bus", why, sizeof(why)));
	assert_string_equal(why, "NVML does not know GPU 0000:11:00.0 (Not Found)");
}

/* reads: the counters in bytes, or why there are none (every read) */
static void test_counters(void **state)
{
	char why[CB_NVML_TEXT];
	struct cb_nvml *nv = open_with(fake, "", why, sizeof(why));
	struct cb_nvml_facts f;
	uint64_t tx = 0, rx = 0;

	(void)state;
	assert_non_null(nv);
	assert_null(cb_nvml_read(nv, &tx, &rx));
	assert_true(tx == 5 * 1024 && rx == 7 * 1024);
	cb_nvml_facts(nv, &f);
	assert_true(f.known && f.nvlink_links == 2 && strcmp(f.name, "Fake GPU") == 0);
	cb_nvml_close(nv);
	nv = open_with(fake, "nolinks", why, sizeof(why));
	assert_non_null(nv);
	assert_string_equal(cb_nvml_read(nv, &tx, &rx), "no NVLink counters (no active NVLink link)");
	assert_string_equal(cb_nvml_read(nv, &tx, &rx), "no NVLink counters (no active NVLink link)");
	cb_nvml_close(nv);
	nv = open_with(fake, "counters", why, sizeof(why));
	assert_string_equal(cb_nvml_read(nv, &tx, &rx), "no NVLink counters (Not Supported)");
	cb_nvml_close(nv);
	/* NVLink 5: the byte counters where the KiB ones are not supported */
	nv = open_with(fake, "count5", why, sizeof(why));
	assert_null(cb_nvml_read(nv, &tx, &rx));
	assert_true(tx == 5000 && rx == 7000);
	assert_null(cb_nvml_read(nv, &tx, &rx));
	assert_true(tx == 5000 && rx == 7000);
	cb_nvml_close(nv);
}

static void test_topo_json(void **state)
{
	struct cb_topo t = { 1, "nvml", "NVIDIA H100 80GB HBM3", 8, 4, 18, 25.0, 1, 1, 5, 16, "" }, back;
	json_t *j = cb_topo_json(&t);

	(void)state;
	assert_non_null(j);
	assert_int_equal(cb_topo_from_json(j, &back), 0);
	assert_memory_equal(&t, &back, sizeof(t));
	json_object_del(j, "nvls"); /* absent: 0 */
	assert_int_equal(cb_topo_from_json(j, &back), 0);
	assert_int_equal(back.nvls, 0);
	assert_int_equal(back.known, 1);
	json_object_set_new(j, "nvls", json_string("yes")); /* another type */
	assert_int_equal(cb_topo_from_json(j, &back), -1);
	assert_int_equal(back.known, 0);
	json_decref(j);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_missing),
		cmocka_unit_test(test_fails),
		cmocka_unit_test(test_counters),
		cmocka_unit_test(test_topo_json),
	};

	if (argc < 2) {
		fprintf(stderr, "usage: test_nvml FAKE_NVML_LIBRARY\n");
		return 2;
	}
	fake = argv[1];
	return cmocka_run_group_tests(tests, NULL, NULL);
}
