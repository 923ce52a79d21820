# shellcheck shell=bash
# Shared helpers of the shell tests (sourced by tests/*/*.sh and
# tests/beds/*/*.sh). BIN: the build's bin directory (ctest passes it as $1 of
# each test). CB_TESTS_DIR: the tests/ folder, whose kinds (mpi/, tools/,
# beds/multihost/, ...) the scripts find one another in.
set -u
CB_TESTS_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
export CB_TESTS_DIR

# The header line of a summary.csv of schema collbench-summary-1, as the
# crafted inputs of compare.sh, model.sh and history.sh write it (the readers
# still take schema 1 beside the current one).
cb_summary1_header() { echo "schema,backend,algo,nranks,bytes,count,dtype,op,in_place,iters,time_us,time_us_median,time_us_min,time_us_max,algbw_GBps,busbw_GBps,wrong,tx_total_bytes,txrx_max_bytes,imbalance,status,warmup_iters,repeats,time_us_rep_min,time_us_rep_max,busbw_GBps_rep_min,busbw_GBps_rep_max,minflt_per_iter,time_us_median_rep_min,time_us_median_rep_max"; }

# mpirun that also works as root and with more ranks than cores (CI: 2 cores).
# `--mca op ^avx`: Open MPI 4.1's AVX reduction ops saturate 8-bit integer
# sums (int8 100 + 100 gives 127, not -56; open-mpi/ompi#8045, closed as
# wontfix), which collbench's check rightly reports as wrong. The tests check
# collbench's own code, so they run MPI_Allreduce with the plain C ops.
# Sanitizer builds: Open MPI's own leaks are suppressed (tests/lib/lsan.supp),
# collbench's are not; components stay loaded so their frames have names.
cb_mpirun() {
	cb_launch_env
	cb_one_mode "$@"
	mpirun --oversubscribe --mca op ^avx -x LSAN_OPTIONS "${cb_args[@]}"
}

# cb_mpirun's environment for launches the scripts make (sweep.sh calls
# mpirun itself; local ranks inherit it): as root, and in sanitizer builds
# Open MPI's own leaks suppressed.
cb_launch_env() {
	if [ "$(id -u)" = 0 ]; then
		export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
	fi
	cb_sanitizer_env
}

# In sanitizer builds, Open MPI's own leaks suppressed (and its components
# kept loaded, so that the leaks' frames are named), for ranks that mpirun
# starts from this environment (a binary's -g, which runs mpirun itself).
cb_sanitizer_env() {
	# full (slow) unwinding: Open MPI has no frame pointers, and a short
	# stack would hide the MPI frame that the suppressions match
	export LSAN_OPTIONS="suppressions=$CB_TESTS_DIR/lib/lsan.supp:print_suppressions=0:fast_unwind_on_malloc=0"
	export OMPI_MCA_mca_base_component_disable_dlclose=1 PMIX_MCA_mca_base_component_disable_dlclose=1
}
export -f cb_sanitizer_env cb_launch_env

# cb_one_mode ARGS...: sets cb_args to ARGS with --inplace 0 after each
# *_perf word (in each of mpirun's app contexts) unless ARGS name --inplace.
# cb_mpirun and cb_singleton run the binaries out of place only: both modes,
# their default, would double every test's run time; the tests of the modes
# say --inplace themselves. Exported, as cb_mpirun is for bash -c.
cb_one_mode() {
	local w ip=
	cb_args=()
	for w in "$@"; do case $w in --inplace | --inplace=*) ip=1 ;; esac; done
	for w in "$@"; do
		cb_args+=("$w")
		[ -n "$ip" ] || case $w in *_perf) cb_args+=(--inplace 0) ;; esac
	done
}
export -f cb_one_mode

# A singleton launch (no mpirun: one rank, its stdout is the caller's, not
# forwarded by mpirun), with cb_mpirun's environment and its one mode.
cb_singleton() {
	cb_launch_env
	cb_one_mode "$@"
	"${cb_args[@]}"
}

