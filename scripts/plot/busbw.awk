# busbw.awk: the data of the figures busbw_np<N> (bus bandwidth vs message size, one figure per
# rank count N) from select.awk's table of one combination.
# For each N, in ascending order: dir/busbw_np<N>.<i>.dat (bytes <TAB> busbw_GBps) for the
# i-th algorithm with a bus bandwidth at N (of the median time where the row has one) (figure order, see algo_list; copy has none), and
# the copy roofline dir/busbw_np<N>.copy.dat (bytes <TAB> algbw_GBps) taken at N, or, when the
# run has no copy rows at N, at the rank count with the most copy points (the line says which).
# 0-byte rows have no place on the logarithmic size axis. The transport: when the run's
# algorithms (not the libraries') ran over more than one transport, each (algorithm,
# transport) is a series of its own, named algo~transport (busbw.gp keys it "algo
# (transport)"); else, when that one transport is p2p or the ranks span hosts, the title
# says it (extra). Prints one line per N (| stands for US, the unit separator):
#   plot | N | algorithms | roofline's N (empty: none) | roofline points
#        | smallest size | largest size | smallest y above 0 (0: none) | largest y
#        | extra title text (may be empty)
#   skip | N | reason

BEGIN { FS = "\t"; OFS = "\037" }   # lines for plot.sh: fields apart by US
NR == 1 { tsv_header(); next }
{
	n = get("nranks"); a = get("algo"); by = get("bytes"); tr = get("transport")
	seen_n[n] = 1
	if (by > 0) sized[n] = 1
	if (get("nhosts") + 0 > nhosts[n]) nhosts[n] = get("nhosts") + 0
	if (tr != "" && tr != "library" && a != "copy") { ntr += !(tr in trs); trs[tr] = 1; tr_n[n] = tr }
	else tr = ""
	rows_n++; r_n[rows_n] = n; r_a[rows_n] = a; r_b[rows_n] = by; r_t[rows_n] = tr
	r_y[rows_n] = get("busbw_GBps") == "" ? "" : sprintf("%.6g", get("busbw_GBps") * median_scale())
	if (a == "copy") see_algo(a)
	if (by > 0 && get("algbw_GBps") != "" && a == "copy") {
		add_pt("copy" SUBSEP n, by, sprintf("%.6g", get("algbw_GBps") * median_scale()))
		copies[n]++
	}
}
END {
	for (i = 1; i <= rows_n; i++) {
		a = (ntr > 1 && r_t[i] != "") ? r_a[i] "~" r_t[i] : r_a[i]
		see_algo(a)
		if (r_b[i] > 0 && r_y[i] != "" && a != "copy") add_pt(r_n[i] SUBSEP a, r_b[i], r_y[i])
	}
	# the rank count with the most copy points (the smaller one on a tie)
	for (n in copies)
		if (copies[n] > best || (copies[n] == best && n + 0 < copy_any + 0)) {
			best = copies[n]; copy_any = n
		}
	nn = split(keys_sorted(seen_n), ns, " ")
	algos = algo_list(0)
	for (i = 1; i <= nn; i++) busbw_np(ns[i])
}
function busbw_np(n,    k, j, list, l, roof_n, roofpts, prefix, extra) {
	prefix = dir "/busbw_np" n
	list = write_algos(algos, n SUBSEP, prefix)
	k = split(list, l, " ")
	for (j = 1; j <= k; j++) span(n SUBSEP l[j])
	roof_n = (n in copies) ? n : copy_any
	roofpts = roof_n != "" ? write_pts("copy" SUBSEP roof_n, prefix ".copy.dat") : 0
	if (roofpts) span("copy" SUBSEP roof_n)
	if (k == 0 && roofpts == 0) {
		if (n in sized) print "skip", n, "no rows with a bus bandwidth at n = " n
		else print "skip", n, "every row at n = " n " has 0 bytes (the size axis is logarithmic;" \
		                      " their times are in time_vs_ranks)"
		return
	}
	extra = nhosts[n] > 1 ? "on " nhosts[n] " hosts" : ""
	if (ntr == 1 && (n in tr_n) && (tr_n[n] == "p2p" || nhosts[n] > 1))
		extra = extra (extra != "" ? ", " : "") "transport " tr_n[n]
	printf "plot\037%s\037%s\037%s\037%d\037%.0f\037%.0f\037%g\037%g\037%s\n", n, list,
	       roof_n, roofpts, xmin, xmax, ymin + 0, ymax, extra
	xmin = xmax = ymin = ymax = ""
}
# span(s): widen xmin, xmax, ymin (above 0 only), ymax by the points of series s
function span(s,    i, x, y) {
	for (i = 1; i <= lib_pts[s]; i++) {
		x = lib_px[s, i] + 0; y = lib_py[s, i] + 0
		if (xmin == "" || x < xmin) xmin = x
		if (xmax == "" || x > xmax) xmax = x
		if (ymax == "" || y > ymax) ymax = y
		if (y > 0 && (ymin == "" || y < ymin)) ymin = y
	}
}
