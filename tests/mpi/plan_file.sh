#!/usr/bin/env bash
# allreduce_perf --plan FILE (issue 21, item 5): the shipped example plans
# under mpirun on both transports, and what a run does with a plan it must
# refuse.
#   plan_file.sh BIN
# Checked:
# - examples/plans/reduce_scatter_ring3.json (reduce_scatter_perf) and
#   broadcast_chain4.json (broadcast_perf -r 1): their collective's rows,
#   checked the same way, shm and p2p, in place and not; the first with
#   --coll allreduce: exit 2 naming both collectives;
# - examples/plans/binomial4.json on 4 ranks and ring3.json on 3, over shm
#   and p2p, a dtype of each element size (what the executors address by;
#   the reduce of every dtype x op is unit_check's) and every op, out of
#   place and in place: every row ok,
#   #wrong 0, each rank's measured tx/rx equal to the plan's sum
#   (check_results --plan), the metadata naming the file, and
#   collbench-model pricing the plan's rows (check --plan);
# - a plan for 4 ranks on 3: exit 2 naming both counts, no result file;
# - a plan with a step left out: exit 2 before anything is timed, naming
#   the rank whose result nothing writes and the range; no result file; the
#   same in --check-args (no MPI).
set -euo pipefail
. "$(dirname "$0")/../lib/lib.sh"
bin=$1
plans=$CB_TESTS_DIR/../examples/plans
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# The rates the plan's rows are priced with: a committed run's shm fit, for
# shm and p2p alike (pricing is what is checked, not the rates). A fit of
# this run's own rows (--counts up to 512 KiB, 2 iterations) is refused as
# undetermined when other work makes their times flat.
fit=$out/fit.json
"$bin/collbench-model" fit "$CB_TESTS_DIR/../results/reference-family" --oversubscribed \
	-o "$out/ref_fit.json" >/dev/null || fail "collbench-model fit of results/reference-family"
python3 - "$out/ref_fit.json" "$fit" <<'PY'
import json, sys
f = json.load(open(sys.argv[1]))
shm = [g for g in f["groups"] if g["transport"] == "shm"][0]
f["groups"].append(dict(shm, transport="p2p"))
json.dump(f, open(sys.argv[2], "w"))
PY

run_plan() { # NP FILE TRANSPORT INPLACE
	local np=$1 file=$2 tr=$3 ip=$4 d
	d="$out/$(basename "$2" .json).$3.$4"
	mkdir -p "$d"
	cb_mpirun -np "$np" "$bin/allreduce_perf" --plan "$file" --algo ring --transport "$tr" \
		--inplace "$ip" --counts 0,1,7,1000,65539 -n 2 -w 1 -d int8,half,float,double -o all -T 120 -q \
		--csv "$d/summary.csv" --rank-csv "$d/r.csv" >/dev/null
	"$bin/check_results" "$d/summary.csv" "$d/r.csv" "$np" --transport "$tr" --plan "$file" ||
		fail "$file on $np ranks over $tr (in place $ip): rows or traffic wrong (above)"
	name=$(sed -n 's/.*"name": "\([a-z0-9_]*\)".*/\1/p' "$file" | head -1)
	grep -q "\"name\": \"$name\"" "$d/summary.meta.json" || fail "the metadata does not name plan $name"
	rows=$(grep -c ",$name," "$d/summary.csv" || true)
	[ "$rows" -gt 0 ] || fail "no rows of $name in $d/summary.csv"
	"$bin/collbench-model" check "$d" --oversubscribed --no-gamma --plan "$file" --fit "$fit" >"$d/model.txt" 2>&1 ||
		true # far-off rows are no failure here: the pricing is
	grep -q "^ *host *$tr *$name " "$d/model.txt" || { cat "$d/model.txt" >&2; fail "collbench-model priced no row of $name"; }
}
for tr in shm p2p; do
	run_plan 4 "$plans/binomial4.json" "$tr" 0
	run_plan 3 "$plans/ring3.json" "$tr" 1
done

