# common.gp - look shared by the collbench figures; loaded by the other *.gp here.
# Defines: PNG and SVG (terminal macros, 1000x650, white background), hsize(bytes) (a power of
# 1024 as a tic label), algo_color(name) and algo_pt(name) (one look per algorithm everywhere),
# and at the end the tic, key and title macros and functions every figure uses (LOG_YTICS,
# SIZE_TICS, KEY_OUT, title3, over_mark).
# Strings are UTF-8 and go to cairo/svg untouched (no "set encoding": it warns in the C locale).
set datafile separator "\t"

FONT = "DejaVu Sans,15"
SVGFONT = "DejaVu Sans, Helvetica, Arial, sans-serif,15"   # fall-backs for browsers
PNG = 'set terminal pngcairo size 1000,650 font FONT noenhanced background "white" linewidth 1.6'
SVG = 'set terminal svg size 1000,650 font SVGFONT noenhanced background "white" linewidth 1.6'

# Colour-blind-safe colours (Okabe-Ito), the same algorithm in the same colour in every figure.
# The plan family beyond ps and ring: Okabe-Ito's orange and sky blue, then Paul Tol's muted
# indigo, wine, green and olive; Open MPI's forced algorithms (mpi.*) Paul Tol's bright red,
# yellow, blue, cyan, green and purple, with open points; any other algorithm (a plan
# file's) purple.
algo_color(a) = a eq "ps" ? "#D55E00" : a eq "ring" ? "#0072B2" : a eq "mpi" ? "#009E73" : \
                a eq "nccl" ? "#CC79A7" : a eq "copy" ? "#555555" : a eq "oneshot" ? "#E69F00" : \
                a eq "twoshot" ? "#56B4E9" : a eq "rd" ? "#332288" : \
                a eq "rabenseifner" ? "#882255" : a eq "dbtree" ? "#117733" : \
                a eq "hier" ? "#999933" : a eq "mpi.basic_linear" ? "#EE6677" : \
                a eq "mpi.nonoverlapping" ? "#CCBB44" : a eq "mpi.recursive_doubling" ? "#4477AA" : \
                a eq "mpi.ring" ? "#66CCEE" : a eq "mpi.segmented_ring" ? "#228833" : \
                a eq "mpi.rabenseifner" ? "#AA3377" : "#AA4499"
algo_pt(a) = a eq "ps" ? 7 : a eq "ring" ? 5 : a eq "mpi" ? 9 : a eq "nccl" ? 13 : \
             a eq "oneshot" ? 4 : a eq "twoshot" ? 6 : a eq "rd" ? 8 : a eq "rabenseifner" ? 10 : \
             a eq "dbtree" ? 12 : a eq "hier" ? 14 : a eq "mpi.basic_linear" ? 1 : \
             a eq "mpi.nonoverlapping" ? 2 : a eq "mpi.recursive_doubling" ? 3 : \
             a eq "mpi.ring" ? 6 : a eq "mpi.segmented_ring" ? 8 : \
             a eq "mpi.rabenseifner" ? 10 : 11

# 8 -> "8", 1024 -> "1K", 65536 -> "64K", 2**20 -> "1M", 2**26 -> "64M", 2**30 -> "1G"
hsize(b) = b >= 2**30 ? sprintf("%gG", b / 2.0**30) : b >= 2**20 ? sprintf("%gM", b / 2.0**20) : \
           b >= 2**10 ? sprintf("%gK", b / 2.0**10) : sprintf("%g", b)

set border 3 lw 1
set tics nomirror out scale 0.8
set grid xtics ytics lc rgb "#dddddd" lw 1 dt 1
set key noautotitle
set key opaque box lc rgb "#bbbbbb" samplen 2.5 spacing 1.15
set title font ",16"

# Tics that let a value be read between labels, as macros that read variables:
# @LOG_YTICS, after "set logscale y" with ylo, yhi its range (0 < ylo < yhi): a label at each
# m x 10^d for m in 1 2 3 4 5 6 8 over at most 1.2 decades, 1 2 3 5 over at most 2.5, 1 2 5
# over at most 6, 1 3 over at most 10, else 1 (logtic's text); a small tic at the other m.
LOG_YTICS = 'ldec = log10(yhi / ylo); lset = ldec <= 1.2 ? " 1 2 3 4 5 6 8 " : ' . \
    'ldec <= 2.5 ? " 1 2 3 5 " : ldec <= 6 ? " 1 2 5 " : ldec <= 10 ? " 1 3 " : " 1 "; ' . \
    'set ytics (); do for [d = floor(log10(ylo)) : ceil(log10(yhi))] { do for [m = 1:9] { ' . \
    'v = m * 10.0**d; if (v >= ylo / 1.0001 && v <= yhi * 1.0001) { ' . \
    'if (strstrt(lset, " ".m." ")) { set ytics add (logtic(m, d) v) } else { set ytics add ("" v 1) } } } }'
