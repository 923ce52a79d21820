# imbalance.gp - traffic imbalance vs rank count (figure imbalance_vs_ranks).
# imbalance = max over ranks of (tx+rx) / mean over ranks of (tx+rx); 1 = perfectly even.
# Called by plot.sh with gnuplot -e assignments:
#   gpdir     folder of this script          outbase  output path without .png/.svg
#   prefix    data files prefix.<i>.dat (i = 1.. per word of algos): nranks <TAB> imbalance
#   algos     space-separated algorithm names (those with a measured imbalance: ps, ring)
#   ranks     space-separated rank counts present (the x tics)
#   ymax      largest imbalance               ttl, sub, runid  title, its second line, run label
#   over      oversubscribed rank counts (tics marked "*")  note  a third title line, or ""
load gpdir.'/common.gp'

set title title3(ttl, sub)
set xlabel "rank count n"
set ylabel "imbalance (max / mean of tx+rx per rank)"

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
ytop = (ymax > rmax / 2.0 ? ymax : rmax / 2.0)
set yrange [0 : (ytop > 1 ? ytop : 1) * 1.15 + 0.1]
set format y "%g"
set samples 200

# The plot list as a macro: an empty "for" would still leave an empty line in the key.
has(a) = strstrt(" ".algos." ", " ".a." ") > 0
nkeys = words(algos) + has("ps") + has("ring")
@KEY_OUT
P = 'for [i = 1:words(algos)] sprintf("%s.%d.dat", prefix, i) using 1:2 with linespoints' . \
    ' lw 2 ps 1.2 pt algo_pt(word(algos, i)) lc rgb algo_color(word(algos, i)) title word(algos, i)'
if (has("ps")) {
    P = P . ', x / 2 with lines lw 1.5 dt 3 lc rgb algo_color("ps") title "ps ideal (n/2)"'
}
if (has("ring")) {
    P = P . ', 1 with lines lw 1.5 dt 3 lc rgb algo_color("ring") title "ring ideal (1)"'
}
set label 2 runid at screen 0.995, screen 0.975 right font ",10" tc rgb "#888888"
@PNG
set output outbase.'.png'
plot @P
@SVG
set output outbase.'.svg'
replot
set output
