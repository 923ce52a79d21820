#!/usr/bin/env bash
# device-check.sh: everything a lent GPU box (one H100 or H200, no package
# registry, no Open MPI) must run, in one call of at most 5 minutes of steps
# (the lease is 15 minutes with the machine's start: a rerun must fit). Each
# step has its own time limit and is followed by packing its logs and the
# partial results into $OUT, so a call cut short still brings its evidence
# back. What only a GPU can show comes first: the backend's host logic (IPC
# handles, ordering of work, errors, teardown, NCCL set-up, faults) runs every
# day in CI on the CUDA model (tests/cuda_model, docs/backends.md), which
# cannot show memory ordering between processes on a GPU, the kernels,
# performance or real NCCL. The unit tests are not run here: CI runs them,
# and on the box they only said the build works.
#   0 prerequisites: the carried kit, nvcc, NCCL, `mpirun -np 2 true`, no
#     library "not found" (ldd); says everything missing at once          30 s
#   1 probe: configure, build cuda_probe only, run it at 2 and 4 ranks: the
#     GPU, driver and runtime, IPC between processes, a stream wait on a
#     peer-written counter in both layouts (waiting on its own memory, and
#     on the peer's), one handoff ordered on the GPU and through the host,
#     copies at 1 rank and at all at once; persistence mode and MPS. It is
#     the first GPU call: without a GPU the check stops here, exit 4        60 s
#   2 build          allreduce_perf, cuda_bw and check_results (sm_90)     80 s
#   3 first_gpu: cuda_bw (copy and reduce-kernel references)               15 s
#   4 runs in the backend's own ordering (its set-up probe chooses stream or
#     host ordering, and says why): every dtype x op checked at np 2 (ordering and
#     visibility between processes on the GPU), every collective's
#     algorithms at np 1, 2, 4 (a few counts, checked, traffic = plan),
#     then the sweep np 1, 2, 4, 8 B .. 256 MiB, -n 5, checked            85 s
#   5 host-ordered runs (CB_CUDA_SYNC=host) np 2 and 4, 8 B .. 16 MiB,
#     --timing loop at np 1, 8 B .. 1 MiB, and ps and ring over p2p (NCCL
#     ncclSend/ncclRecv) at np 2: checked with their traffic on two GPUs or
#     more; on one GPU they must skip saying the ranks share it; -G 10
#     (CUDA graphs) stream-ordered at np 2, checked; nccl.sym, nccl.ce,
#     nccl.reg (NCCL's windows, copy engines, registration), and
#     nccl.<algo>.<proto> rows, checked, with what NCCL chose (the
#     profiler plugin) and the NVLink counters' verdict                   30 s
# and prints a short table last (from summary.csv, or from the per-rank-count
# np<N>.csv files when the sweep was cut short). Every launch has -T and
# --setup-timeout below its step's limit, so a stuck run is named by the
# watchdog (rank, phase, size) first. The budget, 300 s, is what the steps
# may take at most; CB_DC_DRYRUN=1 prints each step's commands and limit and
# their sum without running them (tests/scripts/device_check.sh checks it).
# Module loading is the user's default (lazy since CUDA 12.2): nothing forces
# CUDA_MODULE_LOADING.
#
# Prepare once on a machine with apt (.device/ is git-ignored; name it in carry):
# fetch the Open MPI kit into .device/ompi (Debian 12's openmpi-bin and
# libopenmpi-dev with their dependencies, unpacked on the box by the kit's
# use-openmpi.sh), and
#   mkdir -p .device/nccl/include && cp /usr/local/cuda/include/nccl.h .device/nccl/include/
# Carry .device without .device/ompi/root (9 MB, not 45: the kit unpacks itself
# on the box; a run here leaves root/ behind: rm -rf .device/ompi/root).
# Run:  dev/device-check.sh            (OUT defaults to ./device-out)
# $OUT receives at most 7 files: summary.txt, facts.txt, probe.txt, table.txt,
# roofline.txt, logs.tgz, results.tgz. Exit: 0 done (see the table), 1 a step failed or
# timed out, 2 prerequisites missing, 4 no GPU visible (the build ran).
# Options: the table below (scripts/lib_opts.sh's form).
set -uo pipefail
self=$(cd "$(dirname "$0")" && pwd)/$(basename "$0")
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root" || exit 2
PROG=device-check.sh
. scripts/lib.sh
cb_opts_new none "usage: dev/device-check.sh [--table DIR]"
cb_opts_text head <<'EOF'
Everything a lent GPU box must run (this script's header says what, and how to
prepare the carried kit), each step under its own time limit; its evidence
goes to $OUT (default ./device-out) after every step.
EOF
#      long  letter value kind variable default
cb_opt table - DIR  path table_dir '' \
	"print the table again from an unpacked logs.tgz and results.tgz in DIR"
