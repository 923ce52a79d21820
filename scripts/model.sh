#!/usr/bin/env bash
# model.sh - the cost model's figures for one run folder and one topology, with gnuplot.
#
# Runs collbench-model (fit unless --fit is given, check, predict, predict --crossover),
# keeps its CSV/JSON next to the figures, extracts small tab-separated .dat files with awk
# (columns looked up by header name) and calls the plot_model_*.gp scripts next to this
# file. Each figure is written as PNG (pngcairo) and SVG; the files are listed on stdout.
set -euo pipefail
export LC_ALL=C

SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO_ROOT=$(dirname "$SCRIPT_DIR")
PROG=model.sh
# shellcheck source=scripts/lib.sh
. "$SCRIPT_DIR/lib.sh"
BIN=${CB_BIN:-$REPO_ROOT/build/bin}

usage() {
	cat <<EOF
Usage: scripts/model.sh [options] RUN_DIR [OUT_DIR]

The cost model's figures for a collbench run folder and a topology. OUT_DIR defaults to a new
folder <repo>/plots/<basename of RUN_DIR>-model; a given OUT_DIR may hold other figures (e.g.
plot.sh's): this script's own files (model_*) must not be there unless --overwrite.
Each figure is written as .png and .svg:
  model_busbw_np<N>  measured bus bandwidth (solid) and the model's (dashed) per algorithm,
                     one file per rank count N of the run
  model_time_vs_n    predicted ps and ring time vs rank count (log-log) at 1 MiB and 1 GiB on
                     the topology
  model_host_load    bytes per allreduce through the ps root's host network link, another
                     host's, and a ring host's, vs rank count at 1 GiB
  model_crossover    the largest message size at which ps is no slower than the ring, vs n
Data kept next to them: model_fit.json (unless --fit), model_check.csv, model_predict.csv,
model_crossover.csv; the list of files in model_figures.txt.

Options:
  --fit FILE        check the run against this fit (collbench-model fit -o) instead of
                    fitting the run itself
  --topo NAME|FILE  topology of the scale-out figures [dgx-h100] (collbench-model presets)
  --ranks A:B       rank counts of the scale-out figures [2:4096]
  --overwrite       replace this script's files in OUT_DIR
  -h, --help        show this help

Environment: CB_BIN (collbench-model's folder, default <repo>/build/bin), CB_PLOTS (root of the
default OUT_DIR, default <repo>/plots). Needs gnuplot 5 with pngcairo and svg.
EOF
}

die() {
	printf '%s: error: %s\n' "$PROG" "$*" >&2
	exit 2
}
note() { printf '%s: %s\n' "$PROG" "$*" >&2; }
gp_str() { cb_gp_str "$1"; }

fit="" topo=dgx-h100 ranks=2:4096 overwrite=0
positional=()
while (($# > 0)); do
	case "$1" in
	-h | --help) usage; exit 0 ;;
	--fit | --topo | --ranks)
		(($# >= 2)) || die "option $1 needs a value (see --help)"
		case "$1" in --fit) fit=$2 ;; --topo) topo=$2 ;; --ranks) ranks=$2 ;; esac
		shift 2
		;;
	--overwrite) overwrite=1; shift ;;
	--) shift; positional+=("$@"); break ;;
	-?*) die "unknown option '$1' (see --help)" ;;
	*) positional+=("$1"); shift ;;
	esac
