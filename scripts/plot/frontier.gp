# frontier.gp - each algorithm's time over the fastest one's vs message size, one rank count
# (figure frontier_np<N>): the fastest at each size sits on 1, its name below that line.
# Called by plot.sh with gnuplot -e assignments:
#   gpdir     folder of this script          outbase  output path without .png/.svg
#   prefix    data files prefix.<i>.dat (i = 1.. per word of algos): bytes <TAB> ratio;
#             prefix.win.dat: bytes <TAB> index of the fastest <TAB> its name <TAB> its time (us)
#   algos     space-separated algorithm names   xmin, xmax  smallest/largest size (bytes)
#   rmax      the largest ratio                 runs  the fastest by size, as text
#   nranks    rank count                        ttl, sub, runid  title, its second line, run label
#   note      a third title line ("" for none)
load gpdir.'/common.gp'

set title title3(ttl, sub)
set xlabel "message size per rank (bytes)"
set ylabel "median time / the fastest's median at that size"
set logscale x 2
set xrange [xmin / 1.4 : xmax * 1.4]
ylo = 0.55; yhi = (rmax > 1.5 ? rmax : 1.5) * 1.6
set logscale y 10
set yrange [ylo : yhi]
@LOG_YTICS
set format y "%g"
tax = "x"; tlo = xmin; thi = xmax
@SIZE_TICS
nkeys = words(algos)
@KEY_OUT
set label 2 runid at screen 0.995, screen 0.975 right font ",10" tc rgb "#888888"
# the runs of sizes each algorithm wins, wrapped at about 110 characters (a long list ran off
# the canvas)
wrapped = "fastest:"; ll = strlen(wrapped)
do for [i = 1:words(runs)] {
    wd = word(runs, i)
    if (ll + 1 + strlen(wd) > 110) { wrapped = wrapped."\n".wd; ll = strlen(wd) } \
    else { wrapped = wrapped." ".wd; ll = ll + 1 + strlen(wd) }
}
set label 3 wrapped at graph 0.01, graph 0.97 left font ",10"
set grid ytics lc rgb "#dddddd"

# the fastest at each size: its name below the line y = 1
P = 'for [i = 1:words(algos)] sprintf("%s.%d.dat", prefix, i) using 1:2 with linespoints' . \
    ' lw 2 ps 0.9 pt algo_pt(word(algos, i)) lc rgb algo_color(word(algos, i))' . \
    ' title word(algos, i), ' . \
    'prefix.".win.dat" using 1:(0.58):3 with labels rotate by 90 left font ",9" tc rgb "#444444"' . \
    ' notitle'
@PNG
set output outbase.'.png'
plot @P
@SVG
set output outbase.'.svg'
replot
set output
