#!/usr/bin/env bash
# regress.sh: did performance regress? Runs a sweep with the baseline's
# recorded settings (or takes a finished run folder), compares it with this
# machine's baseline, results/baseline/<machine label>-<backend>/, using
# collbench-compare, draws baseline-vs-current overlay plots, and exits with
# collbench-compare's status:
#   0 no regression, 1 regression (or failed rows, rows of the baseline that
#     vanished, or a failed sweep),
#   2 usage or input error (no baseline for this machine, incomparable runs
#     such as another machine's baseline, bad files, an output folder taken,
#     a name too long for a file name; --update-baseline from a run made
#     under load),
#   3 with --history: all else went well (0), but adding the run to the
#     history failed (the run folder is kept; the message says how to add it),
#   4 no regression, but a row worse beyond the tolerance that the noise of
#     the runs cannot confirm: unknown, run again (collbench-compare's 4); or
#     rows worse beyond the tolerance (and no failed or vanished row) in a
#     check whose run or baseline recorded other work above 10% of the CPUs:
#     the load can explain them,
#   128+N stopped by signal N (INT, TERM, HUP, USR1, USR2), passed on to the sweep, which
#     stops its launch and marks its run "aborted"; nothing compared.
# Options: the table below (lib_opts.sh's form).
# shellcheck disable=SC2154 # the options' variables: set by cb_opts_parse from the table
set -euo pipefail
export LC_ALL=C
root=$(cd "$(dirname "$0")/.." && pwd)
bin=${CB_BIN:-$root/build/bin}
results=${CB_RESULTS:-$root/results}
plots=${CB_PLOTS:-$root/plots}
PROG=regress.sh
. "$root/scripts/lib.sh"
. "$root/scripts/lib_sweep_opts.sh"
# shellcheck source=scripts/lib_regress.sh
. "$root/scripts/lib_regress.sh"

# Settings of a new baseline (stored in its regress.conf; measured on a
# 2-core VM, see docs/regression.md): 2 ranks only (more are
# oversubscribed there and measure the scheduler), the bandwidth-bound sizes
# 1M..64M, 5 repeats per row for the noise bands, and a tolerance above the
# run-to-run noise seen between launches.
default_ranks=2
default_sweep="--minbytes 1M --maxbytes 64M --stepfactor 4 --repeat 5"
default_tolerance=10
default_min_bytes=0
default_metric=busbw
# a baseline is refused when other work used more than this percent of the
# CPUs while it ran (meta.json's other_cpu_percent; --accept-load takes it
# anyway), and a sweep that shared that much is warned about: one busy
# process next to a 2-rank sweep here halves every bandwidth and widens the
# repeat bands to 20-40% (docs/regression.md, "Choosing the tolerance")
load_limit=10
# the longest name a run folder holds (sweep.sh: a monitored launch's metadata)
longest=mpi_traffic/np64-999999999999.meta.json.tmp.4194304

# the options (one table: parsing, checks, usage; lib_opts.sh)
cb_opts_new none "usage: scripts/regress.sh [options] [-- sweep.sh options]"
#      long            letter value  kind  variable           default
cb_opt machine         - LABEL  text  CB_MACHINE         - \
	"this machine's label (sets CB_MACHINE)" "[\$CB_MACHINE, else the host name]"
cb_opt baseline        - NAME   text  baseline           '' \
	"baseline folder results/baseline/NAME; a value with a '/'" \
	"is a folder path  [<machine label>-<backend>]"
cb_opt run             - DIR    text  run                '' \
	"compare this finished run folder instead of running a sweep"
cb_opt backend         B NAME   text  backend            '' \
	"backend of the sweep: host or cuda  [cuda when a GPU is" "visible and built, else host]"
cb_opt update-baseline - -      flag  update             0 \
	"make the run the baseline (replaces the old one, saying so;" \
	"compares with the old one first, for information); refused" \
	"for a run during which other work used more than" \
	"$load_limit% of the CPUs (meta.json's other_cpu_percent)"
