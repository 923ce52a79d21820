/* Unit test: a launch's library configuration (bench/format/cb_libconf.h): which
 * variables count, the text form, the first difference, the one-line form. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "cb_libconf.h"

static void test_which_vars(void **state)
{
	(void)state;
	assert_true(cb_libconf_var("OMPI_MCA_coll_tuned_allreduce_algorithm"));
	assert_true(cb_libconf_var("OMPI_MCA_btl"));
	assert_true(cb_libconf_var("NCCL_ALGO"));
	assert_true(cb_libconf_var("UCX_TLS"));
	assert_false(cb_libconf_var("OMPI_MCA_mpi_oversubscribe"));
	assert_false(cb_libconf_var("OMPI_MCA_rmaps_base_oversubscribe"));
	assert_false(cb_libconf_var("OMPI_MCA_coll_tuned_use_dynamic_rules"));
	assert_true(cb_libconf_var("OMPI_MCA_coll_tuned_dynamic_rules_filename"));
	assert_false(cb_libconf_var("NCCL_DEBUG"));
	assert_false(cb_libconf_var("NCCL_DEBUG_SUBSYS"));
	assert_false(cb_libconf_var("UCX_LOG_LEVEL"));
	assert_false(cb_libconf_var("MALLOC_MMAP_MAX_"));
	assert_false(cb_libconf_var("NCCL")); /* not the prefix with its underscore */
}

/* Sorted by name, other variables left out; not an object of strings: -1. */
static void test_text(void **state)
{
	json_t *env = json_pack("{s:s, s:s, s:s, s:s}", "NCCL_PROTO", "LL", "MALLOC_MMAP_MAX_", "0",
				"OMPI_MCA_btl", "self,tcp", "NCCL_ALGO", "Ring");
	char out[CB_LIBCONF_MAX], small[24];

	(void)state;
	assert_int_equal(cb_libconf_text(env, out, sizeof(out)), 0);
	assert_string_equal(out, "NCCL_ALGO=Ring\nNCCL_PROTO=LL\nOMPI_MCA_btl=self,tcp\n");
	assert_int_equal(cb_libconf_text(env, small, sizeof(small)), -1);
	assert_int_equal(cb_libconf_text(NULL, out, sizeof(out)), 0);
	assert_string_equal(out, "");
	json_object_set_new(env, "NCCL_MIN_NCHANNELS", json_integer(4));
	assert_int_equal(cb_libconf_text(env, out, sizeof(out)), -1);
	json_decref(env);
	env = json_array();
	assert_int_equal(cb_libconf_text(env, out, sizeof(out)), -1);
	json_decref(env);
}

/* Open MPI's parameter files beside the environment: a file's setting where
 * the environment has none, the override file's over both; absent or null:
 * the environment alone; malformed: -1. */
static void test_launch(void **state)
{
	json_t *env = json_pack("{s:s}", "OMPI_MCA_btl", "self,tcp");
	json_t *files = json_pack("{s:[], s:{s:s, s:s, s:s}, s:{s:s}}", "files", "settings",
				  "OMPI_MCA_btl", "self,vader", "OMPI_MCA_coll_tuned_allreduce_algorithm",
				  "1", "OMPI_MCA_coll_tuned_use_dynamic_rules", "1", "override",
				  "OMPI_MCA_pml", "ob1");
	char out[CB_LIBCONF_MAX];

	(void)state;
	assert_int_equal(cb_libconf_launch(env, files, out, sizeof(out)), 0);
	assert_string_equal(out, "OMPI_MCA_btl=self,tcp\nOMPI_MCA_coll_tuned_allreduce_algorithm=1\n"
				 "OMPI_MCA_pml=ob1\n");
	json_object_set_new(json_object_get(files, "override"), "OMPI_MCA_btl", json_string("tcp"));
	assert_int_equal(cb_libconf_launch(env, files, out, sizeof(out)), 0);
	assert_string_equal(out, "OMPI_MCA_btl=tcp\nOMPI_MCA_coll_tuned_allreduce_algorithm=1\n"
				 "OMPI_MCA_pml=ob1\n");
	assert_int_equal(cb_libconf_launch(NULL, files, out, sizeof(out)), 0);
	assert_int_equal(cb_libconf_launch(env, NULL, out, sizeof(out)), 0);
	assert_string_equal(out, "OMPI_MCA_btl=self,tcp\n");
	json_object_set_new(files, "settings", json_pack("{s:i}", "OMPI_MCA_btl", 1));
	assert_int_equal(cb_libconf_launch(env, files, out, sizeof(out)), -1);
	json_decref(files);
	json_decref(env);
}

static void test_diff(void **state)
{
	char name[64], a[64], b[64], line[64];

	(void)state;
	assert_int_equal(cb_libconf_diff("", "", name, a, b, sizeof(name)), 0);
	assert_int_equal(cb_libconf_diff("A=1\nB=2\n", "A=1\nB=2\n", name, a, b, sizeof(name)), 0);
	/* set on one side only, either side */
	assert_int_equal(cb_libconf_diff("", "X=1\n", name, a, b, sizeof(name)), 1);
	assert_string_equal(name, "X");
	assert_string_equal(a, "");
	assert_string_equal(b, "1");
	assert_int_equal(cb_libconf_diff("A=1\nX=1\n", "A=1\n", name, a, b, sizeof(name)), 1);
	assert_string_equal(name, "X");
	assert_string_equal(a, "1");
	assert_string_equal(b, "");
	/* another value; a name that is a prefix of another sorts first */
	assert_int_equal(cb_libconf_diff("A=1\nB=2\n", "A=1\nB=3\n", name, a, b, sizeof(name)), 1);
	assert_string_equal(name, "B");
	assert_string_equal(a, "2");
	assert_string_equal(b, "3");
	assert_int_equal(cb_libconf_diff("AB=1\n", "A=1\nAB=1\n", name, a, b, sizeof(name)), 1);
	assert_string_equal(name, "A");
	assert_string_equal(a, "");
	/* an empty value is set, not unset */
	assert_int_equal(cb_libconf_diff("A=\n", "A=1\n", name, a, b, sizeof(name)), 1);
	cb_libconf_line("A=1\nB=x y\n", line, sizeof(line));
	assert_string_equal(line, "A=1 B=x y");
	cb_libconf_line("A=12345\n", line, 4);
	assert_string_equal(line, "A=1");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_which_vars),
		cmocka_unit_test(test_text),
		cmocka_unit_test(test_launch),
		cmocka_unit_test(test_diff),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
