/* test_run_dir.h: a run folder for tests of the tools that read results:
 * dir/name (dir from test_tmpdir.h, included first) with a
 * collbench-summary-3 summary.csv of the given rows (lines after the
 * header below, each ending in a newline) and one launch sidecar,
 * np2.meta.json, of a 2-rank host run. */
#ifndef TEST_RUN_DIR_H
#define TEST_RUN_DIR_H

#include <stdio.h>
#include <sys/stat.h>

#define TEST_RUN_HEADER \
	"schema,backend,algo,nranks,bytes,count,dtype,op,in_place,iters,time_us,algbw_GBps," \
	"busbw_GBps,status,transport,nhosts,collective\n"

static void put_run_dir(const char *name, const char *rows)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	assert_int_equal(mkdir(path, 0700), 0);
	snprintf(path, sizeof(path), "%s/%s/summary.csv", dir, name);
	assert_non_null(f = fopen(path, "w"));
	fprintf(f, TEST_RUN_HEADER "%s", rows);
	assert_int_equal(fclose(f), 0);
	snprintf(path, sizeof(path), "%s/%s/np2.meta.json", dir, name);
	assert_non_null(f = fopen(path, "w"));
	fprintf(f, "{\"schema\": \"collbench-meta-1\", \"backend\": \"host\", \"device\": \"\", "
		"\"start_utc\": \"2026-12-02T10:00:00Z\", \"host\": {\"cpu_model\": \"T\", "
		"\"cpus_online\": 2, \"hostname\": \"t\"}, \"mpi\": {\"nranks\": 2, "
		"\"ranks_per_node\": 2, \"nnodes\": 1}, \"status\": \"complete\"}\n");
	assert_int_equal(fclose(f), 0);
}

#endif
