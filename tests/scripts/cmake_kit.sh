#!/usr/bin/env bash
# The CUDA kit's checks at configure time (cmake/cuda.cmake): an old CUDA or
# NCCL (simulated with CB_TEST_CUDA_VERSION / CB_TEST_NCCL_VERSION) builds
# what it can and says why; the real build links the shared CUDA runtime
# only and carries an RPATH to NCCL's folder.
#   cmake_kit.sh SOURCE_DIR BUILD_DIR
# Skipped (77) where the build has no cuda backend (no toolkit found).
set -uo pipefail
src=$1 build=$2
fail() { echo "FAIL: $*" >&2; exit 1; }
grep -q '^CMAKE_CUDA_COMPILER:' "$build/CMakeCache.txt" 2>/dev/null ||
	{ echo "skipped: this build has no CUDA toolkit"; exit 77; }
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT

configure() { # NAME ARGS...: configure a fresh tree, its output in $t/NAME.log
	local name=$1
	shift
	cmake -S "$src" -B "$t/$name" -DCB_BUILD_TESTS=OFF "$@" >"$t/$name.log" 2>&1 ||
		{ cat "$t/$name.log" >&2; fail "$name: cmake failed"; }
}

configure cuda124 -DCB_TEST_CUDA_VERSION=12.4
grep -q 'collbench: CUDA 12.4 is older than 12.5, which the cuda backend needs.*building the host backend only' \
	"$t/cuda124.log" || { cat "$t/cuda124.log" >&2; fail "CUDA 12.4: no message saying the host backend only"; }
! grep -q 'cuda backend on' "$t/cuda124.log" || fail "CUDA 12.4: the cuda backend was configured"

if grep -q '^NCCL_LIBRARY:.*nccl' "$build/CMakeCache.txt"; then
	configure nccl213 -DCB_TEST_NCCL_VERSION=2.13
	grep -q 'cuda backend on (CUDA .*, without NCCL (NCCL 2.13 at .* is older than 2.14' "$t/nccl213.log" ||
		{ cat "$t/nccl213.log" >&2; fail "NCCL 2.13: no message saying NCCL is left out"; }
	nccl_dir=$(sed -n 's/^NCCL_LIBRARY:[A-Z]*=\(.*\)\/[^/]*$/\1/p' "$build/CMakeCache.txt")
	rpath=$(readelf -d "$build/bin/allreduce_perf" | sed -n 's/.*(R[UN]*PATH).*\[\(.*\)\]/\1/p')
	case ":$rpath:" in
	*":$nccl_dir:"*) ;;
	*) fail "allreduce_perf's RPATH '$rpath' lacks NCCL's folder $nccl_dir" ;;
	esac
fi
link=$build/bench/CMakeFiles/allreduce_perf.dir
[ -d "$link" ] || fail "no link rule of allreduce_perf in $link"
! cat "$link"/link.txt "$link"/linkLibs.rsp 2>/dev/null | grep 'cudart_static' >/dev/null ||
	fail "allreduce_perf links the static CUDA runtime beside the shared one"
echo "ok"
