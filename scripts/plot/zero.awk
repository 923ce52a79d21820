# zero.awk: the data of the figures zero_step_np<N>, one DDP step (an allreduce of S bytes per rank)
# against one ZeRO step (a reduce-scatter of S, then an all-gather of S: nccl-tests' sizes,
# the size column of each), from summary.csv and ranks.csv (in that order on the command line;
# columns by name). Rows: status ok, of backend b, dtype d and in_place p; allreduce and
# reduce_scatter of op o, all_gather of any op (it reduces nothing: "none"). An algorithm is
# drawn where all three collectives have a row of its name (ring, ps, mpi: the ring's halves,
# the parameter server's, the library's). A split collective's count is a multiple of n
# (nccl-tests rounds it down): its row of B bytes stands for the allreduce size S with
# B <= S < B + n elements.
# With list set, prints the rank counts that have such an algorithm, ascending:
#   ranks | N N ...                 (nothing when none)
# else draws rank count want (empty: the largest of them):
#   time:    at that rank count n, per size, the DDP step's
#            median time and the ZeRO step's (reduce-scatter's + all-gather's medians):
#            dir/zero_t.<i>.ddp.dat and dir/zero_t.<i>.zero.dat (bytes <TAB> us)
#   traffic: at n and the largest size S where an algorithm has all three in ranks.csv with
#            measured bytes, each rank's tx+rx: dir/zero_b.<j>.dat
#            (rank <TAB> allreduce <TAB> reduce_scatter <TAB> all_gather)
# Prints (| stands for US, the unit separator)
#   plot | n | S in words | time algorithms | traffic algorithms | smallest size | largest |
#        smallest time | largest | tallest bar (bytes) | one "algo: time x, busiest x" per
#        traffic algorithm, apart by ";" (ZeRO over DDP at S)
#   skip | reason
# Variables: b, d, o, p (the combination), dir, prog (name in messages), list, want.

BEGIN {
	FS = "\n"; OFS = "\037"
	ncoll = split("allreduce reduce_scatter all_gather", coll, " ")
}
/^[ \t]*$/ { next }
FNR == 1 {
	if (file_no == 1) build_alias()
	file_no++
	delete c
	header($0, c)
	if (missing_cols(c, "backend algo nranks bytes dtype op in_place collective" \
	    (file_no == 1 ? " status time_us count" : " rank tx_bytes rx_bytes")) != "") skip_file[file_no] = 1
	next
}
skip_file[file_no] { next }
{
	csv_split($0, f)
	if (f[c["backend"]] != b || f[c["dtype"]] != d || bool01(f[c["in_place"]]) != p) next
	k = f[c["collective"]]
	if (k != "all_gather" && (f[c["op"]] != o || (k != "allreduce" && k != "reduce_scatter")))
		next
	a = f[c["algo"]]; gsub(/[^A-Za-z0-9_.+-]/, "_", a)
	n = num(f[c["nranks"]]); by = num(f[c["bytes"]])
	if (n == "" || by == "") next
}
file_no == 1 {
	if (f[c["status"]] != "ok") next
	t = ("time_us_median" in c) ? num(f[c["time_us_median"]]) : ""
	if (t == "") t = num(f[c["time_us"]])
	if (t == "") next
	tm[k, a, n, by] = t; see_algo(a)
	if (k == "allreduce") { nr[n] = 1; size_at[n, by] = 1 }
	else if (num(f[c["count"]]) > 0) esz[k, a, n, by] = by / f[c["count"]]
	next
}
{   # ranks.csv: the bytes each rank moved (empty: unmeasured, the library's)
	tx = num(f[c["tx_bytes"]]); rx = num(f[c["rx_bytes"]])
	if (tx == "" || rx == "") next
	if (k != "allreduce") {
		if (!((k, a, n, by) in alias)) next
		by = alias[k, a, n, by]
	}
	r = f[c["rank"]] + 0
	tr[k, a, n, by, r] = tx + rx; have_tr[k, a, n, by] = 1
}
# alias[k, a, n, B]: the allreduce size a split collective's row of B bytes stands for; its
# time copied under that size
function build_alias(    key, kb, s2, sb, e) {
	if (aliased++) return
	for (key in esz) {
		split(key, kb, SUBSEP); e = esz[key]
		for (s2 in size_at) {
			split(s2, sb, SUBSEP)
			if (sb[1] != kb[3] || sb[2] + 0 < kb[4] + 0 || sb[2] + 0 >= kb[4] + kb[3] * e) continue
			alias[key] = sb[2]; tm[kb[1], kb[2], kb[3], sb[2]] = tm[key]
		}
	}
}
function all3_time(a, n, by,    i) {
	for (i = 1; i <= ncoll; i++) if (!((coll[i], a, n, by) in tm)) return 0
	return 1
}
function all3_tr(a, n, by,    i) {
	for (i = 1; i <= ncoll; i++) if (!((coll[i], a, n, by) in have_tr)) return 0
	return 1
}
END {
	build_alias()
	# the rank counts with an algorithm of all three collectives at some size; n the one drawn
	nns = split(keys_sorted(nr), ns, " "); nn = 0; have = ""
	for (i = 1; i <= nns; i++) {
		ok3 = 0
		for (key in size_at) {
			split(key, kb, SUBSEP)
			if (kb[1] != ns[i]) continue
			for (j = 1; j <= lib_nalgo; j++) if (all3_time(lib_algo_order[j], ns[i], kb[2])) ok3 = 1
		}
		if (!ok3) continue
		have = have " " ns[i]
		if (want == "" || want + 0 == ns[i] + 0) nn = ns[i]
	}
	if (list) { if (have != "") print "ranks", substr(have, 2); exit 0 }
	if (!nn) { print "skip", "no algorithm with allreduce, reduce_scatter and all_gather rows at one size" (want == "" ? "" : " at " want " ranks"); exit 0 }
	split(algo_list(0), al, " ")
	for (j = 1; j in al; j++) {
		a = al[j]
		for (key in size_at) {
			split(key, kb, SUBSEP)
			if (kb[1] != nn || !all3_time(a, nn, kb[2])) continue
			z = tm["reduce_scatter", a, nn, kb[2]] + tm["all_gather", a, nn, kb[2]]
			add_pt(a ".ddp", kb[2], tm["allreduce", a, nn, kb[2]]); add_pt(a ".zero", kb[2], z)
			widen(kb[2], tm["allreduce", a, nn, kb[2]]); widen(kb[2], z)
		}
	}
	talgos = ""; ti = 0
	for (j = 1; j in al; j++)
		if (lib_pts[al[j] ".ddp"]) {
			ti++; talgos = talgos " " al[j]
			write_pts(al[j] ".ddp", dir "/zero_t." ti ".ddp.dat")
			write_pts(al[j] ".zero", dir "/zero_t." ti ".zero.dat")
		}
	traffic(nn)
	if (talgos == "") { print "skip", "no times"; exit 0 }
	print "plot", nn, (S == "" ? "" : hbytes(S)), substr(talgos, 2), substr(balgos, 2), lib_xl, lib_xh,
	      lib_yl, lib_yh, bmax, ratios
}

