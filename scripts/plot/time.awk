# time.awk: the data of the figure time_vs_ranks (time per allreduce vs rank count at the
# largest message size with a time) from select.awk's table of one combination:
# dir/time.<i>.dat (nranks <TAB> median time, else the mean) for the i-th algorithm with a time there (figure
# order, copy last). Prints (| stands for US, the unit separator)
#   plot | size in words | algorithms | rank counts | smallest | largest time
#   skip | reason

BEGIN { FS = "\t"; OFS = "\037" }   # lines for plot.sh: fields apart by US
NR == 1 { tsv_header(); next }
{ see_algo(get("algo")); vs_ranks_row(median_time()) }
END {
	if (lib_big == "") { print "skip", "no rows with a time"; exit 0 }
	vs_ranks_points(1)
	algos = write_algos(algo_list(1), "", dir "/time")
	if (algos == "") { print "skip", "no times above 0 at " hbytes(lib_big); exit 0 }
	print "plot", hbytes(lib_big), algos, ranks, vmin, vmax
}
