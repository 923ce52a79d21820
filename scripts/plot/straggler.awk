# straggler.awk: the data of the figure stragglers (per row, how much slower the rank that was
# most often the slowest was than the others: straggler_ratio, its rank as a label) from
# select.awk's table of one combination, at the largest rank count with straggler columns
# (rows of 0 bytes left out: the size axis is logarithmic).
# Writes dir/strag.<i>.dat (bytes <TAB> ratio <TAB> label) for the i-th algorithm (figure
# order). Labels "r<rank> <share>%" stay apart: at each size only the algorithm with the
# largest ratio is labelled, only where that ratio is 1.05 or more (below, no rank was slower
# at its own work: no straggler), and only at every k-th size, k such that at most 10 sizes
# are labelled. Prints (| stands for US, the unit separator)
#   plot | N | algorithms | smallest size | largest size | largest ratio
#   skip | reason

BEGIN { FS = "\t"; OFS = "\037" }   # lines for plot.sh: fields apart by US
NR == 1 { tsv_header(); next }
{
	see_algo(get("algo"))
	if (get("straggler_ratio") == "" || get("straggler_rank") == "" || get("bytes") + 0 <= 0) next
	n = get("nranks") + 0
	if (tn == "" || n > tn) tn = n
	k++; ra[k] = get("algo"); rn[k] = n; rb[k] = get("bytes") + 0
	rr[k] = get("straggler_ratio") + 0; rk[k] = get("straggler_rank") + 0
	rs[k] = get("straggler_share") + 0
}
END {
	if (tn == "") { print "skip", "no rows with straggler columns (n > 1, bytes > 0, schema with them)"; exit 0 }
	# only the drawn algorithms (algo_list(0): not copy) set the y range and get labels
	na = split(algo_list(0), algos, " ")
	for (j = 1; j <= na; j++) drawn[algos[j]] = 1
	for (i = 1; i <= k; i++) {
		if (rn[i] != tn || !(ra[i] in drawn)) continue
		have[ra[i]]++
		if (xmin == "" || rb[i] < xmin) xmin = rb[i]
		if (rb[i] > xmax) xmax = rb[i]
		if (rr[i] > ymax) ymax = rr[i]
	}
	# the labelled point of each size: the largest ratio there, every k-th size
	for (i = 1; i <= k; i++) {
		if (rn[i] != tn || !(ra[i] in drawn)) continue
		if (!(rb[i] in top) || rr[i] > rr[top[rb[i]]]) top[rb[i]] = i
	}
	ns = 0
	for (b in top) sz[++ns] = b + 0
	for (i = 2; i <= ns; i++) for (j = i; j > 1 && sz[j - 1] > sz[j]; j--) { t = sz[j]; sz[j] = sz[j - 1]; sz[j - 1] = t }
	step = int((ns + 9) / 10)
	for (i = 1; i <= ns; i++) if ((i - 1) % step == 0 && rr[top[sz[i]]] >= 1.05) labelled[top[sz[i]]] = 1
	m = 0; list = ""
	for (j = 1; j <= na; j++) {
		a = algos[j]
		if (!(a in have)) continue
		# one point per size; lib.awk's write_pts sorts them (sweep.sh writes sizes in order anyway)
		for (i = 1; i <= k; i++)
			if (ra[i] == a && rn[i] == tn)
				add_pt(a, sprintf("%.0f", rb[i]), sprintf("%.6g\t%s", rr[i],
					(i in labelled) ? sprintf("r%d %.0f%%", rk[i], 100 * rs[i]) : ""))
		write_pts(a, dir "/strag." ++m ".dat")
		list = list " " a
	}
	printf "plot\037%d\037%s\037%.0f\037%.0f\037%.6g\n", tn, substr(list, 2), xmin, xmax, ymax
}
