/* Fuzz target (libFuzzer) for collbench-compare's reader: the same CSV and
 * validation code as the tool (cb_results_parse_csv over cb_table_parse and
 * libcsv), and the metadata parser (cb_results_parse_meta over jansson) for
 * inputs that start with '{'. Inputs that parse are then compared with a
 * fixed baseline and with themselves, and printed in every format to
 * /dev/null, so the join, verdicts and output code see them too.
 * Built by tests/fuzz/CMakeLists.txt with clang -fsanitize=fuzzer,address,
 * undefined; run by tests/fuzz/fuzz.sh (ctest label fuzz). */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "cb_compare.h"
#include "cb_compare_out.h"
#include "cb_compat.h"
#include "cb_results.h"
#include "cb_results_load.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char baseline_csv[] =
	"schema,backend,algo,nranks,bytes,count,dtype,op,in_place,iters,time_us,algbw_GBps,"
	"busbw_GBps,status,repeats,time_us_rep_min,time_us_rep_max,busbw_GBps_rep_min,"
	"busbw_GBps_rep_max\n"
	"collbench-summary-1,host,ring,2,1048576,262144,float,sum,0,20,100,10.48,10.48,ok,3,99,"
	"101,10.38,10.59\n"
	"collbench-summary-1,host,copy,2,1048576,262144,float,sum,0,20,90,11.65,,ok,3,89,91,,\n"
	"collbench-summary-1,host,mpi,2,8,2,half,sum,0,20,,,,skipped:no half in MPI,3,,,,\n";

static void compare_and_print(const struct cb_results *b, const struct cb_results *c,
			      FILE *sink)
{
	struct cb_compare_opts o = { .metric = CB_METRIC_BUSBW, .stat = CB_STAT_MEDIAN,
				     .tolerance = 0.05, .noise_cap = 0.1 };
	struct cb_out_info info = { "b", "c", &o, CB_GATE_PASS };
	struct cb_comparison cmp;
	char err[256], line[256];

	cb_compat_check(b, "b", c, "c", NULL, 1, sink);
	for (int m = CB_METRIC_BUSBW; m <= CB_METRIC_TIME; m++) {
		o.metric = (enum cb_metric)m;
		if (cb_compare_runs(b, c, NULL, NULL, &o, &cmp, err, sizeof(err)) != CB_OK)
			continue;
		info.gate = cb_compare_gate(&cmp, 1);
		for (int f = CB_FMT_TABLE; f <= CB_FMT_JSON; f++)
			cb_compare_print(sink, (enum cb_format)f, &cmp, &info);
		cb_compare_summary(&cmp, line, sizeof(line));
		cb_comparison_free(&cmp);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct cb_results base;
	static FILE *sink;
	struct cb_results cur;
	struct cb_res_launch launch;
	char err[512];

	if (!sink) {
		sink = fopen("/dev/null", "w");
		if (!sink || cb_results_parse_csv(baseline_csv, strlen(baseline_csv), "base",
						  &base, err, sizeof(err)) != CB_OK)
			__builtin_trap();
	}
	if (size > 0 && data[0] == '{') {
		cb_results_parse_meta((const char *)data, size, "fuzz.meta.json", &launch, err,
				      sizeof(err));
		return 0;
	}
	memset(&cur, 0, sizeof(cur));
	if (cb_results_parse_csv((const char *)data, size, "fuzz.csv", &cur, err, sizeof(err)) ==
	    CB_OK) {
		compare_and_print(&base, &cur, sink);
		compare_and_print(&cur, &cur, sink);
	} else if (!err[0] || cur.rows || cur.nrows) {
		__builtin_trap(); /* an error must say why and leave nothing behind */
	}
	cb_results_free(&cur);
	return 0;
}
