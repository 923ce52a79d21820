# busywait.awk: the data of the figure busy_wait_per_rank (each rank's mean busy and wait time
# per allreduce, stacked) from two files: select.awk's table of one combination, then ranks.csv.
# Every algorithm whose busy time is measured (busy_imbalance set in the summary; library
# algorithms and the cuda backend leave it empty) is drawn, at the largest rank count with one
# and the largest size there. ranks.csv rows are filtered by that combination (b, d, o, p).
# Writes dir/busywait.<i>.dat (rank <TAB> busy <TAB> wait, in the unit printed) for the i-th
# algorithm with rows (figure order); prints (| stands for US, the unit separator)
#   algo | name | time per allreduce in words ("median 12.3 ms", or "mean" where the run
#          has no median) | ranks found   (one line per algorithm)
#   plot | N | size in words | algorithms | unit | its microseconds | tallest stack
# or one "skip | reason" line. Variables: prog, file (ranks.csv, for messages), dir.

BEGIN { FS = "\t"; OFS = "\037" }   # lines for plot.sh: fields apart by US
FNR == 1 { fileno++ }
fileno == 1 && FNR == 1 { tsv_header(); next }
fileno == 1 {
	see_algo(get("algo"))
	if (get("busy_imbalance") == "") next
	n = get("nranks") + 0; s = get("bytes") + 0
	if (tn == "" || n > tn || (n == tn && s > ts)) { tn = n; ts = s }
	# the allreduce's time for the key: the median where the run has it (as the other figures)
	k = get("algo") SUBSEP sprintf("%.0f", n) SUBSEP sprintf("%.0f", s)
	tm[k] = get("time_us_median") != "" ? get("time_us_median") : get("time_us")
	tstat[k] = get("time_us_median") != "" ? "median" : "mean"
	next
}
fileno == 2 && FNR == 1 {
	if (tn == "") { print "skip", "no rows with measured busy time (busy_imbalance)"; done = 1; exit 0 }
	tk = sprintf("%.0f", tn); sk = sprintf("%.0f", ts)
	FS = "\n"; $0 = $0
	header($0, c)
	missing = missing_cols(c, "algo nranks bytes rank busy_us wait_us")
	if (missing != "") { print "skip", file " lacks column(s):" missing; done = 1; exit 0 }
	rank_filter(opt, want, b, d, o, p)
	next
}
{
	csv_split($0, f)
	a = f[c["algo"]]; gsub(/[^A-Za-z0-9_.+-]/, "_", a)
	if (!((a, tk, sk) in tm)) next
	if (!rank_row_wanted(f, c, opt, want, tn, ts)) next
	r = num(f[c["rank"]]); bu = num(f[c["busy_us"]]); wa = num(f[c["wait_us"]])
	if (r == "" || bu == "" || wa == "") next
	if (!((a, r) in busy)) { nr[a]++; add_rank[a, nr[a]] = r }
	busy[a, r] = bu; wait[a, r] = wa
	if (bu + wa > maxv) maxv = bu + wa
}
END {
	if (done) exit 0
	if (tn == "") { print "skip", "no rows with measured busy time (busy_imbalance)"; exit 0 }
	div = maxv >= 1000 ? 1000 : 1; unit = div == 1000 ? "ms" : "us"
	na = split(algo_list(0), algos, " ")
	k = 0; list = ""
	for (i = 1; i <= na; i++) {
		a = algos[i]
		if (!(a in nr)) continue
		out = dir "/busywait." ++k ".dat"
		# ranks ascending (lib.awk's keys_sorted): the file's order is usually already so
		delete rankset
		for (j = 1; j <= nr[a]; j++) rankset[add_rank[a, j] + 0]
		split(keys_sorted(rankset), rs, " ")
		for (j = 1; j <= nr[a]; j++)
			printf "%d\t%.6g\t%.6g\n", rs[j], busy[a, rs[j]] / div, wait[a, rs[j]] / div > out
		close(out)
		list = list " " a
		print "algo", a, sprintf("%s %.4g %s", tstat[a, tk, sk], tm[a, tk, sk] / div, unit), nr[a]
	}
	if (k == 0) { print "skip", file " has no rows with busy/wait at n = " tn ", " hbytes(ts); exit 0 }
	printf "plot\037%d\037%s\037%s\037%s\037%d\037%.6g\n", tn, hbytes(ts), substr(list, 2), unit, div,
	       maxv / div
}