cb_opt accept-load     - -      flag  accept_load        0 "--update-baseline takes such a run anyway (warned)"
cb_opt out             - DIR    text  outdir             '' \
	"run folder of the new sweep (new or empty)" "[results/<host>-<UTC time>]"
cb_opt plots           - DIR    text  plotdir            '' \
	"where the overlay plots go (new or empty)  [plots/<run id>]"
cb_opt overwrite       - -      flag  overwrite          0 \
	"--out and --plots may hold an earlier run's files (replaced)"
cb_opt force           - -      flag  force_flag         0 \
	"compare even when collbench-compare finds the runs" "incomparable (another machine, GPU, backend)"
cb_opt format          - FMT    pass  format             table \
	"collbench-compare output: table, markdown, csv, json"
cb_opt tolerance       - PCT    pass  tol_override       '' "override the baseline's tolerance"
cb_opt noise-cap       - PCT    pass  noise_cap          '' \
	"a change beyond PCT is decided whatever the noise says" \
	"(collbench-compare --noise-cap)  [twice the tolerance]"
cb_opt allow-missing   - -      flag  allow_missing_flag 0 \
	"rows of the baseline skipped or absent now are only" "warned about, not failures (vanished)"
cb_opt strict          - -      flag  strict_flag        0 "rows in only one run count as failures"
cb_opt history         - '[DB]' path  history            "$results/history.sqlite" \
	"also add the run to the history database DB" \
	"(collbench-history ingest)  [results/history.sqlite]"
cb_opt_old o out "run folder; to allreduce_perf -o is the reduction op"
cb_opts_text tail <<EOF
Options take --name VALUE or --name=VALUE; the values of --format, --tolerance
and --noise-cap are checked by collbench-compare --check-args before anything runs.
A baseline belongs to one machine (label, CPU model, CPU count, GPU model:
collbench-compare refuses another machine's unless --force). On a
machine without one, make it first, when the machine is quiet:
  scripts/regress.sh --update-baseline
The sweep uses the baseline's settings (regress.conf in its folder: ranks,
sweep, tolerance, min_bytes, metric; where sweep names no --algo, the
baseline's own algorithms); sweep.sh options after -- replace the sweep's
(--ranks LIST among them; see scripts/sweep.sh --help).
New baselines get: ranks "$default_ranks", sweep "$default_sweep",
tolerance $default_tolerance (percent).
Plots: regress_np<N>.png/.svg, busbw vs size, baseline dashed, current solid,
regressions circled. Environment: CB_BIN (binaries, default build/bin), CB_MACHINE
(machine label), CB_RESULTS (results root, default results/; baselines in its
baseline/), CB_PLOTS (plots root, default plots/).
Exit status: 0 no regression; 1 a regression (or failed or vanished rows, or a
failed sweep); 2 usage or input error (nothing judged); 3 with --history, all
else went well but adding the run to the history failed; 4 unknown (a row
worse within the noise, or only drops in a check whose run or baseline
recorded more than $load_limit% other work on the CPUs: run again); 128+N
stopped by signal N.
EOF
cb_opts_parse "$@"
sweep_override=("${cb_rest[@]}")
[ -z "${CB_MACHINE+set}" ] || export CB_MACHINE
strict=() force=() allow_missing=() cap=()
[ "$strict_flag" = 0 ] || strict=(--strict)
[ "$force_flag" = 0 ] || force=(--force)
[ "$allow_missing_flag" = 0 ] || allow_missing=(--allow-missing)
! cb_opts_given --noise-cap || cap=(--noise-cap "$noise_cap")
[ -x "$bin/collbench-compare" ] || cb_die 2 "$bin/collbench-compare not built (cmake --build build)"
[ -z "$run" ] || [ -s "$run/summary.csv" ] || cb_die 2 "--run $run: not a run folder (no summary.csv)"
[ -z "$run" ] || [ ${#sweep_override[@]} = 0 ] || cb_die 2 "--run and sweep options exclude each other"
[ -z "$history" ] || cb_history_usable "$bin" "$history" || exit 2

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

# sweep_long NOTE ARGS...: ARGS (sweep.sh options) with long names, into the
# array long_args: --name=VALUE split in two, letters mapped (cb_sweep_long);
# the old -n, -i, -o with a deprecation note when NOTE is 1 (typed by the
# user, not read from an old regress.conf). What follows a -- is kept as is.
sweep_long() {
	local note=$1 a
	shift
	long_args=()
	while [ $# -gt 0 ]; do
		a=$1
		shift
		case $a in
		--) long_args+=(-- "$@"); return 0 ;;
		--*=*) long_args+=("${a%%=*}" "${a#*=}"); continue ;;
		-n | -i | -o) [ "$note" = 0 ] || cb_sweep_deprecated "$a" ;;
		esac
		long_args+=("$(cb_sweep_long "$a")")
	done
}
# perf_to_sweep TEXT: allreduce_perf's options as sweep.sh's (meta.json's
# "sweep" records allreduce_perf's: there -n is the iteration count).
perf_to_sweep() {
	local a out=()
	for a in $1; do
		case $a in
		-n) out+=(--iters) ;;
		-*) out+=("$(cb_sweep_long "$a")") ;;
		*) out+=("$a") ;;
		esac
	done
	echo "${out[*]}"
}

