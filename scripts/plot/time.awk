# time.awk: the data of the figure time_vs_ranks (time per allreduce vs rank count at the
# largest message size with a time) from select.awk's table of one combination:
# dir/time.<i>.dat (nranks <TAB> time_us) for the i-th algorithm with a time there (figure
# order, copy last). Prints (| stands for US, the unit separator)
#   plot | size in words | algorithms | rank counts | smallest | largest time
#   skip | reason

BEGIN { FS = "\t"; OFS = "\037" }   # lines for plot.sh: fields apart by US
NR == 1 { tsv_header(); next }
{
	see_algo(get("algo"))
	if (get("time_us") == "") next
	by = get("bytes") + 0
	if (smax == "" || by > smax) smax = by
	t[NR] = get("time_us"); a[NR] = get("algo"); n[NR] = get("nranks"); b[NR] = by
}
END {
	if (smax == "") { print "skip", "no rows with a time"; exit 0 }
	for (r in t)
		if (b[r] == smax && t[r] + 0 > 0) {
			add_pt(a[r], n[r], t[r])
			if (tmin == "" || t[r] + 0 < tmin) tmin = t[r] + 0
			if (tmax == "" || t[r] + 0 > tmax) tmax = t[r] + 0
			ranks[n[r]] = 1
		}
	na = split(algo_list(1), algos, " ")
	k = 0; list = ""
	for (i = 1; i <= na; i++)
		if (write_pts(algos[i], dir "/time." (k + 1) ".dat")) { k++; list = list " " algos[i] }
	if (k == 0) { print "skip", "no times above 0 at " hbytes(smax); exit 0 }
	print "plot", hbytes(smax), substr(list, 2), keys_sorted(ranks), tmin, tmax
}