# m x 10^d as a tic label, one format on an axis: "%g" below 1000 (down to 1e-4: "0.0005"),
# engineering suffixes from 1000 ("2k", "30k", "500M", "1G"; "3e7" beside "30000" mixed two)
logtic(m, d) = d >= 12 ? sprintf("%de%d", m, d) : d >= 3 ? \
    sprintf("%g%s", m * 10.0**(d % 3), d >= 9 ? "G" : d >= 6 ? "M" : "k") : \
    d <= -5 ? sprintf("%de%d", m, d) : sprintf("%g", m * 10.0**d)
# @SIZE_TICS, with tax the axis ("x" or "y") and tlo, thi the sizes (bytes >= 1) it spans: a tic
# at each power of two, labelled in powers of 1024 (hsize): every one over at most 16 powers
# (font 10 over more than 12), every 2nd up to 40 (font 10: 8 B..64 MiB's 24 powers, one a
# label, ran together in the PNG where a plot area is under 800 px wide, model_busbw's with
# its key), else every 5th (1K, 1M, 1G stay
# labelled), the others small. tnarrow = 1: a panel half the plot's width (the span counts twice).
SIZE_TICS = 'kmin = floor(log(tlo) / log(2) + 1e-9); kmax = ceil(log(thi) / log(2) - 1e-9); ' . \
    'kspan = (kmax - kmin) * (exists("tnarrow") ? (tnarrow ? 2 : 1) : 1); ' . \
    'kstep = (kspan <= 16) ? 1 : (kspan <= 40) ? 2 : 5; eval "set ".tax."tics ()"; ' . \
    'do for [k = kmin:kmax] { eval sprintf("set %stics add (\"%s\" %.17g%s)", tax, ' . \
    'k % kstep == 0 ? hsize(2.0**k) : "", 2.0**k, k % kstep == 0 ? "" : " 1") }; ' . \
    'sfont = (kstep == 1 && kspan > 12 || kstep == 2) ? 10 : 0; ' . \
    'if (sfont > 0 && tax eq "x") { eval sprintf("set %stics font \",%d\"", tax, sfont) }'
# Where no data are: @KEY_OUT keys the nkeys lines of a figure outside the plot, below it, in
# 2 columns up to 6 lines, 3 up to 12 (in a smaller font), else 4 (smaller still), filled
# column by column (maxrows: gnuplot's own column count from its width estimate gave fewer
# columns and a key over the x label), so that the key never takes more than 5 rows and the plot area keeps at least half the canvas's
# height whatever the number of series; the bottom margin is set to hold the x tic labels,
# the x label and those rows (gnuplot 5.4's own margin for a key below lets the key's box
# cover the x label). Fixed left and right margins: the plot area keeps its width. klen: the
# longest key title in characters (default: 22, or the longest of algos' words + 6 for a
# " (shm)" beside it, where the figure has algos): fewer columns when they would not fit side by
# side (gnuplot sizes a column from the terminal's character width, whatever the key's font,
# about 8.4 px at 15 on a 1000 px canvas: 115 characters; a column takes its title, the
# sample and 6 more); titles over 32 characters in a font of at most 12 (cairo draws them
# wider than gnuplot's estimate).
kmin(a, b) = a < b ? a : b
kfit(l) = l + 8 > 0 ? (floor(115 / (l + 8.0)) < 1 ? 1 : floor(115 / (l + 8.0))) : 1
KEY_OUT = 'if (!exists("klen")) { klen = 22; if (exists("algos")) { do for [ki = 1:words(algos)] { ' . \
    'klen = strlen(word(algos, ki)) + 6 > klen ? strlen(word(algos, ki)) + 6 : klen } } }; ' . \
    'kcols = nkeys <= 6 ? 2 : nkeys <= 12 ? 3 : 4; kcols = kmin(kcols, kfit(klen)); kfont = kcols == 2 ? 15 : kcols == 3 ? 13 : 11; ' . \
    'kfont = klen > 32 ? kmin(kfont, 12) : kfont; kfs = sprintf(",%d", kfont); krows = ceil(nkeys / real(kcols)); ' . \
    'set key outside below center vertical Left reverse maxrows krows font kfs; ' . \
    'set bmargin 4.6 + 1.3 * kfont / 15.0 * krows; set lmargin 12; set rmargin 4'
# The title: ttl and sub (plot.sh's two lines) and, where note is not "", a third line (the
# oversubscription note of plot.sh and model.sh).
if (!exists("note")) note = ""
title3(t, s) = t."\n".s.(note eq "" ? "" : "\n".note)
# Figures over rank counts: over holds the oversubscribed counts (space-separated), whose tic
# labels over_mark gives a "*" (note says what it means).
if (!exists("over")) over = ""
over_mark(r) = strstrt(" ".over." ", " ".r." ") ? r."*" : r
