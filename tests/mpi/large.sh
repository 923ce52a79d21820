#!/usr/bin/env bash
# 64-bit counts: n = 2, int8, 2^31 + 8 elements (beyond INT_MAX) through every
# algorithm; MPI_Allreduce gets it in pieces. Needs ~14 GiB of RAM + /dev/shm.
#   large.sh BIN
set -euo pipefail
. "$(dirname "$0")/../lib/lib.sh"
bin=$1
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
count=$(((1 << 31) + 8))
cb_mpirun -np 2 "$bin/allreduce_perf" -d int8 -o sum --counts "$count" -n 1 -w 0 -c 1 \
	-T 600 --csv "$out/s.csv" --rank-csv "$out/r.csv"
cb_complete_lines "$out/s.csv"
"$bin/check_results" "$out/s.csv" "$out/r.csv" 2
[ "$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } $c["status"] == "ok"' "$out/s.csv" |
	wc -l)" = 4 ] || fail "expected 4 ok rows (ps ring mpi copy)"
