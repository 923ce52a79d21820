#!/usr/bin/env bash
# plot_history.sh - the trend of a metric over time from the history database, with its change
# points, as PNG and SVG: collbench-history trend --format tsv with the same selection options,
# then the figure's two steps in scripts/plot/ as for plot.sh's figures: history.awk picks the
# data (one block per series), history.gp draws it (common.gp's look), one colour per series.
# Options: the table below (lib_opts.sh's form), the others go to collbench-history trend.
# shellcheck disable=SC2154 # the options' variables: set by cb_opts_parse from the table
set -euo pipefail
export LC_ALL=C

SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO_ROOT=$(dirname "$SCRIPT_DIR")
PROG=plot_history.sh
# shellcheck source=scripts/lib.sh
. "$SCRIPT_DIR/lib.sh"
bin=${CB_BIN:-$REPO_ROOT/build/bin}
MAX_SERIES=8

cb_opts_new pass "Usage: scripts/plot_history.sh [-o OUTBASE] [--title TEXT] [collbench-history trend options]"
cb_opts_text head <<USAGE

Draws OUTBASE.png and OUTBASE.svg (default: plots/history/trend): each selected series (a row
key of one machine) over time, every run a point with its repeat band (min and max over the
--repeat blocks), each segment between change points its mean, the first run after a change circled
(red: regression, green: improvement). The other options select and read the series as
collbench-history trend does (--db, --machine, -a, -n, -b, --dtype, --op, --metric, --stat,
--pvalue, ...: passed to it, which checks them); at most $MAX_SERIES series in one figure (narrow
with -a, -n, -b). The files written are listed on stdout.
Options:
USAGE
#      long  letter value   kind variable default
cb_opt -     o     OUTBASE  text outbase  '' "the files to write: OUTBASE.png and OUTBASE.svg  [plots/history/trend]"
cb_opt title -     TEXT     text title    '' "the figure's title  [collbench history: METRIC over time]"
cb_opts_text tail <<USAGE
Environment: CB_BIN (binaries, default build/bin).
Exit status: 0 the figure is drawn; 2 usage, a selection collbench-history refuses or that
holds no series (or too many), or a step that failed.
USAGE
cb_opts_parse "$@"
args=("${cb_args[@]}")
cb_opts_given -o || outbase=$REPO_ROOT/plots/history/trend
# OUTBASE names the files: "" or a folder ("dir/") would write hidden .png/.svg
[[ -n "$outbase" && "${outbase##*/}" != "" && "${outbase##*/}" != . && "${outbase##*/}" != .. ]] ||
	cb_die 2 "-o '$(cb_text "$outbase")': OUTBASE must name the files (e.g. plots/history/trend), not be empty or a folder"
command -v gnuplot >/dev/null || cb_die 2 "gnuplot not found (Debian: apt-get install gnuplot-nox)"
[ -x "$bin/collbench-history" ] || cb_die 2 "$bin/collbench-history not found (build first, or set CB_BIN)"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$bin/collbench-history" trend --format tsv "${args[@]}" >"$tmp/trend.tsv" || exit 2

# what history.awk says: plot US n US metric US machine US names (tab-separated) US algorithms
# (space-separated), or skip US why
awk -v dir="$tmp" -f "$SCRIPT_DIR/plot/history.awk" "$tmp/trend.tsv" >"$tmp/info" ||
	cb_die 2 "history.awk failed"
IFS=$'\037' read -r verdict n metric machine names algos <"$tmp/info" || true
[ "$verdict" = plot ] || cb_die 2 "${n:-no series to plot}"
((n <= MAX_SERIES)) || cb_die 2 "$n series selected: at most $MAX_SERIES in one figure (narrow with -a, -n, -b)"
titles=""
while IFS= read -r name; do
	titles="$titles \"$(cb_text "$name" | tr -d '"')\""
done < <(tr '\t' '\n' <<<"$names")
[ -n "$title" ] || title="collbench history: $metric over time"
mkdir -p "$(dirname "$outbase")"
sub="machine: $machine"
# file names as their own bytes (cb_gp_path), text as cb_text's (cb_gp_str)
# (whole or not at all: cb_gnuplot)
cb_gnuplot "$SCRIPT_DIR/plot" history "$outbase" "datafile=$(cb_gp_path "$tmp/history.dat"); titles=$(cb_gp_str "$titles"); algos=$(cb_gp_str "$algos"); ttl=$(cb_gp_str "$title"); sub=$(cb_gp_str "$sub"); ylab=$(cb_gp_str "$metric")" || exit 2
printf '%s\n' "$outbase.png" "$outbase.svg"
