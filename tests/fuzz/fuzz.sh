#!/usr/bin/env bash
# Builds the reader's fuzz target with clang (tests/fuzz/CMakeLists.txt) and
# runs it for a bounded time on a copy of the seed corpus (tests/fuzz/corpus/).
# Fails on any crash, sanitizer report (ASan, UBSan, leaks) or timeout; the
# input that failed is left as BUILD_DIR/crash-* (or leak-*, timeout-*).
#   fuzz.sh CLANG BUILD_DIR SECONDS
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cc=$1 dir=$2 secs=$3

cmake -S "$here" -B "$dir" -DCMAKE_C_COMPILER="$cc" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$dir" >/dev/null
rm -rf "$dir/corpus"
mkdir -p "$dir/corpus"
cp "$here"/corpus/* "$dir/corpus/"
# -timeout: one input may take at most 10 s; -rss_limit_mb: no runaway memory;
# -max_len: results files of interest are small, and short inputs mutate fast
"$dir/fuzz_results" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -max_len=4096 \
	-print_final_stats=1 -artifact_prefix="$dir/" "$dir/corpus" 2>"$dir/fuzz.log" || {
	tail -n 60 "$dir/fuzz.log" >&2
	echo "FAIL: the fuzz target found a problem; input saved as $dir/{crash,leak,timeout}-*" >&2
	exit 1
}
grep -E "^stat::number_of_executed_units|^Done" "$dir/fuzz.log" || true
echo "fuzz.sh: no crash or sanitizer report in $secs s"
