# common.gp - look shared by the collbench figures; loaded by the other *.gp here.
# Defines: PNG and SVG (terminal macros, 1000x650, white background), hsize(bytes) (a power of
# 1024 as a tic label), algo_color(name) and algo_pt(name) (one look per algorithm everywhere).
# Strings are UTF-8 and go to cairo/svg untouched (no "set encoding": it warns in the C locale).
set datafile separator "\t"

FONT = "DejaVu Sans,15"
SVGFONT = "DejaVu Sans, Helvetica, Arial, sans-serif,15"   # fall-backs for browsers
PNG = 'set terminal pngcairo size 1000,650 font FONT noenhanced background "white" linewidth 1.6'
SVG = 'set terminal svg size 1000,650 font SVGFONT noenhanced background "white" linewidth 1.6'

# Colour-blind-safe colours (Okabe-Ito), the same algorithm in the same colour in every figure.
algo_color(a) = a eq "ps" ? "#D55E00" : a eq "ring" ? "#0072B2" : a eq "mpi" ? "#009E73" : \
                a eq "nccl" ? "#CC79A7" : a eq "copy" ? "#555555" : "#E69F00"
algo_pt(a) = a eq "ps" ? 7 : a eq "ring" ? 5 : a eq "mpi" ? 9 : a eq "nccl" ? 13 : 11

# 8 -> "8", 1024 -> "1K", 65536 -> "64K", 2**20 -> "1M", 2**26 -> "64M", 2**30 -> "1G"
hsize(b) = b >= 2**30 ? sprintf("%gG", b / 2.0**30) : b >= 2**20 ? sprintf("%gM", b / 2.0**20) : \
           b >= 2**10 ? sprintf("%gK", b / 2.0**10) : sprintf("%g", b)

set border 3 lw 1
set tics nomirror out scale 0.8
set grid xtics ytics lc rgb "#dddddd" lw 1 dt 1
set key noautotitle
set key opaque box lc rgb "#bbbbbb" samplen 2.5 spacing 1.15
set title font ",16"
