#!/usr/bin/env bash
# imb_compare.sh: the mpi row under --timing loop beside Intel IMB's
# Allreduce, at 8 B and 1 KiB on 2 ranks, best of three launches each.
#   dev/imb_compare.sh IMB-MPI1 [BIN]
# IMB-MPI1: a built Intel MPI Benchmarks binary (github.com/intel/mpi-benchmarks:
# build it outside this tree, e.g. in /tmp: `make CC=mpicc CXX=mpicxx IMB-MPI1`;
# its src_cpp/Makefile adds -O0 -Werror, which Open MPI 4.1's C++ headers
# fail: replace them with -O2). BIN: collbench's build/bin (default).
# Both are launched the same way (mpirun --oversubscribe -np 2, as root where
# we are root) and time the same thing: a rank's calls back to back after a
# barrier, the mean per call, the maximum over ranks (IMB's t_max; collbench's
# time_us under --timing loop). IMB_ITERS calls per launch (1000; IMB's own
# default at these sizes); prints one line per size: the best of three of
# each, and their ratio. Numbers from a loaded machine are indicative only.
set -euo pipefail
export LC_ALL=C
root=$(cd "$(dirname "$0")/.." && pwd)
imb=${1:?usage: imb_compare.sh IMB-MPI1 [BIN]}
bin=${2:-$root/build/bin}
iters=${IMB_ITERS:-1000}
[ -x "$imb" ] || { echo "imb_compare.sh: $imb is not an executable" >&2; exit 2; }
[ -x "$bin/allreduce_perf" ] || { echo "imb_compare.sh: no $bin/allreduce_perf" >&2; exit 2; }
if [ "$(id -u)" = 0 ]; then
	export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
launch=(mpirun --oversubscribe -np 2)

# best FILE...: per size (8, 1024) the least of the files' "bytes time" lines
best() {
	sort -k1,1n -k2,2g "$@" | awk '!seen[$1]++'
}

for k in 1 2 3; do
	"${launch[@]}" "$imb" Allreduce -npmin 2 -msglog 3:10 -iter "$iters" -time 60 \
		>"$tmp/imb$k.out" 2>&1 || { cat "$tmp/imb$k.out" >&2; exit 1; }
	# the table's rows: #bytes #repetitions t_min t_max t_avg
	awk '$1 == 8 || $1 == 1024 { if (NF == 5) print $1, $4 }' "$tmp/imb$k.out" >"$tmp/imb$k"
	"${launch[@]}" "$bin/allreduce_perf" --algo mpi -b 8 -e 1K -f 128 -d float --timing loop \
		-n "$iters" -w 100 -c 0 -q --csv "$tmp/cb$k.csv" >"$tmp/cb$k.out" 2>&1 ||
		{ cat "$tmp/cb$k.out" >&2; exit 1; }
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		{ print $c["bytes"], $c["time_us"] }' "$tmp/cb$k.csv" >"$tmp/cb$k"
done
best "$tmp"/imb[123] >"$tmp/imb"
best "$tmp"/cb[123] >"$tmp/cb"
echo "# mpi row (--timing loop) vs IMB-MPI1 Allreduce t_max, 2 ranks, best of 3, $iters calls"
printf '%8s %12s %12s %8s\n' bytes imb_us collbench_us ratio
join "$tmp/imb" "$tmp/cb" | awk '{ printf "%8d %12.3f %12.3f %8.2f\n", $1, $2, $3, $3 / $2 }'
