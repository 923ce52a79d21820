# model_crossover.awk: the data of the figure model_crossover from collbench-model predict
# --crossover --format csv: out (nranks <TAB> crossover bytes) for the rank counts where the first
# algorithm is no slower up to a size and the second faster above (kind "crossing"; those where
# one wins at every size are left out). Prints (| stands for US, the unit separator)
#   plot | smallest n | largest n | smallest size | largest size
#   skip                       when there is no such rank count
# Variables: prog (name in messages), file (the path, for messages), out.

BEGIN { FS = "\n"; OFS = "\037" }
NR == 1 {
	header($0, c)
	if (!("nranks" in c) || !("crossover_bytes" in c) || !("kind" in c)) {
		printf "%s: error: %s is not predict --crossover's table\n", prog, file > "/dev/stderr"
		bad = 1; exit 1
	}
	next
}
{
	csv_split($0, f)
	if (f[c["kind"]] != "crossing") next
	add_pt("cross", f[c["nranks"]], f[c["crossover_bytes"]])
	widen(f[c["nranks"]], f[c["crossover_bytes"]])
}
END {
	if (bad) exit 1
	if (!write_pts("cross", out)) { print "skip"; exit 0 }
	print "plot", lib_xl, lib_xh, lib_yl, lib_yh
}
