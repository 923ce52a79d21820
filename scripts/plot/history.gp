# history.gp - a metric over time, one colour per series (row key of one machine), each
# run a point with its repeat band, each segment between change points its mean (steps), the
# first run after a change circled: red for a regression, green for an improvement.
# Called by scripts/plot_history.sh with gnuplot -e assignments (data from history.awk):
#   gpdir    folder of this script        outbase  output path without .png/.svg
#   datafile TSV: one block per series (index i-1), columns
#            time_utc value lo hi segment_mean mark(0/1 regression/2 improvement)
#   titles   the series names as quoted words ("ring np2 64M float sum" ...)
#   ttl, sub title and its second line (the machine)     ylab  y axis label
load gpdir.'/common.gp'

set title ttl."\n".sub
# tic labels by the span of the runs: seconds for a demo, dates for months
stats datafile using (strptime("%Y-%m-%dT%H:%M:%SZ", strcol(1))) nooutput
span = STATS_max - STATS_min
set xdata time
set timefmt "%Y-%m-%dT%H:%M:%SZ"
set format x (span < 3600 ? "%H:%M:%S" : span < 3 * 86400 ? "%m-%d %H:%M" : "%Y-%m-%d")
set xtics rotate by 25 right
unset xlabel  # the run start, UTC: said in the subtitle
set lmargin 14
set ylabel ylab
set format y "%g"
set key outside below center horizontal Left reverse maxrows 3 width 2
set key title "x: run start (UTC); bars: repeat band; dashed: mean between change points" font ",11"
set offsets graph 0.03, graph 0.03, graph 0.08, graph 0.08

# Okabe-Ito, then black: one colour per series
series_color(i) = word("#0072B2 #D55E00 #009E73 #CC79A7 #E69F00 #56B4E9 #000000 #999999", (i - 1) % 8 + 1)
n = words(titles)

P = 'for [i = 1:n] datafile index (i - 1) using 1:2:3:4 with yerrorbars pt 7 ps 0.8 lw 1.2' . \
    ' lc rgb series_color(i) title word(titles, i), ' . \
    'for [i = 1:n] datafile index (i - 1) using 1:5 with steps lw 2 dt (6, 4)' . \
    ' lc rgb series_color(i) notitle, ' . \
    'datafile using 1:($6 == 1 ? $2 : 1/0) with points pt 6 ps 3 lw 2.5 lc rgb "#CC0000"' . \
    ' title "change: regression", ' . \
    'datafile using 1:($6 == 2 ? $2 : 1/0) with points pt 6 ps 3 lw 2.5 lc rgb "#009E73"' . \
    ' title "change: improvement"'
@PNG
set output outbase.'.png'
plot @P
@SVG
set output outbase.'.svg'
replot
set output
