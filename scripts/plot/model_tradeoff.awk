# model_tradeoff.awk: the data of the figure model_tradeoff from collbench-model check --format
# csv: where each algorithm sits between latency and bandwidth at one rank count and size: its
# rounds of dependent messages (the model's, from its plan) and the bytes its busiest rank moved
# (tx + rx, measured) over the message size S. The rank count: the largest with two or more
# algorithms that have both; the size: 1 MiB where there, else the largest such size. The
# first (backend, dtype, op, in_place) combination. dir/tradeoff.<i>.dat (rounds <TAB> bytes/S
# <TAB> "name, time") for the i-th algorithm. Prints (| stands for US)
#   plot | algorithms | n | size in words | largest rounds | largest bytes/S | the combination
#   skip | reason
# Variables: prog (name in messages), file (the path, for messages), dir.

BEGIN { FS = "\n"; OFS = "\037" }
NR == 1 { if (!model_csv_header($0, "backend algo nranks bytes dtype op in_place time_us rounds_model txrx_max_bytes", "check's table with rounds_model and txrx_max_bytes")) { bad = 1; exit 1 }; next }
{
	csv_split($0, f)
	if (!allreduce_row(f)) next
	if (!first_combo(f) || f[c["algo"]] == "copy") next
	n = f[c["nranks"]] + 0; by = f[c["bytes"]] + 0; r = f[c["rounds_model"]]; x = f[c["txrx_max_bytes"]]
	if (n < 2 || by <= 0 || r == "" || x == "") next
	k = n SUBSEP by
	if (!((k, f[c["algo"]]) in seen)) { seen[k, f[c["algo"]]] = 1; count[k]++ }
	rounds[k, f[c["algo"]]] = r + 0; load[k, f[c["algo"]]] = x / by; tus[k, f[c["algo"]]] = f[c["time_us"]]
	see_algo(f[c["algo"]])
}
END {
	if (bad) exit 1
	for (k in count) if (count[k] >= 2) {
		split(k, p, SUBSEP)
		if (p[1] + 0 > bn + 0 || (p[1] + 0 == bn + 0 && better(p[2], bb))) { bn = p[1]; bb = p[2] }
	}
	if (bn == "") { print "skip", "no rank count and size with two or more algorithms' rounds and measured traffic"; exit 0 }
	k = bn SUBSEP bb
	na = split(algo_list(0), l, " "); list = ""; j = 0; rmax = 1; ymax = 0
	for (i = 1; i <= na; i++) {
		if (!((k, l[i]) in rounds)) continue
		j++; list = list " " l[i]
		us = tus[k, l[i]] + 0
		us = (us >= 100) ? sprintf("%.0f", us) : sprintf("%.3g", us)
		# a label's height: the point's, moved down a line for each earlier label at the same
		# rounds within a line's height (7% of the y range): labels of points on one
		# another never overlap
		ly = load[k, l[i]]
		for (q = 1; q < j; q++)
			if (lx[q] == rounds[k, l[i]] && ly - lyy[q] < 0.07 * (ymax_all(k, l, na) * 1.25 + 0.1) && lyy[q] - ly < 0.07 * (ymax_all(k, l, na) * 1.25 + 0.1))
				ly = lyy[q] - 0.07 * (ymax_all(k, l, na) * 1.25 + 0.1)
		lx[j] = rounds[k, l[i]]; lyy[j] = ly
		printf "%g\t%.6g\t%s, %s us\t%.6g\n", rounds[k, l[i]], load[k, l[i]], l[i], us, ly > (dir "/tradeoff." j ".dat")
		close(dir "/tradeoff." j ".dat")
		if (rounds[k, l[i]] > rmax) rmax = rounds[k, l[i]]
		if (load[k, l[i]] > ymax) ymax = load[k, l[i]]
	}
	print "plot", substr(list, 2), bn, hbytes(bb), rmax, ymax, lib_combo
}
# ymax_all(k, l, na): the largest load at point k over the algorithms l[1..na]
function ymax_all(k, l, na,    i, m) {
	m = 0
	for (i = 1; i <= na; i++) if ((k, l[i]) in load && load[k, l[i]] > m) m = load[k, l[i]]
	return m
}
# better(a, b): size a is the better choice than b: 1 MiB, else the larger
function better(a, b) {
	if (b == "") return 1
	if (b + 0 == 1048576) return 0
	return a + 0 == 1048576 || a + 0 > b + 0
}
