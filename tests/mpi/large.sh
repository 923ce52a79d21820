#!/usr/bin/env bash
# 64-bit counts: n = 2, int8, 2^31 + 8 elements (beyond INT_MAX) through every
# algorithm of the host backend (as --help lists them); MPI_Allreduce gets it
# in pieces. One launch per algorithm: the buffers take 4 x 2 GiB of /dev/shm
# and a plan's STAGE up to 2 x 2 GiB more (oneshot, rd), so every algorithm
# set up at once would not fit a 24 GiB machine. Needs ~14 GiB of RAM + /dev/shm.
#   large.sh BIN
set -euo pipefail
. "$(dirname "$0")/../lib/lib.sh"
bin=$1
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
count=$(((1 << 31) + 8))
# Open MPI's forced algorithms (mpi.*, on request) call MPI_Allreduce in the
# same pieces as mpi does: mpi stands for them here
algos=$("$bin/allreduce_perf" --help | awk '/^algorithms/ { on = 1; next } on && NF == 0 { exit }
	on && !/\[cuda\]$/ && $1 !~ /^mpi\./ { print $1 }')
[ "$(wc -w <<<"$algos")" -ge 10 ] || fail "--help lists too few host algorithms: $algos"
for a in $algos; do
	cb_mpirun -np 2 "$bin/allreduce_perf" -a "$a" -d int8 -o sum --counts "$count" -n 1 -w 0 -c 1 \
		-T 600 -q --csv "$out/$a.csv" --rank-csv "$out/$a.r.csv" || fail "$a: the launch failed"
	cb_complete_lines "$out/$a.csv"
	"$bin/check_results" "$out/$a.csv" "$out/$a.r.csv" 2 || fail "$a: rows or traffic wrong (above)"
	[ "$(awk -F, -v a="$a" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["status"] == "ok" && $c["algo"] == a && $c["count"] == '"$count"'' "$out/$a.csv" | wc -l)" = 1 ] ||
		fail "$a: no ok row of $count elements"
	echo "large: $a ok"
done
