#!/usr/bin/env bash
# A new algorithm is one plan file plus one registry entry (issue 21): in a
# copy of the tree, collectives/plans/cb_plan_chain.c (a reduce chain 0 -> n-1, then
# the result back down the chain) and its X(...) entry in CB_PLAN_BUILTINS,
# and nothing else; the copy built and the algorithm run on 3 ranks over shm
# and p2p, checked (#wrong 0, every rank's tx/rx equal to the plan's sum:
# check_results; its closed form: the ends move S each way, the middle 2S)
# and priced by collbench-model.
#   new_algo.sh SOURCE_DIR
# Label mpi: the copy builds without CUDA and history (15-40 s on 2 cores).
set -euo pipefail
. "$(dirname "$0")/../lib/lib.sh"
src=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
copy=$work/tree
cb_copy_tree "$src" "$copy"

cat >"$copy/collectives/plans/cb_plan_chain.c" <<'C'
/* The chain allreduce as a plan: round k (0 .. n-2) rank k+1 reduces rank
 * k's partial (its input at k = 0) with its own input; then the result goes
 * back down, rank n-2-j copying it from rank n-1-j in round n-1+j. Traffic:
 * ranks 0 and n-1 move S each way, the others 2S. */
#include "cb_plan_lib.h"

enum cb_status cb_plan_build_allreduce_chain(struct cb_plan *p, const struct cb_plan_args *a)
{
	int n = a->n;
	enum cb_status st = cb_plan_init(p, "chain", n, a->count);

	for (int k = 0; k + 1 < n && st == CB_OK; k++) {
		st = cb_plan_round(p);
		if (st == CB_OK)
			st = cb_plan_reduce(p, k + 1, cb_pref(k + 1, CB_PLAN_RECV, 0),
					    cb_pref(k, k ? CB_PLAN_RECV : CB_PLAN_SEND, 0),
					    cb_pref(k + 1, CB_PLAN_SEND, 0), a->count, k == n - 2);
	}
	for (int j = 0; j + 1 < n && st == CB_OK; j++) {
		st = cb_plan_round(p);
		if (st == CB_OK)
			st = cb_plan_copy(p, n - 2 - j, cb_pref(n - 2 - j, CB_PLAN_RECV, 0),
					  cb_pref(n - 1 - j, CB_PLAN_RECV, 0), a->count, 0);
	}
	if (st != CB_OK)
		cb_plan_free(p);
	return st;
}
C
# the registry entry: one line at the end of the list
python3 - "$copy/collectives/plans/cb_plan_lib.h" <<'PY'
import sys
p = sys.argv[1]
s = open(p).read()
anchor = '\t/* the end of CB_PLAN_BUILTINS'
assert s.count(anchor) == 1, "the end of CB_PLAN_BUILTINS moved: update new_algo.sh"
s = s.replace(anchor, '\tX(allreduce, chain, "chain: reduce along 0 .. n-1, then back", "new_algo.sh") \\\n' + anchor)
open(p, "w").write(s)
PY
changed=$(git -C "$copy" status --porcelain | sort | tr '\n' ' ')
[ "$changed" = " M collectives/plans/cb_plan_lib.h ?? collectives/plans/cb_plan_chain.c " ] ||
	fail "the new algorithm touched more than its file and its entry: $changed"
git -C "$copy" diff --numstat | awk '$1 != 1 || $2 != 0 { bad = 1 } END { exit bad }' ||
	fail "the entry is not one added line: $(git -C "$copy" diff --numstat)"

cmake -S "$copy" -B "$work/build" -DCMAKE_BUILD_TYPE=Release -DCB_WITH_CUDA=OFF -DCB_WITH_HISTORY=OFF >/dev/null
cmake --build "$work/build" -j2 --target allreduce_perf check_results collbench-model >/dev/null
bin=$work/build/bin
for run in "shm 0" "p2p 1"; do
	set -- $run
	d=$work/run-$1
	mkdir -p "$d"
	cb_mpirun -np 3 "$bin/allreduce_perf" --algo chain,ring --transport "$1" --inplace "$2" \
		--counts 0,1,2,3,1000,65539 -n 2 -w 1 -d float,int8,double -o all -T 120 -q \
		--csv "$d/summary.csv" --rank-csv "$d/r.csv" >/dev/null
	"$bin/check_results" "$d/summary.csv" "$d/r.csv" 3 --transport "$1" ||
		fail "chain over $1: rows or traffic wrong (above)"
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["algo"] == "chain" { s = $c["bytes"]; w = ($c["rank"] == 1) ? 2 * s : s
			if ($c["tx_bytes"] != w || $c["rx_bytes"] != w) { print "rank " $c["rank"] " " s " B: " $c["tx_bytes"] "/" $c["rx_bytes"]; bad = 1 }
			n++ }
		END { exit bad || !n }' "$d/r.csv" || fail "chain over $1: traffic not the closed form"
	"$bin/collbench-model" check "$d" --oversubscribed --no-gamma >"$d/model.txt" 2>&1 || true
	grep -q "^ *host *$1 *chain " "$d/model.txt" || { cat "$d/model.txt" >&2; fail "collbench-model priced no chain row over $1"; }
done
echo "new algorithm (1 file + 1 entry): ok"