cb_opt second - - flag second 0 \
	"the optional second call (after a first that passed, same build folder):" \
	"large sizes (256 MiB .. 4 GiB) and a race hunt (every timed call checked)"
cb_opt step  - NAME text step_name '' \
	"run one step (probe, build, first_gpu, stream, host_loop) as the driver does," \
	"under its timeout; the context comes from DC_WORK, DC_BUILD, DC_NCCL_*"
cb_opts_text tail <<'EOF'
Environment: OUT (where the evidence goes), DC_BUILD (the build folder,
default build-device), DC_LIMITS (the steps' limits in
seconds: "probe build gpu stream host", default "60 80 15 85 30"), CB_DC_DRYRUN=1
(print each step's commands and limit, and their sum, and run nothing).
Exit status: 0 done (see the table), 1 a step failed or timed out, 2
prerequisites missing or usage, 4 no GPU visible (the build ran).
EOF
# shellcheck disable=SC2154 # set by cb_opts_parse from the table
cb_opts_parse "$@"
second=${second:-0} # set by cb_opts_parse (said here for shellcheck)

# ---- the steps, each run as "device-check.sh --step NAME" under timeout -----
# (context comes through the environment: DC_WORK, DC_BUILD, DC_NCCL_*)

# configure once (the probe's step does it first; the build's step again
# only where it was not done)
configure() {
	local gen=()
	[ -f "$DC_BUILD/CMakeCache.txt" ] && grep -q 'collbench: cuda backend' "$DC_WORK/logs/configure.log" 2>/dev/null &&
		return 0
	command -v ninja >/dev/null && gen=(-G Ninja)
	cmake -S "$root" -B "$DC_BUILD" "${gen[@]}" -DCMAKE_BUILD_TYPE=Release -DCB_WITH_HISTORY=OFF \
		-DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_CUDA_COMPILER="$(command -v nvcc)" \
		-DNCCL_INCLUDE_DIR="$DC_NCCL_INC" -DNCCL_LIBRARY="$DC_NCCL_LIB" \
		${MPI_C_COMPILER:+-DMPI_C_COMPILER="$MPI_C_COMPILER"} >"$DC_WORK/logs/configure.log" 2>&1 ||
		{ tail -20 "$DC_WORK/logs/configure.log"; return 1; }
	grep 'collbench: cuda backend' "$DC_WORK/logs/configure.log" ||
		{ echo "the build has no cuda backend (configure.log)"; return 1; }
}

# The probe (bench/harness/cuda_probe.c) at 2 and 4 ranks on this box's
# GPU(s), and what the driver says of persistence and MPS: the facts a
# window that ends here still leaves ($OUT/probe.txt). Exit 4: no GPU.
step_probe() {
	local np
	if [ -n "${CB_DC_DRYRUN:-}" ]; then
		echo "  cmake -S . -B build-device -DCMAKE_CUDA_ARCHITECTURES=90 -DCB_WITH_HISTORY=OFF ..."
		echo "  cmake --build build-device --target cuda_probe"
		for np in 2 4; do echo "  mpirun -np $np build-device/bin/cuda_probe -n 50 -s 64M"; done
		return 0
	fi
	configure || return 1
	cmake --build "$DC_BUILD" -j "$(nproc)" --target cuda_probe >"$DC_WORK/logs/build-probe.log" 2>&1 ||
		{ tail -30 "$DC_WORK/logs/build-probe.log"; return 1; }
	{
		echo "== persistence mode, compute mode: $(nvidia-smi --query-gpu=persistence_mode,compute_mode --format=csv,noheader 2>&1 | head -1)"
		if pgrep -x nvidia-cuda-mps-server >/dev/null || pgrep -x nvidia-cuda-mps-control >/dev/null; then
			echo "== MPS: running (ranks that share a GPU run concurrently)"
		else
			echo "== MPS: not running (ranks that share a GPU time-slice it; the suite never starts MPS)"
		fi
	} >"$DC_WORK/probe.txt"
	for np in 2 4; do
		echo "== cuda_probe, $np ranks" >>"$DC_WORK/probe.txt"
		timeout -k 5 25 mpirun --oversubscribe -np "$np" "$DC_BUILD/bin/cuda_probe" -n 50 -s 64M \
			>>"$DC_WORK/probe.txt" 2>"$DC_WORK/logs/probe-np$np.err"
		if grep -q 'no usable GPU' "$DC_WORK/probe.txt"; then
			cat "$DC_WORK/probe.txt"
			return 4
		fi
	done
	cat "$DC_WORK/probe.txt"
	return 0
}

step_build() {
	if [ -n "${CB_DC_DRYRUN:-}" ]; then
		echo "  cmake --build build-device --target allreduce_perf cuda_bw check_results cb_nccl_profiler"
		return 0
	fi
	configure || return 1
	cmake --build "$DC_BUILD" -j "$(nproc)" --target allreduce_perf cuda_bw check_results cb_nccl_profiler \
		>"$DC_WORK/logs/build.log" 2>&1 ||
		{ tail -30 "$DC_WORK/logs/build.log"; return 1; }
	grep -q 'backends built: host,cuda' <("$DC_BUILD/bin/allreduce_perf" --help 2>&1) ||
		{ echo "the build has no cuda backend (configure.log)"; return 1; }
	# where every dependency came from (the kit, where one was carried)
	grep -E '^(MPI_C_COMPILER|MPI_mpi_LIBRARY|PKG_CONFIG_EXECUTABLE|pkgcfg_lib_|CSV_|NCCL_|CMAKE_CUDA_COMPILER)[A-Za-z_]*:' \
		"$DC_BUILD/CMakeCache.txt"
	ldd "$DC_BUILD/bin/allreduce_perf" | grep -E 'libmpi|jansson|libcsv|nccl|cudart|not found'
	! ldd "$DC_BUILD/bin/allreduce_perf" | grep 'not found' >/dev/null ||
		{ echo "allreduce_perf: a library not found (above)"; return 1; }
	return 0
}

step_first_gpu() {
	# the first GPU call: device references, bytes read + written per second
	[ -n "${CB_DC_DRYRUN:-}" ] && { echo "  build-device/bin/cuda_bw -n 20 64M 256M"; return 0; }
	"$DC_BUILD/bin/cuda_bw" -n 20 64M 256M >"$DC_WORK/roofline.txt" 2>&1
	case $? in
	0) cat "$DC_WORK/roofline.txt" ;;
	1) grep -q 'no usable GPU' "$DC_WORK/roofline.txt" && { cat "$DC_WORK/roofline.txt"; return 4; }
	   cat "$DC_WORK/roofline.txt"; return 1 ;;
	*) cat "$DC_WORK/roofline.txt"; return 1 ;;
	esac
}

