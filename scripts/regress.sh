#!/usr/bin/env bash
# regress.sh: did performance regress? Runs a sweep with the baseline's
# recorded settings (or takes a finished run folder), compares it with
# results/baseline/<name>/ using collbench-compare, draws baseline-vs-current
# overlay plots, and exits with collbench-compare's status:
#   0 no regression, 1 regression (or failed rows, or a failed sweep),
#   2 usage or input error (no baseline, incomparable runs, bad files).
set -euo pipefail
export LC_ALL=C
root=$(cd "$(dirname "$0")/.." && pwd)
bin=${CB_BIN:-$root/build/bin}
PROG=regress.sh

# Settings of a new baseline (stored in its regress.conf; measured on a
# 2-core VM, see README "Regression checking"): 2 ranks only (more are
# oversubscribed there and measure the scheduler), the bandwidth-bound sizes
# 1M..64M, 5 repeats per row for the noise bands, and a tolerance above the
# run-to-run noise seen between launches.
default_ranks=2
default_sweep="-b 1M -e 64M -f 4 -R 5"
default_tolerance=10
default_min_bytes=0
default_metric=busbw

usage() {
	cat <<EOF
usage: scripts/regress.sh [options] [-- sweep.sh options]
  --baseline NAME      baseline folder results/baseline/NAME; a value with a '/'
                       is a folder path                 [<backend>-<nproc>core]
  --run DIR            compare this finished run folder instead of running a sweep
  -B NAME              backend of the sweep: host or cuda  [cuda when a GPU is
                       visible and built, else host]
  --update-baseline    make the run the baseline (replaces the old one, saying so;
                       compares with the old one first, for information)
  -o DIR               run folder of the new sweep      [results/<host>-<UTC time>]
  --plots DIR          where the overlay plots go       [plots/<run id>]
  --format FMT         collbench-compare output: table, markdown, csv, json [table]
  --tolerance PCT      override the baseline's tolerance
  --strict             rows in only one run count as failures
  -h, --help           this help
The sweep uses the baseline's settings (regress.conf in its folder: ranks,
sweep, tolerance, min_bytes, metric); options after -- replace the sweep's.
New baselines get: ranks "$default_ranks", sweep "$default_sweep",
tolerance $default_tolerance (percent).
Plots: regress_np<N>.png/.svg, busbw vs size, baseline dashed, current solid,
regressions circled. Environment: CB_BIN (binaries, default build/bin).
EOF
}

die() { echo "$PROG: $*" >&2; exit 2; }
note() { echo "$PROG: $*" >&2; }

backend="" baseline="" run="" update=0 outdir="" plotdir="" format=table tol_override="" strict=()
sweep_override=()
while [ $# -gt 0 ]; do
	case $1 in
	--baseline) [ $# -ge 2 ] || die "--baseline needs a value"; baseline=$2; shift 2 ;;
	--run) [ $# -ge 2 ] || die "--run needs a value"; run=$2; shift 2 ;;
	-B) [ $# -ge 2 ] || die "-B needs a value"; backend=$2; shift 2 ;;
	--update-baseline) update=1; shift ;;
	-o) [ $# -ge 2 ] || die "-o needs a value"; outdir=$2; shift 2 ;;
	--plots) [ $# -ge 2 ] || die "--plots needs a value"; plotdir=$2; shift 2 ;;
	--format) [ $# -ge 2 ] || die "--format needs a value"; format=$2; shift 2 ;;
	--tolerance) [ $# -ge 2 ] || die "--tolerance needs a value"; tol_override=$2; shift 2 ;;
	--strict) strict=(--strict); shift ;;
	-h | --help) usage; exit 0 ;;
	--) shift; sweep_override=("$@"); break ;;
	*) die "unknown option '$1' (see --help)" ;;
	esac
