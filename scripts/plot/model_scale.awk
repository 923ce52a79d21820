# model_scale.awk: the data of the scale-out figures model_time_vs_n and model_host_load from
# collbench-model predict --format csv: for the i-th word "BYTES:ALGO:COLUMN" of series,
# prefix.<i>.dat (nranks <TAB> COLUMN's value of algorithm ALGO at message size BYTES; values
# above 0 only; an empty file when there are none). Prints (| stands for US, the unit separator)
#   plot | smallest n | largest n | smallest value | largest value
#   skip                       when the first series has no point
# Variables: prog (name in messages), file (the path, for messages), series, prefix.

BEGIN { FS = "\n"; OFS = "\037"; ns = split(series, s, " ") }
NR == 1 {
	header($0, c)
	for (i = 1; i <= ns; i++) {
		split(s[i], p, ":")
		want_b[i] = p[1]; want_a[i] = p[2]; want_c[i] = p[3]
		if (!(p[3] in c) || !("bytes" in c) || !("nranks" in c) || !("algo" in c)) {
			printf "%s: error: %s lacks the column %s\n", prog, file, p[3] > "/dev/stderr"
			bad = 1; exit 1
		}
	}
	next
}
{
	csv_split($0, f)
	for (i = 1; i <= ns; i++) {
		v = num(f[c[want_c[i]]])
		if (f[c["bytes"]] != want_b[i] || f[c["algo"]] != want_a[i] || v == "" || v + 0 <= 0) continue
		add_pt(i, f[c["nranks"]], v)
		widen(f[c["nranks"]], v)
	}
}
END {
	if (bad) exit 1
	for (i = 1; i <= ns; i++)
		if (!write_pts(i, prefix "." i ".dat")) { printf "" > (prefix "." i ".dat"); close(prefix "." i ".dat") }
	if (!lib_pts[1]) { print "skip"; exit 0 }
	print "plot", lib_xl, lib_xh, lib_yl, lib_yh
}
