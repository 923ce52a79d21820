#!/usr/bin/env bash
# plot.sh - draw the collbench figures of one run folder with gnuplot.
#
# Reads RUN_DIR/summary.csv (and RUN_DIR/ranks.csv for the per-rank traffic figure), looks every
# column up by its header name (the CSV columns are a contract, more may follow), keeps the rows
# with status "ok" of one (backend, dtype, op, in_place) combination, and draws each figure in
# two steps, both in scripts/plot/: X.awk writes the figure's small tab-separated .dat files into
# a temporary folder and prints what it drew (or why not), X.gp draws them (lib.awk and
# common.gp are shared). Each figure is written as PNG (pngcairo) and SVG; the written files
# are listed on stdout. Options: the table below (lib_opts.sh's form); exit status: the usage's
# last lines.
# shellcheck disable=SC2154 # the options' variables: set by cb_opts_parse from the table
set -euo pipefail
export LC_ALL=C

SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO_ROOT=$(dirname "$SCRIPT_DIR")
PLOT_DIR=$SCRIPT_DIR/plot
PROG=plot.sh
# shellcheck source=scripts/lib.sh
. "$SCRIPT_DIR/lib.sh"

cb_opts_new operands "Usage: scripts/plot.sh [options] RUN_DIR [OUT_DIR]"
cb_opts_text head <<EOF

Draw the figures of one collbench run folder (RUN_DIR/summary.csv, RUN_DIR/ranks.csv).
OUT_DIR defaults to a new folder <repo>/plots/<basename of RUN_DIR> (-2, -3, ... when that
name is taken: plots of two runs never mix); a given OUT_DIR must be new or empty unless
--overwrite. The figures written are listed on stdout and in OUT_DIR/figures.txt.
Each figure is written as .png and .svg:
  busbw_np<N>         bus bandwidth (of the median time) vs message size, one line per
                      algorithm, one file per rank count N; the copy algorithm's algbw is drawn
                      dashed as the memcpy roofline
  frontier_np<N>      each allreduce's time (median) over the fastest one's at every size, one
                      file per rank count N: the fastest sits on 1 and is named below it, the
                      runs of sizes each algorithm wins in the corner (the crossovers)
  time_vs_ranks       time per allreduce vs rank count at the largest message size
  traffic_per_rank    tx+rx bytes of each rank at the largest rank count and size, for every
                      algorithm whose traffic is measured (every plan; not the libraries'),
                      each algorithm's total tx in the key
  imbalance_vs_ranks  max/mean of per-rank tx+rx vs rank count for the same algorithms,
                      largest size
  busy_wait_per_rank  each rank's busy time (moving, reducing bytes) and wait time (for peers)
                      per allreduce, stacked, at the largest rank count and size, for every
                      algorithm whose busy time is measured (ps, ring on the host)
  stragglers          per size, the rank most often the slowest and how much slower at its own
                      work it was (straggler_ratio; below 1, shaded: no straggler), one line
                      per algorithm, largest rank count
  iterations          every iteration's time of one row (warm-up included; from the
                      np<N>.jsonl files of --json): the largest rank count and size, the row
                      with the most variation there; its median and p99 (under 100
                      iterations: their largest, "max of K")
  library_choice      at each (size, rank count), which of Open MPI's forced algorithms
                      (mpi.*) the default mpi row ran by its traffic and time, and what Open
                      MPI 4.1's decision table names (RUN_DIR/library_choice.csv, which
                      sweep.sh writes for runs with mpi.* rows: collbench-model check
                      --library)
  gpu_bytes_per_rank  bytes each GPU sent and received in one call (tx+rx) per rank, NCCL's
                      algorithms (nccl, nccl.*) beside ours, at one size (--gpu-bytes-size,
                      else the largest with a hardware count) and the largest rank count:
                      NVML's NVLink counts (ranks.csv's hw_tx_bytes, hw_rx_bytes) where there
                      are, our own counters otherwise, each key saying which; its data in
                      gpu_bytes_per_rank.tsv (cuda runs with NVML; skipped elsewhere)
  zero_step_np<N>     a DDP step (allreduce of S) against a ZeRO step (reduce-scatter of S, then
                      all-gather of S) per algorithm of all three, one file per rank count N:
                      the time vs S, and each rank's tx+rx at the largest S with measured bytes
                      (sweep.sh --coll allreduce,reduce_scatter,all_gather)
