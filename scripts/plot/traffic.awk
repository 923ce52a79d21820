# traffic.awk: the data of the figure traffic_per_rank (tx+rx bytes of each rank in one
# allreduce) from two files: select.awk's table of one combination, then ranks.csv.
# Every algorithm whose traffic is measured (tx_total_bytes above 0 in the summary; library
# algorithms leave it empty) is drawn, at the largest rank count with measured traffic and the
# largest size there. ranks.csv rows are filtered by that combination (b, d, o, p: backend,
# dtype, op, in_place), where it has those columns. Writes dir/traffic.<i>.dat (rank <TAB>
# tx+rx bytes) for the i-th algorithm with rows (figure order); prints (| stands for US, the
# unit separator)
#   algo | name | total tx in words | ranks found   (one line per algorithm)
#   hosts | H | centres | separators | labels   (only when the ranks span H > 1 hosts:
#           ranks.csv's host column; centres: each host's mean rank, separators: x
#           between ranks of different hosts, labels: one per host, apart by ";", with the
#           host's tx+rx per algorithm, in the y unit)
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
	missing = missing_cols(c, "algo nranks bytes rank tx_bytes rx_bytes")
	if (missing != "") { print "skip", file " lacks column(s):" missing; done = 1; exit 0 }
	rank_filter(opt, want, b, d, o, p)
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
	if (!rank_row_wanted(f, c, opt, want, tn, ts)) next
	r = num(f[c["rank"]]); tx = num(f[c["tx_bytes"]]); rx = num(f[c["rx_bytes"]])
	if (r == "" || tx == "" || rx == "") next
	if (!((a, r) in txrx)) { nr[a]++; add_rank[a, nr[a]] = r }
	txrx[a, r] = tx + rx        # a repeated rank row replaces the earlier one
	if ("host" in c && f[c["host"]] != "") hostof[r] = f[c["host"]] + 0
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
	hosts_line(algos, na, u[i], div)
	printf "plot\037%d\037%s\037%s\037%s\037%.0f\037%.0f\n", tn, hbytes(ts), substr(list, 2), u[i],
	       div, maxv
}

# hosts_line(algos, na, unit, div): the "hosts" line when the ranks span hosts (see above);
# each host's tx+rx per algorithm is the sum over its ranks
function hosts_line(algos, na, unit, div,    r, h, nh, hs, i, a, cen, sep, lab, sum, cnt, lo, hi, t) {
	for (r = 0; r < tn; r++) {
		if (!(r in hostof)) return
		h = hostof[r]
		if (!(h in cnt)) hs[++nh] = h
		cnt[h]++; cen[h] += r
		if (!(h in lo) || r < lo[h]) lo[h] = r
		if (!(h in hi) || r > hi[h]) hi[h] = r
		if (r > 0 && hostof[r - 1] != h) sep = sep " " (r - 0.5)
		for (i = 1; i <= na; i++) if ((algos[i], r) in txrx) sum[algos[i], h] += txrx[algos[i], r]
	}
	if (nh < 2) return
	for (i = 1; i <= nh; i++) {
		h = hs[i]
		t = sprintf("host %d (rank%s %s), tx+rx:", h, cnt[h] > 1 ? "s" : "", lo[h] == hi[h] ? lo[h] : \
			hi[h] - lo[h] + 1 == cnt[h] ? lo[h] "-" hi[h] : lo[h] "..." hi[h])
		for (a = 1; a <= na; a++)
			if ((algos[a], h) in sum) t = t "\\n" algos[a] " " sprintf("%.4g", sum[algos[a], h] / div) " " unit
		lab = lab (i > 1 ? ";" : "") t
		cen[h] = cen[h] / cnt[h]
	}
	t = ""
	for (i = 1; i <= nh; i++) t = t (i > 1 ? " " : "") cen[hs[i]]
	printf "hosts\037%d\037%s\037%s\037%s\n", nh, t, substr(sep, 2), lab
}
