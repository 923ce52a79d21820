# shellcheck shell=bash
# shellcheck disable=SC2154 # test.sh's jobs, ctest_jobs and tmp (below)
# lib_test.sh: sourced by scripts/test.sh and dev/mutants.sh: the test tiers
# (FULL_LABELS), and test.sh's steps (each timed and said on stderr: wall and
# CPU time, the load average, how much of the CPUs other work took
# meanwhile, so a slow run on a shared machine can be told apart), builds
# and ctest runs. Reads test.sh's jobs (build jobs), ctest_jobs and tmp (a
# scratch folder); uses lib.sh's cb_children_cpu, cb_busy_seconds and
# cb_other_share.

# ---- the tiers, in one place -------------------------------------------------
# The default run (scripts/test.sh) is every test without one of the labels
# below: the unit and in-process tests (unit: the executors with ranks as
# threads at n = 1..9, 12, 16, 17, the plans, the reduce at every dtype x
# op), the smoke mpirun matrix (mpi: each collective x shm and p2p x in and
# out of place at 2 and 3 ranks), the errors with a killed rank and the
# watchdog, the tools end to end, the scripts, style and docs. A test in a
# label below runs in --full only, each label a step of its own, in this
# order (docs/testing.md: what moved here, and the times):
# products:  the plan tests' full products (every dtype x op) and the
#            thread-rank matrix at every element size
# matrix:    the mpirun matrix at 1, 2, 3, 4, 5 and 8 ranks, in and out of
#            place, every dtype, roots, both transports; the time shapes at 4
# count1m:   the mpirun matrix with 1048573 elements in the backend's slices
# traffic:   library traffic from Open MPI's monitoring (MPI_Allreduce, the
#            all-gather, the forced algorithms, a sweep's files)
# stress:    the wait stress on 8 ranks; the hurt ranks beyond the default's
#            (each transport, between rows, a scheduler's signal), set-up
#            under -T
# sweeps:    whole sweeps (regress.sh's, the history's, a sweep and a Slurm
#            job stopped), a new algorithm added and rebuilt in a copy
# large:     2^31 + 8 int8 elements on 2 ranks (~14 GiB of memory and
#            /dev/shm); the plans at 1000003 elements
# fuzz:      the reader's fuzz target, CB_FUZZ_SECONDS (60 s), clang +
#            libFuzzer
# multihost: the multi-host test bed (tests/beds/multihost/README.md): as
#            root, several "hosts" on this machine; skipped elsewhere
# slurm:     the Slurm job scripts against a private single-node Slurm
#            (tests/beds/slurm/README.md): as root; skipped elsewhere
# cuda_model: the cuda backend under mpirun on a host model of CUDA and NCCL
#            (tests/cuda_model)
# docs:      the manual's command blocks marked full (tests/scripts/docs.sh):
#            its sweeps, and bench.sh from a fresh build
# model_e2e: the cost model's and the regression check's figures read back
#            from SVG, and scripts/model.sh end to end (20 s each)
# shellcheck disable=SC2034 # test.sh and mutants.sh read it
FULL_LABELS=(products matrix count1m traffic stress sweeps large fuzz multihost slurm cuda_model docs model_e2e)

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

# step NAME COMMAND...: runs COMMAND, then says what it took; exits 1 (said)
# when it fails
step() {
	local name=$1 m0
	shift
	mark
	m0=$mark
	echo "== test.sh: $name (load average $(load))" >&2
	"$@" || cb_die 1 "$name FAILED after $((SECONDS - ${m0%% *})) s (see above)"
	since "$m0"
	echo "== test.sh: $name: $took" >&2
}

# build DIR CMAKE_OPTIONS...: configures (warnings as errors) and builds DIR
build() {
	local dir=$1
	shift
	cmake -S . -B "$dir" -DCB_WERROR=ON "$@" >/dev/null &&
		cmake --build "$dir" -j "$jobs" >/dev/null
}

# run_ctest DIR CTEST_OPTIONS...: the tests of the build in DIR
run_ctest() {
	local dir=$1
	shift
	(cd "$dir" && ctest --output-on-failure -j "$ctest_jobs" "$@")
}

# labels_re LABEL...: a ctest regular expression that matches those labels
labels_re() { local IFS='|'; echo "^($*)\$"; }
