# model_scale.gp - a log-log line plot against the rank count n, for the cost model's
# scale-out figures: predicted time per allreduce (model_time_vs_n) and bytes through host
# network links (model_host_load).
# Called by model.sh with gnuplot -e assignments:
#   gpdir     folder of this script          outbase  output path without .png/.svg
#   prefix    data files prefix.<i>.dat (i = 1..words(algos)): n <TAB> value
#   algos     one algorithm name per line (colour), e.g. "ps ring ps ring"
#   dts       one dash type per line (1 solid, 2 dashed)
#   lab1, lab2, ...  key text of each line
#   ylab      y axis label                    div   divide the values by this (units)
#   xmin, xmax, ymin, ymax  data ranges (before div)
#   ttl, sub, runid  title, its second line, run label
load gpdir.'/common.gp'

set title ttl."\n".sub
set xlabel "rank count n"
set ylabel ylab
set logscale x 2
set logscale y 10
set xrange [xmin / 1.3 : xmax * 1.3]
ylo = ymin / div / 2; yhi = ymax / div * 3
set yrange [ylo : yhi]
@LOG_YTICS
set format y "%g"
set xtics ()
do for [k = floor(log(xmin) / log(2) + 1e-9) : ceil(log(xmax) / log(2) - 1e-9)] {
    set xtics add (sprintf("%d", 2**k) 2**k)
}
nkeys = words(algos)
@KEY_OUT
set label 2 runid at screen 0.995, screen 0.975 right font ",10" tc rgb "#888888"

dash(i) = int(word(dts, i) + 0)
@PNG
set output outbase.'.png'
plot for [i = 1:words(algos)] sprintf("%s.%d.dat", prefix, i) using 1:($2 / div) \
         with linespoints lw 2 ps 0.9 pt algo_pt(word(algos, i)) lc rgb algo_color(word(algos, i)) \
         dt dash(i) title value(sprintf("lab%d", i))
@SVG
set output outbase.'.svg'
replot
set output
