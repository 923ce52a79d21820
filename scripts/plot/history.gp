# history.gp - a metric over time, one line per series (row key of one machine) in its
# algorithm's colour (common.gp's algo_color, as in plot.sh's figures; series of one algorithm
# apart by their points), each run a point with its repeat band, each segment between change
# points its mean (steps), the first run after a change circled: red for a regression, green
# for an improvement. The y axis starts at 0 (bandwidth and time are never negative).
# Called by scripts/plot_history.sh with gnuplot -e assignments (data from history.awk):
#   gpdir    folder of this script        outbase  output path without .png/.svg
#   datafile TSV: one block per series (index i-1), columns
#            time_utc value lo hi segment_mean mark(0/1 regression/2 improvement)
#   titles   the series names as quoted words ("ring np2 64M float sum" ...)
#   algos    each series' algorithm, space-separated ("ring ps ring" ...)
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
set offsets graph 0.03, graph 0.03, graph 0.08, 0   # no offset below 0
set yrange [0:*]

n = words(titles)
# the algorithm's colour and point (common.gp); its 2nd, 3rd ... series other points
array occ[n]
do for [i = 1:n] {
    occ[i] = 0
    do for [j = 1:i - 1] { if (word(algos, j) eq word(algos, i)) { occ[i] = occ[i] + 1 } }
}
series_color(i) = algo_color(word(algos, i))
series_pt(i) = occ[i] == 0 ? algo_pt(word(algos, i)) : int(word("4 6 8 10 12 14 1 2", (occ[i] - 1) % 8 + 1))

P = 'for [i = 1:n] datafile index (i - 1) using 1:2:3:4 with yerrorbars pt series_pt(i) ps 0.9 lw 1.2' . \
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