# traffic(nn): the bars at nn ranks and the largest size S where some algorithm has all three
# collectives' bytes measured (and times): dir/zero_b.<j>.dat per such algorithm; sets S,
# balgos (space-first), bmax (the tallest bar) and ratios (ZeRO over DDP, apart by ";")
function traffic(nn,    key, kb, j, a, bi, out, r, vd, vr, vg, busy_d, busy_z) {
	S = ""
	for (key in size_at) {
		split(key, kb, SUBSEP)
		if (kb[1] != nn) continue
		for (j = 1; j in al; j++)
			if (all3_tr(al[j], nn, kb[2]) && all3_time(al[j], nn, kb[2]) && (S == "" || kb[2] + 0 > S + 0)) S = kb[2]
	}
	balgos = ""; bi = 0; bmax = 0; ratios = ""
	for (j = 1; S != "" && j in al; j++) {
		a = al[j]
		if (!all3_tr(a, nn, S) || !all3_time(a, nn, S)) continue
		bi++; balgos = balgos " " a; busy_d = busy_z = 0
		out = dir "/zero_b." bi ".dat"
		for (r = 0; r < nn; r++) {
			vd = tr["allreduce", a, nn, S, r] + 0
			vr = tr["reduce_scatter", a, nn, S, r] + 0; vg = tr["all_gather", a, nn, S, r] + 0
			printf "%d\t%.0f\t%.0f\t%.0f\n", r, vd, vr, vg > out
			if (vd > busy_d) busy_d = vd
			if (vr + vg > busy_z) busy_z = vr + vg
			if (vd > bmax) bmax = vd
			if (vr + vg > bmax) bmax = vr + vg
		}
		close(out)
		ratios = ratios sprintf("%s%s: time %.2fx, busiest rank's bytes %.2fx", ratios == "" ? "" : ";", a,
			(tm["reduce_scatter", a, nn, S] + tm["all_gather", a, nn, S]) / tm["allreduce", a, nn, S],
			busy_d > 0 ? busy_z / busy_d : 0)
	}
}
