# imbalance.awk: the data of the figure imbalance_vs_ranks (max / mean of per-rank tx+rx vs
# rank count) from select.awk's table of one combination: every algorithm with a measured
# imbalance (traffic counted, n > 1, bytes > 0), at the largest size with one.
# Writes dir/imb.<i>.dat (nranks <TAB> imbalance) for the i-th such algorithm (figure order);
# prints (| stands for US, the unit separator)
#   plot | size in words | algorithms | rank counts | largest imbalance
#   skip | reason

BEGIN { FS = "\t"; OFS = "\037" }   # lines for plot.sh: fields apart by US
NR == 1 { tsv_header(); next }
{
	see_algo(get("algo"))
	if (get("imbalance") == "") next
	by = get("bytes") + 0
	if (is == "" || by > is) is = by
	v[NR] = get("imbalance"); a[NR] = get("algo"); n[NR] = get("nranks"); b[NR] = by
}
END {
	if (is == "") {
		print "skip", "no rows with a measured imbalance (needs traffic counted, n > 1 and bytes > 0)"
		exit 0
	}
	for (r in v)
		if (b[r] == is) {
			add_pt(a[r], n[r], v[r])
			if (v[r] + 0 > ymax) ymax = v[r] + 0
			ranks[n[r]] = 1
		}
	na = split(algo_list(0), algos, " ")
	k = 0; list = ""
	for (i = 1; i <= na; i++)
		if (write_pts(algos[i], dir "/imb." (k + 1) ".dat")) { k++; list = list " " algos[i] }
	print "plot", hbytes(is), substr(list, 2), keys_sorted(ranks), ymax + 0
}
