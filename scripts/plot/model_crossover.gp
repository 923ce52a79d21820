# model_crossover.gp - the cost model's crossover line in the (n, message size) plane
# (figure model_crossover): below the line ps is no slower than the ring, above it the ring
# is faster.
# Called by model.sh with gnuplot -e assignments:
#   gpdir     folder of this script          outbase  output path without .png/.svg
#   data      file: n <TAB> crossover bytes (rank counts where the ring wins at every size
#             are left out)
#   xmin, xmax, ymin, ymax  data ranges       ttl, sub, runid  title, its second line, run label
load gpdir.'/common.gp'

set title ttl."\n".sub
set xlabel "rank count n"
set ylabel "message size per rank (bytes)" offset -1, 0   # clear of the tic labels
set logscale x 2
set logscale y 2
set xrange [xmin / 1.3 : xmax * 1.3]
set yrange [ymin / 8 : ymax * 8]
set xtics ()
do for [k = floor(log(xmin) / log(2) + 1e-9) : ceil(log(xmax) / log(2) - 1e-9)] {
    set xtics add (sprintf("%d", 2**k) 2**k)
}
tax = "y"; tlo = ymin / 8; thi = ymax * 8
@SIZE_TICS
nkeys = 1
@KEY_OUT
set label 2 runid at screen 0.995, screen 0.975 right font ",10" tc rgb "#888888"
set label 3 "ring faster" at graph 0.12, graph 0.9 center tc rgb algo_color("ring") font ",15"
set label 4 "ps no slower" at graph 0.12, graph 0.1 center tc rgb algo_color("ps") font ",15"

@PNG
set output outbase.'.png'
plot data using 1:2 with linespoints lw 2.5 ps 1 pt 7 lc rgb "#333333" \
     title "crossover: largest size at which ps is no slower"
@SVG
set output outbase.'.svg'
replot
set output