Only rows with status "ok" are plotted; figures without data are skipped with a note on stderr.
Each figure is written whole or not at all (a temporary name, checked, renamed); when one
cannot be drawn (gnuplot fails, a full disk) plot.sh exits 1 and leaves none of its files.
Rank counts launched with more ranks than CPUs (meta.json's oversubscribed_rank_counts) are
marked: a title line on the figures of one rank count, "N*" at the tics of the others.

Options (default: the combination of the first "ok" row of summary.csv):
EOF
#      long      letter value kind       variable    default
cb_opt dtype     - X     text       opt_dtype   '' "plot rows of dtype X (e.g. float)"
cb_opt op        - Y     text       opt_op      '' "plot rows of reduction op Y (e.g. sum)"
cb_opt inplace   - '0|1' choice:0,1 opt_inplace '' "plot out-of-place (0) or in-place (1) rows"
cb_opt backend   - B     text       opt_backend '' "plot rows of backend B (host or cuda)"
cb_opt overwrite - -     flag       overwrite   0  "OUT_DIR may hold earlier figures: they are replaced"
cb_opt gpu-bytes-size - N text     opt_gpubytes '' "gpu_bytes_per_rank at N bytes per rank"
cb_opts_text tail <<EOF

Environment: CB_PLOTS (root of the default OUT_DIR, default <repo>/plots).

Needs gnuplot 5 with the pngcairo and svg terminals (Debian/Ubuntu: apt-get install gnuplot-nox).
Exit status: 0 figures drawn; 1 the run folder cannot be read, or no figure could be drawn
(gnuplot missing or failed, no rows to plot); 2 usage, or an OUT_DIR that cannot be used.
EOF

# gp_str VALUE: VALUE as a gnuplot single-quoted string literal (a quote is written twice;
# bytes that are not UTF-8 as \xHH, or the SVG would not be valid XML).
gp_str() { cb_gp_str "$1"; }

# --- options ----------------------------------------------------------------------------------
cb_opts_parse "$@"
positional=("${cb_args[@]}")
((${#positional[@]} >= 1)) || {
	cb_opts_usage >&2
	exit 2
}
((${#positional[@]} <= 2)) || cb_die 2 "too many arguments (see --help)"

command -v gnuplot >/dev/null 2>&1 ||
	cb_die 1 "gnuplot is not installed (Debian/Ubuntu: apt-get install gnuplot-nox)"

RUN_DIR=${positional[0]}
[[ -d "$RUN_DIR" ]] || cb_die 1 "run folder '$RUN_DIR' does not exist"
RUN_DIR=$(cd "$RUN_DIR" && pwd)
RUN_ID=$(basename "$RUN_DIR")
SUMMARY=$RUN_DIR/summary.csv
RANKS=$RUN_DIR/ranks.csv
[[ -f "$SUMMARY" ]] || cb_die 1 "no summary.csv in '$RUN_DIR'"
[[ -s "$SUMMARY" ]] || cb_die 1 "'$SUMMARY' is empty"
OUT_DIR=${positional[1]:-}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/collbench-plot.XXXXXX")
# On failure nothing of this run stays in OUT_DIR: the figures it wrote (each whole: cb_gnuplot),
# its claim (an empty figures.txt) and the folder it made, so that a rerun is not refused.
finished=0 claim="" made_dir="" written=()
undo() {
	((finished == 0)) || return 0
	((${#written[@]} == 0)) || rm -f -- "${written[@]}"
	[[ -z "$claim" || -s "$claim" ]] || rm -f -- "$claim"
	[[ -z "$made_dir" ]] || rmdir -- "$made_dir" 2>/dev/null || true
}
trap 'undo; rm -rf "$tmp"' EXIT

# plot_awk PROGRAM ARGS...: scripts/plot/PROGRAM.awk with the shared functions. The lines the
# programs print for this script hold fields apart by US (unit separator), which, unlike a tab,
# `read` keeps when a field is empty.
US=$'\037'
plot_awk() {
	local prog=$1
	shift
	awk -f "$PLOT_DIR/lib.awk" -f "$PLOT_DIR/$prog.awk" "$@"
}

# --- the rows (status ok) and the combination to draw -----------------------------------------
plot_awk rows -v prog="$PROG" -v file="$SUMMARY" "$SUMMARY" >"$tmp/ok.tsv" || exit 1
choice=$(plot_awk select -v b="$opt_backend" -v d="$opt_dtype" -v o="$opt_op" -v p="$opt_inplace" \
	-v cur="$tmp/cur.tsv" "$tmp/ok.tsv")
if [[ "$choice" != combo$US* ]]; then
	cb_die 1 "no ok rows match the requested combination; the run has:
$(cut -d "$US" -f2- <<<"$choice")"
fi
IFS=$US read -r _ BACKEND DTYPE OP INPLACE ncombo <<<"$choice"
if ((ncombo > 1)); then
	cb_note "note: the run has $ncombo (backend, dtype, op, in_place) combinations; plotting" \
		"backend=$BACKEND dtype=$DTYPE op=$OP in_place=$INPLACE (choose with --backend/--dtype/--op/--inplace)"
fi
case "$INPLACE" in
1) placement="in-place" ;;
0) placement="out-of-place" ;;
*) placement="in_place=$INPLACE" ;;
esac
ctx="$BACKEND backend, $DTYPE $OP, $placement"
# the statistic of the time (and bandwidth) figures: the median where summary.csv has it (as
# frontier, the model's figures and the gate use), else the mean; said on their axes
stat=mean
head -n 1 "$SUMMARY" | tr -d '\r' | tr ',' '\n' | grep -x time_us_median >/dev/null && stat=median

# the output folder: claimed (figures.txt created exclusively) or new (atomic)
if [[ -n "$OUT_DIR" ]]; then
	cb_claim_dir "$OUT_DIR" figures.txt "$overwrite" 'busbw_np*.png' 'busbw_np*.svg' \
		'time_vs_ranks.*' 'traffic_per_rank.*' 'imbalance_vs_ranks.*' 'busy_wait_per_rank.*' \
		'stragglers.*' 'iterations.*' 'frontier_np*.png' 'frontier_np*.svg' \
		'library_choice.*' 'zero_step_np*.png' 'zero_step_np*.svg' 'gpu_bytes_per_rank.*' \
		'.*.tmp[0-9]*' || exit 2
else
	OUT_DIR=$(cb_new_dir "${CB_PLOTS:-$REPO_ROOT/plots}" "$RUN_ID") || exit 2
	made_dir=$OUT_DIR
fi
claim=$OUT_DIR/figures.txt

# --- oversubscription: the rank counts launched with more ranks than CPUs (time-sliced) -------
# From meta.json's oversubscribed_rank_counts and cpus_online (sweep.sh writes them, one line
# each); a folder without them marks none.
over_counts="" ncpus=""
if [[ -f "$RUN_DIR/meta.json" ]]; then
	over_counts=$(sed -n 's/^ *"oversubscribed_rank_counts": *\[\([0-9, ]*\)\],\{0,1\} *$/\1/p' \
		"$RUN_DIR/meta.json" | head -1 | tr ',' ' ')
	ncpus=$(sed -n 's/^ *"cpus_online": *\([0-9][0-9]*\),\{0,1\} *$/\1/p' "$RUN_DIR/meta.json" | head -1)
fi
is_over() { [[ " $over_counts " == *" $1 "* ]]; }
# over_note N: the third title line of a figure of N ranks: empty unless N was oversubscribed
over_note() {
	is_over "$1" || return 0
	printf 'more ranks than CPUs (%s ranks on %s CPUs): time slicing' "$1" "${ncpus:-fewer}"
}
# over_args RANKS: for a figure over the rank counts RANKS, the gnuplot assignments of the
# counts to mark (over, their tic labels get a "*") and the note saying what "*" means
over_args() {
	local r marked=""
	for r in $1; do is_over "$r" && marked+="$r "; done
	printf 'over=%s; note=%s' "$(gp_str "${marked% }")" \
		"$(gp_str "${marked:+* more ranks than CPUs (${ncpus:-fewer} CPUs): time slicing}")"
}

# run_gp NAME OUTBASE ARGS: draw scripts/plot/NAME.gp with the -e assignments ARGS (titles'
# second line and the run label added), record the files.
run_gp() {
	local name=$1 outbase=$2 args=$3
	cb_gnuplot "$PLOT_DIR" "$name" "$outbase" "$args;
		sub=$(gp_str "$ctx"); runid=$(gp_str "run $RUN_ID"); stat='$stat'" || exit 1
	written+=("$outbase.png" "$outbase.svg")
}

# --- busbw_np<N>: bus bandwidth vs message size, one figure per rank count --------------------
plot_busbw() {
	local verb n algos roof_n roofpts xmin xmax ymin ymax extra rooflabel roofline ranks_word
	while IFS=$US read -r verb n algos roof_n roofpts xmin xmax ymin ymax extra; do
		if [[ "$verb" == skip ]]; then
			cb_note "skipping busbw_np$n: $algos"
			continue
		fi
		rooflabel="copy roofline (algbw)" roofline=""
		[[ "$roof_n" == "$n" ]] || rooflabel="copy roofline (algbw, n = $roof_n)"
		((roofpts != 1)) || rooflabel="$rooflabel, one size"
		((roofpts == 0)) || roofline=$tmp/busbw_np$n.copy.dat
		ranks_word="ranks"
		[[ "$n" == 1 ]] && ranks_word="rank"
		run_gp busbw "$OUT_DIR/busbw_np$n" "prefix=$(cb_gp_path "$tmp/busbw_np$n");
			algos=$(gp_str "$algos"); roofline=$(gp_str "$roofline");
			rooflabel=$(gp_str "$rooflabel"); roofpts=$roofpts; xmin=$xmin; xmax=$xmax;
			ymin=$ymin; ymax=$ymax; nranks=$n; note=$(gp_str "$(over_note "$n")");
			ttl=$(gp_str "allreduce bus bandwidth, $n $ranks_word${extra:+ $extra}")"
	done < <(plot_awk busbw -v dir="$tmp" "$tmp/cur.tsv")
}

# --- frontier_np<N>: each algorithm's time over the fastest's, and the fastest, by size -------
plot_frontier() {
	local verb n algos xmin xmax rmax runs
	while IFS=$US read -r verb n algos xmin xmax rmax runs; do
		if [[ "$verb" == skip ]]; then
			cb_note "skipping frontier_np$n: $algos"
			continue
		fi
		run_gp frontier "$OUT_DIR/frontier_np$n" "prefix=$(cb_gp_path "$tmp/frontier_np$n");
			algos=$(gp_str "$algos"); xmin=$xmin; xmax=$xmax; rmax=$rmax; runs=$(gp_str "$runs");
			nranks=$n; note=$(gp_str "$(over_note "$n")");
			ttl=$(gp_str "the fastest allreduce at each size, $n ranks (time over the fastest's)")"
	done < <(plot_awk frontier -v dir="$tmp" "$tmp/cur.tsv")
}

# --- time_vs_ranks: time vs rank count at the largest message size ----------------------------
plot_time() {
	local verb size algos ranks tmin tmax
	IFS=$US read -r verb size algos ranks tmin tmax < <(plot_awk time -v dir="$tmp" "$tmp/cur.tsv")
	[[ "$verb" == plot ]] || { cb_note "skipping time_vs_ranks: $size"; return 0; }
	run_gp time "$OUT_DIR/time_vs_ranks" "prefix=$(cb_gp_path "$tmp/time"); algos=$(gp_str "$algos");
		ranks=$(gp_str "$ranks"); tmin=$tmin; tmax=$tmax; $(over_args "$ranks");
		ttl=$(gp_str "allreduce time vs rank count, $size per rank")"
}

# --- traffic_per_rank: per-rank tx+rx of every algorithm with measured traffic ----------------
plot_traffic() {
	local verb a b c d e f labels="" i=0 nrows=() hosts="nhosts=0;" across="" k=0 hl
	if [[ ! -s "$RANKS" ]]; then
		cb_note "skipping traffic_per_rank: no ranks.csv (or an empty one) in '$RUN_DIR'"
		return 0
	fi
	while IFS=$US read -r verb a b c d e f; do
		case $verb in
		skip) cb_note "skipping traffic_per_rank: $a"; return 0 ;;
		algo) # name, total tx in words, ranks found
			i=$((i + 1))
			labels+="lab$i=$(gp_str "$a (total tx $b)"); "
			nrows+=("$a $c") ;;
		hosts) # H, centres, separators, labels apart by ";"
			across=" on $a hosts"
			hosts="nhosts=$a; hostx=$(gp_str "$b"); hostsep=$(gp_str "$c"); "
			while IFS= read -r -d ';' hl; do
				k=$((k + 1))
				# a double-quoted gnuplot string, for its \n line breaks: the label
				# holds only numbers, units and algorithm names ([A-Za-z0-9_.+-])
				hosts+="hostlab$k=\"${hl//\"/}\"; "
			done <<<"$d;" ;;
		plot) # N, size in words, algorithms, y unit, its bytes, tallest bar
			local n=$a size=$b algos=$c unit=$d div=$e ymax=$f r
			for r in "${nrows[@]}"; do
				[[ "${r#* }" == "$n" ]] ||
					cb_note "traffic_per_rank: ranks.csv has ${r#* } of $n ranks for ${r%% *}"
			done
			run_gp traffic "$OUT_DIR/traffic_per_rank" "prefix=$(cb_gp_path "$tmp/traffic");
				algos=$(gp_str "$algos"); $labels $hosts nranks=$n; unit=$(gp_str "$unit");
				div=$div; ymax=$ymax; note=$(gp_str "$(over_note "$n")");
				ttl=$(gp_str "bytes moved by each rank in one allreduce, $n ranks$across, $size per rank")" ;;
		esac
	done < <(plot_awk traffic -v prog="$PROG" -v file="$RANKS" -v dir="$tmp" -v b="$BACKEND" \
		-v d="$DTYPE" -v o="$OP" -v p="$INPLACE" "$tmp/cur.tsv" "$RANKS")
}

# --- gpu_bytes_per_rank: each GPU's tx+rx per call, NCCL's algorithms beside ours -------------
plot_gpubytes() {
	local verb a b c d e f labels="" i=0
	[[ -s "$RANKS" ]] || return 0 # traffic_per_rank says so
	if [[ -n "$opt_gpubytes" && ! "$opt_gpubytes" =~ ^[0-9]+$ ]]; then
		cb_die 2 "--gpu-bytes-size: '$opt_gpubytes' is not a number of bytes"
	fi
	while IFS=$US read -r verb a b c d e f; do
		case $verb in
		skip) cb_note "skipping gpu_bytes_per_rank: $a"; return 0 ;;
		none) # no hardware counts: said only for a cuda run (a host run has none)
			[[ "$BACKEND" != cuda ]] || cb_note "skipping gpu_bytes_per_rank: $a"
			return 0 ;;
		algo) # name, source, tx+rx over its ranks in words, ranks found
			i=$((i + 1))
			labels+="lab$i=$(gp_str "$a, $b ($c in all)"); " ;;
		plot) # N, size in words, algorithms, y unit, its bytes, tallest bar
			run_gp gpubytes "$OUT_DIR/gpu_bytes_per_rank" "prefix=$(cb_gp_path "$tmp/gpubytes");
				algos=$(gp_str "$c"); $labels nranks=$a; unit=$(gp_str "$d"); div=$e;
				ymax=$f; note=$(gp_str "$(over_note "$a")");
				ttl=$(gp_str "bytes each GPU moved in one call, $a ranks, $b per rank")"
			cp "$tmp/gpubytes.tsv" "$OUT_DIR/gpu_bytes_per_rank.tsv" ;;
		esac
	done < <(plot_awk gpubytes -v prog="$PROG" -v file="$RANKS" -v dir="$tmp" -v b="$BACKEND" \
		-v d="$DTYPE" -v o="$OP" -v p="$INPLACE" -v size="$opt_gpubytes" "$RANKS")
}

