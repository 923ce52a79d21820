# busbw.gp - bus bandwidth vs message size for one rank count (figure busbw_np<N>).
# Called by plot.sh with gnuplot -e assignments:
#   gpdir     folder of this script          outbase  output path without .png/.svg
#   prefix    data files prefix.<i>.dat (i = 1.. per word of algos): bytes <TAB> busbw_GBps
#   algos     space-separated algorithm names  roofline  file "bytes <TAB> algbw" of copy, or ''
#   rooflabel key text of the roofline        xmin, xmax  smallest/largest message size (bytes)
#   roofpts   points of the roofline (1: drawn as a point)
#   ymin, ymax  smallest y value above 0, largest y value (0: all zero)
#   nranks    rank count                      ttl, sub, runid  title, its second line, run label
#   note      a third title line ("" for none: the oversubscription note)
#   stat      the time statistic the bandwidths are of ("median" or "mean"), on the y axis
load gpdir.'/common.gp'

set title title3(ttl, sub.(nranks == 1 ? " (busbw = algbw x 2(n-1)/n is 0 for n = 1)" : ""))
set xlabel "message size per rank (bytes)"
if (!exists("stat")) stat = "mean"
set ylabel sprintf("bus bandwidth (GB/s, of the %s time)", stat)
set logscale x 2
set xrange [xmin / 1.4 : xmax * 1.4]
# log y: a cache-resident copy roofline is 10-100x the allreduce curves, and
# small messages are orders of magnitude below large ones (n = 1: all zero)
if (ymax > 0 && nranks > 1) {
    ylo = ymin / 1.5; yhi = ymax * 2
    set logscale y 10; set yrange [ylo : yhi]
    @LOG_YTICS
} else { if (ymax > 0) { set yrange [0:*] } else { set yrange [0:1] } }
set format y "%g"

tax = "x"; tlo = xmin; thi = xmax
@SIZE_TICS
nkeys = words(algos) + (roofline ne '' ? 1 : 0)
# the longest key title (s_title's "algo (transport)": a plan file's name may take 31
# characters), so that KEY_OUT puts no more columns side by side than fit
klen = roofline ne '' ? strlen(rooflabel) : 0
do for [i = 1:words(algos)] { klen = strlen(word(algos, i)) + 6 > klen ? strlen(word(algos, i)) + 6 : klen }
@KEY_OUT
set label 2 runid at screen 0.995, screen 0.975 right font ",10" tc rgb "#888888"

# A series named algo~transport (busbw.awk: a run with several transports) is drawn
# in its algorithm's colour, dashed unless one-sided, keyed "algo (transport)".
s_cut(s) = strstrt(s, "~")
s_algo(s) = s_cut(s) ? s[1:s_cut(s) - 1] : s
s_tr(s) = s_cut(s) ? s[s_cut(s) + 1:] : ""
s_dt(s) = s_tr(s) eq "p2p" ? 2 : 1
s_title(s) = s_algo(s) . (s_tr(s) ne "" ? " (" . s_tr(s) . ")" : "")

# The plot list as a macro: an empty "for" still opens its file name in gnuplot 5.4.
P = ''
if (words(algos) > 0) {
    P = 'for [i = 1:words(algos)] sprintf("%s.%d.dat", prefix, i) using 1:2 with linespoints' . \
        ' lw 2 ps 0.9 pt algo_pt(s_algo(word(algos, i))) lc rgb algo_color(s_algo(word(algos, i)))' . \
        ' dt s_dt(word(algos, i)) title s_title(word(algos, i))'
}
# a roofline of one size is one point: drawn as an open circle, not as a line
# that would not show
if (roofline ne '') {
    P = P . (P ne '' ? ', ' : '') . 'roofline using 1:2' . \
        (roofpts == 1 ? ' with points pt 6 ps 1.6' : ' with lines dt (8, 6)') . \
        ' lw 2 lc rgb algo_color("copy") title rooflabel'
}
@PNG
set output outbase.'.png'
plot @P
@SVG
set output outbase.'.svg'
replot
set output
