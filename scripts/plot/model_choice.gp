# model_choice.gp - the cost model as a tuner (figure model_choice): at each (message size,
# rank count) of a run, the measured fastest algorithm (a filled dot in its colour) and the
# model's choice (a ring in its colour around it); a small cross above and right of the point
# where they disagree (on the point it hid the measured winner's dot).
# Called by model.sh with gnuplot -e assignments:
#   gpdir     folder of this script          outbase  output path without .png/.svg
#   prefix    data files prefix/best.<i>.dat, prefix/choice.<i>.dat (bytes <TAB> nranks) per word
#             of algos, prefix/miss.dat
#   algos     space-separated algorithm names   xmin, xmax  smallest/largest size (bytes)
#   ranks     the rank counts (the y tics)      ttl, sub, runid  title, its second line, run label
#   rate      the agreement rate (the third title line)
#   legend    (optional) what the dots and rings are; default the model's
load gpdir.'/common.gp'

set title ttl."\n".sub."\n".rate font ",13"
set xlabel "message size per rank (bytes)"
set ylabel "rank count n"
set logscale x 2
set xrange [xmin / 1.6 : xmax * 1.6]
set logscale y 2
rmin = real(word(ranks, 1)); rmax = real(word(ranks, words(ranks)))
set yrange [rmin / 1.6 : rmax * 1.6]
set ytics ()
do for [i = 1:words(ranks)] { set ytics add (word(ranks, i) real(word(ranks, i))) }
tax = "x"; tlo = xmin; thi = xmax
@SIZE_TICS
nkeys = words(algos) + 1
@KEY_OUT
set label 2 runid at screen 0.995, screen 0.975 right font ",10" tc rgb "#888888"
if (!exists("legend")) legend = "dot: measured fastest; ring: the model's choice"
legend = legend."; cross (beside): they disagree"
set label 3 legend at graph 0.01, graph 0.97 left font ",10"

P = 'for [i = 1:words(algos)] sprintf("%s/best.%d.dat", prefix, i) using 1:2 with points' . \
    ' pt 7 ps 2.0 lc rgb algo_color(word(algos, i)) title word(algos, i), ' . \
    'for [i = 1:words(algos)] sprintf("%s/choice.%d.dat", prefix, i) using 1:2 with points' . \
    ' pt 6 ps 3.4 lw 2 lc rgb algo_color(word(algos, i)) notitle, ' . \
    'prefix."/miss.dat" using ($1 * 1.3):($2 * 1.22) with points pt 2 ps 1.3 lw 2 lc rgb "#000000"' . \
    ' title "disagree"'
@PNG
set output outbase.'.png'
plot @P
@SVG
set output outbase.'.svg'
replot
set output
