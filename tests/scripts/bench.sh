#!/usr/bin/env bash
# What bench.sh's summary tells a new user besides where the files went
# (scripts/lib_bench.sh): the load the run shared the CPUs with, what the
# model's "far off" count means and why its scale-out figures are a DGX
# H100's, which -a a plan file wants; and that docs/scripts.md names every
# figure plot.sh draws. No sweep, no build: the functions on the committed
# runs.
#   bench.sh BIN CASE
set -uo pipefail
. "$(dirname "$0")/../lib/lib.sh"
case=$2
src=$(cd "$CB_TESTS_DIR/.." && pwd)
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
export LC_ALL=C
# in_lib CMD...: CMD with lib.sh and lib_bench.sh sourced, stdout in $t/out
in_lib() {
	(PROG=bench.sh; . "$src/scripts/lib.sh"; . "$src/scripts/lib_bench.sh"; "$@") >"$t/out" 2>&1
}

case $case in
summary_notes)
	# a run that recorded 61% other work is warned about, with the figure; a quiet one is
	# not; the model's line is explained ("far off": what it is, what is normal; the
	# DGX H100 figures: why); bench.sh prints all three
	cp -r "$src/results/baseline/host-2core" "$t/run"
	sed -i 's/"other_cpu_percent": [0-9]*/"other_cpu_percent": 61/' "$t/run/meta.json"
	grep -q '"other_cpu_percent": 61,' "$t/run/meta.json" || fail "could not set the load figure"
	in_lib cb_bench_load "$t/run"
	grep -q "WARNING: other work used 61% of the" "$t/out" || { cat "$t/out" >&2; fail "no contention warning"; }
	sed -i 's/"other_cpu_percent": [0-9]*/"other_cpu_percent": 3/' "$t/run/meta.json"
	in_lib cb_bench_load "$t/run"
	! grep -q WARNING "$t/out" && grep -q "used 3% of the CPUs" "$t/out" ||
		{ cat "$t/out" >&2; fail "a quiet run warned about"; }
	in_lib cb_bench_model_notes
	grep -q '"far off"' "$t/out" && grep -q "Not a failure" "$t/out" && grep -q "in results/reference (the reference" "$t/out" &&
		grep -q "not a bench.sh run" "$t/out" &&
		grep -q "DGX H100" "$t/out" && grep -q "not measurements of" "$t/out" ||
		{ cat "$t/out" >&2; fail "the model's line is not explained"; }
	for f in cb_bench_load cb_bench_model_notes cb_bench_plan_names; do
		grep -q "$f" "$src/scripts/bench.sh" || fail "bench.sh does not call $f"
	done
	;;
plan_names)
	# --plan FILE (either spelling, after --): the name -a wants, which is the file's
	# "name" (ring3_file for ring3.json), and its rank count; a file that is not a plan
	# says nothing (allreduce_perf says why)
	cp "$src/examples/plans/ring3.json" "$t/ring3.json"
	echo '{"collbench_plan": 1,' >"$t/broken.json"
	in_lib cb_bench_plan_names --ranks 3 -- --plan "$t/ring3.json" --plan="$t/ring3.json" --plan "$t/broken.json"
	[ "$(grep -c "^plan file ring3.json: its rows are named ring3_file (the name -a, --algo and collbench-compare --algo take; a plan for 3 ranks: --ranks 3)$" "$t/out")" = 2 ] &&
		[ "$(wc -l <"$t/out")" = 2 ] || { cat "$t/out" >&2; fail "the plan's algorithm name is not said"; }
	# the docs say what runs: the plan's rows beside -a's, named or not
	! grep -rn "rows run only where" "$src/docs" "$src/README.md" || fail "the docs say a plan runs only where --algo names it"
	;;
refused)
	# bench.sh itself (a fake cmake: the build is the test's) with a 3-rank plan at the
	# default --ranks 2,4,8: refused (exit 2), and no run folder left or printed; a
	# sweep option that is allreduce_perf's (--plan before --) says where it goes
	mkdir "$t/shim" && printf '#!/bin/sh\nexit 0\n' >"$t/shim/cmake" && chmod +x "$t/shim/cmake"
	rel=$(realpath --relative-to="$src" "$(dirname "$1")")
	bench() {
		rc=0
		PATH=$t/shim:$PATH CB_BUILD_DIR=$rel CB_RESULTS=$t/results "$src/scripts/bench.sh" "$@" \
			>"$t/out" 2>&1 || rc=$?
	}
	bench --maxbytes 8 -- --plan "$src/examples/plans/ring3.json"
	[ "$rc" = 2 ] || { cat "$t/out" >&2; fail "a 3-rank plan at --ranks 2,4,8 exited $rc, not 2"; }
	[ -z "$(ls -A "$t/results" 2>/dev/null)" ] || { ls -R "$t/results" >&2; fail "a refused bench run left a folder"; }
	grep -q "^results: (none: the sweep refused its options, above)$" "$t/out" ||
		{ cat "$t/out" >&2; fail "a refused bench run printed a results folder"; }
	bench --plan "$src/examples/plans/ring3.json"
	[ "$rc" = 2 ] && grep -q "sweep.sh: --plan is allreduce_perf's: give it after --, e.g. scripts/sweep.sh ... -- --plan FILE" "$t/out" ||
		{ cat "$t/out" >&2; fail "no word of where --plan goes"; }
	;;
docs_examples)
	# README's compare example says in its visible text (not only in the docs
	# test's HTML comment) that it exits 1; docs/regression.md's awk example
	# gives the algo column room for the longest name (rabenseifner)
	sed -n '/^\*\*Compare two runs/,/collbench-compare results/p' "$src/README.md" |
		sed 's/<!--.*-->//' | grep "exits 1" >/dev/null || fail "README's compare example does not say it exits 1"
	w=$(grep -o 'printf "%-[0-9]*s %9d' "$src/docs/regression.md" | sed 's/printf "%-\([0-9]*\)s.*/\1/')
	[ -n "$w" ] && [ "$w" -ge 12 ] || fail "docs/regression.md's awk column is ${w:-?} wide, not 12"
	;;
docs_figures)
	# every figure plot.sh writes (the names it claims in its folder) is named in
	# docs/scripts.md's plot.sh section
	sed -n '/^## `scripts\/plot.sh`/,/^## `scripts\/model.sh`/p' "$src/docs/scripts.md" >"$t/doc"
	names=$(sed -n '/cb_claim_dir "$OUT_DIR"/,/|| exit 2/p' "$src/scripts/plot.sh" |
		grep -o "'[a-z_]*[a-z]" | tr -d "'" | sort -u | grep -v '^figures$')
	[ -n "$names" ] || fail "no figure names found in plot.sh"
	for n in $names; do
		grep -q "$n" "$t/doc" || fail "docs/scripts.md's plot.sh section does not name the figure $n"
	done
	;;
*)
	fail "unknown case '$case'"
	;;
esac
echo "bench.sh $case: ok"
