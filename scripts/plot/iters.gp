# iters.gp - every iteration's time of one row (figure iterations): the max over ranks (the
# iteration's time, bold), each rank's own time (thin), the warm-up iterations before 0
# (open circles), the median and the tail of the timed ones (dashed): their p99 with 100 or
# more iterations, else their largest ("max of K": the p99 of fewer is the largest one).
# The time axis is logarithmic when the largest time is over 30 times the smallest (a
# stall beside microsecond iterations: on a linear axis the median sat on the x axis).
# Called by plot.sh with gnuplot -e assignments:
#   gpdir     folder of this script          outbase  output path without .png/.svg
#   prefix    data files prefix.max.dat, prefix.warm.dat, prefix.ranks.dat (blocks per rank)
#   algo      the row's algorithm            nranks, nwarm, niter  ranks, warm-up, timed counts
#   med, p99  median and p99 (us; p99 0: none)  ymax  largest time (us)
#   nrk       ranks with their own times in prefix.ranks.dat (0: none)
#   ttl, sub, runid  title, its second line, run label
#   note      a third title line ("" for none: the oversubscription note)
load gpdir.'/common.gp'

set title title3(ttl, sub)
set xlabel "iteration (warm-up below 0)"
set ylabel "time (us)"
set xrange [-nwarm - 1 : niter + 1]
stats sprintf("%s.max.dat", prefix) using 2 nooutput name "T"
tail = p99 > 0 ? p99 : T_max
tailname = p99 > 0 ? "p99" : sprintf("max of %d", niter)
if (T_min > 0 && ymax / T_min > 30) {
    ylo = T_min / 1.5; yhi = ymax * 3   # room for the label above the highest point
    set logscale y 10; set yrange [ylo : yhi]
    @LOG_YTICS
} else { set yrange [0 : ymax * 1.2] }
set format y "%.1s%c"   # engineering suffixes (30.0k, 1.2M), not 1.2e+06
# outside, right of the plot, where it covers no point (a spike) and neither line
set key outside right top vertical Left reverse width -1 samplen 2 font ",13"
set arrow 1 from 0.5, graph 0 to 0.5, graph 1 nohead dt 3 lc rgb "#888888"
set label 3 sprintf("median %.1f us, %s %.1f us", med, tailname, tail) at graph 0.02, graph 0.95 font ",12"
c = algo_color(algo)
# a key entry only for what is drawn: each rank's line where the file has ranks, the warm-up
# where there was one
P = sprintf('"%s.max.dat" using 1:2 with linespoints lw 2 pt 7 ps 0.7 lc rgb c title "max over ranks"', prefix) . \
    ', med with lines dt 2 lw 1.5 lc rgb "#333333" title "median"' . \
    sprintf(', tail with lines dt 4 lw 1.5 lc rgb "#cc0000" title "%s"', tailname)
if (nrk > 0) {
    P = sprintf('"%s.ranks.dat" using 1:2 with lines lw 0.8 lc rgb "#aaaaaa" title "each rank (own clock)", ', prefix) . P
}
if (nwarm > 0) {
    P = P . sprintf(', "%s.warm.dat" using 1:2 with points pt 6 ps 1.2 lc rgb "#555555" title "warm-up"', prefix)
}
set label 2 runid at screen 0.995, screen 0.975 right font ",10" tc rgb "#888888"
@PNG
set output outbase.'.png'
plot @P
@SVG
set output outbase.'.svg'
replot
set output
