# busywait.gp - each rank's busy time (moving or reducing bytes) and wait time (for peers,
# inside the allreduce) per allreduce, stacked, per algorithm (figure busy_wait_per_rank).
# Called by plot.sh with gnuplot -e assignments:
#   gpdir     folder of this script          outbase  output path without .png/.svg
#   prefix    data files prefix.<i>.dat (i = 1.. per word of algos): rank <TAB> busy <TAB> wait
#   algos     space-separated algorithm names (e.g. ps ring)
#   lab1, lab2, ...  key text of algorithm 1, 2, ..., e.g. "ps busy (allreduce median 12.3 ms)"
#   nranks    rank count                      unit  the y unit (us or ms)
#   ymax      tallest stack (in unit)         ttl, sub, runid  title, its second line, run label
#   note      a third title line ("" for none: the oversubscription note)
load gpdir.'/common.gp'

set title title3(ttl, sub)
set xlabel "rank"
set ylabel sprintf("time per allreduce (%s)", unit)
set yrange [0 : ymax * 1.1]
set format y "%g"

# Bars side by side around each rank, as in traffic.gp; the lower part of a bar (solid) is the
# busy time, the upper part (light, hatched) the wait time.
nalg = words(algos)
w = nalg > 1 ? 0.8 / nalg : 0.6
off(i) = (i - (nalg + 1) / 2.0) * w
set boxwidth w absolute
pad = nranks > 40 ? nranks / 60.0 : 0.6
set xrange [-pad : nranks - 1 + pad]
set xtics 1
if (nranks > 16) { set xtics int(ceil(nranks / 16.0)) }
set grid noxtics ytics
lab(i) = value(sprintf("lab%d", i))
nkeys = nalg + 1   # each algorithm's busy bar, and one entry for the hatched wait
klen = 25; do for [i = 1:nalg] { klen = strlen(lab(i)) > klen ? strlen(lab(i)) : klen }
@KEY_OUT

set label 2 runid at screen 0.995, screen 0.975 right font ",10" tc rgb "#888888"
@PNG
set output outbase.'.png'
plot for [i = 1:nalg] sprintf("%s.%d.dat", prefix, i) using ($1 + off(i)):($2 + $3) \
         with boxes fill pattern 4 border lc rgb algo_color(word(algos, i)) \
         lc rgb algo_color(word(algos, i)) notitle, \
     NaN with boxes fill pattern 4 border lc rgb "#555555" lc rgb "#555555" \
         title 'hatched: wait (for peers)', \
     for [i = 1:nalg] sprintf("%s.%d.dat", prefix, i) using ($1 + off(i)):2 \
         with boxes fill solid 0.85 border lc rgb "#333333" lc rgb algo_color(word(algos, i)) \
         title lab(i)
@SVG
set output outbase.'.svg'
replot
set output