# One allreduce_perf launch: NP, a name for its files, then its options
# (binary: DC_PERF, allreduce_perf unless a collective's name is wanted).
# Every launch is watched: -T and --setup-timeout well below any step's limit.
# Out of place only (--inplace 0: the steps' limits were set for one mode)
# unless the options name --inplace.
# CB_DC_DRYRUN=1: the command is printed, not run.
launch() {
	local np=$1 name=$2 mode=(--inplace 0)
	shift 2
	case " $* " in *" --inplace "*) mode=() ;; esac
	dc_run mpirun --oversubscribe -x NCCL_DEBUG ${CB_CUDA_SYNC:+-x CB_CUDA_SYNC} -np "$np" \
		"$DC_BUILD/bin/${DC_PERF:-allreduce_perf}" -B cuda "${mode[@]}" "$@" -T 15 --setup-timeout 20 \
		--csv "$DC_WORK/run/$name.csv" --rank-csv "$DC_WORK/run/$name.ranks.csv" \
		">$DC_WORK/run/$name.txt" "2>$DC_WORK/logs/$name.err"
}
# dc_run CMD... [">FILE" "2>FILE"]: runs CMD with the redirections given as
# its last words, or prints it all under CB_DC_DRYRUN.
dc_run() {
	local out=/dev/null err=/dev/null
	if [ -n "${CB_DC_DRYRUN:-}" ]; then
		echo "  $*"
		return 0
	fi
	while :; do
		case ${*: -1} in
		2\>*) err=${*: -1}; err=${err#2>} ;;
		\>*) out=${*: -1}; out=${out#>} ;;
		*) break ;;
		esac
		set -- "${@:1:$#-1}"
	done
	"$@" >"$out" 2>"$err"
}
# check CSV RANKS NP [check_results options]: #wrong 0, statuses, traffic
check() {
	local csv=$1 ranks=$2 np=$3
	shift 3
	[ -n "${CB_DC_DRYRUN:-}" ] && return 0
	"$DC_BUILD/bin/check_results" "$csv" "$ranks" "$np" 0 "$@"
}

step_stream() {
	local rc=0
	# the backend's own choice of ordering (its set-up probe: stream-ordered
	# where the driver takes it and no GPU is shared, else host-ordered; the
	# rows' device text says which and why)
	unset CB_CUDA_SYNC
	# every dtype x op, uneven counts, in place and not, traffic formulas:
	# np 2 is where ordering and visibility between processes show
	if ! launch 2 dtypes-np2 -d all -o all --counts 0,1,3,1048573 -n 1 -w 1 -c 1 ||
		! check "$DC_WORK/run/dtypes-np2.csv" "$DC_WORK/run/dtypes-np2.ranks.csv" 2 \
			>>"$DC_WORK/logs/dtypes.log" 2>&1; then
		echo "every dtype x op at np 2: FAILED (dtypes-np2.err, dtypes.log)"
		rc=1
	elif [ -z "${CB_DC_DRYRUN:-}" ]; then
		echo "every dtype x op, np 2: checked, traffic formulas hold"
	fi
	step_colls || rc=1
	if [ -n "${CB_DC_DRYRUN:-}" ]; then
		echo "  scripts/sweep.sh --backend cuda --ranks '1 2 4' --minbytes 8 --maxbytes 256M --iters 5 --check 1 ..."
		return "$rc"
	fi
	CB_BIN="$DC_BUILD/bin" "$root/scripts/sweep.sh" --backend cuda --ranks "1 2 4" --minbytes 8 \
		--maxbytes 256M --stepfactor 2 --iters 5 --warmup_iters 2 --check 1 --out "$DC_WORK/run/stream" \
		-- -T 15 --setup-timeout 20 >"$DC_WORK/logs/sweep.log" 2>&1 ||
		{ echo "sweep reported a failure (sweep.log)"; rc=1; }
	return "$rc"
}

