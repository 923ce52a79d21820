#!/usr/bin/env bash
# The cuda backend on the host model of CUDA and NCCL (tests/cuda_model):
# the cases that are not the integration matrix of tests/mpi/allreduce.sh.
# Each ends with a clear message on stderr, the exit status the harness
# gives that failure, within a bounded time (never a hang, never a crash).
#   cuda_model.sh BIN CASE MODEL_BIN
# BIN: the normal build's bin directory; MODEL_BIN: the model build's
# (its allreduce_perf is linked with the model instead of libcudart,
# libcuda and libnccl). The model's settings (CB_CUDA_MODEL_*) are set here
# per case.
set -uo pipefail
. "$(dirname "$0")/../lib/lib.sh"
bin=$1 case=$2 model=$3
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
export -f cb_mpirun

# run NP WANT PATTERN ARGS...: the model's allreduce_perf -B cuda on NP ranks
# (at most 90 s), exit status WANT, PATTERN (grep -E; "" for none) on stderr,
# complete result files; the environment (CB_CUDA_MODEL_*) is the caller's.
run() {
	local np=$1 want=$2 pattern=$3 rc
	shift 3
	rm -f "$out"/s.*
	timeout 90 bash -c 'cb_mpirun "$@"' _ -np "$np" "$model/allreduce_perf" -B cuda -q \
		--csv "$out/s.csv" "$@" >"$out/stdout" 2>"$out/stderr"
	rc=$?
	[ "$rc" != 124 ] || { cat "$out/stderr" >&2; fail "timed out (hang) for: $*"; }
	[ "$rc" = "$want" ] || { cat "$out/stderr" >&2; fail "exit $rc, expected $want for: $*"; }
	[ -z "$pattern" ] || grep -qE -- "$pattern" "$out/stderr" ||
		{ cat "$out/stderr" >&2; fail "no '$pattern' on stderr for: $*"; }
	[ ! -e "$out/s.csv" ] || cb_complete_lines "$out/s.csv"
}

# stderr_has PATTERN...: each (grep -E) is on the last run's stderr.
stderr_has() {
	local p
	for p in "$@"; do
		grep -qE -- "$p" "$out/stderr" || { cat "$out/stderr" >&2; fail "no '$p' on stderr"; }
	done
}

# rows ALGO STATUS_RE: the number of the last run's rows of ALGO whose
# status matches STATUS_RE (awk, columns by name).
rows() {
	awk -F, -v a="$1" -v s="$2" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["algo"] == a && $c["status"] ~ s { n++ } END { print n + 0 }' "$out/s.csv"
}

# every ALGO STATUS_RE: every row of ALGO (there is one at least) matches.
every() {
	local all
	all=$(rows "$1" '.')
	[ "$all" -gt 0 ] && [ "$(rows "$1" "$2")" = "$all" ] ||
		{ cat "$out/s.csv" >&2; fail "$1: not every row is '$2' ($(rows "$1" "$2") of $all)"; }
}

aborted() {
	grep -q '"status": "aborted"' "$out/s.meta.json" || { cat "$out/s.meta.json" >&2; fail "metadata does not say aborted"; }
}

small=(-b 8 -e 64K -f 64 -c 1 -n 4 -w 1)
case $case in
link_real)
	# the normal build links the real libraries and none of the model
	readelf -d "$bin/allreduce_perf" >"$out/dyn" || fail "readelf failed"
	grep -q 'NEEDED.*\[libcudart\.so' "$out/dyn" || { cat "$out/dyn" >&2; fail "the normal allreduce_perf does not link libcudart"; }
	grep -q 'NEEDED.*\[libnccl\.so' "$out/dyn" || { cat "$out/dyn" >&2; fail "the normal allreduce_perf does not link libnccl"; }
	ldd "$bin/allreduce_perf" >"$out/ldd" || fail "ldd failed"
	grep -q 'libcudart.* => /' "$out/ldd" || { cat "$out/ldd" >&2; fail "ldd finds no libcudart for the normal build"; }
	nm "$bin/allreduce_perf" >"$out/nm" || fail "nm failed"
	! grep -qE ' [TD] (cm_[a-z_]+|cudaMalloc|ncclAllReduce)$' "$out/nm" ||
		fail "the normal allreduce_perf defines the model's functions"
	! grep -q 'collbench CUDA model GPU' "$bin/allreduce_perf" || fail "the model is in the normal allreduce_perf" ;;
