#!/usr/bin/env bash
# Open MPI's forced coll/tuned algorithms of every collective (mpi.<name>,
# CB_OMPI_FORCED): for each collective --help lists, its mpi.* rows on 3
# ranks and on 2 (two_proc runs on 2 only), in place and not, float and
# int32 with sum and max: every row ok and checked (#wrong 0: check_results
# --coll), or skipped with the reason a forced algorithm may have (the
# call's own in-place rule, two_proc on 3 ranks); and each collective has
# ok rows. That the forced algorithm is the one that ran is shown for
# allreduce by its bytes (mpi_traffic_forced), not here.
#   forced_colls.sh BIN
set -euo pipefail
. "$(dirname "$0")/../lib/lib.sh"
bin=$1
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
export OMPI_MCA_coll_tuned_use_dynamic_rules=1
colls=$("$bin/allreduce_perf" --help | sed -n 's/^algorithms of --coll \([a-z_]*\) .*/\1/p')
[ "$(wc -w <<<"$colls")" -ge 6 ] || fail "--help lists too few collectives: $colls"
for coll in $colls; do
	algos=$("$bin/allreduce_perf" --help | sed -n "/^algorithms of --coll $coll (/,/^\$/p" |
		awk '$1 ~ /^mpi\./ { print $1 }' | paste -sd,)
	[ -n "$algos" ] || fail "$coll has no mpi.* algorithm"
	for run in "3 0" "3 1" "2 0" "2 1"; do
		set -- $run
		d=$out/$coll-$1-$2
		mkdir -p "$d"
		cb_mpirun -np "$1" "$bin/allreduce_perf" --coll "$coll" --algo "$algos" --counts 0,6,6006 \
			-d float,int32 -o sum,max -n 2 -w 1 --inplace "$2" -T 120 -q \
			--csv "$d/s.csv" --rank-csv "$d/r.csv" >/dev/null
		"$bin/check_results" "$d/s.csv" "$d/r.csv" "$1" --coll "$coll" ||
			fail "$coll's mpi.* on $1 ranks (in place $2): rows wrong (above)"
	done
	cat "$out/$coll"-*/s.csv | grep ',ok,' >/dev/null || fail "no ok row of $coll's mpi.*"
	echo "$coll: $(cat "$out/$coll"-*/s.csv | grep -c ',ok,') ok rows of $algos"
done
