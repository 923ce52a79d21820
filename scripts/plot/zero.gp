# zero.gp - one DDP step (allreduce of S) against one ZeRO step (reduce-scatter of S, then
# all-gather of S), per algorithm (figure zero_step): left, the step's time vs size; right,
# each rank's tx+rx at one size, the ZeRO bar split into its two collectives (figure
# zero_step_np<N>).
# Called by plot.sh with gnuplot -e assignments:
#   gpdir     folder of this script          outbase  output path without .png/.svg
#   prefix    data files: prefix_t.<i>.ddp.dat, prefix_t.<i>.zero.dat (bytes <TAB> us) per word
#             of talgos; prefix_b.<j>.dat (rank <TAB> allreduce <TAB> reduce_scatter <TAB>
#             all_gather, bytes) per word of balgos
#   talgos, balgos  algorithms of the time panel, of the traffic panel ("" for none)
#   nranks    rank count n                    size  S in words (the traffic panel's)
#   xmin, xmax, tmin, tmax  the sizes (bytes) and times (us) of the time panel
#   bmax      tallest bar (bytes)             unit, div  the bars' unit and its bytes
#   ratio1, ratio2, ...  the traffic panel's line per algorithm (ZeRO over DDP at S)
#   ttl, sub, runid  title, its second line, run label   note  a third title line, or ""
load gpdir.'/common.gp'

TERMS = 'set terminal pngcairo size 1500,820 font FONT noenhanced background "white" linewidth 1.6'
TERMSVG = 'set terminal svg size 1500,820 font SVGFONT noenhanced background "white" linewidth 1.6'
nb = words(balgos)
ratio(j) = value(sprintf("ratio%d", j))

do for [pass = 1:2] {
    if (pass == 1) { @TERMS; set output outbase.'.png' } else { @TERMSVG; set output outbase.'.svg' }
    set multiplot title title3(ttl, sub) layout 1, (nb > 0 ? 2 : 1)
    set label 2 runid at screen 0.995, screen 0.975 right font ",10" tc rgb "#888888"

    # --- left: the step's time vs S, DDP solid, ZeRO dashed ---
    set title "time of one step (median)" font ",14"
    set logscale x 2
    set xrange [xmin / 1.3 : xmax * 1.3]
    tax = "x"; tlo = xmin; thi = xmax; tnarrow = 1   # a panel half the width
    @SIZE_TICS
    set xlabel "S: message size per rank (bytes)"
    set logscale y 10
    ylo = tmin / 1.5; yhi = tmax * 1.5
    set yrange [ylo : yhi]
    @LOG_YTICS
    set format y "%g"
    set ylabel "time (µs)"
    # keys below the panels, never over a point or a bar
    set key outside below center vertical maxrows words(talgos) Left reverse font ",11" samplen 2
    set bmargin 5.5 + 1.2 * 3
    plot for [i = 1:words(talgos)] sprintf("%s_t.%d.ddp.dat", prefix, i) using 1:2 with linespoints \
             lw 2 ps 1.0 pt algo_pt(word(talgos, i)) lc rgb algo_color(word(talgos, i)) dt 1 \
             title word(talgos, i)." DDP: allreduce", \
         for [i = 1:words(talgos)] sprintf("%s_t.%d.zero.dat", prefix, i) using 1:2 with linespoints \
             lw 2 ps 1.0 pt algo_pt(word(talgos, i)) lc rgb algo_color(word(talgos, i)) dt 2 \
             title word(talgos, i)." ZeRO: reduce-scatter + all-gather"
    unset label 2

    # --- right: each rank's bytes at S; per algorithm a DDP bar and a ZeRO bar (reduce-scatter
    # solid, all-gather hatched above it) ---
    if (nb > 0) {
        set title sprintf("tx + rx of each rank in one step, S = %s", size) font ",14"
        unset logscale x; unset logscale y
        set xtics 1 font ",12"; set ytics autofreq font ",12"
        if (nranks > 16) { set xtics int(ceil(nranks / 16.0)) }
        set xrange [-0.6 : nranks - 0.4]
        set yrange [0 : bmax / div * 1.35]
        set xlabel "rank"
        set ylabel sprintf("tx + rx (%s)", unit)
        w = 0.8 / (2 * nb)
        off(j, z) = ((2 * (j - 1) + z) - (2 * nb - 1) / 2.0) * w
        set boxwidth w absolute
        set grid noxtics ytics
        set key outside below center vertical maxrows 3 Left reverse font ",11" samplen 1.5
        do for [j = 1:nb] {
            set label 20 + j ratio(j) at graph 0.02, graph 0.97 - 0.055 * (j - 1) left font ",11"
        }
        # per algorithm: its DDP bar, its ZeRO bar hatched whole, then the reduce-scatter's
        # part solid over it (the key: a column per algorithm)
        bars = ""
        do for [j = 1:nb] {
            f = sprintf("'%s_b.%d.dat'", prefix, j); a = word(balgos, j)
            col = sprintf("lc rgb '%s' title '%s", algo_color(a), a)
            bars = bars.(j > 1 ? ", " : "").f." using ($1 + off(".j.", 0)):($2 / div) with boxes fill solid 0.85 border lc rgb '#333333' ".col." DDP', ". \
                f." using ($1 + off(".j.", 1)):(($3 + $4) / div) with boxes fill pattern 4 border lc rgb '#333333' ".col." ZeRO: all-gather (hatched)', ". \
                f." using ($1 + off(".j.", 1)):($3 / div) with boxes fill solid 0.45 border lc rgb '#333333' ".col." ZeRO: reduce-scatter'"
        }
        eval "plot ".bars
        do for [j = 1:nb] { unset label 20 + j }
    }
    unset multiplot
    set output
    # the second pass starts from the same settings
    unset logscale x; unset logscale y; unset title; unset xlabel; unset ylabel
}