# The collectives and their binaries, "NAME PERF" a line (allreduce
# all_reduce_perf, ...), from each collective's description
# (collectives/plans/cb_coll_<name>.c), as CMake makes the links.
perf_names() {
	sed -n 's/.*\.name = "\([a-z_]*\)", \.perf_name = "\([a-z_]*\)".*/\1 \2/p' \
		"$root"/collectives/plans/cb_coll_*.c
}

# every collective but allreduce (the binaries named as nccl-tests'
# perf_names lists) at np 1, 2 and 4 on the GPU(s): their plans over IPC and the
# NCCL call, checked, traffic = plan
step_colls() {
	local rc=0 np c perf done=()
	while read -r c perf; do
		[ "$c" != allreduce ] || continue
		done+=("$c")
		for np in 1 2 4; do
			if ! DC_PERF=$perf launch "$np" "$c-np$np" -d float,int32 -o sum,max \
				--counts 0,4,1048576 -n 2 -w 1 -c 1 ||
				! check "$DC_WORK/run/$c-np$np.csv" "$DC_WORK/run/$c-np$np.ranks.csv" "$np" \
					--coll "$c" >>"$DC_WORK/logs/colls.log" 2>&1; then
				echo "$c at np $np: FAILED ($c-np$np.err, colls.log)"
				rc=1
			fi
		done
	done < <(perf_names)
	[ "$rc" = 0 ] && [ -z "${CB_DC_DRYRUN:-}" ] && echo "${done[*]} at np 1, 2, 4: checked, traffic = plan"
	return "$rc"
}

step_host_loop() {
	local rc=0 np mode
	export CB_CUDA_SYNC=host # np 1 orders nothing between ranks: 2 and 4 only
	for np in 2 4; do
		# np 2: both modes on each row (the buffers switched between them;
		# copy refuses in place)
		[ "$np" = 2 ] && mode=(--inplace both) || mode=()
		launch "$np" "hostsync-np$np" --algo ps,ring,copy -b 8 -e 16M -f 4 -n 5 -w 2 -c 1 \
			"${mode[@]}" ||
			{ echo "host-ordered run at np $np failed (hostsync-np$np.err)"; rc=1; }
	done
	unset CB_CUDA_SYNC
	launch 1 loop-np1 --timing loop -b 8 -e 1M -f 4 -n 100 -w 10 -c 0 ||
		{ echo "--timing loop run failed (loop-np1.err)"; rc=1; }
	# -G (CUDA graphs), stream-ordered: each call captured once (the stream
	# waits as memory-operation nodes, the posts as counter kernels) and
	# launched 10 times per timed call; the check launches the graph after
	# all of them
	export CB_CUDA_SYNC=stream
	if ! launch 2 graph-np2 --algo ps,ring,nccl -G 10 -b 8 -e 256K -f 32 -n 5 -w 2 -c 1 ||
		! check "$DC_WORK/run/graph-np2.csv" "$DC_WORK/run/graph-np2.ranks.csv" 2 \
			>>"$DC_WORK/logs/graph.log" 2>&1; then
		echo "-G 10 at np 2: FAILED (graph-np2.err, graph.log)"
		rc=1
	fi
	unset CB_CUDA_SYNC
	step_p2p || rc=1
	step_nccl_paths || rc=1
	return "$rc"
}

