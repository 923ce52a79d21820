# model_busbw.awk: the data of the figures model_busbw_np<N> (measured and modelled bandwidth vs
# message size, one figure per rank count N) from collbench-model check --format csv, for the
# (backend, dtype, op, in_place) combination of the first modelled row. For each N, ascending:
# dir/model_busbw_np<N>.<i>.dat (bytes <TAB> measured GB/s <TAB> modelled GB/s) for the i-th
# algorithm with modelled rows at N (figure order, see algo_list; copy last). 0-byte rows have
# no place on the logarithmic size axis. Prints (| stands for US, the unit separator):
#   combo | backend | dtype | op | in_place      first
#   plot | N | algorithms | smallest size | largest size | smallest y | largest y
#        | 1 when the check notes N's launch as oversubscribed, else 0
#   skip | reason                                  instead, when no row was modelled
# Variables: prog (name in messages), file (the path, for messages), dir.

BEGIN {
	FS = "\n"; OFS = "\037"   # lines for model.sh: fields apart by US
	nreq = split("backend algo nranks bytes dtype op in_place bw_GBps bw_GBps_model note", req, " ")
}
NR == 1 {
	header($0, c)
	for (i = 1; i <= nreq; i++)
		if (!(req[i] in c)) {
			printf "%s: error: %s lacks the column %s\n", prog, file, req[i] > "/dev/stderr"
			bad = 1; exit 1
		}
	next
}
{
	csv_split($0, f)
	if (!allreduce_row(f)) next
	by = num(f[c["bytes"]]); bw = num(f[c["bw_GBps"]]); bm = num(f[c["bw_GBps_model"]])
	if (by == "" || by + 0 <= 0 || bw == "" || bm == "") next
	key = f[c["backend"]] OFS f[c["dtype"]] OFS f[c["op"]] OFS f[c["in_place"]]
	if (want == "") want = key
	if (key != want) next
	n = f[c["nranks"]]
	see_algo(f[c["algo"]])
	add_pt(n SUBSEP f[c["algo"]], by, bw "\t" bm)
	span(n, by, bw); span(n, by, bm)
	if (f[c["note"]] ~ /^oversubscribed/) over[n] = 1
}
END {
	if (bad) exit 1
	if (want == "") { print "skip", "no modelled rows with a bandwidth in " file; exit 0 }
	print "combo", want
	nn = split(keys_sorted(xmax), ns, " ")
	algos = algo_list(1)
	for (i = 1; i <= nn; i++) {
		n = ns[i]
		list = write_algos(algos, n SUBSEP, dir "/model_busbw_np" n)
		printf "plot\037%s\037%s\037%.0f\037%.0f\037%g\037%g\037%d\n", n, list, xmin[n],
		       xmax[n], ymin[n], ymax[n], (n in over)
	}
}
# span(n, x, y): widen rank count n's ranges by the point (x, y); y only when above 0
function span(n, x, y) {
	x += 0; y += 0
	if (!(n in xmin) || x < xmin[n]) xmin[n] = x
	if (!(n in xmax) || x > xmax[n]) xmax[n] = x
	if (y > 0 && (!(n in ymin) || y < ymin[n])) ymin[n] = y
	if (!(n in ymax) || y > ymax[n]) ymax[n] = y
}
