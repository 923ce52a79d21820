#!/usr/bin/env bash
# test.sh: installs what is missing, builds with warnings as errors and runs
# the tests under ctest: the default run (a few minutes), or --full, the
# matrix of CI. Options: the table below (lib_opts.sh's form); the steps'
# helpers (timing, builds, ctest) in dev/lib_test.sh, the package lists in
# dev/deps.sh. Exit status: 0 every test passed, 1 a step failed (or what
# is missing could not be installed), 2 usage.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

# ---- the full run ------------------------------------------------------------
# The test labels only --full runs, after the default tests, a step each:
# FULL_LABELS in dev/lib_test.sh (the tiers, in one place), then the planted
# bugs (dev/mutants.sh: each must be caught by the default tier), then the
# further builds below.
# Further builds --full makes and tests, in order: a function full_<name> each
# (its commands joined with &&: step() runs it where set -e does not apply).
FULL_BUILDS=(no_mpi host_only sanitizer)
# The plans' in-process tests, built alike in every build (no MPI, CUDA or
# NCCL in them): the first build runs them, the others do not again
SAME_CODE_RE='^(unit_plan|unit_plan_coll|unit_allpairs)$'

# no_mpi: a tree where MPI is not found builds the tools that only read or
# write results (compare, history, model, results) and their tests, with no
# MPI, CUDA or NCCL library among their needs (results_no_runtime), and
# nothing that needs MPI (no allreduce_perf)
full_no_mpi() {
	build build-nompi -DCMAKE_BUILD_TYPE=Release -DCMAKE_DISABLE_FIND_PACKAGE_MPI=ON &&
		[ ! -e build-nompi/bin/allreduce_perf ] && [ -x build-nompi/bin/collbench-compare ] &&
		run_ctest build-nompi -LE "$(labels_re "${FULL_LABELS[@]}")" -E "$SAME_CODE_RE"
}

# host_only: the cuda backend left out (CB_WITH_CUDA=OFF) must build and work
# (its unit tests, the smoke matrix at 2 ranks, the errors)
full_host_only() {
	build build-host -DCMAKE_BUILD_TYPE=Release -DCB_WITH_CUDA=OFF &&
		run_ctest build-host -R '^(unit_|mpi_.*_np2_|err_)' -LE "$(labels_re "${FULL_LABELS[@]}")" \
			-E "$SAME_CODE_RE"
}
# sanitizer: -fsanitize=address,undefined over the unit and in-process tests
# (the executors at every n, ranks as threads) and the smoke matrix (every
# collective over shm and p2p at 2 and 3 ranks, in place or not, a root not
# 0): the code every other test runs, once. The whole default run under the
# sanitizers took over 36 minutes on the 2-vCPU AMD EPYC VM (2026-12-05).
# Not mpi_libconf_basic_priority: under coll_basic_priority 100 and the
# monitoring --mpi-traffic sets, Open MPI 4.1.4's coll/monitoring crashes
# (SEGV in mca_coll_monitoring.so) in any program built with ASan, a
# ten-line MPI_Allreduce included (2026-12-06).
full_sanitizer() {
	build build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCB_SANITIZE=ON &&
		run_ctest build-asan -L '^(unit|mpi)$' -E '^(mpi_traffic_|mpi_libconf_basic_priority$)'
}
# -----------------------------------------------------------------------------

# shellcheck disable=SC2034 # lib.sh's messages name it
PROG=test.sh
. scripts/lib.sh
. dev/deps.sh
. dev/lib_test.sh
cb_opts_new none "usage: scripts/test.sh [--full]"
cb_opts_text head <<EOF
Installs what is missing, builds with warnings as errors and runs the tests
under ctest. Each step says its wall and CPU time, the load average and how
much of the CPUs other work took meanwhile, so a slow run on a shared machine
can be told apart.
  scripts/test.sh          the default tier, about 3.5 minutes: one Release
                           build (the cuda backend compiled when CUDA and
                           NCCL are there; its GPU tests skip without a GPU)
                           and every test without a label of the full tier
                           (docs/testing.md)
EOF
#      long  letter value kind variable default
cb_opt full  - - flag full  0 "the full tier (CI, 20-odd minutes): the default" \
	"tier, then each label it leaves out, a step each:" \
	"${FULL_LABELS[*]};" \
	"then the planted bugs (dev/mutants.sh), then the" \
	"further builds and their tests: ${FULL_BUILDS[*]}"
cb_opt quick - - flag quick 0 "the default run (its old name)"
cb_opts_parse "$@"

packages=$CB_DEB_TEST_PACKAGES
[ $full = 0 ] || packages="$packages $CB_DEB_FULL_PACKAGES"
# shellcheck disable=SC2086 # package lists
cb_install_deps $packages

jobs=$(nproc)
# ctest jobs: one per CPU. The MPI tests' ranks poll while they wait for a
# peer, so tests run beside each other on fewer CPUs than their ranks starve
# each other's peers: at twice the CPUs, on a 2-vCPU VM, one test took 25x
# its time alone and the full run did not end in CI's 90 minutes (see
# docs/testing.md). The two that time a hurt rank run alone (RUN_SERIAL in
# tests/mpi/CMakeLists.txt).
ctest_jobs=$jobs
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

mark
m_start=$mark
fuzz=OFF
[ $full = 0 ] || fuzz=ON
# CB_CUDA_MODEL: the cuda backend's tests on a host model of CUDA and NCCL
# (tests/cuda_model, label cuda_model: --full), beside the normal binaries
step "build" build build-test -DCMAKE_BUILD_TYPE=Release -DCB_FUZZ=$fuzz -DCB_CUDA_MODEL=ON
step "tests" run_ctest build-test -LE "$(labels_re "${FULL_LABELS[@]}")"
if [ $full = 1 ]; then
	for l in "${FULL_LABELS[@]}"; do
		step "full: $l" run_ctest build-test -L "^$l\$"
	done
	step "full: mutants" dev/mutants.sh --no-baseline
	for b in "${FULL_BUILDS[@]}"; do
		step "full: $b" "full_$b"
	done
fi
since "$m_start"
echo "collbench: all tests passed ($([ $full = 1 ] && echo "--full" || echo "default run"): $took)"