sweep_long 1 "${sweep_override[@]}"
sweep_override=("${long_args[@]}")
# the backend: -B, else the run's, else the sweep options', else what bench.sh picks
[ -n "$backend" ] || [ -z "$run" ] || backend=$(json_get "$run/meta.json" backend)
for ((i = 0; i < ${#sweep_override[@]}; i++)); do
	[ "${sweep_override[$i]}" = -- ] && break
	[ "${sweep_override[$i]}" != --backend ] || backend=${sweep_override[$((i + 1))]:-}
done
[ -n "$backend" ] || backend=$(cb_default_backend "$bin")
host=$(hostname -s 2>/dev/null || hostname)
case ${CB_MACHINE-unset} in
unset) machine=$host ;;
'' | *[!A-Za-z0-9_.-]*) cb_die 2 "--machine/CB_MACHINE: '$CB_MACHINE' is not a label ([A-Za-z0-9_.-])" ;;
*) machine=$CB_MACHINE ;;
esac
# baselines are looked up per machine: <label>-<backend>
[ -n "$baseline" ] || baseline="$machine-$backend"
case $baseline in
*/*) base_dir=$baseline ;;
*) base_dir=$results/baseline/$baseline ;;
esac
conf=$base_dir/regress.conf
# names that become paths, before any work: the baseline folder (the label
# or --baseline) and the copy --update-baseline makes beside it
cb_path_fits "--machine/CB_MACHINE or --baseline (the baseline folder)" "$base_dir" || exit 2
[ $update = 0 ] || cb_path_fits "--machine/CB_MACHINE or --baseline (the baseline folder)" \
	"$base_dir.new" "$longest" || exit 2
if [ ! -s "$base_dir/summary.csv" ] && [ $update = 0 ]; then
	cb_die 2 "no baseline at $base_dir (machine '$machine', backend $backend). A baseline belongs to one
machine: make this machine's, when it is quiet, with
  scripts/regress.sh --update-baseline${run:+ --run $run}
(then commit $base_dir), or name one with --baseline; CB_MACHINE or --machine sets the label"
fi

# settings: the baseline's, else the defaults; -- options replace the sweep's.
# A regress.conf line is a comment, blank, or KEY=VALUE with a known KEY, and
# only sweep may be empty: anything else is refused before any work
if [ -f "$conf" ]; then
	bad=$(grep -nvE '^[[:space:]]*(#.*)?$|^(machine|ranks|tolerance|min_bytes|metric)=.+$|^sweep=' "$conf" |
		head -n 1) || true
	[ -z "$bad" ] || cb_die 2 "$conf:${bad%%:*}: '${bad#*:}' is not a setting (machine, ranks, sweep," \
		"tolerance, min_bytes or metric, =VALUE; only sweep may be empty)"
fi
ranks=$(conf_get "$conf" ranks)
sweep_text=$(conf_get "$conf" sweep)
tolerance=${tol_override:-$(conf_get "$conf" tolerance)}
min_bytes=$(conf_get "$conf" min_bytes)
metric=$(conf_get "$conf" metric)
: "${ranks:=$default_ranks}" "${sweep_text:=$default_sweep}" "${tolerance:=$default_tolerance}"
: "${min_bytes:=$default_min_bytes}" "${metric:=$default_metric}"
# an old regress.conf holds sweep.sh's letters of its time (-i: iterations):
# read with long names, quietly
read -ra sweep_args <<<"$sweep_text"
sweep_long 0 "${sweep_args[@]}"
sweep_args=("${long_args[@]}")
if [ ${#sweep_override[@]} -gt 0 ]; then
	# --ranks (rank counts, may hold spaces) is kept apart from the other options
	sweep_args=()
	for ((i = 0; i < ${#sweep_override[@]}; i++)); do
		if [ "${sweep_override[$i]}" = -- ]; then
			sweep_args+=("${sweep_override[@]:$i}")
			break
		elif [ "${sweep_override[$i]}" = --ranks ]; then
			ranks=${sweep_override[$((i + 1))]:-}
			i=$((i + 1))
		else
			sweep_args+=("${sweep_override[$i]}")
		fi
	done
	[ $update = 1 ] || cb_note "warning: sweep options differ from the baseline's: expect missing rows"
fi

# the baseline's algorithms, where its settings name none: a sweep of
# every algorithm of today's build would add rows the baseline never had
# (new algorithms), which read as missing
if ! printf '%s\n' "${sweep_args[@]}" | grep -xE -- '-a|--algo(=.*)?' >/dev/null &&
	[ -s "$base_dir/summary.csv" ]; then
	base_algos=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "algo") c = i; next }
		c && !seen[$c]++ { printf "%s%s", n++ ? "," : "", $c }' "$base_dir/summary.csv")
	[ -z "$base_algos" ] || sweep_args=(--algo "$base_algos" "${sweep_args[@]}")
fi

compare_opts=(--metric "$metric" --tolerance "$tolerance" --min-bytes "$min_bytes" "${cap[@]}"
	"${strict[@]}" "${allow_missing[@]}" "${force[@]}")
# every setting checked before any work: collbench-compare checks its own
# (--check-args), sweep.sh its own before it makes anything (exit 2)
[ -n "${ranks// /}" ] || cb_die 2 "--ranks: no rank count given"
"$bin/collbench-compare" --check-args "${compare_opts[@]}" --format "$format" ||
	cb_die 2 "collbench-compare refuses these settings (above: --format, --tolerance, or" \
		"tolerance, metric, min_bytes in $conf): nothing run"

# load_of DIR: the percent of the CPUs other work used while the run in DIR
# ran (its meta.json's other_cpu_percent), or "" where that is not the
# run's figure: no such key (an older sweep.sh), or ranks under srun (not
# children of sweep.sh: their CPU time counts as other work's there)
load_of() {
	! grep -q '^  "launcher": {"name": "srun"' "$1/meta.json" 2>/dev/null || return 0
	json_get "$1/meta.json" other_cpu_percent | grep -x '[0-9][0-9]*' || true
}
# check_load DIR [KEPT]: --update-baseline takes the run in DIR only when
# other work used at most load_limit% of the CPUs meanwhile (--accept-load:
# anyway, warned); a run without the figure is taken with a note. KEPT: say
# that the run folder stays.
check_load() {
	local share
	share=$(load_of "$1")
	if [ -z "$share" ]; then
		cb_note "note: how much of the CPUs other work used during $(basename "$1") is not recorded" \
			"(srun, or an older sweep.sh): make sure the machine was quiet"
	elif [ "$share" -gt $load_limit ] && [ $accept_load = 1 ]; then
		cb_note "warning: other work used $share% of the CPUs during $(basename "$1"): taken as the" \
			"baseline anyway (--accept-load); its repeat bands are wide, bounded only by the" \
			"gate's noise cap"
	elif [ "$share" -gt $load_limit ]; then
		local again="scripts/regress.sh --update-baseline --accept-load --run $1"
		! cb_opts_given --baseline || again+=" --baseline $baseline"
		cb_die 2 "not making $(basename "$1") the baseline: other work used $share% of the CPUs while it" \
			"ran (more than $load_limit%: meta.json's other_cpu_percent), so its numbers measure that" \
			"contention and its wide repeat bands would hide regressions. Make the baseline when the" \
			"machine is quiet${2:+ (the run folder $1 is kept)}, or take this run anyway, without" \
			"sweeping again:
  $again"
	fi
}
# a finished run as the baseline: judged before anything is written
[ $update = 0 ] || [ -z "$run" ] || check_load "$run"

# --plots: claimed (regress.txt created exclusively) before anything is written
if [ -n "$plotdir" ]; then
	cb_claim_dir "$plotdir" regress.txt "$overwrite" 'regress_np*.png' 'regress_np*.svg' || exit 2
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/collbench-regress.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
# a signal (INT, TERM, HUP, USR1, USR2) stops the sweep (passed on: sweep.sh stops its
# launch and marks its run aborted) and then this script (lib.sh, cb_group)
cb_stop_on
# stopped WHAT: exits 128 + the signal's number when a signal came
stopped() {
	[ -n "$cb_stopped" ] || return 0
	cb_note "stopped by SIG$cb_stopped $1"
	exit $((128 + $(cb_signum "$cb_stopped")))
}

# warn_contention CPU0 CPU1 OWN0 OWN1 T0 T1: a sweep that shared the CPUs
# measured the other work too; say how much of the machine that work took.
warn_contention() {
	local share
	share=$(cb_other_share "$1" "$2" "$3" "$4" "$(awk -v a="$5" -v b="$6" 'BEGIN { print b - a }')")
	if [ "$share" -gt 10 ]; then
		cb_note "warning: other work (other processes, or the hypervisor's steal time) used $share% of" \
			"the $(nproc) CPUs during the sweep: its numbers measure that contention too; a drop may" \
			"not be a regression (rerun on a quiet machine)"
	else
		cb_note "other work used $share% of the CPUs during the sweep"
	fi
}

# the run: a finished folder, or a new sweep
sweep_status=0
if [ -n "$run" ]; then
	run_dir=$(cd "$run" && pwd)
else
	# a new folder (atomic: never another run's), or -o (sweep.sh claims it);
	# the default plots folder is named after it: both names checked first
	made=0
	if [ -z "$outdir" ]; then
		outdir=$(cb_new_dir "$results" "$(cb_run_name "$host" "$(date -u +%Y%m%dT%H%M%SZ)")") || exit 2
		made=1
	fi
	if [ -z "$plotdir" ] && ! cb_path_fits "the plots folder (CB_PLOTS, the run's folder name)" \
		"$plots/$(basename -- "$outdir")-1000" regress_np64.png; then
		[ $made = 0 ] || rmdir "$outdir"
		exit 2
	fi
	over=()
	[ $overwrite = 0 ] || over=(--overwrite)
	cb_note "sweep: --ranks \"$ranks\" ${sweep_args[*]} --backend $backend --out $outdir"
	cb_children_cpu "$tmp/times"
	own0=$cb_cpu
	cpu0=$(cb_busy_seconds) t0=$(date +%s.%N)
	# ours after the sweep options, before allreduce_perf's (after a --)
	pre=() post=()
	for ((i = 0; i < ${#sweep_args[@]}; i++)); do
		[ "${sweep_args[$i]}" != -- ] || { post=("${sweep_args[@]:$i}"); break; }
		pre+=("${sweep_args[$i]}")
	done
	cb_group env CB_BIN="$bin" "$root/scripts/sweep.sh" --ranks "$ranks" "${pre[@]}" --backend "$backend" \
		--out "$outdir" "${over[@]}" "${post[@]}" >/dev/null || sweep_status=$?
	stopped "during the sweep: nothing compared (its run folder $outdir says aborted)"
	if [ $sweep_status = 2 ]; then # a sweep that refused to start leaves no empty folder of ours
		[ $made = 0 ] || [ -n "$(ls -A "$outdir")" ] || rmdir "$outdir"
		cb_die 2 "the sweep did not start (see above)"
	fi
	cpu1=$(cb_busy_seconds) t1=$(date +%s.%N)
	cb_children_cpu "$tmp/times"
	own1=$cb_cpu
	run_dir=$(cd "$outdir" && pwd)
	# srun's ranks are children of slurmd, not of this shell: their CPU time
	# cannot be told apart from other work's
	if grep -q '^  "launcher": {"name": "srun"' "$run_dir/meta.json" 2>/dev/null; then
		cb_note "the sweep's ranks ran under srun: other work's share of the CPUs is not measured"
	else
		warn_contention "$cpu0" "$cpu1" "$own0" "$own1" "$t0" "$t1"
	fi
	[ -s "$run_dir/summary.csv" ] || cb_die 2 "the sweep wrote no results (see above)"
	[ $update = 0 ] || [ $sweep_status != 0 ] || check_load "$run_dir" kept
fi
run_id=$(basename "$run_dir")
[ -n "$plotdir" ] || [ -z "$run" ] ||
	cb_path_fits "the plots folder (CB_PLOTS, the run's folder name)" "$plots/$run_id-1000" \
		regress_np64.png || exit 2
# a baseline made under load (before regress.sh refused such a one): its
# wide bands are bounded by the noise cap only
base_share=$(load_of "$base_dir")
[ -z "$base_share" ] || [ "$base_share" -le $load_limit ] ||
	cb_note "warning: the baseline $(basename "$base_dir") was recorded while other work used" \
		"$base_share% of the CPUs: its repeat bands are wide; remake it when the machine is quiet"

# overlay_plots CSV: the overlay figures (lib_regress.sh)

# load_verdict: with status 1 from collbench-compare, when the current run or the baseline
# recorded other work above load_limit% of the CPUs (meta.json's other_cpu_percent) and
# every row that failed the gate is a regression (worse beyond the tolerance: what
# contention does to a run), sets status 4 (unknown, run again) and says so: on stderr, and
# at the end of a markdown report. Failed, vanished and (--strict) missing rows are never
# explained by load: those keep 1. A quiet pair keeps 1.
load_verdict() {
	local cur_share loaded="" counts nreg nother why rc
	cur_share=$(load_of "$run_dir")
	[ -z "$cur_share" ] || [ "$cur_share" -le $load_limit ] ||
		loaded="other work used $cur_share% of the CPUs during the run $run_id"
	[ -z "$base_share" ] || [ "$base_share" -le $load_limit ] ||
		loaded="${loaded:+$loaded, and }other work used $base_share% of the CPUs during the baseline $(basename "$base_dir")"
	[ -n "$loaded" ] || return 0
	rc=0
	"$bin/collbench-compare" "${compare_opts[@]}" --format csv "$base_dir" "$run_dir" >"$tmp/gate.csv" \
		2>/dev/null || rc=$?
	[ $rc = 1 ] || return 0
	counts=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["verdict"] == "regression" { r++ } $c["verdict"] ~ /^(failed|vanished|missing)$/ { o++ }
		END { print r + 0, o + 0 }' "$tmp/gate.csv")
	read -r nreg nother <<<"$counts"
	[ "$nother" = 0 ] && [ "$nreg" -gt 0 ] || return 0
	status=4
	why="unknown, run again (exit 4, not 1): $nreg row(s) worse beyond the tolerance, but $loaded"
	why="$why (more than $load_limit%: meta.json's other_cpu_percent), and contention alone slows"
	why="$why a run that much; these drops are not judged. Run the check again when the machine"
	why="$why is quiet (and remake a baseline made under load)"
	cb_note "verdict: $why"
	[ "$format" != markdown ] || printf '\n**regress.sh: %s.**\n' "$why"
}

# compare (the verdict, on stdout) and the CSV for the plots
status=0
if [ -s "$base_dir/summary.csv" ]; then
	"$bin/collbench-compare" "${compare_opts[@]}" --format "$format" "$base_dir" "$run_dir" || status=$?
	# every size on the plots (no --min-bytes), busbw whatever the gate's metric
	# (none when the comparison itself failed: exit 2)
	ov=2
	if [ $status -le 1 ] || [ $status = 4 ]; then
		ov=0
		"$bin/collbench-compare" --metric busbw --tolerance "$tolerance" "${cap[@]}" \
			"${allow_missing[@]}" "${force[@]}" --format csv \
			"$base_dir" "$run_dir" >"$tmp/overlay.csv" 2>/dev/null || ov=$?
		[ $ov -le 1 ] || [ $ov = 4 ] || cb_note "warning: no overlay plot: collbench-compare --format csv failed"
	fi
	[ $ov = 2 ] || overlay_plots "$tmp/overlay.csv" || status=2
fi
if [ $sweep_status != 0 ]; then
	cb_note "the sweep failed (status $sweep_status): counted as a regression"
	[ $status = 2 ] || status=1
fi
# a check under load: a drop that contention explains is not judged (unknown: exit 4)
[ $status != 1 ] || [ $sweep_status != 0 ] || load_verdict

stopped "during the comparison: no verdict"
# the history: whatever the verdict, the run is a point of its trend
hist_status=0
[ -z "$history" ] || cb_history_ingest "$bin" "$history" "$run_dir" || hist_status=3

if [ $update = 1 ]; then
	[ $sweep_status = 0 ] || cb_die 2 "not updating the baseline from a sweep that failed"
	# the recorded sweep settings: the options used, or those of the given run
	# (its meta.json "sweep" names allreduce_perf's options)
	if [ -n "$run" ]; then
		ranks=$(json_get "$run_dir/meta.json" rank_counts)
		sweep_text=$(perf_to_sweep "$(json_get "$run_dir/meta.json" sweep)")
		if [ -z "$ranks" ] || [ -z "$sweep_text" ]; then
			cb_die 2 "$run_dir/meta.json lacks \"rank_counts\" or \"sweep\": cannot record its settings"
		fi
	else
		sweep_text="${sweep_args[*]}"
	fi
	[ "$run_dir" != "$(cd "$base_dir" 2>/dev/null && pwd)" ] || cb_die 2 "--run is the baseline itself"
	old="(none)"
	[ ! -d "$base_dir" ] || old=$(json_get "$base_dir/meta.json" run_id)
	rm -rf "$base_dir.new"
	mkdir -p "$(dirname "$base_dir")"
	cp -r "$run_dir" "$base_dir.new"
	cat >"$base_dir.new/regress.conf" <<CONF || cb_die 2 "cannot write $base_dir.new/regress.conf"
# regress.sh settings of this baseline (key=value, read by regress.sh, not sourced)
# machine: the label it was made for; ranks: sweep.sh --ranks; sweep: its other options;
# tolerance: percent; min_bytes: rows below are ignored
machine=$machine
ranks=$ranks
sweep=$sweep_text
tolerance=$tolerance
min_bytes=$min_bytes
metric=$metric
CONF
	rm -rf "$base_dir"
	mv "$base_dir.new" "$base_dir"
	if [ "$old" = "(none)" ]; then
		cb_note "baseline $(basename "$base_dir") CREATED for machine '$machine' (--update-baseline): run $run_id"
	else
		cb_note "baseline $(basename "$base_dir") REPLACED (deliberately, --update-baseline): was run ${old:-?}, now run $run_id"
	fi
	cb_note "baseline folder: $base_dir (commit it)"
	exit $hist_status
fi
[ $status != 0 ] || status=$hist_status
exit $status