link_model)
	# the model build links neither CUDA nor NCCL: it defines their calls
	readelf -d "$model/allreduce_perf" >"$out/dyn" || fail "readelf failed"
	! grep -qE 'NEEDED.*\[lib(cudart|cuda|nccl)\.so' "$out/dyn" ||
		{ cat "$out/dyn" >&2; fail "the model's allreduce_perf links a CUDA or NCCL library"; }
	ldd "$model/allreduce_perf" >"$out/ldd" || fail "ldd failed"
	! grep -qE 'libcudart|libnccl|libcuda\.' "$out/ldd" || { cat "$out/ldd" >&2; fail "ldd finds CUDA or NCCL"; }
	nm "$model/allreduce_perf" >"$out/nm" || fail "nm failed"
	for f in cudaMalloc cudaIpcOpenMemHandle cudaEventQuery ncclCommInitRankConfig ncclAllReduce cb_cuda_reduce; do
		grep -q " T $f\$" "$out/nm" || fail "the model's allreduce_perf does not define $f"
	done ;;
nccl_gpu_each)
	# one rank per model GPU: nccl runs, checked
	CB_CUDA_MODEL_GPUS=4 run 4 0 '' --algo nccl -d float,int8,bfloat16 -o sum,max,avg "${small[@]}"
	every nccl '^ok$' ;;
nccl_shared_gpu)
	# ranks that share a model GPU: the backend does not ask NCCL (which
	# refuses them: test_cm_model), every nccl row says why, and so do ps and
	# ring over NCCL point-to-point; exit 0 (skips are no failures)
	CB_CUDA_MODEL_GPUS=1 run 2 0 '' --algo nccl,ring "${small[@]}"
	every nccl '^skipped:ranks share a GPU; NCCL needs one GPU per rank'
	every ring '^ok$'
	CB_CUDA_MODEL_GPUS=1 run 2 0 '' --algo ps,ring --transport p2p "${small[@]}"
	every ps '^skipped:.*share a GPU'
	every ring '^skipped:.*share a GPU' ;;
nccl_forced)
	# NCCL's algorithms and protocols as rows (nccl.<algo>.<proto>), each on
	# a communicator made with NCCL_ALGO/NCCL_PROTO, one model GPU per rank,
	# at 2 and 4 ranks: the model's ring and tree in every protocol checked
	# (counts that split unevenly, one past an LL piece), the paths the
	# default pcie box lacks skipped with NCCL's reason
	forced=nccl.ring.ll,nccl.ring.ll128,nccl.ring.simple,nccl.tree.ll,nccl.tree.ll128,nccl.tree.simple
	absent="nccl.nvls.simple nccl.nvlstree.simple nccl.collnetdirect.simple nccl.collnetchain.simple"
	for np in 2 4; do
		CB_CUDA_MODEL_GPUS=$np run "$np" 0 '' --algo "nccl,$forced,${absent// /,}" \
			--counts 1,2053,16411 -d int8,float -o sum,avg -c 1 -n 2 -w 1
		for a in nccl ${forced//,/ }; do every "$a" '^ok$'; done
		for a in $absent; do every "$a" '^skipped:NCCL_ALGO=.*no algorithm/protocol available'; done
	done ;;
no_peer_access)
	# two GPUs that cannot reach each other: ps and ring skip saying so, the
	# rank that saw it names the GPUs, nccl still runs
	CB_CUDA_MODEL_GPUS=2 CB_CUDA_MODEL_P2P=0 run 2 0 'GPU 0000:1[12]:00.0 cannot access GPU 0000:1[12]:00.0 \(rank [01]\) peer to peer' \
		--algo ps,ring,nccl "${small[@]}"
	every ps '^skipped:GPUs of this host cannot access each other peer to peer'
	every ring '^skipped:GPUs of this host cannot access each other peer to peer'
	every nccl '^ok$' ;;
