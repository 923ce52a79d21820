#!/usr/bin/env bash
# bench.sh: the main job. Installs what is missing, configures and builds,
# sweeps rank counts x message sizes x algorithms, draws the plots, and says
# where everything went; then the cost model of the run: fit and check beside
# the run, its figures beside the plots (scripts/model.sh --in-run; a fit
# that refuses the run is said and does not fail the job). Picks the cuda
# backend when a GPU is visible and the build has it, else the host backend.
# Options go to sweep.sh (see scripts/sweep.sh --help), e.g.
# scripts/bench.sh --ranks "2 4" --maxbytes 16M. Without --algo it runs the
# seed's comparison, ps, ring, the library's allreduce and copy; the rest of
# the family (oneshot, twoshot, rd, rabenseifner, dbtree, hier) with --algo, e.g.
# scripts/bench.sh --algo oneshot,twoshot,rd,rabenseifner,ring,mpi --maxbytes 1M.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
PROG=bench.sh
# --help: this header and sweep.sh's options, before anything is installed
# or built
for a in "$@"; do
	case $a in
	-h | --help)
		sed -n '2,12s/^# \{0,1\}//p' "$0"
		echo
		exec scripts/sweep.sh --help
		;;
	esac
done
. dev/deps.sh
. scripts/lib.sh
. scripts/lib_bench.sh
cb_install_deps

build=${CB_BUILD_DIR:-build}
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$build" -j "$(nproc)" >/dev/null

backend=$(cb_default_backend "$build/bin")
echo "collbench: backend $backend" >&2

# a folder of its own (created atomically: two runs never share one)
run_dir=$(cb_new_dir "${CB_RESULTS:-$root/results}" \
	"$(cb_run_name "$(hostname -s)" "$(date -u +%Y%m%dT%H%M%SZ)")") || exit 2
status=0 plot_dir="" model="(none)"
# the seed's algorithms unless told (one-shot reads (n-1)S per rank: at 8
# oversubscribed ranks and 32 MiB one call takes half a second here)
algo_args=(--algo "ps,ring,$([ "$backend" = cuda ] && echo nccl || echo mpi),copy")
for a in "$@"; do
	case $a in -a | --algo | --algo=*) algo_args=() ;; esac
done
# a plan file's rows are named by its JSON "name" (ring3.json: ring3_file),
# the name -a and collbench-compare --algo take: said before the sweep and
# in the summary
plans=$(cb_bench_plan_names "$@")
[ -z "$plans" ] || sed "s/^/$PROG: /" <<<"$plans" >&2
CB_SWEEP_LOAD=0 CB_BIN="$root/$build/bin" scripts/sweep.sh --backend "$backend" --out "$run_dir" \
	"${algo_args[@]}" "$@" || status=$?
# a refused sweep (exit 2: nothing run) leaves no folder, as sweep.sh's own
[ "$status" != 2 ] || ! rmdir -- "$run_dir" 2>/dev/null || run_dir=""
if [ -s "$run_dir/summary.csv" ]; then
	figures=$(scripts/plot.sh "$run_dir") || status=$?
	[ -z "$figures" ] || plot_dir=$(dirname "$(head -n 1 <<<"$figures")")
fi
# the cost model (docs/model.md): its fit refuses runs that cannot
# determine it (one size, one algorithm); that is said, and the job goes on
if [ -n "$plot_dir" ]; then
	if CB_BIN="$root/$build/bin" scripts/model.sh --in-run "$run_dir" "$plot_dir" >/dev/null; then
		model="$run_dir/model_fit.json, model_check.txt ($(tail -n 1 "$run_dir/model_check.txt"))"
	else
		echo "$PROG: no cost model for this run (collbench-model's reason above)" >&2
		model="(none: see above)"
	fi
fi
echo
echo "results: ${run_dir:-(none: the sweep refused its options, above)}"
echo "plots:   ${plot_dir:-(none)}"
echo "model:   $model"
[ "$model" = "(none)" ] || [ "$model" = "(none: see above)" ] || cb_bench_model_notes
[ -z "$run_dir" ] || [ ! -f "$run_dir/meta.json" ] || cb_bench_load "$run_dir"
[ -z "$plans" ] || echo "$plans"
exit $status
