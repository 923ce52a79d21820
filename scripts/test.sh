#!/usr/bin/env bash
# test.sh: installs what is missing, builds with warnings as errors and runs
# every test under ctest (the cuda backend is compiled when CUDA and NCCL are
# there; its GPU tests skip without a GPU), the results reader's fuzz target
# (clang, libFuzzer) for 60 s among them; then a host-only build
# (CB_WITH_CUDA=OFF) and its unit and quick MPI tests; then a build with
# -fsanitize=address,undefined and every test but the memory-hungry `large`.
#   scripts/test.sh            all three builds
#   scripts/test.sh --quick    the first build only
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
. scripts/deps.sh
# shellcheck disable=SC2086
cb_install_deps $CB_DEB_TEST_PACKAGES

jobs=$(nproc)
run_build() {
	local dir=$1
	shift
	cmake -S . -B "$dir" -DCB_WERROR=ON "$@" >/dev/null
	cmake --build "$dir" -j "$jobs" >/dev/null
}

run_build build-test -DCMAKE_BUILD_TYPE=Release -DCB_FUZZ=ON
(cd build-test && ctest --output-on-failure -j 2)
if [ "${1:-}" != --quick ]; then
	run_build build-host -DCMAKE_BUILD_TYPE=Release -DCB_WITH_CUDA=OFF
	(cd build-host && ctest --output-on-failure -j 2 -R 'unit_|mpi_np2_|err_')
	run_build build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCB_SANITIZE=ON
	(cd build-asan && ctest --output-on-failure -j 2 -LE large)
fi
echo "collbench: all tests passed"
