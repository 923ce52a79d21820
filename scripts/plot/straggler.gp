# straggler.gp - the straggler of each row vs message size, one line per algorithm (figure
# stragglers): y is its mean time not spent waiting for peers over the other ranks' mean
# (straggler_ratio: 1 = no straggler; below 1, shaded, the rank was slowest only by waiting),
# the largest ratio of a size labelled with the rank and the share of the iterations in which
# it was the slowest (straggler.awk says which points get a label).
# Called by plot.sh with gnuplot -e assignments:
#   gpdir     folder of this script          outbase  output path without .png/.svg
#   prefix    data files prefix.<i>.dat: bytes <TAB> ratio <TAB> label
#   algos     space-separated algorithm names  xmin, xmax  smallest/largest size (bytes)
#   ymax      largest ratio                    nranks  rank count
#   ttl, sub, runid  title, its second line, run label
#   note      a third title line ("" for none: the oversubscription note)
load gpdir.'/common.gp'

set title title3(ttl, sub)
set xlabel "message size per rank (bytes)"
set ylabel "slowest rank's time not waiting / the others' mean"
set logscale x 2
set xrange [xmin / 1.6 : xmax * 1.6]
set yrange [0 : (ymax > 1 ? ymax : 1) * 1.25 + 0.2]
set format y "%g"
tax = "x"; tlo = xmin; thi = xmax
@SIZE_TICS
nkeys = words(algos) + 2
# below 1 the rank most often slowest was not slower at its own work (it waited): no straggler
set object 5 rect from graph 0, first 0 to graph 1, first 1 fc rgb "#eeeeee" fs solid 1.0 noborder behind
@KEY_OUT

P = 'for [i = 1:words(algos)] sprintf("%s.%d.dat", prefix, i) using 1:2 with linespoints' . \
    ' lw 2 ps 1.2 pt algo_pt(word(algos, i)) lc rgb algo_color(word(algos, i)) title word(algos, i),' . \
    ' for [i = 1:words(algos)] sprintf("%s.%d.dat", prefix, i) using 1:2:3 with labels' . \
    ' offset 0, 1 font ",10" tc rgb algo_color(word(algos, i)) notitle,' . \
    ' 1 with lines lw 1.5 dt 3 lc rgb "#888888" title "1: as fast as the others",' . \
    ' NaN with boxes fs solid 1.0 lc rgb "#eeeeee" title "below 1: none (it waited)"'
set label 2 runid at screen 0.995, screen 0.975 right font ",10" tc rgb "#888888"
@PNG
set output outbase.'.png'
plot @P
@SVG
set output outbase.'.svg'
replot
set output
