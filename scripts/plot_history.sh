#!/usr/bin/env bash
# plot_history.sh - the trend of a metric over time from the history database, with its change
# points, as PNG and SVG (gnuplot, plot_history.gp): collbench-history trend --format tsv with
# the same selection options, one colour per series.
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
command -v gnuplot >/dev/null || die "gnuplot not found (Debian: apt-get install gnuplot-nox)"
[ -x "$bin/collbench-history" ] || die "$bin/collbench-history not found (build first, or set CB_BIN)"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$bin/collbench-history" trend --format tsv "${args[@]}" >"$tmp/trend.tsv" || exit 2

# one block per series (two blank lines between): gnuplot's "index"
awk -F'\t' '/^#/ { next } { if (NR > 1 && $1 != last) printf "\n\n"; last = $1
	print $2 "\t" $3 "\t" $4 "\t" $5 "\t" $6 "\t" $7 }' "$tmp/trend.tsv" >"$tmp/data.tsv"
machine=$(awk -F'\t' '$1 == "# machine" { print $2; exit }' "$tmp/trend.tsv")
titles="" n=0 metric=""
while IFS=$'\t' read -r _ name m; do
	n=$((n + 1))
	metric=$m
	titles="$titles \"$(cb_text "$name" | tr -d '"')\""
done < <(grep '^# series ' "$tmp/trend.tsv")
((n > 0)) || die "no series to plot"
((n <= MAX_SERIES)) || die "$n series selected: at most $MAX_SERIES in one figure (narrow with -a, -n, -b)"
[ -n "$title" ] || title="collbench history: $metric over time"
mkdir -p "$(dirname "$outbase")"
sub="machine: $machine"
gnuplot -e "gpdir=$(cb_gp_str "$SCRIPT_DIR"); outbase=$(cb_gp_str "$outbase"); datafile=$(cb_gp_str "$tmp/data.tsv"); titles=$(cb_gp_str "$titles"); ttl=$(cb_gp_str "$title"); sub=$(cb_gp_str "$sub"); ylab=$(cb_gp_str "$metric")" \
	"$SCRIPT_DIR/plot_history.gp"
printf '%s\n' "$outbase.png" "$outbase.svg"