nccl_paths)
	# nccl.sym, nccl.ce, nccl.reg (docs/library.md): on their own ncclMemAlloc'd,
	# registered buffers they run and check where NCCL takes the path, and
	# skip with NCCL's rule where it does not (default topology: pcie)
	CB_CUDA_MODEL_GPUS=2 run 2 0 '' --coll allreduce --algo nccl.sym,nccl.ce,nccl.reg -d float,int32 "${small[@]}"
	every nccl.reg '^ok$'
	[ "$(rows nccl.sym '^ok$')" -gt 0 ] && [ "$(rows nccl.sym '.')" = "$(( $(rows nccl.sym '^ok$') + $(rows nccl.sym '^skipped:NCCL.s symmetric kernels reduce only sum on float/half/bfloat16$') ))" ] ||
		{ cat "$out/s.csv" >&2; fail "nccl.sym: float rows not ok or int32 rows not skipped by dtype"; }
	every nccl.ce '^skipped:NCCL.s copy-engine collectives are AllGather/AlltoAll/Gather/Scatter only$'
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } $c["status"] == "ok" && $c["wrong"] != 0 { exit 1 }' "$out/s.csv" ||
		{ cat "$out/s.csv" >&2; fail "a row with wrong elements"; }
	CB_CUDA_MODEL_GPUS=2 run 2 0 '' --coll alltoall --algo nccl.sym,nccl.ce --inplace 0 -d float "${small[@]}"
	every nccl.ce '^ok$'
	every nccl.sym '^skipped:NCCL.s symmetric kernels are AllReduce/AllGather/ReduceScatter only$'
	# GPUs without peer access: NCCL gives no symmetric windows
	CB_CUDA_MODEL_GPUS=2 CB_CUDA_MODEL_P2P=0 run 2 0 '' --coll allreduce --algo nccl.sym -d float -b 64 -e 64 -n 2 -w 1
	every nccl.sym '^skipped:NCCL gives symmetric windows only where every GPU reaches every other peer to peer'
	# a registration that fails on rank 1: every rank skips (none hangs in a
	# collective the other left), rank 0's rows say another rank failed
	CB_CUDA_MODEL_GPUS=2 CB_CUDA_MODEL_FAULT='nccl_window@1' run 2 0 'collbench: rank 1: .*ncclCommWindowRegister.*cuMemMap of a peer.s memory failed \(injected\)' \
		--coll allreduce --algo nccl,nccl.sym -d float -b 64 -e 64 -n 2 -w 1
	every nccl '^ok$'
	every nccl.sym '^skipped:ncclCommWindowRegister failed on another rank' ;;
fault_ipc_open)
	# a handle that will not open: the rank names the call and the peer,
	# every rank agrees, ps and ring skip saying why, the rest runs; exit 0
	CB_CUDA_MODEL_GPUS=2 CB_CUDA_MODEL_FAULT='ipc_open@1#2' run 2 0 \
		'collbench: rank 1: .*cudaIpcOpenMemHandle\(.*\): mapping of buffer object failed \(cudaErrorMapBufferObjectFailed\)' \
		--algo ps,ring,copy "${small[@]}"
	stderr_has "collbench: rank 1: cannot map rank 0's GPU memory through CUDA IPC: ps and ring will be skipped"
	every ps '^skipped:CUDA IPC could not map a peer'
	every ring '^skipped:CUDA IPC could not map a peer'
	every copy '^ok$' ;;
fault_launch)
	# a kernel launch that fails: that rank names the call and the error,
	# the algorithm, phase and size; the job aborts (exit 3)
	CB_CUDA_MODEL_GPUS=2 CB_CUDA_MODEL_FAULT='launch@1#5' run 2 3 \
		'collbench: rank 1: .*cb_cuda_reduce\(.*\): too many resources requested for launch \(cudaErrorLaunchOutOfResources\)' \
		--algo ring "${small[@]}" -T 20
	stderr_has 'collbench: rank 1: ring failed in [a-z -]+ at [0-9]+ B: cuda error' 'collbench: rank 1: run aborted: cuda error'
	aborted ;;
