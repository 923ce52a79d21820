#!/usr/bin/env bash
# test.sh: installs what is missing, builds with warnings as errors and runs
# every test under ctest; then builds with -fsanitize=address,undefined and
# runs the tests again (all but the memory-hungry `large` one). The plain
# build also runs the reader's fuzz target (clang, libFuzzer) for 60 s.
#   scripts/test.sh            both builds
#   scripts/test.sh --quick    the plain build only
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
	run_build build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCB_SANITIZE=ON
	(cd build-asan && ctest --output-on-failure -j 2 -LE large)
fi
echo "collbench: all tests passed"
