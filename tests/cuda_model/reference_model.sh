#!/usr/bin/env bash
# "Is my number normal?" end to end on the CUDA model: a run at 8 ranks on
# the model's 8xH100 box (CB_CUDA_MODEL_TOPO, one model GPU per rank) gets
# its topology stamp from the model's NVML, every row of it a pct_line
# against the NVLink bound and a pct_copy, and collbench-compare
# --reference places it against the shipped table's 8 x H100 entries (and
# no other platform's).
#   reference_model.sh MODEL_BIN BIN
set -uo pipefail
. "$(dirname "$0")/../lib/lib.sh"
model=$1 bin=$2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
export -f cb_mpirun

CB_CUDA_MODEL_TOPO=8xH100 CB_CUDA_MODEL_GPUS=8 timeout 120 bash -c 'cb_mpirun "$@"' _ -np 8 \
	"$model/allreduce_perf" -B cuda -q --algo nccl,nccl.ring.simple,ring,copy -b 1M -e 1M \
	-n 3 -w 1 --csv "$out/summary.csv" --meta "$out/np8.meta.json" >"$out/stdout" 2>"$out/stderr" ||
	{ cat "$out/stderr" >&2; fail "the 8-rank run on the model's 8xH100 failed"; }
# pct_line and pct_copy in every row but copy's own
bad=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$c["algo"] != "copy" && ($c["pct_line"] !~ /^[0-9.e+-]+$/ || $c["pct_copy"] !~ /^[0-9.e+-]+$/)' \
	"$out/summary.csv")
[ -z "$bad" ] || fail "rows without pct_line or pct_copy on 8xH100: $bad"
"$bin/collbench-compare" --reference "$out" >"$out/ref" 2>&1 || { cat "$out/ref" >&2; fail "--reference failed"; }
grep -E '^np 8: 8 x NVIDIA H100 80GB HBM3, nvlink4-nvswitch, NVLS' "$out/ref" >/dev/null ||
	{ cat "$out/ref" >&2; fail "the run's platform is not 8 x H100 on NVSwitch"; }
grep -E '^  nccl +default +1M +peak .*nccl-tests/issues/212' "$out/ref" >/dev/null ||
	{ cat "$out/ref" >&2; fail "the nccl row is not placed against the 8 x H100 entry"; }
grep -E 'matching entries \(NVIDIA H100 80GB HBM3 family, 8 GPUs, nvlink4-nvswitch\)' "$out/ref" >/dev/null ||
	{ cat "$out/ref" >&2; fail "no 8 x H100 matches counted"; }
! grep -E 'H200|A100|B200|nearest' "$out/ref" >/dev/null || fail "another platform was named: $(cat "$out/ref")"
echo "reference_model: ok"
