# regress.gp - baseline (dashed) vs current (solid) bandwidth vs message size, one line pair
# per algorithm, for one rank count (figure regress_np<N>); rows judged a regression circled.
# Called by regress.sh with gnuplot -e assignments:
#   gpdir     folder of this script          outbase  output path without .png/.svg
#   prefix    data files prefix.<i>.base.dat and prefix.<i>.cur.dat (i = 1.. per word of algos):
#             bytes <TAB> GB/s                algos    space-separated algorithm names
#   regfile   file "bytes <TAB> GB/s" of the regressions, or ''
#   xmin, xmax  smallest/largest message size (bytes)   ymin, ymax  smallest/largest value
#   ttl, sub, runid  title, its second line, run label
#   nranks    rank count
load gpdir.'/common.gp'

set title ttl."\n".sub
set xlabel "message size per rank (bytes)"
# busbw is 0 for n = 1: collbench-compare judged (and plot.sh draws) algbw there
set ylabel (nranks == 1 ? "algbw GB/s (median time; busbw is 0 for n = 1)" : "busbw GB/s (median time; copy: algbw)")
set logscale x 2
set xrange [xmin / 1.4 : xmax * 1.4]
# linear y shows a 20% drop as it is; log y when the curves span decades (small messages)
if (ymin > 0 && ymax / ymin > 30) {
    ylo = ymin / 1.5; yhi = ymax * 2
    set logscale y 10; set yrange [ylo : yhi]
    @LOG_YTICS
} else { set yrange [0 : (ymax > 0 ? ymax * 1.15 : 1)] }
set format y "%g"

tax = "x"; tlo = xmin; thi = xmax
@SIZE_TICS

# the key below the plot, in columns (common.gp): a key beside it took half the width with
# ten algorithms and squeezed the sizes' labels into each other
nkeys = 2 * words(algos) + (regfile ne '' ? 1 : 0)
klen = 9; do for [i = 1:words(algos)] { klen = strlen(word(algos, i)) + 9 > klen ? strlen(word(algos, i)) + 9 : klen }
@KEY_OUT
set label 2 runid at screen 0.995, screen 0.975 right font ",10" tc rgb "#888888"

P = ''
if (words(algos) > 0) {
    P = 'for [i = 1:words(algos)] sprintf("%s.%d.base.dat", prefix, i) using 1:2 with linespoints' . \
        ' lw 2 dt (8, 6) ps 0.9 pt algo_pt(word(algos, i)) lc rgb algo_color(word(algos, i))' . \
        ' title word(algos, i)." baseline", ' . \
        'for [i = 1:words(algos)] sprintf("%s.%d.cur.dat", prefix, i) using 1:2 with linespoints' . \
        ' lw 2 ps 0.9 pt algo_pt(word(algos, i)) lc rgb algo_color(word(algos, i))' . \
        ' title word(algos, i)." current"'
}
if (regfile ne '') {
    P = P . (P ne '' ? ', ' : '') . 'regfile using 1:2 with points pt 6 ps 3.2 lw 2.5' . \
        ' lc rgb "#CC0000" title "regression"'
}
@PNG
set output outbase.'.png'
plot @P
@SVG
set output outbase.'.svg'
replot
set output
