# gpubytes.awk: the data of the figure gpu_bytes_per_rank (bytes each GPU sent and received in
# one call, tx+rx, per rank and algorithm, NCCL's rows beside ours) from ranks.csv. A rank's
# bytes are the hardware's (hw_tx_bytes + hw_rx_bytes: NVML's NVLink counters, per call) where
# the file has both, else our own counters (tx_bytes + rx_bytes); each algorithm's key says
# which. Drawn at the largest rank count with a hardware count, at the size given (size, bytes
# per rank) or else the largest size there with one; every algorithm with a value for every
# rank found at that point is drawn, NCCL's (nccl, nccl.*) first. Rows are filtered by the
# combination drawn (b, d, o, p: backend, dtype, op, in_place) where ranks.csv has those columns.
# Writes dir/gpubytes.<i>.dat (rank <TAB> tx+rx bytes) per algorithm and dir/gpubytes.tsv (the
# figure's data: algo, rank, source, tx+rx bytes); prints (| stands for US)
#   algo | name | source | tx+rx over its ranks in words | ranks found   (one line each)
#   plot | N | size in words | algorithms | y unit | its bytes | tallest bar
# or one "skip | reason" line, or "none | reason" where the file has no hardware count at all
# (a host run: plot.sh says nothing of it). Variables: prog, file (ranks.csv, for messages), dir, size.

BEGIN { OFS = "\037" }
FNR == 1 {
	FS = "\n"; $0 = $0
	header($0, c)
	missing = missing_cols(c, "algo nranks bytes rank tx_bytes rx_bytes")
	if (missing != "") { print "skip", file " lacks column(s):" missing; done = 1; exit 0 }
	if (!("hw_tx_bytes" in c) || !("hw_rx_bytes" in c)) {
		print "none", file " has no hw_tx_bytes/hw_rx_bytes columns (the hardware's counts: cuda backend with NVML)"
		done = 1; exit 0
	}
	rank_filter(opt, want, b, d, o, p)
	next
}
{
	csv_split($0, f)
	for (i = 1; i <= 4; i++) {
		if (!(opt[i] in c)) continue
		v = f[c[opt[i]]]
		if (opt[i] == "in_place") v = bool01(v)
		if (v != want[opt[i]]) next
	}
	a = f[c["algo"]]; gsub(/[^A-Za-z0-9_.+-]/, "_", a)
	n = sprintf("%.0f", num(f[c["nranks"]])); s = sprintf("%.0f", num(f[c["bytes"]]))
	r = num(f[c["rank"]])
	if (r == "") next
	r = sprintf("%d", r)
	htx = num(f[c["hw_tx_bytes"]]); hrx = num(f[c["hw_rx_bytes"]])
	tx = num(f[c["tx_bytes"]]); rx = num(f[c["rx_bytes"]])
	if (htx != "" && hrx != "") { val[a, n, s, r] = htx + hrx; src[a, n, s, r] = "NVML" }
	else if (tx != "" && rx != "") { val[a, n, s, r] = tx + rx; src[a, n, s, r] = "own" }
	else next
	if (!((a, n, s) in nr)) { see_algo(a); }
	if (!((a, n, s, r, "seen") in val)) { nr[a, n, s]++; val[a, n, s, r, "seen"] = 1 }
	if (src[a, n, s, r] == "NVML") {
		hwpt[n, s] = 1
		if (bn == "" || n + 0 > bn + 0) bn = n
	}
}
END {
	if (done) exit 0
	if (bn == "") { print "none", file " has no hardware counts (hw_tx_bytes, hw_rx_bytes all empty)"; exit 0 }
	bs = size
	if (bs == "")
		for (k in hwpt) { split(k, nk, SUBSEP); if (nk[1] == bn && (bs == "" || nk[2] + 0 > bs + 0)) bs = nk[2] }
	bs = sprintf("%.0f", bs)
	nall = split(algo_list(0), all, " ")
	na = 0
	for (i = 1; i <= nall; i++) if (all[i] ~ /^nccl/) ord[++na] = all[i]
	for (i = 1; i <= nall; i++) if (all[i] !~ /^nccl/) ord[++na] = all[i]
	k = 0; list = ""; maxv = 0
	printf "" > (dir "/gpubytes.tsv")
	print "algo\trank\tsource\ttxrx_bytes" > (dir "/gpubytes.tsv")
	for (i = 1; i <= na; i++) {
		a = ord[i]
		if (!((a, bn, bs) in nr)) continue
		hw = own = tot = 0
		for (r = 0; r < bn + 0; r++) {
			if (!((a, bn, bs, r) in val)) continue
			add_pt(a, r, sprintf("%.0f", val[a, bn, bs, r]))
			tot += val[a, bn, bs, r]
			if (val[a, bn, bs, r] > maxv) maxv = val[a, bn, bs, r]
			if (src[a, bn, bs, r] == "NVML") hw++; else own++
			printf "%s\t%d\t%s\t%.0f\n", a, r, src[a, bn, bs, r], val[a, bn, bs, r] > (dir "/gpubytes.tsv")
		}
		write_pts(a, dir "/gpubytes." ++k ".dat")
		list = list " " a
		print "algo", a, own == 0 ? "NVML" : hw == 0 ? "own counters" : "NVML, own counters where it had none", \
		      hbytes(tot), nr[a, bn, bs]
	}
	close(dir "/gpubytes.tsv")
	if (k == 0) { print "skip", file " has no per-rank bytes at n = " bn ", " hbytes(bs); exit 0 }
	split("B KiB MiB GiB TiB", u, " ")
	div = 1
	for (i = 1; maxv / div >= 1024 && i < 5; i++) div *= 1024
	printf "plot\037%d\037%s\037%s\037%s\037%.0f\037%.0f\n", bn, hbytes(bs), substr(list, 2), u[i],
	       div, maxv
}
