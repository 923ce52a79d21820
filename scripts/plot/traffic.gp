# traffic.gp - tx+rx bytes of each rank, per algorithm with measured traffic (figure
# traffic_per_rank).
# Called by plot.sh with gnuplot -e assignments:
#   gpdir     folder of this script          outbase  output path without .png/.svg
#   prefix    data files prefix.<i>.dat (i = 1.. per word of algos): rank <TAB> tx+rx bytes
#   algos     space-separated algorithm names (e.g. ps ring)
#   lab1, lab2, ...  key text of algorithm 1, 2, ..., e.g. "ps (total tx 896 MiB)"
#   nranks    rank count                      unit, div  y unit name and its size in bytes
#   ymax      tallest bar (bytes)
#   nhosts    hosts the ranks span (0: one, or not known); when > 1 also
#   hostx, hostsep  each host's centre (mean rank) and the x between hosts, space-separated
#   hostlab1, hostlab2, ...  host i's label: its ranks and tx+rx per algorithm ("\n" lines)
#   ttl, sub, runid  title, its second line, run label
#   note      a third title line ("" for none: the oversubscription note)
load gpdir.'/common.gp'

set title title3(ttl, sub)
set xlabel "rank"
set ylabel sprintf("tx + rx per rank (%s)", unit)
# bars from 0; head room above the tallest bar for the host labels (the key is below)
set yrange [0 : ymax / div * (nhosts > 1 ? 1.75 : 1.1)]
set format y "%g"

# Bars side by side around each rank: width w each (0.8 of a rank in all), centred on rank + offset.
nalg = words(algos)
w = nalg > 1 ? 0.8 / nalg : 0.6
off(i) = (i - (nalg + 1) / 2.0) * w
set boxwidth w absolute
if (nranks <= 24) {
    set style fill solid 0.85 border lc rgb "#333333"
} else {
    set style fill solid 0.9 noborder      # thin bars: a border would hide the colour
}
pad = nranks > 40 ? nranks / 60.0 : 0.6
set xrange [-pad : nranks - 1 + pad]
set xtics 1
if (nranks > 16) { set xtics int(ceil(nranks / 16.0)) }
set grid noxtics ytics
lab(i) = value(sprintf("lab%d", i))
nkeys = nalg
klen = 10; do for [i = 1:nalg] { klen = strlen(lab(i)) > klen ? strlen(lab(i)) : klen }
@KEY_OUT

# ranks on several hosts: a dashed line between hosts, each host's label over its ranks
if (nhosts > 1) {
    do for [i = 1:words(hostsep)] {
        set arrow from real(word(hostsep, i)), graph 0 to real(word(hostsep, i)), graph 1 nohead dt 2 lw 1.5 lc rgb "#555555"
    }
    do for [i = 1:nhosts] {
        set label 10 + i value(sprintf("hostlab%d", i)) at real(word(hostx, i)), graph 0.70 center font ",10"
    }
}
set label 2 runid at screen 0.995, screen 0.975 right font ",10" tc rgb "#888888"
@PNG
set output outbase.'.png'
plot for [i = 1:nalg] sprintf("%s.%d.dat", prefix, i) using ($1 + off(i)):($2 / div) \
         with boxes lc rgb algo_color(word(algos, i)) title lab(i)
@SVG
set output outbase.'.svg'
replot
set output
