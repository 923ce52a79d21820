#!/usr/bin/env bash
# MPI integration: every algorithm on NP ranks, every dtype x op, counts
# 0, 1, n-1, n+1 and an odd count near 1 MiB (1048573), in place or not;
# the check passes and tx/rx equal the formulas (check_results).
#   mpi_allreduce.sh BIN NP INPLACE [ROOT] [BACKEND] [TIMING]
# TIMING: --timing iter (default) or loop (calls back to back).
# BACKEND cuda needs a GPU: without one the test is skipped (exit 77).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
bin=$1 np=$2 inplace=$3 root=${4:-0} backend=${5:-host} timing=${6:-iter}
if [ "$backend" = cuda ] && ! cb_have_gpu; then
	echo "skipped: no GPU visible"
	exit 77
fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
counts=$(printf '%s\n' 0 1 $((np - 1)) $((np + 1)) 1048573 | sort -nu | paste -sd,)
cb_mpirun -np "$np" "$bin/allreduce_perf" -d all -o all --counts "$counts" -n 2 -w 1 -c 1 \
	--inplace "$inplace" -r "$root" -B "$backend" --timing "$timing" -T 120 -q \
	--csv "$out/s.csv" --rank-csv "$out/r.csv"
cb_complete_lines "$out/s.csv"
cb_complete_lines "$out/r.csv"
"$bin/check_results" "$out/s.csv" "$out/r.csv" "$np" "$root"
grep -q '"status": "complete"' "$out/s.meta.json" || fail "metadata does not say complete"
grep -q "\"timing_mode\": \"$timing\"" "$out/s.meta.json" || fail "metadata does not record --timing $timing"