# NCCL's newer paths (docs/library.md): nccl.sym, nccl.ce, nccl.reg on their own
# ncclMemAlloc'd, registered buffers beside nccl, checked: np 2 on two GPUs
# or more (the paths), np 1 on one (real NCCL's allocation, registration
# and calls; a one-rank communicator takes no symmetric kernel)
step_nccl_paths() {
	local gpus np=1 rc=0
	gpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')
	[ "${gpus:-0}" -ge 2 ] && np=2
	launch "$np" paths-ar --algo nccl,nccl.sym,nccl.reg -d float,bfloat16 -b 8 -e 16M -f 8 -n 5 -w 2 -c 1 ||
		rc=1
	# NCCL's algorithms and protocols forced, a communicator each (few sizes)
	launch "$np" nccl-forced --algo nccl,nccl.ring.ll,nccl.ring.ll128,nccl.ring.simple,nccl.tree.simple,nccl.nvls.simple \
		-d float -b 1K -e 1M -f 32 -n 3 -w 1 -c 1 || rc=1
	DC_PERF=all_gather_perf launch "$np" paths-ag --algo nccl,nccl.sym,nccl.ce -d float -b 8 -e 16M \
		-f 8 -n 5 -w 2 -c 1 || rc=1
	[ "$rc" = 0 ] || { echo "nccl.sym/ce/reg at np $np: FAILED (paths-ar.err, paths-ag.err, nccl-forced.err)"; return 1; }
	[ -n "${CB_DC_DRYRUN:-}" ] && return 0
	echo "nccl.sym, nccl.ce, nccl.reg, nccl.<algo>.<proto> at np $np: checked (paths-ar.csv, paths-ag.csv)"
	# what NCCL chose (the profiler plugin) and the hardware counters' verdict
	awk -F, 'FNR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["algo"] == "nccl" { printf "  nccl %s B: chose %s/%s/%sch\n", $c["bytes"], $c["nccl_algo"],
			$c["nccl_proto"], $c["nccl_channels"] }
		{ hw[$c["hw_traffic"]]++ } END { for (k in hw) printf "  hw_traffic %s: %d rows\n", k, hw[k] }' \
		"$DC_WORK/run/paths-ar.csv" "$DC_WORK/run/nccl-forced.csv" 2>/dev/null | sort -u | head -20
}

# ps and ring over p2p at np 2: NCCL point-to-point needs a GPU per rank
step_p2p() {
	local gpus
	gpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')
	launch 2 p2p-np2 --transport p2p --algo ps,ring -d float,int8,half -o sum,avg \
		--counts 0,1,3,8,262144,1048573 -n 2 -w 1 -c 1 ||
		{ echo "p2p run at np 2 failed (p2p-np2.err)"; return 1; }
	[ -n "${CB_DC_DRYRUN:-}" ] && return 0
	if [ "$gpus" -ge 2 ]; then
		check "$DC_WORK/run/p2p-np2.csv" "$DC_WORK/run/p2p-np2.ranks.csv" 2 --transport p2p \
			>>"$DC_WORK/logs/p2p.log" 2>&1 ||
			{ echo "p2p at np 2: FAILED (p2p.log)"; return 1; }
		echo "p2p at np 2 on $gpus GPUs: checked, traffic formulas hold"
	elif grep -q 'skipped:ranks share a GPU' "$DC_WORK/run/p2p-np2.csv"; then
		echo "p2p at np 2 on one GPU: ps and ring skip (ranks share the GPU), as they must"
	else
		echo "p2p at np 2 on one GPU: rows do not say the ranks share it (p2p-np2.csv)"
		return 1
	fi
}

# The second call's steps. large: the sweep's largest sizes, where a buffer
# split into many slices and chunks shows what the small ones cannot.
step_large() {
	if [ -n "${CB_DC_DRYRUN:-}" ]; then
		echo "  scripts/sweep.sh --backend cuda --ranks '1 2 4' --minbytes 256M --maxbytes 4G --iters 3 --check 1 ..."
		return 0
	fi
	CB_BIN="$DC_BUILD/bin" "$root/scripts/sweep.sh" --backend cuda --ranks "1 2 4" --minbytes 256M \
		--maxbytes 4G --stepfactor 2 --iters 3 --warmup_iters 1 --check 1 --out "$DC_WORK/run/large" \
		-- -T 15 --setup-timeout 60 >"$DC_WORK/logs/large.log" 2>&1 ||
		{ echo "the large sweep reported a failure (large.log)"; return 1; }
	echo "large sizes at np 1, 2, 4: checked"
}

# race: one timed call a row (-n 1, no warm-up), each checked, over many
# counts (odd ones, every remainder of a chunk split), dtypes and every
# collective, at np 2 and 4: every timed call is a checked call, so a race
# between ranks' steps that a checked call after the timed loop would miss
# shows as #wrong
step_race() {
	local rc=0 np perf c counts
	counts=$(awk 'BEGIN { c = 1; for (k = 0; k < 30; k++) { printf "%s%d", k ? "," : "", c + k % 5; c = int(c * 1.6) + 1 } }')
	while read -r c perf; do
		for np in 2 4; do
			if ! DC_PERF=$perf launch "$np" "race-$c-np$np" -d float,int8,half -o sum \
				--counts "$counts" -n 1 -w 0 -c 1 ||
				! check "$DC_WORK/run/race-$c-np$np.csv" "$DC_WORK/run/race-$c-np$np.ranks.csv" "$np" \
					--coll "$c" >>"$DC_WORK/logs/race.log" 2>&1; then
				echo "race hunt, $c at np $np: FAILED (race-$c-np$np.err, race.log)"
				rc=1
			fi
		done
	done < <(perf_names)
	[ "$rc" = 0 ] && [ -z "${CB_DC_DRYRUN:-}" ] && echo "race hunt: every timed call checked, none wrong"
	return "$rc"
}

