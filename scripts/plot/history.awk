# history.awk: the data of the history trend figure from collbench-history trend --format tsv
# (its lines "# machine<TAB>M", "# series I<TAB>name<TAB>metric (unit)", then one line per
# point "I<TAB>time<TAB>value<TAB>lo<TAB>hi<TAB>segment mean<TAB>mark<TAB>run id"):
# dir/history.dat, one block per series (two blank lines apart: gnuplot's index i-1), columns
# time_utc value lo hi segment_mean mark (0; 1 regression; 2 improvement). Series read on
# different metrics of one unit (copy's algbw beside busbw) share the axis, each named with its
# metric; a time series beside a bandwidth one cannot. Prints (| stands for US, the unit
# separator)
#   plot | number of series | axis label | machine | series names, tab-separated | their
#          algorithms (the word before "np<N>" in each name), space-separated
#   skip | reason

BEGIN { FS = "\t"; OFS = "\037"; out = dir "/history.dat" }
$1 == "# machine" { machine = $2; next }
$1 ~ /^# series / {
	name[++n] = $2; metric[n] = $3
	k = split($2, w, " ")
	for (j = 2; j <= k; j++) if (w[j] ~ /^np[0-9]+$/) { algo[n] = w[j - 1]; break }
	if (algo[n] == "") algo[n] = "?"
	unit = $3; sub(/^[^(]*\(/, "", unit); sub(/\)$/, "", unit)
	m = $3; sub(/ \(.*$/, "", m)
	if (!(m in seen)) { seen[m] = 1; metrics = metrics (metrics == "" ? "" : ", ") m }
	if (n == 1) first_unit = unit
	else if (unit != first_unit) mixed = 1
	nmetric[n] = m
	next
}
/^#/ { next }
{
	if (points++ && $1 != last) printf "\n\n" > out
	last = $1
	printf "%s\t%s\t%s\t%s\t%s\t%s\n", $2, $3, $4, $5, $6, $7 > out
}
END {
	if (n == 0 || points == 0) { print "skip", "no series to plot"; exit 0 }
	if (mixed) { print "skip", "series on time and on bandwidth cannot share an axis (0-byte rows are read on time): narrow with -b or --min-bytes"; exit 0 }
	close(out)
	several = index(metrics, ",") > 0
	for (i = 1; i <= n; i++) {
		names = names (i > 1 ? "\t" : "") name[i] (several ? " (" nmetric[i] ")" : "")
		algos = algos (i > 1 ? " " : "") algo[i]
	}
	print "plot", n, metrics " (" first_unit ")", machine, names, algos
}
