# model_choice.awk: the data of the figure model_choice from collbench-model check --choice
# --format csv: the points of its first (backend, dtype, op, in_place) combination, in the
# (message size, rank count) plane. dir/best.<i>.dat and dir/choice.<i>.dat (bytes <TAB>
# nranks) for the i-th algorithm: where it was the measured fastest, and where the model chose
# it; dir/miss.dat: the points where they disagree. Prints (| stands for US)
#   plot | algorithms | smallest size | largest size | rank counts | the combination |
#          agreeing points | points | agreeing with a CPU per rank | points with a CPU per rank
#   skip | reason
# Variables: prog (name in messages), file (the path, for messages), dir.

BEGIN { FS = "\n"; OFS = "\037" }
NR == 1 { if (!model_csv_header($0, "backend nranks bytes dtype op in_place fastest model_choice agree note", "check --choice's table")) { bad = 1; exit 1 }; next }
{
	csv_split($0, f)
	if (!allreduce_row(f)) next
	if (!first_combo(f)) next
	by = f[c["bytes"]] + 0; n = f[c["nranks"]] + 0
	if (by <= 0) next
	see_algo(f[c["fastest"]]); see_algo(f[c["model_choice"]])
	add_pt("best" SUBSEP f[c["fastest"]], by, n)
	add_pt("choice" SUBSEP f[c["model_choice"]], by, n)
	pts++; rank_set[n] = 1
	free = f[c["note"]] !~ /oversubscribed/
	pts_free += free
	if (f[c["agree"]] == "yes") { agree++; agree_free += free }
	else add_pt("miss", by, n)
	if (xmin == "" || by < xmin) xmin = by
	if (xmax == "" || by > xmax) xmax = by
}
END {
	if (bad) exit 1
	if (!pts) { print "skip", "no point with two or more modelled algorithms"; exit 0 }
	list = algo_list(0); na = split(list, l, " "); out = ""; k = 0
	for (i = 1; i <= na; i++) {
		k++
		if (!write_pts("best" SUBSEP l[i], dir "/best." k ".dat")) printf "" > (dir "/best." k ".dat")
		if (!write_pts("choice" SUBSEP l[i], dir "/choice." k ".dat")) printf "" > (dir "/choice." k ".dat")
		close(dir "/best." k ".dat"); close(dir "/choice." k ".dat")
	}
	if (!write_pts("miss", dir "/miss.dat")) { printf "" > (dir "/miss.dat"); close(dir "/miss.dat") }
	printf "plot\037%s\037%.0f\037%.0f\037%s\037%s\037%d\037%d\037%d\037%d\n", list, xmin, xmax,
	       keys_sorted(rank_set), lib_combo, agree, pts, agree_free, pts_free
}
