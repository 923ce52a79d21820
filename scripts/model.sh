#!/usr/bin/env bash
# model.sh - the cost model's figures for one run folder and one topology, with gnuplot.
#
# Runs collbench-model (fit unless --fit is given, check, predict, predict --crossover) and
# keeps its CSV/JSON next to the figures; draws each figure as plot.sh does, in two steps, both
# in scripts/plot/: model_X.awk reads collbench-model's CSV (columns by header name) into small
# tab-separated .dat files in a temporary folder and prints what it drew (or why not),
# model_X.gp draws them (lib.awk and common.gp are shared with plot.sh's figures). Each figure
# is written as PNG (pngcairo) and SVG; the files are listed on stdout. Options: the table
# below (lib_opts.sh's form); exit status: the usage's last lines.
# shellcheck disable=SC2154 # the options' variables: set by cb_opts_parse from the table
set -euo pipefail
export LC_ALL=C

SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO_ROOT=$(dirname "$SCRIPT_DIR")
PLOT_DIR=$SCRIPT_DIR/plot
PROG=model.sh
# shellcheck source=scripts/lib.sh
. "$SCRIPT_DIR/lib.sh"
BIN=${CB_BIN:-$REPO_ROOT/build/bin}

cb_opts_new operands "Usage: scripts/model.sh [options] RUN_DIR [OUT_DIR]"
cb_opts_text head <<EOF

The cost model's figures for a collbench run folder and a topology. OUT_DIR defaults to a new
folder <repo>/plots/<basename of RUN_DIR>-model; a given OUT_DIR may hold other figures (e.g.
plot.sh's): this script's own files (model_*) must not be there unless --overwrite.
Each figure is written as .png and .svg:
  model_busbw_np<N>  measured bus bandwidth (solid) and the model's (dashed) per algorithm,
                     one file per rank count N of the run
  model_choice       the model as a tuner: at each (size, rank count) the measured fastest
                     algorithm and the model's choice, the agreement rate in the title
                     (collbench-model check --choice)
  model_tradeoff     each algorithm's rounds of dependent messages (its plan's) against the
                     bytes its busiest rank moved (measured) over S, at the largest rank count
                     and 1 MiB (else the largest size): the latency / bandwidth trade-off
  model_time_vs_n    predicted ps and ring time vs rank count (log-log) at 1 MiB and 1 GiB on
                     the topology
  model_host_load    bytes per allreduce through the ps root's host network link, another
                     host's, and a ring host's, vs rank count at 1 GiB
  model_crossover    the largest message size at which ps is no slower than the ring, vs n
Data kept next to them: model_fit.json (unless --fit or --in-run), model_check.csv,
model_choice.csv, model_predict.csv, model_crossover.csv; the list of files in model_figures.txt. A fit that
refuses the run (too few sizes, one algorithm: collbench-model says why), a --fit, --topo or
--ranks collbench-model refuses end the script (exit 2) before anything is written; a later
failure (gnuplot) removes what the script wrote.

Options (--topo, --hosts-topo and --ranks are checked by collbench-model):
EOF
#      long       letter value       kind variable   default
cb_opt fit        - FILE        text fit        '' \
	"check the run against this fit (collbench-model fit -o) instead of" \
	"fitting the run itself"
cb_opt topo       - 'NAME|FILE' pass topo       dgx-h100 \
	"topology of the scale-out figures (collbench-model presets)"
cb_opt two-sided  - -           flag two_sided_flag 0 \
	"the scale-out figures model ps and ring over a two-sided transport" \
	"(p2p: collbench-model predict --two-sided)"
cb_opt hosts-topo - 'NAME|FILE' pass hosts_topo_name '' \
	"check models rows of ranks on several hosts on this topology's" \
	"links, ranks placed as the run placed them (collbench-model check --topo)"