fault_sticky)
	# a kernel that faults: the error is sticky, the next call of that rank
	# (whatever it is) reports it by name, the job aborts (exit 3)
	CB_CUDA_MODEL_GPUS=2 CB_CUDA_MODEL_FAULT='sticky@1#5' run 2 3 \
		'collbench: rank 1: .*: an illegal memory access was encountered \((cudaErrorIllegalAddress|CUDA_ERROR_ILLEGAL_ADDRESS)' \
		--algo ring "${small[@]}" -T 20
	stderr_has 'collbench: rank 1: ring failed in [a-z -]+ at [0-9]+ B: cuda error'
	aborted ;;
fault_event_hang)
	# a GPU that stops (an event that never completes): the watchdog names
	# the algorithm, size and iteration, the stuck rank the call it polled;
	# the job aborts (exit 3) within -T
	CB_CUDA_MODEL_GPUS=2 CB_CUDA_MODEL_FAULT='event_hang@1#6' run 2 3 \
		'collbench: rank 1: watchdog: no progress for 5 s in ring, [0-9]+ B per rank, [a-z -]+ iteration [0-9]+' \
		--algo ring "${small[@]}" -T 5
	stderr_has 'collbench: rank 1: gave up waiting for this rank.s GPU work \(cudaEventQuery' \
		'collbench: rank 1: ring failed in [a-z -]+ at [0-9]+ B: timeout'
	aborted ;;
fault_nccl_init)
	# an NCCL init that fails on one rank: it names the call and NCCL's
	# error, the other its own; nccl's rows are errors, the rest runs; exit
	# 1 (failed rows), as for any algorithm whose set-up failed
	CB_CUDA_MODEL_GPUS=2 CB_CUDA_MODEL_FAULT='nccl_init@1' run 2 1 \
		'collbench: rank 1: .*ncclCommInitRankConfig\(.*\): unhandled system error \(ncclSystemError\)' \
		--algo nccl,ring "${small[@]}"
	stderr_has 'collbench: rank 0: .*ncclCommInitRankConfig\(.*\): .*\(ncclRemoteError\): rank 1 failed' \
		'collbench: rank [01]: nccl: set-up failed: nccl error'
	every nccl '^error:set-up failed \(nccl error\)$'
	every ring '^ok$' ;;
gpu_memory_full)
	# buffers larger than the GPU's memory: named, every rank exits (3)
	CB_CUDA_MODEL_GPUS=2 CB_CUDA_MODEL_MEM_MB=32 run 2 3 \
		'cannot allocate [0-9]+ B of GPU memory for a buffer of 67108864 B' --algo ring -b 64M -e 64M -c 0 -n 1 -w 0 ;;
teardown_hang)
	# ncclCommFinalize that never completes on rank 0: teardown is watched
	# too (--setup-timeout), the job ends (3) saying so, the rows measured
	# before it stay, and the metadata says the run did not end well
	CB_CUDA_MODEL_GPUS=2 CB_CUDA_MODEL_FAULT=nccl_finalize@0 run 2 3 \
		"rank 0: watchdog: a set-up step took more than 3 s \(--setup-timeout\) in the algorithms' teardown" \
		--algo nccl,ring -b 8 -e 64 -n 2 -w 1 -T 5 --setup-timeout 3
	stderr_has 'ncclCommFinalize\(comm\): still in progress when the watchdog fired' \
		'rank 0: the rows are complete, but teardown did not end within --setup-timeout'
	every nccl '^ok$'
	every ring '^ok$'
	grep -q '"error": "teardown did not end within --setup-timeout"' "$out/s.meta.json" ||
		{ cat "$out/s.meta.json" >&2; fail "the metadata does not say teardown did not end"; } ;;
