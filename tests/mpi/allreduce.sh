#!/usr/bin/env bash
# MPI integration: every algorithm on NP ranks, every dtype x op, counts 0, 1,
# n-1, n+1 and one odd count, in place or not, in one launch; the check passes
# and tx/rx equal the formulas (check_results).
#   allreduce.sh BIN NP INPLACE(0|1|both) [--root R] [--backend B] [--timing iter|loop]
#                [--count C] [--slicebytes SIZE] [--transport T] [--hosts LIST]
#                [--coll NAME] [--dtypes LIST]
# --coll: a collective's algorithms instead (cb_coll.h); reduce_scatter's,
# all_gather's and alltoall's counts are those many elements a rank, times NP.
# --dtypes: allreduce_perf's -d (default all): the smoke matrix gives each
# launch a few, every collective meeting every dtype over its launches.
# --transport: allreduce_perf's (default auto); ps and ring rows must say T
# (auto: the backend's one-sided transport on one host, p2p across hosts).
# --hosts: the multihost test bed's hosts, as mpirun's --host takes them
# (cbnode1:2,cbnode2:2; tests/beds/multihost/README.md): skipped (77) where
# the bed cannot work; the rows must say how many hosts there were.
# --count: the odd count. Default 16411 (a prime) with --slicebytes 1K on the
# host: every chunk at 2 to 8 ranks and every dtype is cut into slices,
# 3 for int8 at 8 ranks up to 65 for 8-byte types at 2, the last one short, so
# the ring's pipelining and uneven chunks are exercised at 1/64 of the bytes
# of 1048573 (1 MiB - 3) at the backend's own slice, which `--count 1048573
# --slicebytes 0` still runs. Checking every element on every rank costs
# O(n^2 count): the count, not the number of rows, sets a launch's time.
# cuda (it needs a GPU: without one the test is skipped, exit 77): 1048573 at
# the backend's slice unless given.
set -euo pipefail
. "$(dirname "$0")/../lib/lib.sh"
bin=$1 np=$2 inplace=$3
shift 3
root=0 backend=host timing=iter count="" slice="" transport=auto hosts="" coll=allreduce dtypes=all
while [ $# -gt 0 ]; do
	[ $# -ge 2 ] || fail "$1 needs a value"
	case $1 in
	--root) root=$2 ;;
	--backend) backend=$2 ;;
	--timing) timing=$2 ;;
	--count) count=$2 ;;
	--slicebytes) slice=$2 ;;
	--transport) transport=$2 ;;
	--hosts) hosts=$2 ;;
	--coll) coll=$2 ;;
	--dtypes) dtypes=$2 ;;
	*) fail "unknown option $1" ;;
	esac
	shift 2
done
if [ "$backend" = cuda ]; then
	cb_have_gpu || { echo "skipped: no GPU visible"; exit 77; }
	: "${count:=1048573}" "${slice:=0}"
fi
: "${count:=16411}" "${slice:=1K}"
launch=(cb_mpirun) nhosts=1 want=()
if [ -n "$hosts" ]; then
	reason=$("$CB_TESTS_DIR/beds/multihost/bed.sh" check) || { echo "$reason"; exit 77; }
	launch=(cb_mpirun_bed "$hosts")
	nhosts=$(tr ',' '\n' <<<"$hosts" | wc -l)
fi
[ "$transport" = auto ] && [ "$nhosts" -gt 1 ] && want=(--transport p2p)
[ "$transport" = auto ] || want=(--transport "$transport")
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
per=1
case $coll in reduce_scatter | all_gather | alltoall) per=$np ;; esac
counts=$(printf '%s\n' 0 $((per)) $((per * (np - 1))) $((per * (np + 1))) $((per * count)) |
	sort -nu | paste -sd,)
"${launch[@]}" -np "$np" "$bin/allreduce_perf" -d "$dtypes" -o all --counts "$counts" -n 2 -w 1 -c 1 \
	--inplace "$inplace" -r "$root" -B "$backend" --timing "$timing" --slicebytes "$slice" \
	--transport "$transport" --coll "$coll" -T 120 -q --csv "$out/s.csv" --rank-csv "$out/r.csv"
cb_complete_lines "$out/s.csv"
cb_complete_lines "$out/r.csv"
"$bin/check_results" "$out/s.csv" "$out/r.csv" "$np" "$root" "${want[@]}" --nhosts "$nhosts" \
	--coll "$coll"
grep -q '"status": "complete"' "$out/s.meta.json" || fail "metadata does not say complete"
grep -q "\"collective\": \"$coll\"" "$out/s.meta.json" || fail "metadata does not record --coll $coll"
grep -q "\"timing_mode\": \"$timing\"" "$out/s.meta.json" || fail "metadata does not record --timing $timing"
