#!/usr/bin/env bash
# plot.sh - draw the collbench figures of one run folder with gnuplot.
#
# Reads RUN_DIR/summary.csv (and RUN_DIR/ranks.csv for the per-rank traffic figure), looks every
# column up by its header name (the CSV columns are a contract, more may follow), keeps the rows
# with status "ok" of one (backend, dtype, op, in_place) combination, writes small tab-separated
# .dat files into a temporary folder with awk, and calls the plot_*.gp scripts next to this file.
# Each figure is written as PNG (pngcairo) and SVG; the written files are listed on stdout.
set -euo pipefail
export LC_ALL=C

SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO_ROOT=$(dirname "$SCRIPT_DIR")
PROG=plot.sh
# shellcheck source=scripts/lib.sh
. "$SCRIPT_DIR/lib.sh"

usage() {
	cat <<EOF
Usage: scripts/plot.sh [options] RUN_DIR [OUT_DIR]

Draw the figures of one collbench run folder (RUN_DIR/summary.csv, RUN_DIR/ranks.csv).
OUT_DIR defaults to a new folder <repo>/plots/<basename of RUN_DIR> (-2, -3, ... when that
name is taken: plots of two runs never mix); a given OUT_DIR must be new or empty unless
--overwrite. The figures written are listed on stdout and in OUT_DIR/figures.txt.
Each figure is written as .png and .svg:
  busbw_np<N>         bus bandwidth vs message size, one line per algorithm, one file per rank
                      count N; the copy algorithm's algbw is drawn dashed as the memcpy roofline
  time_vs_ranks       time per allreduce vs rank count at the largest message size
  traffic_per_rank    tx+rx bytes of each rank for ps and ring at the largest rank count and
                      size, each algorithm's total tx in the key
  imbalance_vs_ranks  max/mean of per-rank tx+rx vs rank count for ps and ring, largest size
Only rows with status "ok" are plotted; figures without data are skipped with a note on stderr.

Options (default: the combination of the first "ok" row of summary.csv):
  --dtype X       plot rows of dtype X (e.g. float)
  --op Y          plot rows of reduction op Y (e.g. sum)
  --inplace 0|1   plot out-of-place (0) or in-place (1) rows
  --backend B     plot rows of backend B (host or cuda)
  --overwrite     OUT_DIR may hold earlier figures: they are replaced
  -h, --help      show this help

Environment: CB_PLOTS (root of the default OUT_DIR, default <repo>/plots).

Needs gnuplot 5 with the pngcairo and svg terminals (Debian/Ubuntu: apt-get install gnuplot-nox).
EOF
}

die() {
	printf '%s: error: %s\n' "$PROG" "$*" >&2
	exit 1
}
note() { printf '%s: %s\n' "$PROG" "$*" >&2; }

# gp_str VALUE: VALUE as a gnuplot single-quoted string literal (a quote is written twice;
# bytes that are not UTF-8 as \xHH, or the SVG would not be valid XML).
gp_str() { cb_gp_str "$1"; }

# --- options ----------------------------------------------------------------------------------
opt_dtype="" opt_op="" opt_inplace="" opt_backend="" overwrite=0
positional=()
while (($# > 0)); do
	case "$1" in
	-h | --help)
		usage
		exit 0
		;;
	--dtype | --op | --inplace | --backend)
		(($# >= 2)) || die "option $1 needs a value (see --help)"
		case "$1" in
		--dtype) opt_dtype=$2 ;;
		--op) opt_op=$2 ;;
		--inplace) opt_inplace=$2 ;;
		--backend) opt_backend=$2 ;;
		esac
		shift 2
		;;
	--overwrite)
		overwrite=1
		shift
		;;
	--dtype=*) opt_dtype=${1#*=} && shift ;;
	--op=*) opt_op=${1#*=} && shift ;;
	--inplace=*) opt_inplace=${1#*=} && shift ;;
	--backend=*) opt_backend=${1#*=} && shift ;;
	--)
		shift
		positional+=("$@")
		break
		;;
	-?*) die "unknown option '$1' (see --help)" ;;
	*)
		positional+=("$1")
		shift
		;;
	esac
