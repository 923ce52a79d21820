#!/usr/bin/env bash
# bench.sh: the main job. Installs what is missing, configures and builds,
# sweeps rank counts x message sizes x algorithms, draws the plots, and says
# where everything went. Picks the cuda backend when a GPU is visible and the
# build has it, else the host backend. Options go to sweep.sh (see
# scripts/sweep.sh --help), e.g. scripts/bench.sh -n "2 4" -e 16M.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
. scripts/deps.sh
cb_install_deps

build=${CB_BUILD_DIR:-build}
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$build" -j "$(nproc)" >/dev/null

backend=host
if command -v nvidia-smi >/dev/null && nvidia-smi -L >/dev/null 2>&1 &&
	"$build/bin/allreduce_perf" --help | grep -q 'backends built: .*cuda'; then
	backend=cuda
fi
echo "collbench: backend $backend" >&2

run_dir="$root/results/$(hostname -s)-$(date -u +%Y%m%dT%H%M%SZ)"
status=0
CB_BIN="$root/$build/bin" scripts/sweep.sh -B "$backend" -o "$run_dir" "$@" || status=$?
if [ -s "$run_dir/summary.csv" ]; then
	scripts/plot.sh "$run_dir" || status=$?
fi
echo
echo "results: $run_dir"
echo "plots:   $root/plots/$(basename "$run_dir")"
exit $status
