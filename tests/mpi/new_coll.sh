#!/usr/bin/env bash
# A new collective is four places: in a copy of the tree, gather (the root's
# receive buffer ends with every rank's block, nccl-tests' gather layout)
# as its description collectives/plans/cb_coll_gather.c, its plan
# collectives/plans/cb_plan_gather.c, its line in CB_COLLECTIVES
# (cb_coll.h) and its plan's line in CB_PLAN_BUILTINS (cb_plan_lib.h), and
# nothing else; the copy built, gather_perf made from the description, and
# the plan run on 3 ranks over shm and p2p, in and out of place, root 0 and
# 2: checked (#wrong 0, every rank's tx/rx equal to the plan's sum and to
# the closed form of the description: check_results --coll gather). The
# library rows (mpi, nccl) say that collbench has no call for it: a call is
# one more place each (collectives/runtime/mpi/cb_algo_mpi_coll.c,
# collectives/runtime/nccl/cb_algo_nccl.c).
#   new_coll.sh SOURCE_DIR
# Label mpi: the copy builds without CUDA and history (15-40 s on 2 cores).
set -euo pipefail
. "$(dirname "$0")/../lib/lib.sh"
src=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
copy=$work/tree
cb_copy_tree "$src" "$copy"

cat >"$copy/collectives/plans/cb_coll_gather.c" <<'C'
/* gather: send B = count/n (the rank's block), recv count at the root
 * (n blocks: block q is rank q's send; the others' are no result); in
 * place the root's send is its block inside its receive buffer. busbw
 * factor (n-1)/n. Closed form of direct: the root receives (n-1) B, every
 * other rank sends B. */
#include <string.h>

#include "cb_coll.h"

static double busbw(int n)
{
	return n > 1 ? (double)(n - 1) / n : 0.0;
}

static void expect(void *buf, size_t first, size_t m, size_t count, enum cb_dtype dt,
		   enum cb_op op, int r, int root, int n)
{
	(void)op, (void)r, (void)root;
	cb_coll_expect_blocks(buf, first, m, count, dt, 0, n);
}

static int traffic(const char *algo, int n, int root, int r, size_t count, size_t *tx,
		   size_t *rx)
{
	size_t b = n > 1 ? count / (size_t)n : 0;

	if (strcmp(algo, "direct") != 0)
		return 0;
	*tx = r == root ? 0 : b;
	*rx = r == root ? (size_t)(n - 1) * b : 0;
	return 1;
}

const struct cb_coll_desc cb_coll_desc_gather = {
	.name = "gather", .perf_name = "gather_perf", .rooted = 1, .split = 1,
	.send_is_block = 1, .root_only_result = 1, .busbw_factor = busbw, .expect = expect,
	.traffic = traffic,
};
C
cat >"$copy/collectives/plans/cb_plan_gather.c" <<'C'
/* gather as a plan: the root copies every other rank's block into its
 * receive buffer (1 round), then its own (a round of its own: in place its
 * send is that range). */
#include "cb_plan_lib.h"

enum cb_status cb_plan_build_gather_direct(struct cb_plan *p, const struct cb_plan_args *a)
{
	int n = a->n, root = a->root;
	size_t b = a->count / (size_t)n;
	enum cb_status st = cb_plan_init_coll(p, "direct", CB_COLL_GATHER, n, a->count, root);

	for (int q = 0; q < n && st == CB_OK; q++)
		if (q != root)
			st = cb_plan_copy(p, root, cb_pref(root, CB_PLAN_RECV, (size_t)q * b),
					  cb_pref(q, CB_PLAN_SEND, 0), b, 0);
	if (st == CB_OK)
		st = cb_plan_round(p);
	if (st == CB_OK)
		st = cb_plan_copy(p, root, cb_pref(root, CB_PLAN_RECV, (size_t)root * b),
				  cb_pref(root, CB_PLAN_SEND, 0), b, 0);
	if (st != CB_OK)
		cb_plan_free(p);
	return st;
}
C
# the two lines: the collective, and its plan
python3 - "$copy/collectives/plans" <<'PY'
import sys
d = sys.argv[1]
for f, anchor, line in (
	("cb_coll.h", "\t/* the end of CB_COLLECTIVES", "\tX(GATHER, gather) \\\n"),
	("cb_plan_lib.h", "\t/* the end of CB_PLAN_BUILTINS",
	 '\tX(gather, direct, "direct: the root copies every block", "new_coll.sh") \\\n')):
	s = open(f"{d}/{f}").read()
	assert s.count(anchor) == 1, f"the end of the table in {f} moved: update new_coll.sh"
	open(f"{d}/{f}", "w").write(s.replace(anchor, line + anchor))
PY
changed=$(git -C "$copy" status --porcelain | sort | tr '\n' ' ')
want=" M collectives/plans/cb_coll.h  M collectives/plans/cb_plan_lib.h ?? collectives/plans/cb_coll_gather.c ?? collectives/plans/cb_plan_gather.c "
[ "$changed" = "$want" ] || fail "the new collective touched other places than its four: $changed"
git -C "$copy" diff --numstat | awk '$1 != 1 || $2 != 0 { bad = 1 } END { exit bad }' ||
	fail "an entry is not one added line: $(git -C "$copy" diff --numstat)"
echo "places: $(git -C "$copy" status --porcelain | wc -l) files, $(git -C "$copy" diff --numstat | awk '{ s += $1 } END { print s }') lines in existing files"

cmake -S "$copy" -B "$work/build" -DCMAKE_BUILD_TYPE=Release -DCB_WITH_CUDA=OFF -DCB_WITH_HISTORY=OFF >/dev/null
cmake --build "$work/build" -j2 --target allreduce_perf check_results >/dev/null
bin=$work/build/bin
[ -L "$bin/gather_perf" ] || fail "no gather_perf made from the description"
"$bin/gather_perf" --help | grep "^algorithms of --coll gather (gather_perf" >/dev/null ||
	fail "--help does not list gather"
for run in "shm 0 0" "p2p 1 2" "shm 1 2" "p2p 0 0"; do
	set -- $run
	d=$work/run-$1-$2-$3
	mkdir -p "$d"
	cb_mpirun -np 3 "$bin/gather_perf" --algo direct --transport "$1" --inplace "$2" -r "$3" \
		--counts 0,3,6,3003 -n 2 -w 1 -d float,int8,double -T 120 -q \
		--csv "$d/summary.csv" --rank-csv "$d/r.csv" >/dev/null
	"$bin/check_results" "$d/summary.csv" "$d/r.csv" 3 "$3" --transport "$1" --coll gather ||
		fail "gather over $1 (in place $2, root $3): rows or traffic wrong (above)"
done
cb_mpirun -np 3 "$bin/gather_perf" --algo mpi --counts 3 -n 1 -w 0 -T 60 2>&1 |
	grep "skipped:collbench has no MPI call for this collective" >/dev/null || fail "the mpi row of gather does not say why it skips"
echo "new collective (2 files + 2 entries): ok"
