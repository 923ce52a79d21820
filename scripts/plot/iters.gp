# iters.gp - every iteration's time of one row (figure iterations): the max over ranks (the
# iteration's time, bold), each rank's own time (thin), the warm-up iterations before 0
# (open circles), the median and p99 of the timed ones (dashed).
# Called by plot.sh with gnuplot -e assignments:
#   gpdir     folder of this script          outbase  output path without .png/.svg
#   prefix    data files prefix.max.dat, prefix.warm.dat, prefix.ranks.dat (blocks per rank)
#   algo      the row's algorithm            nranks, nwarm, niter  ranks, warm-up, timed counts
#   med, p99  median and p99 (us)            ymax  largest time (us)
#   ttl, sub, runid  title, its second line, run label
#   note      a third title line ("" for none: the oversubscription note)
load gpdir.'/common.gp'

set title title3(ttl, sub)
set xlabel "iteration (warm-up below 0)"
set ylabel "time (us)"
set xrange [-nwarm - 1 : niter + 1]
set yrange [0 : ymax * 1.2]   # room for the median/p99 label above the highest point
set format y "%g"
# outside, right of the plot, where it covers no point (a spike) and neither line
set key outside right top vertical Left reverse width -1 samplen 2 font ",13"
set arrow 1 from 0.5, graph 0 to 0.5, graph 1 nohead dt 3 lc rgb "#888888"
set label 3 sprintf("median %.1f us, p99 %.1f us", med, p99) at graph 0.02, graph 0.95 font ",12"
c = algo_color(algo)
P = sprintf('"%s.ranks.dat" using 1:2 with lines lw 0.8 lc rgb "#aaaaaa" title "each rank (own clock)"', prefix) . \
    sprintf(', "%s.max.dat" using 1:2 with linespoints lw 2 pt 7 ps 0.7 lc rgb c title "max over ranks"', prefix) . \
    sprintf(', "%s.warm.dat" using 1:2 with points pt 6 ps 1.2 lc rgb "#555555" title "warm-up"', prefix) . \
    ', med with lines dt 2 lw 1.5 lc rgb "#333333" title "median", p99 with lines dt 4 lw 1.5 lc rgb "#cc0000" title "p99"'
set label 2 runid at screen 0.995, screen 0.975 right font ",10" tc rgb "#888888"
@PNG
set output outbase.'.png'
plot @P
@SVG
set output outbase.'.svg'
replot
set output
