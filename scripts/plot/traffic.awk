# traffic.awk: the data of the figure traffic_per_rank (tx+rx bytes of each rank in one
# allreduce) from two files: select.awk's table of one combination, then ranks.csv.
# Every algorithm whose traffic is measured (tx_total_bytes above 0 in the summary; library
# algorithms leave it empty) is drawn, at the largest rank count with measured traffic and the
# largest size there. ranks.csv rows are filtered by that combination (b, d, o, p: backend,
# dtype, op, in_place), where it has those columns. Writes dir/traffic.<i>.dat (rank <TAB>
# tx+rx bytes) for the i-th algorithm with rows (figure order); prints (| stands for US, the
# unit separator)
#   algo | name | total tx in words | ranks found   (one line per algorithm)
#   plot | N | size in words | algorithms | y unit | its bytes | tallest bar
# or one "skip | reason" line. Variables: prog, file (ranks.csv, for messages), dir.

BEGIN { FS = "\t"; OFS = "\037" }   # lines for plot.sh: fields apart by US
FNR == 1 { fileno++ }
fileno == 1 && FNR == 1 { tsv_header(); next }
fileno == 1 {
	see_algo(get("algo"))
	tx = get("tx_total_bytes")
	if (tx == "" || tx + 0 <= 0) next
	n = get("nranks") + 0; s = get("bytes") + 0
	if (tn == "" || n > tn || (n == tn && s > ts)) { tn = n; ts = s }
	# keys as written (%.0f): mawk turns 2^31 and above into 2.14748e+09 in a string
	tot[get("algo"), sprintf("%.0f", n), sprintf("%.0f", s)] = tx
	next
}
# ranks.csv: the header, then its rows; what to draw is known by now
fileno == 2 && FNR == 1 {
	if (tn == "") {
		print "skip", "no rows with measured traffic (tx_total_bytes > 0)"; done = 1; exit 0
	}
	tk = sprintf("%.0f", tn); sk = sprintf("%.0f", ts)
	FS = "\n"; $0 = $0
	header($0, c)
	nreq = split("algo nranks bytes rank tx_bytes rx_bytes", req, " ")
	for (i = 1; i <= nreq; i++) if (!(req[i] in c)) missing = missing " " req[i]
	if (missing != "") { print "skip", file " lacks column(s):" missing; done = 1; exit 0 }
	split("backend dtype op in_place", opt, " ")
	want["backend"] = b; want["dtype"] = d; want["op"] = o; want["in_place"] = p
	for (i = 1; i <= 4; i++) if (!(opt[i] in c)) nofilter = nofilter " " opt[i]
	if (nofilter != "")
		printf "%s: warning: %s lacks column(s):%s; per-rank rows are not filtered by them\n",
		       prog, file, nofilter > "/dev/stderr"
	next
}
{
	csv_split($0, f)
	a = f[c["algo"]]; gsub(/[^A-Za-z0-9_.+-]/, "_", a)
	if (!((a, tk, sk) in tot)) next
	if (num(f[c["nranks"]]) + 0 != tn || num(f[c["bytes"]]) + 0 != ts) next
	for (i = 1; i <= 4; i++) {
		if (!(opt[i] in c)) continue
		v = f[c[opt[i]]]
		if (opt[i] == "in_place") v = bool01(v)
		if (v != want[opt[i]]) next
	}
	r = num(f[c["rank"]]); tx = num(f[c["tx_bytes"]]); rx = num(f[c["rx_bytes"]])
	if (r == "" || tx == "" || rx == "") next
	if (!((a, r) in txrx)) { nr[a]++; add_rank[a, nr[a]] = r }
	txrx[a, r] = tx + rx        # a repeated rank row replaces the earlier one
}
END {
	if (done) exit 0
	if (tn == "") { print "skip", "no rows with measured traffic (tx_total_bytes > 0)"; exit 0 }
	na = split(algo_list(0), algos, " ")
	k = 0; list = ""; maxv = 0
	for (i = 1; i <= na; i++) {
		a = algos[i]
		if (!(a in nr)) continue
		for (j = 1; j <= nr[a]; j++) {
			r = add_rank[a, j]
			add_pt(a, r, sprintf("%.0f", txrx[a, r]))
			if (txrx[a, r] > maxv) maxv = txrx[a, r]
		}
		write_pts(a, dir "/traffic." ++k ".dat")
		list = list " " a
		print "algo", a, hbytes(tot[a, tk, sk]), nr[a]
	}
	if (k == 0) { print "skip", file " has no rows with tx/rx at n = " tn ", " hbytes(ts); exit 0 }
	split("B KiB MiB GiB TiB", u, " ")
	div = 1
	for (i = 1; maxv / div >= 1024 && i < 5; i++) div *= 1024
	printf "plot\037%d\037%s\037%s\037%s\037%.0f\037%.0f\n", tn, hbytes(ts), substr(list, 2), u[i],
	       div, maxv
}