done
((${#positional[@]} >= 1 && ${#positional[@]} <= 2)) || { usage >&2; exit 2; }
command -v gnuplot >/dev/null 2>&1 || die "gnuplot is not installed (apt-get install gnuplot-nox)"
CM=$BIN/collbench-model
[[ -x "$CM" ]] || die "$CM not built (cmake --build build)"
RUN_DIR=${positional[0]}
[[ -d "$RUN_DIR" ]] || die "run folder '$RUN_DIR' does not exist"
RUN_ID=$(basename "$(cd "$RUN_DIR" && pwd)")
[[ -z "$fit" || -f "$fit" ]] || die "fit file '$fit' does not exist"
OUT_DIR=${positional[1]:-}
if [[ -n "$OUT_DIR" ]]; then
	# a folder of other figures (plot.sh's) is fine: only this script's names must be free
	mkdir -p -- "$OUT_DIR" || die "cannot create the folder $OUT_DIR"
	if compgen -G "$OUT_DIR/model_*" >/dev/null; then
		((overwrite)) || die "$OUT_DIR already holds model_* files: give another folder, or --overwrite"
		rm -f -- "$OUT_DIR"/model_* || die "cannot remove the old model_* files in $OUT_DIR"
	fi
	(set -C && : >"$OUT_DIR/model_figures.txt") 2>/dev/null ||
		die "$OUT_DIR was taken by another run at the same time: give another folder"
else
	OUT_DIR=$(cb_new_dir "${CB_PLOTS:-$REPO_ROOT/plots}" "$RUN_ID-model") || exit 2
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/collbench-model.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
written=()

# COLS: awk rule that maps the header line to c[name] = column.
COLS='NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }'

run_gp() {
	local script=$1 outbase=$2 args=$3
	gnuplot -e "gpdir=$(gp_str "$SCRIPT_DIR"); outbase=$(gp_str "$outbase"); $args" \
		"$SCRIPT_DIR/$script" || die "gnuplot failed on $script (output $outbase)"
	[[ -s "$outbase.png" && -s "$outbase.svg" ]] || die "gnuplot wrote no $outbase.png/.svg"
	written+=("$outbase.png" "$outbase.svg")
}

# --- the model's numbers ----------------------------------------------------------------------
if [[ -z "$fit" ]]; then
	fit=$OUT_DIR/model_fit.json
	"$CM" fit "$RUN_DIR" -o "$fit" >"$tmp/fit.txt" || die "collbench-model fit failed (above)"
	written+=("$fit")
fi
"$CM" check "$RUN_DIR" --fit "$fit" -f csv >"$OUT_DIR/model_check.csv" ||
	die "collbench-model check failed (above)"
"$CM" predict --topo "$topo" -n "$ranks" -b 1M -e 1G --factor 1024 -f csv \
	>"$OUT_DIR/model_predict.csv" 2>"$tmp/predict.err" || { cat "$tmp/predict.err" >&2; die "predict failed"; }
"$CM" predict --topo "$topo" -n "$ranks" --crossover -f csv >"$OUT_DIR/model_crossover.csv" \
	2>/dev/null || die "predict --crossover failed"
written+=("$OUT_DIR/model_check.csv" "$OUT_DIR/model_predict.csv" "$OUT_DIR/model_crossover.csv")
topo_name=$(sed -n 's/^collbench-model predict: topology \([^ ]*\) .*/\1/p' "$tmp/predict.err" | head -1)

# --- (a) model_busbw_np<N>: measured and modelled bandwidth per rank count -----------------------
# one (backend, dtype, op, in_place) combination: the first modelled row's
awk -F, -v OFS='\t' "$COLS"'
	$c["bytes"] > 0 && $c["bw_GBps"] != "" && $c["bw_GBps_model"] != "" {
		key = $c["backend"] FS $c["dtype"] FS $c["op"] FS $c["in_place"]
		if (want == "") want = key
		if (key == want) print $c["algo"], $c["nranks"], $c["bytes"], $c["bw_GBps"], $c["bw_GBps_model"]
	}
	END { if (want != "") { split(want, w, FS); print w[1], w[2], w[3], w[4] > "/dev/stderr" } }' \
	"$OUT_DIR/model_check.csv" >"$tmp/bw.tsv" 2>"$tmp/combo" || die "cannot read model_check.csv"
if [[ ! -s "$tmp/bw.tsv" ]]; then
	note "skipping model_busbw_np*: no modelled rows with a bandwidth in $RUN_DIR"
else
	read -r BACKEND DTYPE OP INPLACE <"$tmp/combo"
	fit_src=$(sed -n 's/^ *"source": "\(.*\)",$/\1/p' "$fit" | head -1)
	[[ "$fit_src" == */summary.csv ]] && fit_src=$(dirname "$fit_src")
	ctx="$BACKEND, $DTYPE $OP$([[ $INPLACE == 1 ]] && echo ", in-place"), fit of $(basename "${fit_src:-?}")"
	for n in $(cut -f2 "$tmp/bw.tsv" | sort -n -u); do
		algos_n=()
		for a in ps ring mpi nccl copy; do
			f="$tmp/bw_np$n.$((${#algos_n[@]} + 1)).dat"
			awk -F'\t' -v OFS='\t' -v a="$a" -v n="$n" '$1 == a && $2 == n { print $3, $4, $5 }' \
				"$tmp/bw.tsv" | sort -t$'\t' -k1,1g >"$f"
			if [[ -s "$f" ]]; then algos_n+=("$a"); fi
		done
		read -r xmin xmax ymin ymax < <(awk -F'\t' -v n="$n" '$2 == n {
			if (lo == "" || $3 < lo) lo = $3; if ($3 > hi) hi = $3
			for (i = 4; i <= 5; i++) { if ($i > 0 && (yl == "" || $i < yl)) yl = $i; if ($i > yh) yh = $i } }
			END { print lo, hi, yl, yh }' "$tmp/bw.tsv")
		sub_n=$ctx
		if awk -F, -v n="$n" "$COLS"'$c["nranks"] == n && /oversubscribed/ { f = 1 } END { exit !f }' \
			"$OUT_DIR/model_check.csv"; then
			sub_n="$ctx; ranks > CPUs: time slicing not modelled"
		fi
		run_gp plot_model_busbw.gp "$OUT_DIR/model_busbw_np$n" "prefix=$(gp_str "$tmp/bw_np$n");
			algos=$(gp_str "${algos_n[*]}"); xmin=$xmin; xmax=$xmax; ymin=$ymin; ymax=$ymax;
			ttl=$(gp_str "measured (solid) and modelled (dashed) bandwidth, $n ranks");
			sub=$(gp_str "$sub_n"); runid=$(gp_str "run $RUN_ID")"
	done
fi

# --- (b) model_time_vs_n and (c) model_host_load: ps and ring at scale ---------------------------
# lines FILE: n <TAB> value for rows at bytes B of column COL (values > 0 only)
pick() {
	awk -F, -v OFS='\t' -v b="$1" -v col="$2" "$COLS"'$c["bytes"] == b && $c[col] > 0 {
		print $c["nranks"], $c[col] }' "$OUT_DIR/model_predict.csv" >"$3"
}
# ranges FILE...: smallest and largest x and y of "x <TAB> y" lines.
ranges() {
	cat "$@" | awk -F'\t' 'NR == 1 { xl = xh = $1; yl = yh = $2 }
		{ if ($1 < xl) xl = $1; if ($1 > xh) xh = $1; if ($2 < yl) yl = $2; if ($2 > yh) yh = $2 }
		END { print xl, xh, yl, yh }'
}
topo_label="topology ${topo_name:-$topo}"
pick 1073741824 ps_time_us "$tmp/time.1.dat"
pick 1073741824 ring_time_us "$tmp/time.2.dat"
pick 1048576 ps_time_us "$tmp/time.3.dat"
pick 1048576 ring_time_us "$tmp/time.4.dat"
if [[ -s "$tmp/time.1.dat" ]]; then
	read -r xmin xmax ymin ymax < <(ranges "$tmp"/time.*.dat)
	run_gp plot_model_scale.gp "$OUT_DIR/model_time_vs_n" "prefix=$(gp_str "$tmp/time");
		algos='ps ring ps ring'; dts='1 1 2 2'; lab1='ps, 1 GiB'; lab2='ring, 1 GiB';
		lab3='ps, 1 MiB'; lab4='ring, 1 MiB'; ylab='predicted time per allreduce (us)'; div=1;
		xmin=$xmin; xmax=$xmax; ymin=$ymin; ymax=$ymax;
		ttl=$(gp_str "predicted allreduce time vs rank count (cost model)"); sub=$(gp_str "$topo_label");
		runid=$(gp_str "collbench-model predict")"
else
	note "skipping model_time_vs_n: the topology predicts nothing for $ranks ranks"
fi
pick 1073741824 ps_host_max_bytes "$tmp/load.1.dat"
pick 1073741824 ps_host_min_bytes "$tmp/load.2.dat"
pick 1073741824 ring_host_bytes "$tmp/load.3.dat"
if [[ -s "$tmp/load.1.dat" ]]; then
	read -r xmin xmax ymin ymax < <(ranges "$tmp"/load.*.dat)
	run_gp plot_model_scale.gp "$OUT_DIR/model_host_load" "prefix=$(gp_str "$tmp/load");
		algos='ps ps ring'; dts='1 2 1'; lab1=$(gp_str "ps: the root's host"); lab2='ps: any other host';
		lab3='ring: every host'; ylab='bytes out + in of a host network link (GiB)';
		div=1073741824.0; xmin=$xmin; xmax=$xmax; ymin=$ymin; ymax=$ymax;
		ttl=$(gp_str "host network link load per allreduce of 1 GiB per rank"); sub=$(gp_str "$topo_label");
		runid=$(gp_str "collbench-model predict")"
else
	note "skipping model_host_load: no rank count of $ranks spans two hosts of the topology"
fi

# --- (d) model_crossover: where the ring overtakes ps -------------------------------------------
awk -F, -v OFS='\t' "$COLS"'$c["meaning"] ~ /ps is no slower up to this size/ {
	print $c["nranks"], $c["crossover_bytes"] }' "$OUT_DIR/model_crossover.csv" >"$tmp/cross.dat"
if [[ -s "$tmp/cross.dat" ]]; then
	read -r xmin xmax ymin ymax < <(ranges "$tmp/cross.dat")
	run_gp plot_model_crossover.gp "$OUT_DIR/model_crossover" "data=$(gp_str "$tmp/cross.dat");
		xmin=$xmin; xmax=$xmax; ymin=$ymin; ymax=$ymax;
		ttl=$(gp_str "where the ring overtakes ps (cost model)"); sub=$(gp_str "$topo_label");
		runid=$(gp_str "collbench-model predict --crossover")"
else
	note "skipping model_crossover: ps never beats the ring at these rank counts"
fi

printf '%s\n' "${written[@]}" >"$OUT_DIR/model_figures.txt" || die "cannot write model_figures.txt"
printf '%s\n' "${written[@]}" || die "cannot write the list of figures to stdout"
note "figures in $OUT_DIR"