probe)
	# device-check.sh's probe (cuda_probe) at 2 and 4 ranks sharing one
	# "GPU": every fact measured (the model's numbers say nothing of a GPU),
	# IPC read back, no rule of the model broken, exit 0
	for np in 2 4; do
		CB_CUDA_MODEL_GPUS=1 timeout 90 bash -c 'cb_mpirun "$@"' _ -np "$np" "$model/cuda_probe" -n 10 -s 1M \
			>"$out/stdout" 2>"$out/stderr" || { cat "$out/stdout" "$out/stderr" >&2; fail "np $np: exit $?"; }
		grep -q "^runtime .* 1 GPU(s), .*; $np rank(s) a GPU$" "$out/stdout" || fail "np $np: no runtime line"
		grep -q "^ipc .*ok: rank 0's buffer read by $((np - 1)) rank(s)$" "$out/stdout" || fail "np $np: no IPC"
		for f in wait.own wait.peer host; do
			grep -qE "^$f +[0-9]+\.[0-9]+ us a handoff" "$out/stdout" || { cat "$out/stdout" >&2; fail "np $np: no $f"; }
		done
		grep -qE "^copy.np1 +[0-9.]+ GB/s by events, [0-9.]+ by wall" "$out/stdout" || fail "np $np: no copy.np1"
		grep -qE "^copy.npN +$np ranks at once: [0-9.]+ GB/s summed over their events, [0-9.]+ by wall" \
			"$out/stdout" || fail "np $np: no copy.npN"
	done ;;
graph_plans)
	# -G 3: each call captured in a CUDA graph and launched 3 times per timed
	# call; the re-based counters make every launch wait for its own posts
	# (without the re-base the model gives wrong elements), the check
	# launches the graph once: every row ok, out of place and in place, on
	# 2 and 3 ranks with the model's jitter, and over NCCL point-to-point;
	# the header and the metadata say what the time is
	for np in 2 3; do
		CB_CUDA_MODEL_GPUS=$np CB_CUDA_MODEL_JITTER_US=50 run "$np" 0 '' --algo ps,ring,nccl -G 3 \
			-b 1K -e 256K -f 16 -n 3 -w 1
		every ps '^ok$'; every ring '^ok$'; every nccl '^ok$'
		CB_CUDA_MODEL_GPUS=$np run "$np" 0 '' --algo ps,ring,nccl -G 2 --inplace 1 --timing loop \
			-b 1K -e 64K -f 64 -n 3 -w 0 -J "$out/nct.json"
		every ps '^ok$'; every ring '^ok$'; every nccl '^ok$'
	done
	grep -q '"cuda_graph_launches": 2' "$out/s.meta.json" || { cat "$out/s.meta.json" >&2; fail "no -G in the metadata"; }
	grep -q '"timing": ".*-G 2: .*time per operation' "$out/s.meta.json" || fail "the metadata's timing does not say -G"
	grep -q '^# timing: .*-G 2: .*throughput' "$out/stdout" || { cat "$out/stdout" >&2; fail "no -G in the header"; }
	grep -Eq '"graph": ?2[,}]' "$out/nct.json" || fail "-J's config does not say graph 2"
	CB_CUDA_MODEL_GPUS=2 run 2 0 '' --algo ps,ring --transport p2p -G 2 -b 1K -e 64K -f 64 -n 3 -w 1
	every ps '^ok$'; every ring '^ok$' ;;
graph_refused)
	# what a graph cannot replay: host ordering, counters read by every peer
	# and GPUs without atomics peer to peer (which the re-base uses) skip the
	# plan rows with the reason on every rank, nccl still runs
	# as a graph; exit 0 (skips are no failures)
	CB_CUDA_MODEL_GPUS=2 CB_CUDA_SYNC=host run 2 0 'rank 1: ps: -G: no CUDA graph of a call: sync host' \
		--algo ps,ring,nccl -G 2 "${small[@]}"
	every ps '^skipped:-G: sync host orders ranks on the host'
	every ring '^skipped:-G: sync host orders ranks on the host'
	every nccl '^ok$'
	CB_CUDA_MODEL_GPUS=2 CB_CUDA_WAIT=peer run 2 0 '' --algo ring -G 2 "${small[@]}"
	every ring "^skipped:-G: CB_CUDA_WAIT=peer's counters"
	CB_CUDA_MODEL_GPUS=2 CB_CUDA_MODEL_P2P_ATOMICS=0 run 2 0 '' --algo ps,nccl -G 2 "${small[@]}"
	every ps '^skipped:-G: the GPUs lack native atomics peer to peer'
	every nccl '^ok$' ;;
*) fail "unknown case $case" ;;
esac
[ -z "${CB_VERBOSE:-}" ] || cat "$out/stderr"
echo "ok: $case"
