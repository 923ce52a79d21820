#!/usr/bin/env bash
# dev/device-check.sh without a GPU.
#   dryrun: CB_DC_DRYRUN=1 prints every step's commands and limit, of the
#           first call and of the optional second (--second: large sizes, a
#           race hunt); each call's limits add to under 300 s; every launch
#           is watched (-T and --setup-timeout), no step runs the unit tests,
#           the race hunt checks every timed call, nothing forces eager
#           module loading
#   no_gpu: the real thing on this machine: the prerequisites (mpirun -np 2
#           true included) and the probe's build pass, then it stops at the
#           probe (the first GPU call), exit 4, saying no GPU is visible, with
#           its logs packed and the probe's output in OUT
#           (label cuda_model: it builds the cuda backend, minutes on 2 cores)
#   device_check.sh BIN CASE
set -uo pipefail
. "$(dirname "$0")/../lib/lib.sh"
case=$2
src=$(cd "$CB_TESTS_DIR/.." && pwd)
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT

case $case in
dryrun)
	for call in first second; do
		opt=()
		[ $call = first ] || opt=(--second)
		CB_DC_DRYRUN=1 "$src/dev/device-check.sh" "${opt[@]}" >"$t/out" 2>"$t/err" ||
			{ cat "$t/out" "$t/err" >&2; fail "$call call: exit $?"; }
		total=$(sed -n 's/^budget: \([0-9]*\) s in all.*/\1/p' "$t/out")
		sum=$(sed -n 's/^step [a-z_]*: limit \([0-9]*\) s$/\1/p' "$t/out" | paste -sd+ | bc)
		[ -n "$total" ] && [ "$total" = "$sum" ] ||
			{ cat "$t/out" >&2; fail "$call call: budget '$total' is not the sum '$sum' of the steps' limits"; }
		[ "$total" -lt 300 ] || fail "$call call: the steps' limits add to $total s, not under 300"
		launches=$(grep -c 'mpirun .*_perf ' "$t/out")
		[ "$launches" -ge 5 ] || { cat "$t/out" >&2; fail "$call call: only $launches launches printed"; }
		! grep 'mpirun .*_perf ' "$t/out" | grep -v -- '-T [0-9].*--setup-timeout [0-9]' ||
			fail "$call call: a launch without -T and --setup-timeout"
		! grep -q 'ctest' "$t/out" || fail "$call call: a step runs ctest (the unit tests are CI's)"
	done
	grep -q '^step probe: ' <(CB_DC_DRYRUN=1 "$src/dev/device-check.sh") || fail "the first call has no probe step"
	grep -q -- '-n 1 -w 0 -c 1' "$t/out" || fail "the second call's race hunt does not check every timed call"
	! grep -q 'CUDA_MODULE_LOADING=' "$src/dev/device-check.sh" || fail "device-check.sh forces a module loading mode"
	;;
no_gpu)
	command -v nvcc >/dev/null || [ -x /usr/local/cuda/bin/nvcc ] || { echo "skipped: no nvcc"; exit 77; }
	! nvidia-smi -L 2>/dev/null | grep '^GPU' >/dev/null || { echo "skipped: a GPU is visible"; exit 77; }
	cb_launch_env
	OUT=$t/out DC_BUILD=$t/build DC_LIMITS="1500 1500 15 85 30" "$src/dev/device-check.sh" >"$t/stdout" 2>"$t/stderr"
	rc=$?
	[ "$rc" = 4 ] || { cat "$t/stderr" >&2; fail "exit $rc, expected 4 (no GPU visible)"; }
	grep -q 'STOP: no GPU visible: the probe found none' "$t/out/summary.txt" ||
		{ cat "$t/out/summary.txt" >&2; fail "the summary does not say no GPU is visible"; }
	grep -q "step probe: exit 4" "$t/out/summary.txt" || fail "the probe did not end the check (exit 4)"
	grep -q '^runtime .*no usable GPU' "$t/out/probe.txt" || fail "probe.txt does not say no usable GPU"
	for f in logs.tgz table.txt facts.txt; do [ -s "$t/out/$f" ] || fail "no $f in OUT"; done
	tar -tzf "$t/out/logs.tgz" >"$t/list" && grep -q 'logs/step-probe.log' "$t/list" || fail "logs.tgz lacks the probe's log"
	;;
*) fail "unknown case $case" ;;
esac
echo "ok: $case"
