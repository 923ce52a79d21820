#!/usr/bin/env bash
# test.sh: installs what is missing, builds with warnings as errors and runs
# the tests under ctest.
#   scripts/test.sh          the default run, a few minutes: one Release build
#                            (the cuda backend compiled when CUDA and NCCL are
#                            there; its GPU tests skip without a GPU) and every
#                            test but those of the full matrix
#   scripts/test.sh --full   the full matrix (CI): the default run, then the
#                            labels it leaves out (FULL_LABELS), then the
#                            further builds and their tests (FULL_BUILDS)
# --quick is the default's old name. Each step says its wall and CPU time, the
# load average and how much of the CPUs other work took meanwhile, so a slow
# run on a shared machine can be told apart.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

# ---- the full matrix, in one place ------------------------------------------
# Test labels only --full runs, in the first build, after the default tests:
# large:   2^31 + 8 int8 elements on 2 ranks (needs ~14 GiB of memory + /dev/shm)
# fuzz:    the reader's fuzz target, CB_FUZZ_SECONDS (60 s), clang + libFuzzer
# count1m: the MPI integration tests again with 1048573 elements in the host
#          backend's own slices (the default run has one of them)
# multihost: the multi-host test bed (tests/multihost/README.md): as root,
#          several "hosts" on this machine; skipped elsewhere
# slurm:   the Slurm job scripts against a private single-node Slurm
#          (tests/slurm/README.md): as root; skipped elsewhere
FULL_LABELS=(large fuzz count1m multihost slurm)
# Further builds --full makes and tests, in order: a function full_<name> each
# (its commands joined with &&: step() runs it where set -e does not apply).
FULL_BUILDS=(host_only sanitizer)

# host_only: the cuda backend left out (CB_WITH_CUDA=OFF) must build and work
full_host_only() {
	build build-host -DCMAKE_BUILD_TYPE=Release -DCB_WITH_CUDA=OFF &&
		run_ctest build-host -R '^(unit_|mpi_np2_|err_)' -LE "$(labels_re "${FULL_LABELS[@]}")"
}
# sanitizer: -fsanitize=address,undefined, every test of the default run (not
# the lint, which builds nothing)
full_sanitizer() {
	build build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCB_SANITIZE=ON &&
		run_ctest build-asan -LE "$(labels_re "${FULL_LABELS[@]}" lint)"
}
# -----------------------------------------------------------------------------

full=0
case ${1:-} in
--full) full=1 ;;
"" | --quick) ;;
-h | --help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
*) echo "test.sh: unknown option '$1' (--full, --help)" >&2; exit 2 ;;
esac

# shellcheck disable=SC2034 # lib.sh's messages name it
PROG=test.sh
. dev/deps.sh
. scripts/lib.sh
packages=$CB_DEB_TEST_PACKAGES
[ $full = 0 ] || packages="$packages $CB_DEB_FULL_PACKAGES"
# shellcheck disable=SC2086 # package lists
cb_install_deps $packages

jobs=$(nproc)
# ctest jobs: the MPI tests oversubscribe the cores anyway and many tests
# mostly wait (mpirun start-up, sleeps); the two that time a hurt rank run
# alone (RUN_SERIAL in tests/CMakeLists.txt)
ctest_jobs=$((jobs * 2))
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

load() { cut -d' ' -f1-3 /proc/loadavg; }
# mark: sets mark to "wall own-CPU machine-busy" seconds now (in this shell:
# cb_children_cpu must not run in a subshell)
mark() {
	cb_children_cpu "$tmp/times"
	# shellcheck disable=SC2154 # cb_children_cpu (lib.sh) sets cb_cpu
	mark="$SECONDS $cb_cpu $(cb_busy_seconds)"
}
# since MARK: sets took to what happened since MARK: wall and CPU seconds, the
# share of the CPUs other work used, the load average now
since() {
	local t0 c0 b0 t1 c1 b1
	read -r t0 c0 b0 <<<"$1"
	mark
	read -r t1 c1 b1 <<<"$mark"
	took="$((t1 - t0)) s wall, $(awk -v a="$c0" -v b="$c1" 'BEGIN { printf "%.0f", b - a }') s CPU;"
	took+=" other work used $(cb_other_share "$b0" "$b1" "$c0" "$c1" "$((t1 - t0))")% of the $jobs CPUs"
	took+=" meanwhile; load average $(load)"
}
# step NAME COMMAND...: runs COMMAND, then says what it took
step() {
	local name=$1 m0
	shift
	mark
	m0=$mark
	echo "== test.sh: $name (load average $(load))" >&2
	"$@" || { echo "== test.sh: $name FAILED after $((SECONDS - ${m0%% *})) s (see above)" >&2; exit 1; }
	since "$m0"
	echo "== test.sh: $name: $took" >&2
}
build() {
	local dir=$1
	shift
	cmake -S . -B "$dir" -DCB_WERROR=ON "$@" >/dev/null &&
		cmake --build "$dir" -j "$jobs" >/dev/null
}
run_ctest() {
	local dir=$1
	shift
	(cd "$dir" && ctest --output-on-failure -j "$ctest_jobs" "$@")
}
labels_re() { local IFS='|'; echo "^($*)\$"; }

mark
m_start=$mark
fuzz=OFF
[ $full = 0 ] || fuzz=ON
step "build" build build-test -DCMAKE_BUILD_TYPE=Release -DCB_FUZZ=$fuzz
step "tests" run_ctest build-test -LE "$(labels_re "${FULL_LABELS[@]}")"
if [ $full = 1 ]; then
	step "full: ${FULL_LABELS[*]}" run_ctest build-test -L "$(labels_re "${FULL_LABELS[@]}")"
	for b in "${FULL_BUILDS[@]}"; do
		step "full: $b" "full_$b"
	done
fi
since "$m_start"
echo "collbench: all tests passed ($([ $full = 1 ] && echo "--full" || echo "default run"): $took)"
