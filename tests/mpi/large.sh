#!/usr/bin/env bash
# 64-bit counts: n = 2, int8, 2^31 + 8 elements (beyond INT_MAX) through the
# host backend's paths: the one-sided executor (ps, the ring, one-shot with
# its 2 GiB STAGE), the two-sided one (the ring over p2p: MPI counts split
# at INT_MAX), MPI_Allreduce in pieces (mpi) and the copy. The other plans
# run on the same executor; their schedules at this count are checked
# in-process (test_plan --large: built, finished, traffic against the closed
# forms). One launch per algorithm: the buffers take 4 x 2 GiB of /dev/shm
# and a plan's STAGE up to 2 x 2 GiB more (oneshot), so every algorithm set
# up at once would not fit a 24 GiB machine. Needs ~14 GiB of RAM + /dev/shm.
#   large.sh BIN
set -euo pipefail
. "$(dirname "$0")/../lib/lib.sh"
bin=$1
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
count=$(((1 << 31) + 8))
# Open MPI's forced algorithms (mpi.*, on request) call MPI_Allreduce in the
# same pieces as mpi does: mpi stands for them here. "ring/p2p": the ring
# over the two-sided transport.
for at in ps ring oneshot ring/p2p mpi copy; do
	a=${at%/*} tr=auto
	[ "$at" = "$a" ] || tr=${at#*/}
	f=$out/$a.$tr
	cb_mpirun -np 2 "$bin/allreduce_perf" --algo "$a" --transport "$tr" -d int8 -o sum --counts "$count" \
		-n 1 -w 0 -c 1 -T 600 -q --csv "$f.csv" --rank-csv "$f.r.csv" || fail "$at: the launch failed"
	cb_complete_lines "$f.csv"
	want=()
	[ "$tr" = auto ] || want=(--transport "$tr")
	"$bin/check_results" "$f.csv" "$f.r.csv" 2 "${want[@]}" || fail "$at: rows or traffic wrong (above)"
	[ "$(awk -F, -v a="$a" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["status"] == "ok" && $c["algo"] == a && $c["count"] == '"$count"'' "$f.csv" | wc -l)" = 1 ] ||
		fail "$at: no ok row of $count elements"
	echo "large: $at ok"
done
