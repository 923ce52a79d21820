#!/usr/bin/env bash
# history-demo.sh: a history of real runs with an injected step, for docs/history.md's
# trend figure (issue 15). Makes N sweeps of this machine, one after the
# other, the last K of them deliberately slowed: each such sweep runs under
# taskset pinned to one CPU with Open MPI's binding off, so its ranks share
# that CPU (sweep.sh then oversubscribes and records it in meta.json). Each run is added to a new
# history with the label "normal" or "slowed-taskset-1cpu"; then the change
# points are detected and the trend is drawn (scripts/plot_history.sh).
# Run it on a quiet machine: other work during a run is measured with it
# (each run's share of the CPUs taken by other work is listed in runs.tsv).
# Options: the table below (scripts/lib_opts.sh's form).
# shellcheck disable=SC2154 # the options' variables: set by cb_opts_parse from the table
set -euo pipefail
export LC_ALL=C
root=$(cd "$(dirname "$0")/.." && pwd)
bin=${CB_BIN:-$root/build/bin}
PROG=history-demo.sh
. "$root/scripts/lib.sh"

sweep_args=(--ranks 2 --minbytes 1M --maxbytes 64M --stepfactor 4 --repeat 5)
SLOW_LABEL=slowed-taskset-1cpu

cb_opts_new none "usage: dev/history-demo.sh [options] [-- sweep.sh options]"
#      long      letter value   kind    variable  default
cb_opt runs      - N       int:2:  runs      12  "sweeps in all"
cb_opt slow      - K       int     slow      4   "the last K of them slowed (pinned to one CPU)"
cb_opt cpu       - C       int     cpu       0   "the CPU the slowed sweeps are pinned to"
cb_opt out       - DIR     text    outdir    '' \
	"the demo folder, new or empty: runs/NN/ (run folders)," \
	"history.sqlite, runs.tsv, detect.txt, trend.md" "[results/history-demo-<UTC time>]"
cb_opt plot      - OUTBASE text    plot      '' \
	"the figure: OUTBASE.png and .svg  [plots/reference-history/trend]"
cb_opt plot-args - ARGS    text    plot_args "-a ps,ring,mpi,copy -n 2 -b 64M" \
	"its series: collbench-history trend options, one string"
cb_opts_text tail <<EOF
sweep.sh options after -- replace the default ones: ${sweep_args[*]}
(regress.sh's settings for a new baseline). Exit status: 0 done (whether or
not a change was found: see detect.txt), 1 a sweep or a step failed, 2 usage.
Environment: CB_BIN (binaries), CB_RESULTS (root of the default --out), CB_MACHINE.
Example, on a quiet machine (about N x 20 s with the default sweep on 2 cores):
  dev/history-demo.sh --runs 12 --slow 4
EOF
cb_opts_parse "$@"
[ ${#cb_rest[@]} = 0 ] || sweep_args=("${cb_rest[@]}")
cb_opts_given --plot || plot=$root/plots/reference-history/trend

[ "$slow" -lt "$runs" ] || cb_die 2 "--slow $slow of --runs $runs: keep at least one normal run before the step"
for f in collbench-history allreduce_perf; do
	[ -x "$bin/$f" ] || cb_die 2 "$bin/$f not built (cmake --build build)"
done
if [ "$slow" -gt 0 ]; then
	command -v taskset >/dev/null || cb_die 2 "taskset not found (Debian: util-linux)"
	taskset -c "$cpu" true 2>/dev/null || cb_die 2 "--cpu $cpu: cannot pin to that CPU"
fi

# the demo folder: a new default one (atomic), or --out claimed
if [ -z "$outdir" ]; then
	outdir=$(cb_new_dir "${CB_RESULTS:-$root/results}" "history-demo-$(date -u +%Y%m%dT%H%M%SZ)") ||
		exit 2
fi
cb_claim_dir "$outdir" runs.tsv 0 || exit 2
outdir=$(cd "$outdir" && pwd)
db=$outdir/history.sqlite
printf 'run\tlabel\twall_s\tother_work_pct\tsweep_status\n' >"$outdir/runs.tsv"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/collbench-demo.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# one_run I LABEL PIN...: sweep I into runs/I (PIN: a taskset prefix or
# nothing), added to the history with LABEL; a row in runs.tsv.
one_run() {
	local i=$1 label=$2 dir st=0 t0 t1 cpu0 cpu1 own0 own1 share
	shift 2
	dir=$outdir/runs/$(printf '%02d' "$i")
	cb_children_cpu "$tmp/times"
	own0=$cb_cpu
	cpu0=$(cb_busy_seconds) t0=$(date +%s.%N)
	"$@" "$root/scripts/sweep.sh" "${sweep_args[@]}" --out "$dir" >/dev/null 2>"$tmp/err" || st=$?
	cpu1=$(cb_busy_seconds) t1=$(date +%s.%N)
	cb_children_cpu "$tmp/times"
	own1=$cb_cpu
	share=$(cb_other_share "$cpu0" "$cpu1" "$own0" "$own1" "$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')")
	printf '%s\t%s\t%.1f\t%s\t%s\n' "$i" "$label" "$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')" \
		"$share" "$st" >>"$outdir/runs.tsv"
	if [ "$st" != 0 ]; then
		cat "$tmp/err" >&2
		cb_die 1 "run $i ($label): sweep.sh failed (exit $st): stopping; the runs so far are in $outdir"
	fi
	"$bin/collbench-history" ingest --db "$db" --label "$label" "$dir" >&2 ||
		cb_die 1 "run $i: the ingest failed (above)"
	cb_note "run $i of $runs ($label): other work took $share% of the CPUs"
}

for ((i = 1; i <= runs; i++)); do
	if [ "$i" -gt $((runs - slow)) ]; then
		# binding none: Open MPI binds each rank to a core of its own by
		# default, whatever taskset allowed mpirun (rank 1 ran on CPU 1)
		one_run "$i" "$SLOW_LABEL" env OMPI_MCA_hwloc_base_binding_policy=none taskset -c "$cpu"
	else
		one_run "$i" normal
	fi
done

# change points (all series), the figure's series as markdown, the figure
"$bin/collbench-history" detect --db "$db" | tee "$outdir/detect.txt"
read -ra sel <<<"$plot_args"
"$bin/collbench-history" trend --db "$db" --format markdown "${sel[@]}" >"$outdir/trend.md" ||
	cb_die 1 "collbench-history trend failed for --plot-args '$plot_args'"
CB_BIN=$bin "$root/scripts/plot_history.sh" --db "$db" -o "$plot" \
	--title "collbench history: $runs runs, the last $slow pinned to one CPU" "${sel[@]}" >/dev/null ||
	cb_die 1 "the plot failed (above)"
cb_note "history: $db; change points: $outdir/detect.txt; figure: $plot.png (.svg)"