if [ -n "$step_name" ]; then
	declare -F "step_$step_name" >/dev/null || cb_die 2 "--step: no step '$step_name'"
	"step_$step_name"
	exit $?
fi

# ---- the driver ---------------------------------------------------------------

say() { echo "[device-check $(date +%T)] $*" | tee -a "$OUT/summary.txt" >&2; }

# Logs and results so far into $OUT, each archive replaced whole (a call cut
# short mid-pack keeps the previous one).
pack() {
	tar -czf "$OUT/logs.tgz.part" -C "$DC_WORK" logs roofline.txt 2>/dev/null ||
		tar -czf "$OUT/logs.tgz.part" -C "$DC_WORK" logs 2>/dev/null
	mv -f "$OUT/logs.tgz.part" "$OUT/logs.tgz"
	tar -czf "$OUT/results.tgz.part" -C "$DC_WORK" run 2>/dev/null &&
		mv -f "$OUT/results.tgz.part" "$OUT/results.tgz"
	[ -f "$DC_WORK/roofline.txt" ] && cp "$DC_WORK/roofline.txt" "$OUT/roofline.txt"
	[ -f "$DC_WORK/probe.txt" ] && cp "$DC_WORK/probe.txt" "$OUT/probe.txt"
	true
}
finish() { pack; table >"$OUT/table.txt" 2>&1; cat "$OUT/table.txt"; rm -rf "$DC_WORK"; exit "$1"; }
# stop WHY [CODE]: the check ends early: said, packed, the table, exit CODE (1)
stop() { say "STOP: $1"; finish "${2:-1}"; }

# The arguments that are non-empty files (a glob that matched nothing, a
# launch that wrote nothing), one per line.
present() { local f; for f in "$@"; do [ -s "$f" ] && echo "$f"; done; }

