# model_busbw.gp - measured bus bandwidth (solid, points) with the cost model's (dashed,
# same colour) vs message size for one rank count (figure model_busbw_np<N>).
# Called by model.sh with gnuplot -e assignments:
#   gpdir     folder of this script          outbase  output path without .png/.svg
#   prefix    data files prefix.<i>.dat (i = 1.. per word of algos):
#             bytes <TAB> measured GB/s <TAB> model GB/s (busbw; algbw for copy)
#   algos     space-separated algorithm names  xmin, xmax, ymin, ymax  data ranges
#   ttl, sub, runid  title, its second line, run label
#   note      a third title line ("" for none: the oversubscription note)
load gpdir.'/common.gp'

set title title3(ttl, sub)
set xlabel "message size per rank (bytes)"
set ylabel "busbw GB/s (median time; copy: algbw)"
set logscale x 2
set logscale y 10
set xrange [xmin / 1.4 : xmax * 1.4]
ylo = ymin / 1.5; yhi = ymax * 2
set yrange [ylo : yhi]
@LOG_YTICS
set format y "%g"

tax = "x"; tlo = xmin; thi = xmax
@SIZE_TICS

nkeys = 2 * words(algos)
klen = 9; do for [i = 1:words(algos)] { klen = strlen(word(algos, i)) + 9 > klen ? strlen(word(algos, i)) + 9 : klen }
@KEY_OUT
set label 2 runid at screen 0.995, screen 0.975 right font ",10" tc rgb "#888888"

f(i) = sprintf("%s.%d.dat", prefix, i)
a(i) = word(algos, i)
@PNG
set output outbase.'.png'
plot for [i = 1:words(algos)] f(i) using 1:2 with linespoints lw 2 ps 0.9 pt algo_pt(a(i)) \
         lc rgb algo_color(a(i)) title a(i).' measured', \
     for [i = 1:words(algos)] f(i) using 1:3 with lines lw 2 dt (8, 6) \
         lc rgb algo_color(a(i)) title a(i).' model'
@SVG
set output outbase.'.svg'
replot
set output
