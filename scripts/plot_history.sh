#!/usr/bin/env bash
# plot_history.sh - the trend of a metric over time from the history database, with its change
# points, as PNG and SVG: collbench-history trend --format tsv with the same selection options,
# then the figure's two steps in scripts/plot/ as for plot.sh's figures: history.awk picks the
# data (one block per series), history.gp draws it (common.gp's look), one colour per series.
set -euo pipefail
export LC_ALL=C

SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO_ROOT=$(dirname "$SCRIPT_DIR")
PROG=plot_history.sh
# shellcheck source=scripts/lib.sh
. "$SCRIPT_DIR/lib.sh"
bin=${CB_BIN:-$REPO_ROOT/build/bin}
MAX_SERIES=8

usage() {
	cat <<USAGE
Usage: scripts/plot_history.sh [-o OUTBASE] [--title TEXT] [collbench-history trend options]

Draws OUTBASE.png and OUTBASE.svg (default: plots/history/trend): each selected series (a row
key of one machine) over time, every run a point with its repeat band (min and max over the
-R repeats), each segment between change points its mean, the first run after a change circled
(red: regression, green: improvement). The other options select and read the series as
collbench-history trend does (--db, --machine, -a, -n, -b, --dtype, --op, --metric, --stat,
--pvalue, ...); at most $MAX_SERIES series in one figure (narrow with -a, -n, -b).
The files written are listed on stdout. Environment: CB_BIN (binaries, default build/bin).
USAGE
}

die() {
	printf '%s: error: %s\n' "$PROG" "$*" >&2
	exit 2
}

outbase="$REPO_ROOT/plots/history/trend" title="" args=()
while (($# > 0)); do
	case "$1" in
	-h | --help) usage; exit 0 ;;
	-o | --title)
		(($# >= 2)) || die "option $1 needs a value (see --help)"
		if [ "$1" = -o ]; then outbase=$2; else title=$2; fi
		shift 2
		;;
	*) args+=("$1"); shift ;;
	esac
done
# OUTBASE names the files: "" or a folder ("dir/") would write hidden .png/.svg
[[ -n "$outbase" && "${outbase##*/}" != "" && "${outbase##*/}" != . && "${outbase##*/}" != .. ]] ||
	die "-o '$(cb_text "$outbase")': OUTBASE must name the files (e.g. plots/history/trend), not be empty or a folder"
command -v gnuplot >/dev/null || die "gnuplot not found (Debian: apt-get install gnuplot-nox)"
[ -x "$bin/collbench-history" ] || die "$bin/collbench-history not found (build first, or set CB_BIN)"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$bin/collbench-history" trend --format tsv "${args[@]}" >"$tmp/trend.tsv" || exit 2

# what history.awk says: plot US n US metric US machine US names (tab-separated) US algorithms
# (space-separated), or skip US why
awk -v dir="$tmp" -f "$SCRIPT_DIR/plot/history.awk" "$tmp/trend.tsv" >"$tmp/info" ||
	die "history.awk failed"
IFS=$'\037' read -r verdict n metric machine names algos <"$tmp/info" || true
[ "$verdict" = plot ] || die "${n:-no series to plot}"
((n <= MAX_SERIES)) || die "$n series selected: at most $MAX_SERIES in one figure (narrow with -a, -n, -b)"
titles=""
while IFS= read -r name; do
	titles="$titles \"$(cb_text "$name" | tr -d '"')\""
done < <(tr '\t' '\n' <<<"$names")
[ -n "$title" ] || title="collbench history: $metric over time"
mkdir -p "$(dirname "$outbase")"
sub="machine: $machine"
# file names as their own bytes (cb_gp_path), text as cb_text's (cb_gp_str)
gnuplot -e "gpdir=$(cb_gp_path "$SCRIPT_DIR/plot"); outbase=$(cb_gp_path "$outbase"); datafile=$(cb_gp_path "$tmp/history.dat"); titles=$(cb_gp_str "$titles"); algos=$(cb_gp_str "$algos"); ttl=$(cb_gp_str "$title"); sub=$(cb_gp_str "$sub"); ylab=$(cb_gp_str "$metric")" \
	"$SCRIPT_DIR/plot/history.gp"
printf '%s\n' "$outbase.png" "$outbase.svg"
