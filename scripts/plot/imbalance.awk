# imbalance.awk: the data of the figure imbalance_vs_ranks (max / mean of per-rank tx+rx vs
# rank count) from select.awk's table of one combination: every algorithm with a measured
# imbalance (traffic counted, n > 1, bytes > 0), at the largest size with one.
# Writes dir/imb.<i>.dat (nranks <TAB> imbalance) for the i-th such algorithm (figure order);
# prints (| stands for US, the unit separator)
#   plot | size in words | algorithms | rank counts | largest imbalance
#   skip | reason

BEGIN { FS = "\t"; OFS = "\037" }   # lines for plot.sh: fields apart by US
NR == 1 { tsv_header(); next }
{ see_algo(get("algo")); vs_ranks_row(get("imbalance")) }
END {
	if (lib_big == "") {
		print "skip", "no rows with a measured imbalance (needs traffic counted, n > 1 and bytes > 0)"
		exit 0
	}
	vs_ranks_points(0)
	print "plot", hbytes(lib_big), write_algos(algo_list(0), "", dir "/imb"), ranks, vmax + 0
}
