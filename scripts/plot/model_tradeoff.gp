# model_tradeoff.gp - latency against bandwidth (figure model_tradeoff): each algorithm at one
# rank count and size as a point: its rounds of dependent messages (from its plan, the model's
# latency terms) and the bytes its busiest rank moved (measured) over the message size.
# Called by model.sh with gnuplot -e assignments:
#   gpdir     folder of this script          outbase  output path without .png/.svg
#   prefix    data files prefix.<i>.dat: rounds <TAB> bytes/S <TAB> label, per word of algos
#   algos     space-separated algorithm names   rmax, ymax  largest rounds, largest bytes/S
#   ttl, sub, runid  title, its second line, run label
load gpdir.'/common.gp'

set title ttl."\n".sub
set xlabel "rounds of dependent messages (the plan's; latency)"
set ylabel "bytes the busiest rank moved (tx + rx) / S"
set logscale x 2
set xrange [0.7 : rmax * 2.5]
set yrange [0 : ymax * 1.25 + 0.1]
set format x "%g"
nkeys = words(algos)
@KEY_OUT
set label 2 runid at screen 0.995, screen 0.975 right font ",10" tc rgb "#888888"
set grid lc rgb "#dddddd"

P = 'for [i = 1:words(algos)] sprintf("%s.%d.dat", prefix, i) using 1:2 with points' . \
    ' pt algo_pt(word(algos, i)) ps 2.2 lc rgb algo_color(word(algos, i)) title word(algos, i), ' . \
    'for [i = 1:words(algos)] sprintf("%s.%d.dat", prefix, i) using 1:4:3 with labels' . \
    ' left offset 1.2,0.4 font ",10" tc rgb algo_color(word(algos, i)) notitle'
@PNG
set output outbase.'.png'
plot @P
@SVG
set output outbase.'.svg'
replot
set output