# --- imbalance_vs_ranks: the same algorithms at the largest size with a measured imbalance ----
plot_imbalance() {
	local verb size algos ranks ymax
	IFS=$US read -r verb size algos ranks ymax < <(plot_awk imbalance -v dir="$tmp" "$tmp/cur.tsv")
	[[ "$verb" == plot ]] || { cb_note "skipping imbalance_vs_ranks: $size"; return 0; }
	run_gp imbalance "$OUT_DIR/imbalance_vs_ranks" "prefix=$(cb_gp_path "$tmp/imb");
		algos=$(gp_str "$algos"); ranks=$(gp_str "$ranks"); ymax=$ymax; $(over_args "$ranks");
		ttl=$(gp_str "traffic imbalance vs rank count, $size per rank")"
}

# --- busy_wait_per_rank: per-rank busy and wait time, stacked (issue 13) ----------------------
plot_busywait() {
	local verb a b c d e f labels="" i=0
	if [[ ! -s "$RANKS" ]]; then
		cb_note "skipping busy_wait_per_rank: no ranks.csv (or an empty one) in '$RUN_DIR'"
		return 0
	fi
	while IFS=$US read -r verb a b c d e f; do
		case $verb in
		skip) cb_note "skipping busy_wait_per_rank: $a"; return 0 ;;
		algo) # name, time in words ("median 12.3 ms"), ranks found
			i=$((i + 1))
			labels+="lab$i=$(gp_str "$a busy (allreduce $b)"); " ;;
		plot) # N, size in words, algorithms, unit, its us, tallest stack
			run_gp busywait "$OUT_DIR/busy_wait_per_rank" "prefix=$(cb_gp_path "$tmp/busywait");
				algos=$(gp_str "$c"); $labels nranks=$a; unit=$(gp_str "$d"); ymax=$f;
				note=$(gp_str "$(over_note "$a")");
				ttl=$(gp_str "busy and wait time of each rank per allreduce, $a ranks, $b per rank")" ;;
		esac
	done < <(plot_awk busywait -v prog="$PROG" -v file="$RANKS" -v dir="$tmp" -v b="$BACKEND" \
		-v d="$DTYPE" -v o="$OP" -v p="$INPLACE" "$tmp/cur.tsv" "$RANKS")
}