# plans of other collectives: the file says its collective (and root); the
# binary named after it runs it, checked as any row of that collective
run_coll_plan() { # NP FILE BINARY COLL ROOT TRANSPORT INPLACE
	local np=$1 file=$2 perf=$3 coll=$4 root=$5 tr=$6 ip=$7 d
	d="$out/$(basename "$2" .json).$6.$7"
	mkdir -p "$d"
	cb_mpirun -np "$np" "$bin/$perf" --plan "$file" --algo mpi -r "$root" --transport "$tr" \
		--inplace "$ip" --counts 0,"$np",$((np * 7)),$((np * 1001)) -n 2 -w 1 -d int8,half,float,double \
		-o sum,max -T 120 -q --csv "$d/summary.csv" --rank-csv "$d/r.csv" >/dev/null
	"$bin/check_results" "$d/summary.csv" "$d/r.csv" "$np" "$root" --transport "$tr" --plan "$file" \
		--coll "$coll" || fail "$file over $tr (in place $ip): rows or traffic wrong (above)"
	name=$(sed -n 's/.*"name": "\([a-z0-9_]*\)".*/\1/p' "$file" | head -1)
	grep -q ",$name,.*,ok,.*,$coll\(,\|$\)" "$d/summary.csv" || fail "no ok row of $name ($coll) in $d/summary.csv"
	grep -q "\"name\": \"$name\"" "$d/summary.meta.json" || fail "the metadata does not name plan $name"
}
run_coll_plan 3 "$plans/reduce_scatter_ring3.json" reduce_scatter_perf reduce_scatter 0 shm 1
run_coll_plan 3 "$plans/reduce_scatter_ring3.json" reduce_scatter_perf reduce_scatter 0 p2p 0
run_coll_plan 4 "$plans/broadcast_chain4.json" broadcast_perf broadcast 1 shm 0
run_coll_plan 4 "$plans/broadcast_chain4.json" broadcast_perf broadcast 1 p2p 1
# a plan file of one collective with --coll another: exit 2, both named
cb_mpirun -np 3 "$bin/allreduce_perf" --plan "$plans/reduce_scatter_ring3.json" -b 8 -e 8 -n 1 -w 0 \
	--csv "$out/cw.csv" 2>"$out/cw.err" >/dev/null && fail "a reduce_scatter plan ran as allreduce"
grep -q "is a plan of reduce_scatter; --coll is allreduce" "$out/cw.err" || { cat "$out/cw.err" >&2; fail "no collective message"; }

# the wrong world size
rc=0
cb_mpirun -np 3 "$bin/allreduce_perf" --plan "$plans/binomial4.json" -b 8 -e 8 -n 1 -w 0 \
	--csv "$out/ws.csv" >/dev/null 2>"$out/ws.err" || rc=$?
[ "$rc" = 2 ] || fail "a 4-rank plan on 3 ranks exited $rc, not 2"
grep -q "plan binomial4 is for 4 ranks, this run has 3" "$out/ws.err" || { cat "$out/ws.err" >&2; fail "no world-size message"; }
[ ! -e "$out/ws.csv" ] || fail "a refused run left $out/ws.csv"

# a plan that does not produce the allreduce: rank 3 never receives the result
python3 - "$plans/binomial4.json" "$out/bad.json" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))
del p["rounds"][3][1]
json.dump(p, open(sys.argv[2], "w"))
PY
for how in mpirun check-args; do
	rc=0
	if [ $how = mpirun ]; then
		cb_mpirun -np 4 "$bin/allreduce_perf" --plan "$out/bad.json" -b 8 -e 8 -n 1 -w 0 \
			--csv "$out/bad.csv" >/dev/null 2>"$out/bad.err" || rc=$?
	else
		"$bin/allreduce_perf" --check-args --plan "$out/bad.json" 2>"$out/bad.err" || rc=$?
	fi
	[ "$rc" = 2 ] || fail "a wrong plan ($how) exited $rc, not 2"
	grep -q "the plan is refused: plan binomial4 on 4 ranks, count 1, out of place: rank 3's result, recv \[0, 1) of \[0, 1), is never written" \
		"$out/bad.err" || { cat "$out/bad.err" >&2; fail "the refusal ($how) does not name the unwritten result"; }
	[ ! -e "$out/bad.csv" ] || fail "a refused plan left $out/bad.csv"
done
echo "plan files: ok"
