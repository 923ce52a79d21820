# history.awk: the data of the history trend figure from collbench-history trend --format tsv
# (its lines "# machine<TAB>M", "# series I<TAB>name<TAB>metric (unit)", then one line per
# point "I<TAB>time<TAB>value<TAB>lo<TAB>hi<TAB>segment mean<TAB>mark<TAB>run id"):
# dir/history.dat, one block per series (two blank lines apart: gnuplot's index i-1), columns
# time_utc value lo hi segment_mean mark (0; 1 regression; 2 improvement). Prints (| stands for
# US, the unit separator)
#   plot | number of series | metric | machine | series names, tab-separated
#   skip | reason

BEGIN { FS = "\t"; OFS = "\037"; out = dir "/history.dat" }
$1 == "# machine" { machine = $2; next }
$1 ~ /^# series / { n++; names = names (n > 1 ? "\t" : "") $2; metric = $3; next }
/^#/ { next }
{
	if (points++ && $1 != last) printf "\n\n" > out
	last = $1
	printf "%s\t%s\t%s\t%s\t%s\t%s\n", $2, $3, $4, $5, $6, $7 > out
}
END {
	if (n == 0 || points == 0) { print "skip", "no series to plot"; exit 0 }
	close(out)
	print "plot", n, metric, machine, names
}