# --- stragglers: the slowest rank of each row and by how much ---------------------------------
plot_straggler() {
	local verb n algos xmin xmax ymax
	IFS=$US read -r verb n algos xmin xmax ymax < <(plot_awk straggler -v dir="$tmp" "$tmp/cur.tsv")
	[[ "$verb" == plot ]] || { cb_note "skipping stragglers: $n"; return 0; }
	run_gp straggler "$OUT_DIR/stragglers" "prefix=$(cb_gp_path "$tmp/strag"); algos=$(gp_str "$algos");
		xmin=$xmin; xmax=$xmax; ymax=$ymax; nranks=$n; note=$(gp_str "$(over_note "$n")");
		ttl=$(gp_str "stragglers, $n ranks: the rank most often slowest, and by how much")"
}

# --- iterations: every iteration of one row, from the JSON Lines files ------------------------
plot_iters() {
	local verb algo n size nwarm niter med p99 ymax nrk jsonl=()
	shopt -s nullglob
	jsonl=("$RUN_DIR"/np*.jsonl)
	shopt -u nullglob
	((${#jsonl[@]} > 0)) || { cb_note "skipping iterations: no np*.jsonl in '$RUN_DIR'"; return 0; }
	IFS=$US read -r verb algo n size nwarm niter med p99 ymax nrk < <(plot_awk iters -v dir="$tmp" \
		-v b="$BACKEND" -v d="$DTYPE" -v o="$OP" -v p="$INPLACE" "${jsonl[@]}")
	[[ "$verb" == plot ]] || { cb_note "skipping iterations: $algo"; return 0; }
	run_gp iters "$OUT_DIR/iterations" "prefix=$(cb_gp_path "$tmp/iters"); algo=$(gp_str "$algo");
		nranks=$n; nwarm=$nwarm; niter=$niter; med=${med:-0}; p99=${p99:-0}; ymax=$ymax; nrk=${nrk:-0};
		note=$(gp_str "$(over_note "$n")");
		ttl=$(gp_str "time of every iteration, $algo, $n ranks, $size per rank")"
}

# --- library_choice: the algorithm Open MPI ran, and its decision table, per (size, n) --------
plot_library() {
	local f=$RUN_DIR/library_choice.csv verb algos xmin xmax ranks agree pts
	[[ -s "$f" ]] || return 0 # a run without mpi.* rows
	mkdir -p "$tmp/lib" && plot_awk library -v prog="$PROG" -v file="$f" "$f" >"$tmp/library.csv" ||
		return 0
	IFS=$US read -r verb algos xmin xmax ranks _ agree pts _ < <(plot_awk model_choice \
		-v prog="$PROG" -v file="$f" -v dir="$tmp/lib" "$tmp/library.csv")
	[[ "$verb" == plot ]] || { cb_note "skipping library_choice: $algos"; return 0; }
	run_gp model_choice "$OUT_DIR/library_choice" "prefix=$(cb_gp_path "$tmp/lib");
		algos=$(gp_str "$algos"); xmin=$xmin; xmax=$xmax; ranks=$(gp_str "$ranks");
		ttl=$(gp_str "which of its algorithms Open MPI ran (traffic, then time)");
		rate=$(gp_str "Open MPI 4.1's decision table names one of equal traffic: $agree/$pts points");
		legend=$(gp_str "dot: the forced algorithm of its traffic, nearest in time; ring: the table's")"
}

# --- zero_step_np<N>: one DDP step against one ZeRO step, per algorithm (issue 22) ------------
plot_zero() {
	local verb n want_n list size talgos balgos xmin xmax tmin tmax bmax ratios unit div rl j r
	verb=""
	IFS=$US read -r verb list < <(plot_awk zero -v list=1 -v prog="$PROG" -v dir="$tmp" \
		-v b="$BACKEND" -v d="$DTYPE" -v o="$OP" -v p="$INPLACE" "$SUMMARY" "$RANKS") || true
	# a run of allreduce alone (the usual) draws no such figure, silently
	if [[ "$verb" != ranks ]]; then
		grep -q reduce_scatter "$SUMMARY" &&
			cb_note "skipping zero_step_np*: no algorithm with allreduce, reduce_scatter and" \
				"all_gather rows at one size"
		return 0
	fi
	for want_n in $list; do
		IFS=$US read -r verb n size talgos balgos xmin xmax tmin tmax bmax ratios < <(plot_awk zero \
			-v want="$want_n" -v prog="$PROG" -v dir="$tmp" -v b="$BACKEND" -v d="$DTYPE" -v o="$OP" \
			-v p="$INPLACE" "$SUMMARY" "$RANKS")
		[[ "$verb" == plot ]] || { cb_note "skipping zero_step_np$want_n: $n"; continue; }
		unit=MiB div=1048576
		((${bmax%.*} >= 16 * 1048576)) || unit=KiB div=1024
		rl="" j=0
		while IFS= read -r -d ';' r; do
			j=$((j + 1))
			rl+="ratio$j=$(gp_str "ZeRO / DDP, $r"); "
		done <<<"${ratios:+$ratios;}"
		run_gp zero "$OUT_DIR/zero_step_np$n" "prefix=$(cb_gp_path "$tmp/zero"); talgos=$(gp_str "$talgos");
			balgos=$(gp_str "$balgos"); nranks=$n; size=$(gp_str "$size"); xmin=$xmin; xmax=$xmax;
			tmin=$tmin; tmax=$tmax; bmax=$bmax; unit=$(gp_str "$unit"); div=$div; $rl
			note=$(gp_str "$(over_note "$n")");
			ttl=$(gp_str "a DDP step (allreduce of S) against a ZeRO step (reduce-scatter of S + all-gather of S), $n ranks")"
	done
}

plot_busbw
plot_frontier
plot_time
plot_traffic
plot_gpubytes
plot_imbalance
plot_busywait
plot_straggler
plot_iters
plot_library
plot_zero

((${#written[@]} > 0)) || cb_die 1 "no figure could be drawn from '$SUMMARY'"
cb_write_whole "$OUT_DIR/figures.txt" printf '%s\n' "${written[@]}" ||
	cb_die 1 "cannot write $OUT_DIR/figures.txt: no figure kept"
finished=1
printf '%s\n' "${written[@]}" || cb_die 1 "cannot write the list of figures to stdout"
cb_note "figures in $OUT_DIR"
