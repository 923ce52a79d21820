# time.gp - time per allreduce vs rank count at one message size (figure time_vs_ranks).
# Called by plot.sh with gnuplot -e assignments:
#   gpdir     folder of this script          outbase  output path without .png/.svg
#   prefix    data files prefix.<i>.dat (i = 1.. per word of algos): nranks <TAB> time_us
#   algos     space-separated algorithm names ("copy" is drawn dashed, as a reference)
#   ranks     space-separated rank counts present (the x tics)
#   tmin, tmax  smallest/largest time (us)    ttl, sub, runid  title, its second line, run label
#   over      oversubscribed rank counts (tics marked "*")  note  a third title line, or ""
load gpdir.'/common.gp'

set title title3(ttl, sub)
set xlabel "rank count n"
if (!exists("stat")) stat = "mean"
set ylabel sprintf("time per allreduce (µs, %s)", stat)

# x: log2 when the rank counts span a factor of 4 or more, tics only at the counts present.
rmin = real(word(ranks, 1))
rmax = real(word(ranks, words(ranks)))
if (rmax / rmin >= 4) {
    set logscale x 2
    set xrange [rmin / 1.25 : rmax * 1.25]
} else {
    set xrange [rmin - 0.5 : rmax + 0.5]
}
set xtics ()
do for [i = 1:words(ranks)] { set xtics add (over_mark(word(ranks, i)) real(word(ranks, i))) }

# y: log when the times span more than a factor of 20, else linear from 0.
if (tmax / tmin > 20) {
    ylo = tmin / 1.5; yhi = tmax * 1.5
    set logscale y 10
    set yrange [ylo : yhi]
    @LOG_YTICS
} else {
    set yrange [0 : tmax * 1.15]
}
set format y "%g"

# the key below the plot (lines may cross any corner of the graph), in as many columns as
# its longest title allows (KEY_OUT): a plan file's name may take 31 characters
nkeys = words(algos)
klen = 13; do for [i = 1:nkeys] { klen = strlen(word(algos, i)) + 6 > klen ? strlen(word(algos, i)) + 6 : klen }
@KEY_OUT
set label 2 runid at screen 0.995, screen 0.975 right font ",10" tc rgb "#888888"

is_copy(a) = a eq "copy"
algo_dt(a) = is_copy(a) ? 2 : 1
@PNG
set output outbase.'.png'
plot for [i = 1:words(algos)] sprintf("%s.%d.dat", prefix, i) using 1:2 with linespoints \
         lw 2 ps 1.1 pt algo_pt(word(algos, i)) lc rgb algo_color(word(algos, i)) \
         dt algo_dt(word(algos, i)) \
         title (is_copy(word(algos, i)) ? "copy (memcpy)" : word(algos, i))
@SVG
set output outbase.'.svg'
replot
set output