done
((${#positional[@]} >= 1)) || {
	usage >&2
	exit 2
}
((${#positional[@]} <= 2)) || die "too many arguments (see --help)"
case "$opt_inplace" in
"" | 0 | 1) ;;
*) die "--inplace takes 0 or 1, not '$opt_inplace'" ;;
esac

command -v gnuplot >/dev/null 2>&1 ||
	die "gnuplot is not installed (Debian/Ubuntu: apt-get install gnuplot-nox)"

RUN_DIR=${positional[0]}
[[ -d "$RUN_DIR" ]] || die "run folder '$RUN_DIR' does not exist"
RUN_DIR=$(cd "$RUN_DIR" && pwd)
RUN_ID=$(basename "$RUN_DIR")
SUMMARY=$RUN_DIR/summary.csv
RANKS=$RUN_DIR/ranks.csv
[[ -f "$SUMMARY" ]] || die "no summary.csv in '$RUN_DIR'"
[[ -s "$SUMMARY" ]] || die "'$SUMMARY' is empty"
OUT_DIR=${positional[1]:-}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/collbench-plot.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# --- awk helpers shared by every pass ---------------------------------------------------------
# csv_split(line, f): split one CSV line into f[1..n] (RFC 4180 quoting, "" = one quote), return n.
# header(line, col): map each header name to its column number in col[] (a leading UTF-8
#                   byte-order mark skipped); return the count.
# num(s): s if it is a number, else "" (empty = unmeasured).
# hbytes(b): b bytes as a human size with binary units ("64 MiB").
AWK_LIB='
function csv_split(line, f,    n, i, c, fld, inq, len) {
	sub(/\r$/, "", line)
	if (index(line, "\"") == 0) return split(line, f, ",")
	n = 0; fld = ""; inq = 0; len = length(line)
	for (i = 1; i <= len; i++) {
		c = substr(line, i, 1)
		if (inq) {
			if (c != "\"") fld = fld c
			else if (substr(line, i + 1, 1) == "\"") { fld = fld "\""; i++ }
			else inq = 0
		} else if (c == "\"") inq = 1
		else if (c == ",") { f[++n] = fld; fld = "" }
		else fld = fld c
	}
	f[++n] = fld
	return n
}
function header(line, col,    h, n, i, name) {
	sub(/^\357\273\277/, "", line)   # a UTF-8 byte-order mark (spreadsheets) is not in a name
	n = csv_split(line, h)
	for (i = 1; i <= n; i++) {
		name = h[i]; gsub(/^[ \t]+|[ \t]+$/, "", name)
		if (!(name in col)) col[name] = i
	}
	return n
}
function num(s) {
	gsub(/^[ \t]+|[ \t]+$/, "", s)
	if (s !~ /^[-+]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?$/) return ""
	# finite and not absurd (1e999 overflows to inf in awk): else unmeasured
	return (s + 0 < 1e300 && s + 0 > -1e300) ? s : ""
}
function bool01(s) {
	s = tolower(s)
	if (s == "true" || s == "yes") return "1"
	if (s == "false" || s == "no") return "0"
	return s
}
function hbytes(b,    u, i) {
	split("B KiB MiB GiB TiB PiB", u, " ")
	for (i = 1; b >= 1024 && i < 6; i++) b /= 1024
	return sprintf("%.4g %s", b, u[i])
}
'

# --- pass 1: summary.csv -> ok.tsv (status ok rows, fixed column order) ------------------------
# ok.tsv: backend algo nranks bytes dtype op in_place time_us algbw busbw tx_total imbalance
awk -v prog="$PROG" -v file="$SUMMARY" "$AWK_LIB"'
BEGIN {
	FS = "\n"; OFS = "\t"
	nreq = split("backend algo nranks bytes dtype op in_place time_us algbw_GBps busbw_GBps " \
	             "tx_total_bytes imbalance status", req, " ")
}
/^[ \t\r]*$/ { next }
!have_header {
	have_header = 1
	header($0, col)
	missing = ""
	for (i = 1; i <= nreq; i++) if (!(req[i] in col)) missing = missing " " req[i]
	if (missing != "") {
		printf "%s: error: %s lacks required column(s):%s\n", prog, file, missing > "/dev/stderr"
		bad = 1; exit 1
	}
	next
}
{
	n = csv_split($0, f)
	if (("schema" in col) && f[col["schema"]] == "schema") next   # a repeated header row
	rows++
	st = f[col["status"]]; gsub(/^[ \t]+|[ \t]+$/, "", st)
	if (st != "ok") { notok++; if (first_bad == "") first_bad = st; next }
	if ("schema" in col && f[col["schema"]] != "collbench-summary-1" && !warned++)
		printf "%s: warning: unknown schema \"%s\" in %s, reading it as collbench-summary-1\n",
		       prog, f[col["schema"]], file > "/dev/stderr"
	nr = num(f[col["nranks"]]); by = num(f[col["bytes"]])
	if (nr == "" || by == "") { skipped++; next }
	algo = f[col["algo"]]; gsub(/[^A-Za-z0-9_.+-]/, "_", algo)
	print f[col["backend"]], algo, nr + 0, by + 0, f[col["dtype"]], f[col["op"]],
	      bool01(f[col["in_place"]]), num(f[col["time_us"]]), num(f[col["algbw_GBps"]]),
	      num(f[col["busbw_GBps"]]), num(f[col["tx_total_bytes"]]), num(f[col["imbalance"]])
	ok++
}
END {
	if (bad) exit 1
	if (!have_header) {
		printf "%s: error: %s has no header row\n", prog, file > "/dev/stderr"; exit 1
	}
	if (rows == 0) {
		printf "%s: error: %s has a header but no data rows\n", prog, file > "/dev/stderr"; exit 1
	}
	if (skipped)
		printf "%s: warning: %d row(s) without a numeric nranks/bytes ignored\n", prog,
		       skipped > "/dev/stderr"
	if (ok == 0) {
		printf "%s: error: none of the %d rows of %s has status ok (first: %s)\n", prog, rows,
		       file, first_bad > "/dev/stderr"
		exit 1
	}
	if (notok)
		printf "%s: note: %d row(s) with a status other than ok are not plotted (first: %s)\n",
		       prog, notok, first_bad > "/dev/stderr"
}' "$SUMMARY" >"$tmp/ok.tsv" || exit 1

# --- choose the (backend, dtype, op, in_place) combination -----------------------------------
combo=$(awk -F '\t' -v b="$opt_backend" -v d="$opt_dtype" -v o="$opt_op" -v p="$opt_inplace" '
	(b == "" || $1 == b) && (d == "" || $5 == d) && (o == "" || $6 == o) && (p == "" || $7 == p) {
		print $1 "\t" $5 "\t" $6 "\t" $7; exit
	}' "$tmp/ok.tsv")
if [[ -z "$combo" ]]; then
	avail=$(awk -F '\t' '!seen[$1 FS $5 FS $6 FS $7]++ {
		printf "  --backend %s --dtype %s --op %s --inplace %s\n", $1, $5, $6, $7 }' "$tmp/ok.tsv")
	die "no ok rows match the requested combination; the run has:
$avail"
fi
IFS=$'\t' read -r BACKEND DTYPE OP INPLACE <<<"$combo"
ncombo=$(awk -F '\t' '!seen[$1 FS $5 FS $6 FS $7]++ { n++ } END { print n + 0 }' "$tmp/ok.tsv")
if ((ncombo > 1)); then
	note "note: the run has $ncombo (backend, dtype, op, in_place) combinations; plotting backend=$BACKEND dtype=$DTYPE op=$OP in_place=$INPLACE (choose with --backend/--dtype/--op/--inplace)"
fi

# cur.tsv: algo nranks bytes time_us algbw busbw tx_total imbalance (the chosen combination)
awk -F '\t' -v OFS='\t' -v b="$BACKEND" -v d="$DTYPE" -v o="$OP" -v p="$INPLACE" '
	$1 == b && $5 == d && $6 == o && $7 == p { print $2, $3, $4, $8, $9, $10, $11, $12 }' \
	"$tmp/ok.tsv" >"$tmp/cur.tsv"

case "$INPLACE" in
1) placement="in-place" ;;
0) placement="out-of-place" ;;
*) placement="in_place=$INPLACE" ;;
esac
ctx="$BACKEND backend, $DTYPE $OP, $placement"

# Algorithms in a stable order: ps, ring, nccl, mpi, others as found; copy (the roofline) apart.
mapfile -t ALGOS < <(awk -F '\t' '
	{ if (!($1 in seen)) { seen[$1] = 1; order[++n] = $1 } }
	END {
		split("ps ring nccl mpi", pref, " ")
		for (i = 1; i <= 4; i++) if (pref[i] in seen) { print pref[i]; done[pref[i]] = 1 }
		for (i = 1; i <= n; i++) if (!(order[i] in done) && order[i] != "copy") print order[i]
	}' "$tmp/cur.tsv")
mapfile -t NRANKS < <(cut -f2 "$tmp/cur.tsv" | sort -n -u)

# the output folder: claimed (figures.txt created exclusively) or new (atomic)
if [[ -n "$OUT_DIR" ]]; then
	cb_claim_dir "$OUT_DIR" figures.txt "$overwrite" 'busbw_np*.png' 'busbw_np*.svg' \
		'time_vs_ranks.*' 'traffic_per_rank.*' 'imbalance_vs_ranks.*' || exit 2
else
	OUT_DIR=$(cb_new_dir "${CB_PLOTS:-$REPO_ROOT/plots}" "$RUN_ID") || exit 2
fi
written=()

# run_gp SCRIPT OUTBASE ARGS: run scripts/SCRIPT with the -e assignments ARGS, record the files.
run_gp() {
	local script=$1 outbase=$2 args=$3
	gnuplot -e "gpdir=$(gp_str "$SCRIPT_DIR"); outbase=$(gp_str "$outbase"); $args" \
		"$SCRIPT_DIR/$script" || die "gnuplot failed on $script (output $outbase)"
	# gnuplot does not always fail on a write error: the files must be there
	[[ -s "$outbase.png" && -s "$outbase.svg" ]] || die "gnuplot wrote no $outbase.png/.svg"
	written+=("$outbase.png" "$outbase.svg")
}

hbytes() { awk -v b="$1" "$AWK_LIB"'BEGIN { print hbytes(b) }'; }

# --- (a) busbw_np<N>: bus bandwidth vs message size, one file per rank count ------------------
# The copy roofline of rank count N; a run that ran copy at other rank counts only borrows the
# copy curve of the rank count with the most points (its label says which).
copy_any_n=$(awk -F '\t' '$1 == "copy" && $5 != "" && $3 > 0 { c[$2]++ }
	END { for (n in c) if (c[n] > best || (c[n] == best && n + 0 < bn + 0)) { best = c[n]; bn = n }
	      if (best) print bn }' "$tmp/cur.tsv")
for n in "${NRANKS[@]}"; do
	prefix="$tmp/busbw_np$n"
	algos_n=()
	for a in "${ALGOS[@]}"; do
		awk -F '\t' -v OFS='\t' -v a="$a" -v n="$n" \
			'$1 == a && $2 == n && $6 != "" && $3 > 0 { print $3, $6 }' "$tmp/cur.tsv" |
			sort -t $'\t' -k1,1g >"$prefix.$((${#algos_n[@]} + 1)).dat"
		if [[ -s "$prefix.$((${#algos_n[@]} + 1)).dat" ]]; then algos_n+=("$a"); fi
	done
	copy_n=$n rooflabel="copy roofline (algbw)"
	if ! awk -F '\t' -v n="$n" '$1 == "copy" && $2 == n && $5 != "" && $3 > 0 { f = 1; exit }
		END { exit !f }' "$tmp/cur.tsv"; then
		copy_n=$copy_any_n rooflabel="copy roofline (algbw, n = $copy_any_n)"
	fi
	roofline=""
	if [[ -n "$copy_n" ]]; then
		roofline="$prefix.copy.dat"
		awk -F '\t' -v OFS='\t' -v n="$copy_n" '$1 == "copy" && $2 == n && $5 != "" && $3 > 0 {
			print $3, $5 }' "$tmp/cur.tsv" | sort -t $'\t' -k1,1g >"$roofline"
	fi
	if ((${#algos_n[@]} == 0)) && [[ -z "$roofline" ]]; then
		if awk -F '\t' -v n="$n" '$2 == n && $3 > 0 { f = 1 } END { exit !f }' "$tmp/cur.tsv"; then
			note "skipping busbw_np$n: no rows with a bus bandwidth at n = $n"
		else
			note "skipping busbw_np$n: every row at n = $n has 0 bytes (the size axis is logarithmic;" \
				"their times are in time_vs_ranks)"
		fi
		continue
	fi
	roofpts=0
	[[ -z "$roofline" ]] || roofpts=$(wc -l <"$roofline")
	((roofpts != 1)) || rooflabel="$rooflabel, one size"
	read -r xmin xmax ymax < <(cat "$prefix".*.dat | awk -F '\t' 'NR == 1 || $1 < lo { lo = $1 }
		NR == 1 || $1 > hi { hi = $1 } $2 > y { y = $2 } END { print lo, hi, y + 0 }')
	ranks_word="ranks"
	[[ "$n" == 1 ]] && ranks_word="rank"
	run_gp plot_busbw.gp "$OUT_DIR/busbw_np$n" "prefix=$(gp_str "$prefix");
		algos=$(gp_str "${algos_n[*]}"); roofline=$(gp_str "$roofline");
		rooflabel=$(gp_str "$rooflabel"); roofpts=$roofpts; xmin=$xmin; xmax=$xmax; ymax=$ymax; nranks=$n;
		ttl=$(gp_str "allreduce bus bandwidth, $n $ranks_word"); sub=$(gp_str "$ctx");
		runid=$(gp_str "run $RUN_ID")"
done

# --- (b) time_vs_ranks: time vs rank count at the largest message size ------------------------
smax=$(awk -F '\t' '$4 != "" && (m == "" || $3 > m) { m = $3 } END { if (m != "") printf "%.0f\n", m }' \
	"$tmp/cur.tsv")
if [[ -n "$smax" ]]; then
	prefix="$tmp/time"
	algos_t=()
	for a in "${ALGOS[@]}" copy; do
		awk -F '\t' -v OFS='\t' -v a="$a" -v s="$smax" '$1 == a && $3 == s && $4 != "" && $4 > 0 {
			print $2, $4 }' "$tmp/cur.tsv" | sort -t $'\t' -k1,1g >"$prefix.$((${#algos_t[@]} + 1)).dat"
		if [[ -s "$prefix.$((${#algos_t[@]} + 1)).dat" ]]; then algos_t+=("$a"); fi
	done
	rank_list=$(cat "$prefix".*.dat | cut -f1 | sort -n -u | tr '\n' ' ')
	read -r tmin tmax < <(cat "$prefix".*.dat | awk -F '\t' 'NR == 1 || $2 < lo { lo = $2 }
		NR == 1 || $2 > hi { hi = $2 } END { print lo, hi }')
	run_gp plot_time.gp "$OUT_DIR/time_vs_ranks" "prefix=$(gp_str "$prefix");
		algos=$(gp_str "${algos_t[*]}"); ranks=$(gp_str "$rank_list"); tmin=$tmin; tmax=$tmax;
		ttl=$(gp_str "allreduce time vs rank count, $(hbytes "$smax") per rank");
		sub=$(gp_str "$ctx");
		runid=$(gp_str "run $RUN_ID")"
else
	note "skipping time_vs_ranks: no rows with a time"
fi

# --- (c) traffic_per_rank: per-rank tx+rx of ps and ring at the largest n and size ------------
# The largest rank count with measured traffic of ps or ring, then the largest size there.
read -r tn ts < <(awk -F '\t' '($1 == "ps" || $1 == "ring") && $7 != "" && $7 > 0 {
		if ($2 > n || ($2 == n && $3 > s)) { n = $2; s = $3 } }
	END { if (n != "") printf "%d %.0f\n", n, s; else print "" }' "$tmp/cur.tsv") || true
if [[ -z "${tn:-}" ]]; then
	note "skipping traffic_per_rank: no ps or ring rows with measured traffic (tx_total_bytes > 0)"
elif [[ ! -f "$RANKS" || ! -s "$RANKS" ]]; then
	note "skipping traffic_per_rank: no ranks.csv (or an empty one) in '$RUN_DIR'"
else
	# traffic.<algo>.dat: rank tx+rx; traffic.totals: algo total_tx (summary, else sum of ranks)
	awk -v prog="$PROG" -v file="$RANKS" -v dir="$tmp" -v n="$tn" -v s="$ts" \
		-v b="$BACKEND" -v d="$DTYPE" -v o="$OP" -v p="$INPLACE" "$AWK_LIB"'
	BEGIN { FS = "\n"; OFS = "\t" }
	/^[ \t\r]*$/ { next }
	!have_header {
		have_header = 1
		header($0, col)
		nreq = split("algo nranks bytes rank tx_bytes rx_bytes", req, " ")
		for (i = 1; i <= nreq; i++) if (!(req[i] in col)) missing = missing " " req[i]
		if (missing != "") {
			printf "%s: warning: %s lacks column(s):%s; skipping traffic_per_rank\n", prog, file,
			       missing > "/dev/stderr"
			exit 0
		}
		split("backend dtype op in_place", opt, " ")
		for (i = 1; i <= 4; i++) if (!(opt[i] in col)) nofilter = nofilter " " opt[i]
		if (nofilter != "")
			printf "%s: warning: %s lacks column(s):%s; per-rank rows are not filtered by them\n",
			       prog, file, nofilter > "/dev/stderr"
		next
	}
	{
		csv_split($0, f)
		a = f[col["algo"]]
		if (a != "ps" && a != "ring") next
		if (num(f[col["nranks"]]) != n || num(f[col["bytes"]]) != s) next
		if (("backend" in col) && f[col["backend"]] != b) next
		if (("dtype" in col) && f[col["dtype"]] != d) next
		if (("op" in col) && f[col["op"]] != o) next
		if (("in_place" in col) && bool01(f[col["in_place"]]) != p) next
		r = num(f[col["rank"]]); tx = num(f[col["tx_bytes"]]); rx = num(f[col["rx_bytes"]])
		if (r == "" || tx == "" || rx == "") next
		key = a SUBSEP r
		if (!(key in txrx)) { nr[a]++; ranks[a, nr[a]] = r }
		txrx[key] = tx + rx; txof[key] = tx       # a repeated rank row replaces the earlier one
	}
	END {
		for (i = 1; i <= 2; i++) {
			a = (i == 1) ? "ps" : "ring"
			if (!(a in nr)) continue
			sum = 0
			for (j = 1; j <= nr[a]; j++) {
				key = a SUBSEP ranks[a, j]
				printf "%d\t%.0f\n", ranks[a, j], txrx[key] > (dir "/traffic." a ".dat")
				sum += txof[key]
			}
			printf "%s\t%.0f\t%d\n", a, sum, nr[a] > (dir "/traffic.sums")
		}
	}' "$RANKS"
	if [[ ! -s "$tmp/traffic.sums" ]]; then
		note "skipping traffic_per_rank: ranks.csv has no ps/ring rows with tx/rx at n = $tn, $(hbytes "$ts")"
	else
		algos_c=() label_args=""
		maxv=$(cat "$tmp"/traffic.*.dat | awk -F '\t' '$2 > m { m = $2 } END { printf "%.0f\n", m }')
		read -r unit div < <(awk -v m="$maxv" 'BEGIN { split("B KiB MiB GiB TiB", u, " ")
			for (i = 1; m >= 1024 && i < 5; i++) { m /= 1024; d = d ? d * 1024 : 1024 }
			printf "%s %.0f\n", u[i], d ? d : 1 }')
		for a in ps ring; do
			[[ -s "$tmp/traffic.$a.dat" ]] || continue
			# total tx: tx_total_bytes of the summary row, else the sum over ranks.csv rows
			read -r total nrows < <(awk -F '\t' -v a="$a" -v n="$tn" -v s="$ts" '
				FILENAME ~ /traffic.sums$/ && $1 == a { sum = $2; cnt = $3 }
				FILENAME ~ /cur.tsv$/ && $1 == a && $2 == n && $3 == s && $7 != "" { tot = $7 }
				END { printf "%.0f %d\n", (tot != "" ? tot : sum), cnt }' "$tmp/traffic.sums" "$tmp/cur.tsv")
			((nrows == tn)) || note "traffic_per_rank: ranks.csv has $nrows of $tn ranks for $a"
			algos_c+=("$a")
			label_args+="lab${#algos_c[@]}=$(gp_str "$a (total tx $(hbytes "$total"))"); "
			mv "$tmp/traffic.$a.dat" "$tmp/traffic.${#algos_c[@]}.dat"
		done
		run_gp plot_traffic.gp "$OUT_DIR/traffic_per_rank" "prefix=$(gp_str "$tmp/traffic");
			algos=$(gp_str "${algos_c[*]}"); $label_args nranks=$tn;
			unit=$(gp_str "$unit"); div=$div; ymax=$maxv;
			ttl=$(gp_str "bytes moved by each rank in one allreduce, $tn ranks, $(hbytes "$ts") per rank");
			sub=$(gp_str "$ctx");
			runid=$(gp_str "run $RUN_ID")"
	fi
fi

# --- (d) imbalance_vs_ranks: ps and ring at the largest size with a measured imbalance --------
is=$(awk -F '\t' '($1 == "ps" || $1 == "ring") && $8 != "" && $3 > m { m = $3 }
	END { if (m != "") printf "%.0f\n", m }' "$tmp/cur.tsv")
if [[ -z "$is" ]]; then
	note "skipping imbalance_vs_ranks: no ps or ring rows with a measured imbalance (needs n > 1 and bytes > 0)"
else
	algos_d=()
	for a in ps ring; do
		awk -F '\t' -v OFS='\t' -v a="$a" -v s="$is" '$1 == a && $3 == s && $8 != "" {
			print $2, $8 }' "$tmp/cur.tsv" | sort -t $'\t' -k1,1g >"$tmp/imb.$((${#algos_d[@]} + 1)).dat"
		if [[ -s "$tmp/imb.$((${#algos_d[@]} + 1)).dat" ]]; then algos_d+=("$a"); fi
	done
	rank_list=$(cat "$tmp"/imb.*.dat | cut -f1 | sort -n -u | tr '\n' ' ')
	ymax=$(cat "$tmp"/imb.*.dat | awk -F '\t' '$2 > m { m = $2 } END { print m + 0 }')
	run_gp plot_imbalance.gp "$OUT_DIR/imbalance_vs_ranks" "prefix=$(gp_str "$tmp/imb");
		algos=$(gp_str "${algos_d[*]}"); ranks=$(gp_str "$rank_list"); ymax=$ymax;
		ttl=$(gp_str "traffic imbalance vs rank count, $(hbytes "$is") per rank");
		sub=$(gp_str "$ctx");
		runid=$(gp_str "run $RUN_ID")"
fi

((${#written[@]} > 0)) || die "no figure could be drawn from '$SUMMARY'"
printf '%s\n' "${written[@]}" >"$OUT_DIR/figures.txt" || die "cannot write $OUT_DIR/figures.txt"
printf '%s\n' "${written[@]}" || die "cannot write the list of figures to stdout"
note "figures in $OUT_DIR"