cb_opt ranks      - A:B         pass ranks      2:4096 "rank counts of the scale-out figures"
cb_opt in-run     - -           flag in_run     0 \
	"keep the fit and the check beside the run, in RUN_DIR: model_fit.json" \
	"(unless --fit) and model_fit.txt (fit's table), model_check.txt (check's" \
	"table and error summary); what scripts/bench.sh does"
cb_opt overwrite  - -           flag overwrite  0 \
	"replace this script's files in OUT_DIR (and in RUN_DIR with --in-run)"
cb_opts_text tail <<EOF

Environment: CB_BIN (collbench-model's folder, default <repo>/build/bin), CB_PLOTS (root of the
default OUT_DIR, default <repo>/plots). Needs gnuplot 5 with pngcairo and svg.
Exit status: 0 figures drawn; 2 usage, input collbench-model refuses, or a step that failed
(nothing of the run is left).
EOF

gp_str() { cb_gp_str "$1"; }     # text (titles): \xHH where not UTF-8
gp_path() { cb_gp_path "$1"; }  # a file gnuplot opens: its own bytes

cb_opts_parse "$@"
positional=("${cb_args[@]}")
hosts_topo=() two_sided=()
! cb_opts_given --hosts-topo || hosts_topo=(--topo "$hosts_topo_name")
[ "$two_sided_flag" = 0 ] || two_sided=(--two-sided)
((${#positional[@]} >= 1 && ${#positional[@]} <= 2)) || { cb_opts_usage >&2; exit 2; }
command -v gnuplot >/dev/null 2>&1 || cb_die 2 "gnuplot is not installed (apt-get install gnuplot-nox)"
CM=$BIN/collbench-model
[[ -x "$CM" ]] || cb_die 2 "$CM not built (cmake --build build)"
RUN_DIR=${positional[0]}
[[ -d "$RUN_DIR" ]] || cb_die 2 "run folder '$RUN_DIR' does not exist"
RUN_ID=$(basename "$(cd "$RUN_DIR" && pwd)")
[[ -z "$fit" || -f "$fit" ]] || cb_die 2 "fit file '$fit' does not exist"
if ((in_run)) && compgen -G "$RUN_DIR/model_*" >/dev/null; then
	((overwrite)) || cb_die 2 "$RUN_DIR already holds model_* files: --overwrite to replace them"
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/collbench-model.XXXXXX")
# On failure nothing of this run stays: the files it wrote (partial) and the folder it made
# (made_dir) are removed, so a rerun is not refused for model_* files of a failed one.
finished=0 made_dir="" partial=() written=()
undo() {
	((finished == 0)) || return 0
	((${#partial[@]} == 0)) || rm -f -- "${partial[@]}"
	[[ -z "$made_dir" ]] || rmdir -- "$made_dir" 2>/dev/null || true
}
trap 'undo; rm -rf "$tmp"' EXIT

# --- the model's numbers, before any file is written: the fit (unless --fit), the check, the
# predictions on --topo at --ranks (which refuse a bad topology or rank list here) ------------
fit_use=$fit
if [[ -z "$fit" ]]; then
	"$CM" fit "$RUN_DIR" -o "$tmp/model_fit.json" >"$tmp/model_fit.txt" ||
		cb_die 2 "collbench-model fit refused $RUN_DIR (why: above); no model files written"
	fit_use=$tmp/model_fit.json
fi
"$CM" predict --topo "$topo" "${two_sided[@]}" -n "$ranks" -a ps,ring -b 1M -e 1G --stepfactor 1024 --format csv \
	>"$tmp/model_predict.csv" 2>"$tmp/predict.err" ||
	{ cat "$tmp/predict.err" >&2; cb_die 2 "collbench-model predict refused --topo '$topo' --ranks '$ranks' (above); no model files written"; }
"$CM" predict --topo "$topo" "${two_sided[@]}" -n "$ranks" -a ps,ring --crossover --format csv >"$tmp/model_crossover.csv" ||
	cb_die 2 "collbench-model predict --crossover failed (above); no model files written"
"$CM" check "$RUN_DIR" --fit "$fit_use" "${hosts_topo[@]}" --format csv >"$tmp/model_check.csv" ||
	cb_die 2 "collbench-model check failed (above); no model files written"
# the model as a tuner: its choice per point beside the measured fastest (none: one algorithm)
"$CM" check "$RUN_DIR" --fit "$fit_use" "${hosts_topo[@]}" --choice --format csv >"$tmp/model_choice.csv" 2>/dev/null ||
	: >"$tmp/model_choice.csv"
if ((in_run)); then
	"$CM" check "$RUN_DIR" --fit "$fit_use" "${hosts_topo[@]}" >"$tmp/model_check.txt" 2>/dev/null ||
		cb_die 2 "collbench-model check failed; no model files written"
fi
topo_name=$(sed -n 's/^collbench-model predict: topology \([^ ]*\) .*/\1/p' "$tmp/predict.err" | head -1)
topo_label="topology ${topo_name:-$topo}"

OUT_DIR=${positional[1]:-}
if [[ -n "$OUT_DIR" ]]; then
	# a folder of other figures (plot.sh's) is fine: only this script's names must be free
	[[ -e "$OUT_DIR" ]] || made_dir=$OUT_DIR
	mkdir -p -- "$OUT_DIR" || cb_die 2 "cannot create the folder $OUT_DIR"
	if compgen -G "$OUT_DIR/model_*" >/dev/null; then
		((overwrite)) || cb_die 2 "$OUT_DIR already holds model_* files: give another folder, or --overwrite"
		rm -f -- "$OUT_DIR"/model_* || cb_die 2 "cannot remove the old model_* files in $OUT_DIR"
	fi
	(set -C && : >"$OUT_DIR/model_figures.txt") 2>/dev/null ||
		cb_die 2 "$OUT_DIR was taken by another run at the same time: give another folder"
else
	OUT_DIR=$(cb_new_dir "${CB_PLOTS:-$REPO_ROOT/plots}" "$RUN_ID-model") || exit 2
	made_dir=$OUT_DIR
fi
partial+=("$OUT_DIR/model_figures.txt")
# place SRC DST: SRC (in $tmp) as DST, whole or not at all (collbench-results place: never
# through a link, a device, a FIFO, as collbench-model -o)
place() {
	"$BIN/collbench-results" place "$1" "$2" || cb_die 2 "cannot write $2 (above)"
	partial+=("$2") written+=("$2")
}
if [[ -z "$fit" ]]; then
	fit=$OUT_DIR/model_fit.json
	((in_run == 0)) || fit=$RUN_DIR/model_fit.json
	place "$tmp/model_fit.json" "$fit"
	((in_run == 0)) || place "$tmp/model_fit.txt" "$RUN_DIR/model_fit.txt"
fi
((in_run == 0)) || place "$tmp/model_check.txt" "$RUN_DIR/model_check.txt"
for f in model_check.csv model_choice.csv model_predict.csv model_crossover.csv; do
	place "$tmp/$f" "$OUT_DIR/$f"
done

# plot_awk PROGRAM ARGS...: scripts/plot/PROGRAM.awk with the shared functions; the lines it
# prints for this script hold fields apart by US (unit separator), which `read` keeps when a
# field is empty.
US=$'\037'
plot_awk() {
	local prog=$1
	shift
	awk -f "$PLOT_DIR/lib.awk" -f "$PLOT_DIR/$prog.awk" -v prog="$PROG" "$@"
}

# run_gp NAME OUTBASE ARGS: draw scripts/plot/NAME.gp with the -e assignments ARGS, record the
# files.
run_gp() {
	local name=$1 outbase=$2 args=$3
	partial+=("$outbase.png" "$outbase.svg")
	cb_gnuplot "$PLOT_DIR" "$name" "$outbase" "$args" || exit 2
	written+=("$outbase.png" "$outbase.svg")
}

# --- model_busbw_np<N>: measured and modelled bandwidth per rank count ------------------------
plot_busbw() {
	local verb n algos xmin xmax ymin ymax over ctx="" line3 fit_src
	fit_src=$(sed -n 's/^ *"source": "\(.*\)",$/\1/p' "$fit" | head -1)
	fit_src=${fit_src//\\\\/\\} # JSON's \\ (cb_text's \xHH arrive as \\xHH)
	[[ "$fit_src" == */summary.csv ]] && fit_src=$(dirname "$fit_src")
	while IFS=$US read -r verb n algos xmin xmax ymin ymax over; do
		case $verb in
		skip) cb_note "skipping model_busbw_np*: $n"; return 0 ;;
		combo) # backend, dtype, op, in_place in n, algos, xmin, xmax
			ctx="$n, $algos $xmin$([[ $xmax == 1 ]] && echo ", in-place"), fit of $(basename "${fit_src:-?}")"
			continue ;;
		esac
		line3="" # a line of its own: beside a long run name it would be cut
		((over == 0)) || line3="more ranks than CPUs: time slicing, which the model does not describe"
		run_gp model_busbw "$OUT_DIR/model_busbw_np$n" "prefix=$(gp_path "$tmp/model_busbw_np$n");
			algos=$(gp_str "$algos"); xmin=$xmin; xmax=$xmax; ymin=$ymin; ymax=$ymax;
			ttl=$(gp_str "measured (solid) and modelled (dashed) bandwidth, $n ranks");
			sub=$(gp_str "$ctx"); note=$(gp_str "$line3"); runid=$(gp_str "run $RUN_ID")"
	done < <(plot_awk model_busbw -v file="$OUT_DIR/model_check.csv" -v dir="$tmp" \
		"$OUT_DIR/model_check.csv")
}

# --- model_time_vs_n and model_host_load: ps and ring at scale --------------------------------
# scale NAME SERIES: plot_awk model_scale's answer for SERIES into $tmp/NAME.<i>.dat
scale() {
	plot_awk model_scale -v file="$OUT_DIR/model_predict.csv" -v series="$2" -v prefix="$tmp/$1" \
		"$OUT_DIR/model_predict.csv"
}
plot_scale() {
	local verb xmin xmax ymin ymax G=1073741824 M=1048576
	IFS=$US read -r verb xmin xmax ymin ymax < <(scale time \
		"$G:ps:time_us $G:ring:time_us $M:ps:time_us $M:ring:time_us")
	if [[ "$verb" == plot ]]; then
		run_gp model_scale "$OUT_DIR/model_time_vs_n" "prefix=$(gp_path "$tmp/time");
			algos='ps ring ps ring'; dts='1 1 2 2'; lab1='ps, 1 GiB'; lab2='ring, 1 GiB';
			lab3='ps, 1 MiB'; lab4='ring, 1 MiB'; ylab='predicted time per allreduce (us)'; div=1;
			xmin=$xmin; xmax=$xmax; ymin=$ymin; ymax=$ymax;
			ttl=$(gp_str "predicted allreduce time vs rank count (cost model)"); sub=$(gp_str "$topo_label");
			runid=$(gp_str "collbench-model predict")"
	else
		cb_note "skipping model_time_vs_n: the topology predicts nothing for $ranks ranks"
	fi
	IFS=$US read -r verb xmin xmax ymin ymax < <(scale load \
		"$G:ps:host_max_bytes $G:ps:host_min_bytes $G:ring:host_max_bytes")
	if [[ "$verb" == plot ]]; then
		run_gp model_scale "$OUT_DIR/model_host_load" "prefix=$(gp_path "$tmp/load");
			algos='ps ps ring'; dts='1 2 1'; lab1=$(gp_str "ps: the root's host"); lab2='ps: any other host';
			lab3='ring: every host'; ylab='bytes out + in of a host network link (GiB)';
			div=1073741824.0; xmin=$xmin; xmax=$xmax; ymin=$ymin; ymax=$ymax;
			ttl=$(gp_str "host network link load per allreduce of 1 GiB per rank"); sub=$(gp_str "$topo_label");
			runid=$(gp_str "collbench-model predict")"
	else
		cb_note "skipping model_host_load: no rank count of $ranks spans two hosts of the topology"
	fi
}

# --- model_crossover: where the ring overtakes ps ---------------------------------------------
plot_crossover() {
	local verb xmin xmax ymin ymax
	IFS=$US read -r verb xmin xmax ymin ymax < <(plot_awk model_crossover \
		-v file="$OUT_DIR/model_crossover.csv" -v out="$tmp/cross.dat" "$OUT_DIR/model_crossover.csv")
	if [[ "$verb" != plot ]]; then
		cb_note "skipping model_crossover: ps never beats the ring at these rank counts"
		return 0
	fi
	run_gp model_crossover "$OUT_DIR/model_crossover" "data=$(gp_path "$tmp/cross.dat");
		xmin=$xmin; xmax=$xmax; ymin=$ymin; ymax=$ymax;
		ttl=$(gp_str "where the ring overtakes ps (cost model)"); sub=$(gp_str "$topo_label");
		runid=$(gp_str "collbench-model predict --crossover")"
}

# --- model_choice: the model's fastest beside the measured fastest, per (size, n) -------------
plot_choice() {
	local verb algos xmin xmax ranks combo agree pts agree_free pts_free rate
	if [[ ! -s "$OUT_DIR/model_choice.csv" ]]; then
		cb_note "skipping model_choice: no point with two or more modelled algorithms"
		return 0
	fi
	IFS=$US read -r verb algos xmin xmax ranks combo agree pts agree_free pts_free < <(plot_awk \
		model_choice -v file="$OUT_DIR/model_choice.csv" -v dir="$tmp" "$OUT_DIR/model_choice.csv")
	[[ "$verb" == plot ]] || { cb_note "skipping model_choice: $algos"; return 0; }
	pct() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.0f", 100 * a / b }'; }
	rate="choice = the fastest, in its band or its plan: $agree/$pts points ($(pct "$agree" "$pts")%)"
	((pts_free == pts || pts_free == 0)) ||
		rate+=", $agree_free/$pts_free with a CPU per rank ($(pct "$agree_free" "$pts_free")%)"
	run_gp model_choice "$OUT_DIR/model_choice" "prefix=$(gp_path "$tmp"); algos=$(gp_str "$algos");
		xmin=$xmin; xmax=$xmax; ranks=$(gp_str "$ranks");
		ttl=$(gp_str "the cost model as a tuner: its choice and the measured fastest");
		sub=$(gp_str "$combo"); rate=$(gp_str "$rate"); runid=$(gp_str "run $RUN_ID")"
}

# --- model_tradeoff: rounds (latency) against the busiest rank's bytes (bandwidth) -----------
plot_tradeoff() {
	local verb algos n size rmax ymax combo
	IFS=$US read -r verb algos n size rmax ymax combo < <(plot_awk model_tradeoff \
		-v file="$OUT_DIR/model_check.csv" -v dir="$tmp" "$OUT_DIR/model_check.csv")
	[[ "$verb" == plot ]] || { cb_note "skipping model_tradeoff: $algos"; return 0; }
	run_gp model_tradeoff "$OUT_DIR/model_tradeoff" "prefix=$(gp_path "$tmp/tradeoff");
		algos=$(gp_str "$algos"); rmax=$rmax; ymax=$ymax;
		ttl=$(gp_str "latency against bandwidth: rounds and the busiest rank's bytes, $n ranks, $size");
		sub=$(gp_str "$combo; labels: the measured median"); runid=$(gp_str "run $RUN_ID")"
}

plot_busbw
plot_choice
plot_tradeoff
plot_scale
plot_crossover

printf '%s\n' "${written[@]}" >"$OUT_DIR/model_figures.txt" || cb_die 2 "cannot write model_figures.txt"
finished=1
printf '%s\n' "${written[@]}" || cb_die 2 "cannot write the list of figures to stdout"
cb_note "figures in $OUT_DIR"