# cb_fake_squeue DIR: writes DIR/squeue, a stand-in for Slurm's squeue as
# scripts/lib_launch.sh calls it (-h -j JOB -o %T | %A | %N, -t RUNNING,
# -w NODE). FAKE_SQUEUE_STATE: the job's state (default RUNNING; "unknown":
# squeue's error for a job it does not know, as after its purge);
# FAKE_SQUEUE_NODES: the nodes the job runs on, space-separated.
cb_fake_squeue() {
	cat >"$1/squeue" <<'EOF'
#!/bin/sh
job= node= fmt=
while [ $# -gt 0 ]; do
	case $1 in -j) job=$2; shift ;; -w) node=$2; shift ;; -o) fmt=$2; shift ;; -t) shift ;; esac
	shift
done
state=${FAKE_SQUEUE_STATE:-RUNNING}
if [ "$state" = unknown ]; then
	echo "slurm_load_jobs error: Invalid job id specified" >&2
	exit 1
fi
if [ -n "$node" ]; then
	case " ${FAKE_SQUEUE_NODES-} " in *" $node "*) ;; *) exit 0 ;; esac
	[ "$state" = RUNNING ] || exit 0
fi
case $fmt in %T) echo "$state" ;; %A) echo "$job" ;; %N) echo "${FAKE_SQUEUE_NODES-}" ;; esac
EOF
	chmod +x "$1/squeue"
}

# 0 when an NVIDIA GPU is visible, or when the model's GPUs stand in for one
# (CB_CUDA_MODEL_GPUS > 0: tests/cuda_model runs a build linked with a host
# model of CUDA and NCCL)
cb_have_gpu() {
	[ "${CB_CUDA_MODEL_GPUS:-0}" -gt 0 ] 2>/dev/null && return 0
	command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L 2>/dev/null | grep '^GPU' >/dev/null
}

fail() {
	echo "FAIL: $*" >&2
	exit 1
}

# cb_copy_tree SRC DST: the source tree SRC (its tracked files and the
# untracked ones git does not ignore, without the committed runs and
# figures) copied into DST, a git repository of its own with the copy as its
# first commit, so a test can change it and list what changed (git status).
cb_copy_tree() {
	local src=$1 dst=$2
	command -v git >/dev/null || fail "git is needed to copy the tree"
	mkdir -p "$dst"
	(cd "$src" && git ls-files -co --exclude-standard | grep -v '^results/\|^plots/' | tar -cf - -T -) |
		tar -xf - -C "$dst"
	git -C "$dst" init -q && git -C "$dst" add -A &&
		git -C "$dst" -c user.name=t -c user.email=t@t commit -qm base
}

# Every line of a results file is complete (ends with a newline) and has as
# many fields as its header.
cb_complete_lines() {
	local f=$1
	[ -s "$f" ] || fail "$f is missing or empty"
	[ "$(tail -c1 "$f" | od -An -c | tr -d ' ')" = '\n' ] || fail "$f ends with a partial line"
	awk -F, 'NR == 1 { n = NF } NF != n { exit 1 }' "$f" || fail "$f has a row with a different field count"
}

# cb_mpirun across the hosts of the multihost test bed (tests/beds/multihost/):
# cb_mpirun_bed HOSTS ARGS... with HOSTS as mpirun's --host takes them
# (cbnode1:2,cbnode2:2). Each host gets its own Open MPI daemon in its own UTS
# namespace, started by the bed's launch agent instead of ssh.
# `--mca mpi_yield_when_idle 1`: each "host" believes it has all of the
# machine's cores, so Open MPI does not see the oversubscription and its
# ranks busy-poll; with 4 ranks on 2 cores a 4-byte MPI_Allreduce then takes
# 8-30 ms instead of ~25 us (measured on the 2-core CI VM).
# `--bind-to none`: the agent gives each host CPUs of its own (taskset), which
# Open MPI's binding would override, putting every host's first rank on core 0.
cb_mpirun_bed() {
	local hosts=$1
	shift
	cb_mpirun --mca plm_rsh_agent "$CB_TESTS_DIR/beds/multihost/agent.sh" --host "$hosts" \
		--bind-to none --mca mpi_yield_when_idle 1 "$@"
}
