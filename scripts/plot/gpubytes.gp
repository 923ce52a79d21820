# gpubytes.gp - bytes each GPU sent and received in one call, per rank, NCCL's algorithms
# beside ours (figure gpu_bytes_per_rank): the hardware's NVLink counts where NVML gave them,
# our own counters otherwise (each key says which).
# Called by plot.sh with gnuplot -e assignments:
#   gpdir     folder of this script          outbase  output path without .png/.svg
#   prefix    data files prefix.<i>.dat (i = 1.. per word of algos): rank <TAB> tx+rx bytes
#   algos     space-separated algorithm names, NCCL's first
#   lab1, lab2, ...  key text of algorithm 1, 2, ..., e.g. "nccl.ring.simple, NVML (1.2 GiB in all)"
#   nranks    rank count                      unit, div  y unit name and its size in bytes
#   ymax      tallest bar (bytes)
#   ttl, sub, runid  title, its second line, run label
#   note      a third title line ("" for none)
load gpdir.'/common.gp'

set title title3(ttl, sub)
set xlabel "rank (one GPU each)"
set ylabel sprintf("tx + rx per GPU (%s)", unit)
set yrange [0 : ymax / div * 1.1]
set format y "%g"

nalg = words(algos)
w = nalg > 1 ? 0.8 / nalg : 0.6
off(i) = (i - (nalg + 1) / 2.0) * w
set boxwidth w absolute
set style fill solid 0.85 border lc rgb "#333333"
set xrange [-0.6 : nranks - 0.4]
set xtics 1
set grid noxtics ytics
# Okabe-Ito, then Paul Tol's muted: by position (NCCL's rows first), not by name, as the
# nccl.<algo>.<proto> rows have no colour of their own in common.gp
PAL = "#CC79A7 #E69F00 #56B4E9 #009E73 #F0E442 #0072B2 #D55E00 #332288 #117733 #882255 #999933 #44AA99"
col(i) = word(PAL, (i - 1) % words(PAL) + 1)
lab(i) = value(sprintf("lab%d", i))
nkeys = nalg
klen = 10; do for [i = 1:nalg] { klen = strlen(lab(i)) > klen ? strlen(lab(i)) : klen }
@KEY_OUT
set label 2 runid at screen 0.995, screen 0.975 right font ",10" tc rgb "#888888"
@PNG
set output outbase.'.png'
plot for [i = 1:nalg] sprintf("%s.%d.dat", prefix, i) using ($1 + off(i)):($2 / div) \
         with boxes lc rgb col(i) title lab(i)
@SVG
set output outbase.'.svg'
replot
set output