# Rows of the CSV files given, columns read by name from each file's header
# (statuses never hold commas): the small, 1 MiB and largest sizes.
rows() {
	local files
	mapfile -t files < <(present "$@")
	set -- "${files[@]}"
	[ $# -gt 0 ] || { echo "(none)"; return 0; }
	awk -F, 'FNR == 1 { delete c; for (i = 1; i <= NF; i++) c[$i] = i; next }
		($(c["bytes"]) == 8 || $(c["bytes"]) == 1048576 || $(c["bytes"]) >= 134217728) {
		printf "%-5s n=%-2s %11s B  time %10s us  busbw %8s  algbw %8s  wrong %3s  %s\n",
			$(c["algo"]), $(c["nranks"]), $(c["bytes"]), $(c["time_us"]), $(c["busbw_GBps"]),
			$(c["algbw_GBps"]), $(c["wrong"]), $(c["status"]) }' "$@" 2>/dev/null
}
not_ok() {
	local files
	mapfile -t files < <(present "$@")
	set -- "${files[@]}"
	[ $# -gt 0 ] || { echo 0; return 0; }
	awk -F, 'FNR == 1 { delete c; for (i = 1; i <= NF; i++) c[$i] = i; next }
		$(c["status"]) != "ok" && $(c["status"]) !~ /^skipped/' "$@" 2>/dev/null | wc -l
}
table() {
	local d="$DC_WORK/run" s=()
	echo "== probe (cuda_probe: IPC, stream waits in both counter layouts, handoffs, copies)"
	grep -E '^(==|runtime|ipc|wait|host|copy\.)' "$DC_WORK/probe.txt" 2>/dev/null || echo "(not run)"
	echo "== device references (bytes read + written per second)"
	cat "$DC_WORK/roofline.txt" 2>/dev/null || echo "(not run)"
	echo "== sweep, the backend's own ordering (busbw GB/s; copy: algbw)"
	if [ -s "$d/stream/summary.csv" ]; then
		s=("$d/stream/summary.csv")
	else # cut short: whatever the launches wrote, np by np
		mapfile -t s < <(present "$d"/stream/np1.csv "$d"/stream/np2.csv "$d"/stream/np4.csv)
		[ ${#s[@]} -gt 0 ] && echo "(no summary.csv: from ${s[*]##*/})"
	fi
	rows "${s[@]}"
	echo "== host-ordered sync (CB_CUDA_SYNC=host)"
	rows "$d"/hostsync-np*.csv
	echo "== --timing loop, np 1 (compare the small sizes with the sweep's np 1 rows)"
	rows "$d"/loop-np1.csv
	echo "== ps and ring over p2p (NCCL point-to-point), np 2"
	rows "$d"/p2p-np2.csv
	echo "== rows not ok (error: or wrong): $(not_ok "${s[@]}" "$d"/dtypes-np*.csv "$d"/hostsync-np*.csv "$d"/loop-np1.csv "$d"/p2p-np2.csv)"
}

run_step() { # NAME LIMIT
	local t0=$SECONDS rc
	say "step $1: start (limit $2 s)"
	timeout -k 10 "$2" "$self" --step "$1" >"$DC_WORK/logs/step-$1.log" 2>&1
	rc=$?
	tee -a "$OUT/summary.txt" <"$DC_WORK/logs/step-$1.log" >&2
	[ $rc = 124 ] || [ $rc = 137 ] && say "step $1: TIMED OUT after $2 s"
	say "step $1: exit $rc after $((SECONDS - t0)) s"
	pack
	return "$rc"
}

# step limits in seconds (DC_LIMITS overrides, e.g. to try the time-out path)
read -r lim_probe lim_build lim_gpu lim_stream lim_host <<<"${DC_LIMITS:-55 80 15 85 30}"
lim_large=110 lim_race=75 # the second call (--second): build 80 s first
lim_prereq=30 # step 0: the kit's checks, mpirun -np 2 true (timeout 20)

# CB_DC_DRYRUN=1: each step's commands and limit, and their sum; nothing runs
if [ -n "${CB_DC_DRYRUN:-}" ]; then
	DC_WORK=$(mktemp -d) DC_BUILD=$root/build-device
	mkdir -p "$DC_WORK/logs" "$DC_WORK/run"
	trap 'rm -rf "$DC_WORK"' EXIT
	echo "step prereq: limit $lim_prereq s"
	echo "  mpirun -np 2 true; ldd \$(command -v mpirun); nvcc, NCCL, jansson, libcsv, cmocka found"
	steps=("probe $lim_probe" "build $lim_build" "first_gpu $lim_gpu" "stream $lim_stream" "host_loop $lim_host")
	[ "$second" = 0 ] || steps=("build $lim_build" "large $lim_large" "race $lim_race")
	total=$lim_prereq
	for st in "${steps[@]}"; do
		set -- $st
		echo "step $1: limit $2 s"
		"step_$1"
		total=$((total + $2))
	done
	echo "budget: $total s in all (at most 300 s: a third of a 15-minute lease, start included)"
	[ "$total" -le 300 ] || { echo "device-check.sh: the steps' limits add to $total s, over 300" >&2; exit 1; }
	exit 0
fi

# --table DIR: the table again from an unpacked logs.tgz + results.tgz
if [ -n "$table_dir" ]; then
	DC_WORK=$table_dir
	table
	exit 0
fi

OUT=${OUT:-$root/device-out}
mkdir -p "$OUT" || exit 2
OUT=$(cd "$OUT" && pwd)
DC_WORK=$(mktemp -d)
DC_BUILD=${DC_BUILD:-$root/build-device} # the tests build elsewhere
export DC_WORK DC_BUILD
mkdir -p "$DC_WORK/logs" "$DC_WORK/run"
: >"$OUT/summary.txt"

# ---- 0. prerequisites: say first what is missing ----------------------------
if [ -f .device/ompi/use-openmpi.sh ]; then
	# shellcheck disable=SC1091
	. .device/ompi/use-openmpi.sh .device/ompi # the kit first, also where the machine has some
	say "kit: .device/ompi ($(ls .device/ompi/debs 2>/dev/null | wc -l) packages)"
fi
if ! command -v nvcc >/dev/null; then
	for d in /usr/local/cuda/bin /usr/local/cuda-*/bin /opt/cuda/bin; do
		[ -x "$d/nvcc" ] && { PATH="$d:$PATH"; break; }
	done
fi
# single copy off: a container without CAP_SYS_PTRACE refuses CMA, and
# messages over 4 KiB then fail ("Read -1 ... errno = 1", open-mpi/ompi#4948)
export NCCL_DEBUG=${NCCL_DEBUG:-WARN} OMPI_MCA_btl_vader_single_copy_mechanism=none PATH
# the box runs us as root (the kit allows it too; a system Open MPI does not)
[ "$(id -u)" != 0 ] || export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

nccl_lib_in() { ls "$1"/lib/libnccl.so* "$1"/lib64/libnccl.so* "$1"/libnccl.so* 2>/dev/null | head -1; }
find_nccl() { # NCCL_HOME, the toolkit, the system, a Python wheel; find / only as a last resort
	local d py
	for d in "${NCCL_HOME:-}" /usr/local/cuda /usr /usr/lib/x86_64-linux-gnu; do
		[ -n "$d" ] && [ -n "$(nccl_lib_in "$d")" ] && { echo "$d"; return 0; }
	done
	# nvidia.nccl may be a namespace package (__file__ is None): use __path__
	py=$(python3 -c 'import nvidia.nccl as n; print(list(n.__path__)[0])' 2>/dev/null)
	[ -n "$py" ] && [ -n "$(nccl_lib_in "$py")" ] && { echo "$py"; return 0; }
	d=$(find / -xdev -name 'libnccl.so.2' -not -path '/proc/*' 2>/dev/null | head -1)
	[ -n "$d" ] && { dirname "$(dirname "$d")"; return 0; }
	return 1
}
missing=()
for c in cmake cc nvcc mpicc mpirun pkg-config tar timeout; do
	command -v "$c" >/dev/null || missing+=("$c (command)")
done
if command -v pkg-config >/dev/null; then
	for p in jansson cmocka; do pkg-config --exists "$p" || missing+=("$p (pkg-config --exists $p)"); done
fi
csv_h=""
for d in ${CMAKE_PREFIX_PATH:+${CMAKE_PREFIX_PATH//:/ }} /usr /usr/local; do
	[ -f "$d/include/csv.h" ] && { csv_h="$d/include/csv.h"; break; }
done
[ -n "$csv_h" ] || missing+=("libcsv (csv.h under CMAKE_PREFIX_PATH, /usr or /usr/local)")
nccl_home=$(find_nccl) || missing+=("NCCL (libnccl.so: set NCCL_HOME)")
DC_NCCL_LIB=$([ -n "${nccl_home:-}" ] && nccl_lib_in "$nccl_home")
DC_NCCL_INC="${nccl_home:-/nonexistent}/include"
[ -f "$DC_NCCL_INC/nccl.h" ] || DC_NCCL_INC="$root/.device/nccl/include"
[ -f "$DC_NCCL_INC/nccl.h" ] || missing+=("nccl.h (carry .device/nccl/include/nccl.h)")
export DC_NCCL_LIB DC_NCCL_INC
if command -v mpirun >/dev/null; then
	nf=$(ldd "$(command -v mpirun)" 2>&1 | grep 'not found' | awk '{ print $1 }' | tr '\n' ' ')
	[ -z "$nf" ] || missing+=("libraries mpirun needs: ${nf% } not found (ldd; the kit's packages need glibc 2.36)")
	if [ -z "$nf" ] && ! timeout -k 5 20 mpirun --oversubscribe -np 2 true >"$DC_WORK/logs/mpirun-true.log" 2>&1; then
		missing+=("a working mpirun: 'mpirun -np 2 true' failed ($(tail -1 "$DC_WORK/logs/mpirun-true.log"))")
	fi
fi
[ ${#missing[@]} = 0 ] || stop "missing: $(printf '%s; ' "${missing[@]}")(see this script's header)" 2
LD_LIBRARY_PATH="$(dirname "$DC_NCCL_LIB")${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export LD_LIBRARY_PATH
say "NCCL: $DC_NCCL_LIB, header $DC_NCCL_INC/nccl.h; nvcc: $(command -v nvcc); mpirun: $(command -v mpirun)"

# facts: the GPU as found (compute mode included), tools, the environment that matters
{
	nvidia-smi 2>&1
	nvidia-smi --query-gpu=index,name,pci.bus_id,driver_version,compute_mode,persistence_mode,clocks.sm,clocks.mem,memory.total --format=csv 2>&1
	nvcc --version 2>&1
	mpirun --version 2>&1 | head -1
	echo "cpus: $(nproc)"
	echo "NCCL: $DC_NCCL_LIB"
	env | grep -E '^(NCCL_|CUDA_|CB_|OMPI_MCA_|PKG_CONFIG|CMAKE_PREFIX_PATH|LD_LIBRARY_PATH|PATH=)' | sort
} >"$OUT/facts.txt" 2>&1
gpu=$(nvidia-smi -L 2>/dev/null | head -1)
say "GPU: ${gpu:-none listed by nvidia-smi$(command -v nvidia-smi >/dev/null || echo ' (no nvidia-smi)')}"

# ---- 1 .. 4 -------------------------------------------------------------------
if [ "$second" = 1 ]; then
	run_step build "$lim_build" || stop "build failed (logs.tgz: configure.log, build.log)"
	status=0
	run_step large "$lim_large" || status=1
	run_step race "$lim_race" || status=1
	say "done (second call): $([ $status = 0 ] && echo 'every step passed' || echo 'a step failed (see above and logs.tgz)')"
	finish $status
fi
run_step probe "$lim_probe"
case $? in
0) ;;
4) stop "no GPU visible: the probe found none (probe.txt; nothing else was run on a GPU)" 4 ;;
*) stop "the probe failed (probe.txt, logs.tgz: configure.log, build-probe.log, probe-np*.err)" ;;
esac
run_step build "$lim_build" || stop "build failed (logs.tgz: configure.log, build.log)"
run_step first_gpu "${lim_gpu:-20}"
case $? in
0) ;;
4) stop "no GPU visible: built, nothing was run on a GPU" 4 ;;
*) stop "the first GPU call failed (logs.tgz: roofline.txt)" ;;
esac
status=0
run_step stream "$lim_stream" || status=1
run_step host_loop "$lim_host" || status=1
say "done: $([ $status = 0 ] && echo 'every step passed' || echo 'a step failed (see above and logs.tgz)')"
finish $status