done
[ -x "$bin/collbench-compare" ] || die "$bin/collbench-compare not built (cmake --build build)"
[ -z "$run" ] || [ -s "$run/summary.csv" ] || die "--run $run: not a run folder (no summary.csv)"
[ -z "$run" ] || [ ${#sweep_override[@]} = 0 ] || die "--run and sweep options exclude each other"

# conf_get FILE KEY: the value of KEY=... in a regress.conf (read, never sourced).
conf_get() {
	[ -f "$1" ] || return 0
	sed -n "s/^$2=//p" "$1" | tail -n 1
}
# json_get FILE KEY: a top-level string or array value in sweep.sh's meta.json.
json_get() {
	[ -f "$1" ] || return 0
	sed -n "s/^  \"$2\": \"\{0,1\}\([^\"]*\)\"\{0,1\},\{0,1\}$/\1/p" "$1" | tr -d '[]' | tr , ' ' | sed 's/ *$//'
}

# the backend: -B, else the run's, else the sweep options', else what bench.sh picks
[ -n "$backend" ] || [ -z "$run" ] || backend=$(json_get "$run/meta.json" backend)
for ((i = 0; i < ${#sweep_override[@]}; i++)); do
	[ "${sweep_override[$i]}" != -B ] || backend=${sweep_override[$((i + 1))]:-}
done
if [ -z "$backend" ]; then
	backend=host
	if command -v nvidia-smi >/dev/null && nvidia-smi -L >/dev/null 2>&1 &&
		"$bin/allreduce_perf" --help 2>/dev/null | grep -q 'backends built: .*cuda'; then
		backend=cuda
	fi
fi
[ -n "$baseline" ] || baseline="$backend-$(nproc)core"
case $baseline in
*/*) base_dir=$baseline ;;
*) base_dir=$root/results/baseline/$baseline ;;
esac
conf=$base_dir/regress.conf
if [ ! -s "$base_dir/summary.csv" ] && [ $update = 0 ]; then
	die "no baseline at $base_dir: create one with --update-baseline (on a quiet machine)"
fi

# settings: the baseline's, else the defaults; -- options replace the sweep's
ranks=$(conf_get "$conf" ranks)
sweep_text=$(conf_get "$conf" sweep)
tolerance=${tol_override:-$(conf_get "$conf" tolerance)}
min_bytes=$(conf_get "$conf" min_bytes)
metric=$(conf_get "$conf" metric)
: "${ranks:=$default_ranks}" "${sweep_text:=$default_sweep}" "${tolerance:=$default_tolerance}"
: "${min_bytes:=$default_min_bytes}" "${metric:=$default_metric}"
read -ra sweep_args <<<"$sweep_text"
if [ ${#sweep_override[@]} -gt 0 ]; then
	# -n (rank counts, may hold spaces) is kept apart from the other options
	sweep_args=()
	for ((i = 0; i < ${#sweep_override[@]}; i++)); do
		if [ "${sweep_override[$i]}" = -n ]; then
			ranks=${sweep_override[$((i + 1))]:-}
			i=$((i + 1))
		else
			sweep_args+=("${sweep_override[$i]}")
		fi
	done
	[ $update = 1 ] || note "warning: sweep options differ from the baseline's: expect missing rows"
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/collbench-regress.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# CPU seconds the whole machine spent busy (user, nice, system, irq, softirq,
# and steal: time the hypervisor gave to other guests), from /proc/stat.
busy_seconds() {
	awk -v hz="$(getconf CLK_TCK)" '/^cpu / { printf "%.2f\n", ($2 + $3 + $4 + $7 + $8 + $9) / hz }' \
		/proc/stat 2>/dev/null || echo 0
}
# own_seconds VAR: sets VAR to the CPU seconds of this script's finished
# children (the sweep: mpirun and the ranks). `times` runs in this shell,
# never in a pipe or $(...): a subshell has no children of its own.
own_seconds() {
	times >"$tmp/times"
	printf -v "$1" '%s' "$(tail -n 1 "$tmp/times" |
		awk '{ t = 0; for (i = 1; i <= 2; i++) { split($i, p, "m"); t += p[1] * 60 + p[2] } print t }')"
}
# warn_contention CPU0 CPU1 OWN0 OWN1 T0 T1: a sweep that shared the CPUs
# measured the other work too; say how much of the machine that work took.
warn_contention() {
	awk -v c="$(($(nproc)))" -v b0="$1" -v b1="$2" -v o0="$3" -v o1="$4" -v t0="$5" -v t1="$6" 'BEGIN {
		wall = t1 - t0; other = (b1 - b0) - (o1 - o0)
		share = wall > 0 ? other / (wall * c) : 0
		if (share > 0.10) {
			printf "regress.sh: warning: other work (other processes, or the hypervisor'"'"'s steal time) " \
			       "used %.0f%% of the %d CPUs during the sweep: its numbers measure that contention too; " \
			       "a drop may not be a regression (rerun on a quiet machine)\n", 100 * share, c > "/dev/stderr"
		} else {
			printf "regress.sh: other work used %.0f%% of the CPUs during the sweep\n", 100 * (share > 0 ? share : 0) > "/dev/stderr"
		}
	}'
}

# the run: a finished folder, or a new sweep
sweep_status=0
if [ -n "$run" ]; then
	run_dir=$(cd "$run" && pwd)
else
	[ -n "$outdir" ] || outdir="$root/results/$(hostname -s 2>/dev/null || hostname)-$(date -u +%Y%m%dT%H%M%SZ)"
	note "sweep: -n \"$ranks\" ${sweep_args[*]} -B $backend -o $outdir"
	own0=0 own1=0
	own_seconds own0
	cpu0=$(busy_seconds) t0=$(date +%s.%N)
	CB_BIN=$bin "$root/scripts/sweep.sh" -n "$ranks" "${sweep_args[@]}" -B "$backend" -o "$outdir" >/dev/null ||
		sweep_status=$?
	cpu1=$(busy_seconds) t1=$(date +%s.%N)
	own_seconds own1
	warn_contention "$cpu0" "$cpu1" "$own0" "$own1" "$t0" "$t1"
	run_dir=$(cd "$outdir" && pwd)
	[ -s "$run_dir/summary.csv" ] || die "the sweep wrote no results (see above)"
fi
run_id=$(basename "$run_dir")
[ -n "$plotdir" ] || plotdir=$root/plots/$run_id

compare_opts=(--metric "$metric" --tolerance "$tolerance" --min-bytes "$min_bytes" "${strict[@]}")

# overlay_plots CSV: one figure per rank count from collbench-compare --format csv
overlay_plots() {
	local csv=$1 n
	command -v gnuplot >/dev/null || { note "warning: gnuplot not installed: no overlay plot"; return 0; }
	mkdir -p "$plotdir"
	# per rank count N: N.<i>.base.dat / N.<i>.cur.dat for the i-th algorithm,
	# N.reg.dat for regressions; N.info: algos, x and y ranges (first
	# backend/dtype/op/in_place combination only, named in the subtitle)
	awk -F, -v dir="$tmp" '
		NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		{
			combo = $c["backend"] " " $c["dtype"] " " $c["op"] " " ($c["in_place"] ? "in-place" : "out-of-place")
			if (first == "") first = combo
			if (combo != first) next
			n = $c["nranks"]; a = $c["algo"]; b = $c["bytes"] + 0
			if (!((n, a) in idx)) { idx[n, a] = ++na[n]; algos[n] = algos[n] " " a }
			p = dir "/" n "." idx[n, a]
			if ($c["baseline"] != "") { print b "\t" $c["baseline"] > (p ".base.dat"); see(n, b, $c["baseline"]) }
			if ($c["current"] != "") { print b "\t" $c["current"] > (p ".cur.dat"); see(n, b, $c["current"]) }
			if ($c["verdict"] == "regression" || $c["verdict"] == "failed")
				print b "\t" ($c["current"] != "" ? $c["current"] : $c["baseline"]) > (dir "/" n ".reg.dat")
		}
		function see(n, b, v) {
			if (!(n in xmin) || b < xmin[n]) xmin[n] = b
			if (!(n in xmax) || b > xmax[n]) xmax[n] = b
			if (v > 0 && (!(n in ymin) || v < ymin[n])) ymin[n] = v
			if (!(n in ymax) || v > ymax[n]) ymax[n] = v
		}
		END {
			for (n in na) {
				# an algorithm without data on one side gets an empty file
				for (i = 1; i <= na[n]; i++) { printf "" >> (dir "/" n "." i ".base.dat"); printf "" >> (dir "/" n "." i ".cur.dat") }
				print substr(algos[n], 2) "\t" xmin[n] "\t" xmax[n] "\t" ymin[n] + 0 "\t" ymax[n] + 0 "\t" first > (dir "/" n ".info")
			}
		}' "$csv"
	for info in "$tmp"/*.info; do
		[ -e "$info" ] || continue
		n=$(basename "$info" .info)
		IFS=$'\t' read -r algos xmin xmax ymin ymax combo <"$info"
		local reg=""
		[ ! -s "$tmp/$n.reg.dat" ] || reg=$tmp/$n.reg.dat
		gnuplot -e "gpdir='$root/scripts'; outbase='$plotdir/regress_np$n'; prefix='$tmp/$n';
			algos='$algos'; regfile='$reg'; xmin=$xmin; xmax=$xmax; ymin=$ymin; ymax=$ymax;
			ttl='collbench regression check: $n ranks, baseline dashed, current solid';
			sub='$combo; baseline $(basename "$base_dir"), tolerance $tolerance%';
			runid='$run_id'" "$root/scripts/plot_regress.gp" ||
			{ note "warning: gnuplot failed for $n ranks"; continue; }
		note "plot: $plotdir/regress_np$n.png (.svg)"
	done
}

# compare (the verdict, on stdout) and the CSV for the plots
status=0
if [ -s "$base_dir/summary.csv" ]; then
	"$bin/collbench-compare" "${compare_opts[@]}" --format "$format" "$base_dir" "$run_dir" || status=$?
	# every size on the plots (no --min-bytes), busbw whatever the gate's metric
	if [ $status -le 1 ] && "$bin/collbench-compare" --metric busbw --tolerance "$tolerance" \
		--format csv "$base_dir" "$run_dir" >"$tmp/overlay.csv" 2>/dev/null ||
		[ $? = 1 ]; then
		overlay_plots "$tmp/overlay.csv"
	fi
fi
if [ $sweep_status != 0 ]; then
	note "the sweep failed (status $sweep_status): counted as a regression"
	[ $status != 0 ] || status=1
fi

if [ $update = 1 ]; then
	[ $sweep_status = 0 ] || die "not updating the baseline from a sweep that failed"
	# the recorded sweep settings: the options used, or those of the given run
	# (its meta.json "sweep" names allreduce_perf's options: its -n, the
	# iterations, is sweep.sh's -i)
	if [ -n "$run" ]; then
		ranks=$(json_get "$run_dir/meta.json" rank_counts)
		sweep_text=$(json_get "$run_dir/meta.json" sweep | sed 's/\(^\| \)-n /\1-i /')
		if [ -z "$ranks" ] || [ -z "$sweep_text" ]; then
			die "$run_dir/meta.json lacks \"rank_counts\" or \"sweep\": cannot record its settings"
		fi
	else
		sweep_text="${sweep_args[*]}"
	fi
	[ "$run_dir" != "$(cd "$base_dir" 2>/dev/null && pwd)" ] || die "--run is the baseline itself"
	old="(none)"
	[ ! -d "$base_dir" ] || old=$(json_get "$base_dir/meta.json" run_id)
	rm -rf "$base_dir.new"
	mkdir -p "$(dirname "$base_dir")"
	cp -r "$run_dir" "$base_dir.new"
	cat >"$base_dir.new/regress.conf" <<CONF
# regress.sh settings of this baseline (key=value, read by regress.sh, not sourced)
# ranks: sweep.sh -n; sweep: its other options; tolerance: percent; min_bytes: rows below are ignored
ranks=$ranks
sweep=$sweep_text
tolerance=$tolerance
min_bytes=$min_bytes
metric=$metric
CONF
	rm -rf "$base_dir"
	mv "$base_dir.new" "$base_dir"
	note "baseline $(basename "$base_dir") REPLACED (deliberately, --update-baseline): was run ${old:-?}, now run $run_id"
	note "baseline folder: $base_dir (commit it)"
	exit 0
fi
exit $status
