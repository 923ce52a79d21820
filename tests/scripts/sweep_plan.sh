#!/usr/bin/env bash
# sweep.sh with a plan file (-- --plan FILE): what needs the world size is
# checked at every --ranks before the first launch.
#   sweep_plan.sh BIN CASE
set -uo pipefail
. "$(dirname "$0")/../lib/lib.sh"
bin=$1 case=$2
src=$(cd "$CB_TESTS_DIR/.." && pwd)
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
export CB_BIN=$bin LC_ALL=C CB_RESULTS=$t/results CB_PLOTS=$t/plots
cb_launch_env

# a 2-rank plan: both ranks reduce in one round
cat >"$t/pair2.json" <<'PLAN'
{"collbench_plan": 1, "name": "pair2", "ranks": 2, "chunks": 1, "rounds": [[
 {"op": "reduce", "chunk": 0, "dst": [0, "recv"], "a": [1, "send"], "b": [0, "send"], "final": true},
 {"op": "reduce", "chunk": 0, "dst": [1, "recv"], "a": [0, "send"], "b": [1, "send"], "final": true}]]}
PLAN
tiny=(--minbytes 8 --maxbytes 8 --iters 2 --warmup_iters 0 --algo "ring,pair2")

case $case in
ranks)
	# a 2-rank plan at --ranks 2,4: refused before any launch (exit 2, no
	# folder), naming the rank count; at --ranks 2 it runs
	rc=0
	"$src/scripts/sweep.sh" --ranks 2,4 "${tiny[@]}" --out "$t/r24" -- --plan "$t/pair2.json" \
		>"$t/out" 2>"$t/err" || rc=$?
	[ "$rc" = 2 ] || { cat "$t/out" "$t/err" >&2; fail "--ranks 2,4 with a 2-rank plan exited $rc, not 2"; }
	grep -q "plan pair2 is for 2 ranks, this run has 4" "$t/err" ||
		{ cat "$t/err" >&2; fail "no word of the plan's ranks"; }
	grep -q "the plan is for 2 ranks: sweep it with --ranks 2" "$t/err" ||
		{ cat "$t/err" >&2; fail "no word of --ranks 2"; }
	grep -q "refuses these options at --ranks 4 (above): nothing run" "$t/err" ||
		{ cat "$t/err" >&2; fail "no word of --ranks 4"; }
	! grep -q "^== 2 ranks" "$t/err" || fail "the 2-rank launch ran"
	[ ! -e "$t/r24" ] || fail "a refused sweep made $t/r24"
	"$src/scripts/sweep.sh" --ranks 2 "${tiny[@]}" --out "$t/r2" -- --plan "$t/pair2.json" \
		>"$t/out" 2>"$t/err" || { cat "$t/out" "$t/err" >&2; fail "--ranks 2 failed"; }
	grep -q ",pair2,2,8," "$t/r2/summary.csv" || fail "no pair2 row at 2 ranks"
	# the load it shared the CPUs with, as bench.sh says it
	grep -q "^load:    .*other work used [0-9]*% of the" "$t/err" || { cat "$t/err" >&2; fail "no load line"; }
	# the plan given before --: where it goes
	rc=0
	"$src/scripts/sweep.sh" --ranks 2 "${tiny[@]}" --out "$t/before" --plan "$t/pair2.json" \
		>"$t/out" 2>"$t/err" || rc=$?
	[ "$rc" = 2 ] && grep -q "^sweep.sh: --plan is allreduce_perf's: give it after --" "$t/err" ||
		{ cat "$t/err" >&2; fail "--plan before -- exited $rc without a hint"; }
	# --root beyond a rank count: the same check
	rc=0
	"$src/scripts/sweep.sh" --ranks 4,2 "${tiny[@]/pair2/ps}" --out "$t/root" -- -r 3 \
		>"$t/out" 2>"$t/err" || rc=$?
	[ "$rc" = 2 ] || { cat "$t/out" "$t/err" >&2; fail "-r 3 at --ranks 2 exited $rc, not 2"; }
	grep -q "root 3: there are only 2 ranks" "$t/err" || { cat "$t/err" >&2; fail "no word of the root"; }
	;;
*) fail "unknown case $case" ;;
esac
echo "ok: $case"
