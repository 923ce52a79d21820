#!/usr/bin/env bash
# How the cuda backend's ranks order their work (collectives/runtime/cuda/
# cb_cuda_probe.c), on the host model of CUDA (tests/cuda_model) with the
# behaviours of a real GPU that the model adds on request: a driver that
# refuses stream memory operations on IPC-mapped memory, and ranks that
# time-slice one GPU. Each case checks the rows (every one ok, checked), the
# mode the device text names and why, and what rank 0 says on stderr.
#   ordering.sh BIN CASE MODEL_BIN
set -uo pipefail
. "$(dirname "$0")/../lib/lib.sh"
bin=$1 case=$2 model=$3
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
export -f cb_mpirun
: "$bin"

# run NP WANT ARGS...: the model's allreduce_perf -B cuda on NP ranks (at
# most 60 s), ring, ps and oneshot at a few sizes, every call checked; exit
# status WANT; the model's settings are the caller's environment.
run() {
	local np=$1 want=$2 rc
	shift 2
	rm -f "$out"/s.*
	timeout 60 bash -c 'cb_mpirun "$@"' _ -np "$np" "$model/allreduce_perf" -B cuda -q \
		--csv "$out/s.csv" --algo ring,ps,oneshot -b 8 -e 64K -f 32 -c 1 -n 3 -w 1 "$@" \
		>"$out/stdout" 2>"$out/stderr"
	rc=$?
	[ "$rc" != 124 ] || { cat "$out/stderr" >&2; fail "timed out (hang)"; }
	[ "$rc" = "$want" ] || { cat "$out/stderr" >&2; fail "exit $rc, expected $want"; }
	[ "$want" != 0 ] || all_ok
}

# every row ok (wrong 0), one at least
all_ok() {
	local n bad
	n=$(awk 'END { print NR - 1 }' "$out/s.csv")
	bad=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["status"] != "ok" || $c["wrong"] != 0 { n++ } END { print n + 0 }' "$out/s.csv")
	[ "$n" -ge 1 ] && [ "$bad" = 0 ] || { cat "$out/s.csv" >&2; fail "$bad of $n rows not ok"; }
}

# device RE: the metadata's device text matches RE (grep -E)
device() {
	grep -qE -- "\"device\": \"[^\"]*$1" "$out/s.meta.json" ||
		{ grep '"device"' "$out/s.meta.json" >&2; fail "the device text does not say '$1'"; }
}

# says RE: the last run's stderr matches RE (grep -E)
says() {
	grep -qE -- "$1" "$out/stderr" || { cat "$out/stderr" >&2; fail "no '$1' on stderr"; }
}

case $case in
refused_write)
	# a driver that refuses stream writes into another process's memory: the
	# default layout's posts; every rank falls back to host ordering
	CB_CUDA_MODEL_GPUS=2 CB_CUDA_MODEL_IPC_STREAM_WRITE=0 run 2 0
	device 'sync host \(the driver refused a stream write to a peer.s IPC-mapped memory \(CUDA_ERROR_NOT_SUPPORTED\)\)'
	says 'rank 0: cuda backend: ordering ranks through the host: the driver refused a stream write'
	# at 3 ranks a post's writes go as one cuStreamBatchMemOp
	CB_CUDA_MODEL_GPUS=3 CB_CUDA_MODEL_IPC_STREAM_WRITE=0 run 3 0
	device 'sync host \(the driver refused a batch of stream writes to peers. IPC-mapped memory \(CUDA_ERROR_NOT_SUPPORTED\)\)' ;;
lost_write)
	# a driver that takes the stream writes into a peer's memory but never
	# delivers them: the probe's waits run into its 5 s deadline, each rank
	# releases its own counters (the probe's stream completes, nothing is
	# freed under a pending wait), host ordering
	CB_CUDA_MODEL_GPUS=2 CB_CUDA_MODEL_IPC_STREAM_WRITE=-1 run 2 0
	device 'sync host \(a stream wait did not complete within 5 s\)'
	says 'ordering ranks through the host: a stream wait did not complete'
	! grep -q 'left allocated' "$out/stderr" || fail "the probe's stream was abandoned" ;;
refused_wait)
	# one that refuses stream waits on IPC-mapped memory: the default layout
	# never asks for one (each rank waits on its own memory), the old one
	# (CB_CUDA_WAIT=peer) falls back
	CB_CUDA_MODEL_GPUS=2 CB_CUDA_MODEL_IPC_STREAM_WAIT=0 run 2 0
	device 'sync stream \(own counters\)'
	CB_CUDA_MODEL_GPUS=2 CB_CUDA_MODEL_IPC_STREAM_WAIT=0 CB_CUDA_WAIT=peer run 3 0
	device 'sync host \(the driver refused a stream wait on a peer.s IPC-mapped memory'
	says 'ordering ranks through the host: the driver refused a stream wait' ;;
refused_forced)
	# CB_CUDA_SYNC=stream where the driver refuses: no fallback, a clear
	# failure at init
	CB_CUDA_MODEL_GPUS=2 CB_CUDA_MODEL_IPC_STREAM_WRITE=0 CB_CUDA_SYNC=stream run 2 3
	says 'CB_CUDA_SYNC=stream, but the driver refused a stream write' ;;
time_sliced)
	# ranks that time-slice one GPU (2 ms slices): a stream-ordered handoff
	# waits for a slice to end, a host-ordered one does not; the probe
	# measures both and chooses host ordering; times are max(events, host)
	CB_CUDA_MODEL_GPUS=1 CB_CUDA_MODEL_TIMESLICE_US=2000 run 2 0
	device 'sync host \(ranks share a GPU: the probe.s handoff took [0-9.]+ us host-ordered, [0-9.]+ us stream-ordered\), time max\(CUDA events, host wall clock\)'
	says 'rank 0: cuda backend: ordering ranks through the host \(ranks share a GPU' ;;
shared_time)
	# a call's time on a time-sliced shared GPU (50 ms slices, a 20 ms
	# context switch): each rank's events time only its own copy, the host
	# clock also the other rank's copy and the switch; the row (max over
	# ranks) then takes at least most of the switch more than the 1-rank row
	# (events alone: the same as the 1-rank row, within noise). The switch is
	# long so that a loaded machine's noise in the 1-rank row (a 4 MiB copy,
	# about 1 ms) cannot fill the margin
	median() { awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		{ print $c["time_us_median"] }' "$out/s.csv"; }
	export CB_CUDA_MODEL_GPUS=1 CB_CUDA_MODEL_TIMESLICE_US=50000 CB_CUDA_MODEL_SWITCH_US=20000
	run 1 0 --algo copy -b 4M -e 4M -n 10
	one=$(median)
	run 2 0 --algo copy -b 4M -e 4M -n 10
	two=$(median)
	device 'time max\(CUDA events, host wall clock\)'
	awk -v a="$one" -v b="$two" 'BEGIN { exit !(b >= a + 15000) }' ||
		fail "copy at 2 ranks on one time-sliced GPU: $two us (median), at 1 rank $one us: the other rank's copy and the switch are missing" ;;
layouts)
	# both layouts and a bad setting, one rank per GPU: no probe timing, no
	# reason to give
	CB_CUDA_MODEL_GPUS=2 CB_CUDA_WAIT=peer run 2 0
	device 'sync stream \(peer counters\), NCCL'
	CB_CUDA_MODEL_GPUS=2 CB_CUDA_WAIT=mine run 2 3
	says 'CB_CUDA_WAIT=mine: expected own or peer' ;;
*)
	fail "unknown case $case" ;;
esac
