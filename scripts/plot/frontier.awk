# frontier.awk: the data of the figures frontier_np<N> (each algorithm's time over the fastest
# one's at every message size: where each wins, the crossovers) from select.awk's table of one
# combination. The time of a row is its median (time_us_median; the mean where a file has no
# median). For each N with two or more algorithms (copy is no allreduce and is left out):
# dir/frontier_np<N>.<i>.dat (bytes <TAB> time / the fastest time at that size) for the i-th
# algorithm (figure order), dir/frontier_np<N>.win.dat (bytes <TAB> the fastest's index in the
# algorithm list <TAB> its name <TAB> its time in us). Prints (| stands for US):
#   plot | N | algorithms | smallest size | largest size | largest ratio | the fastest, by size
#   skip | N | reason
# "the fastest, by size" runs of sizes with one winner: "oneshot 8 B-1 KiB, ring 4 KiB-64 MiB".

BEGIN { FS = "\t"; OFS = "\037" }   # lines for plot.sh: fields apart by US
NR == 1 { tsv_header(); next }
{
	n = get("nranks"); a = get("algo"); by = get("bytes") + 0
	t = get("time_us_median"); if (t == "") t = get("time_us")
	seen_n[n] = 1
	if (a == "copy" || by <= 0 || t == "" || t + 0 <= 0) next
	see_algo(a)
	tm[n, a, by] = t + 0; sizes[n, by] = 1; algos_n[n, a] = 1
	if (!((n, by) in best) || t + 0 < best[n, by]) { best[n, by] = t + 0; win[n, by] = a }
}
END {
	nn = split(keys_sorted(seen_n), ns, " ")
	order = algo_list(0)
	for (i = 1; i <= nn; i++) frontier_np(ns[i])
}
function frontier_np(n,    na, l, k, j, a, list, bs, nb, b, key, sz, xs, r, rmax, runs, cur, first, last, idx) {
	na = split(order, l, " "); list = ""; k = 0
	for (j = 1; j <= na; j++) if ((n, l[j]) in algos_n) { list = list " " l[j]; idx[l[j]] = ++k }
	list = substr(list, 2)
	if (k < 2) { print "skip", n, "fewer than two algorithms with a time at n = " n; return }
	for (key in sizes) { split(key, sz, SUBSEP); if (sz[1] == n) xs[sz[2]] = 1 }
	nb = split(keys_sorted(xs), bs, " ")
	rmax = 1
	split(list, l, " ")
	for (j = 1; j <= k; j++) {
		a = l[j]
		for (b = 1; b <= nb; b++)
			if ((n, a, bs[b]) in tm) {
				r = tm[n, a, bs[b]] / best[n, bs[b]]
				if (r > rmax) rmax = r
				printf "%s\t%.6g\n", bs[b], r > (dir "/frontier_np" n "." j ".dat")
			}
		close(dir "/frontier_np" n "." j ".dat")
	}
	runs = ""; cur = ""
	for (b = 1; b <= nb; b++) {
		a = win[n, bs[b]]
		printf "%s\t%d\t%s\t%.6g\n", bs[b], idx[a], a, best[n, bs[b]] > (dir "/frontier_np" n ".win.dat")
		if (a != cur) {
			if (cur != "") runs = runs (runs != "" ? ", " : "") run_text(cur, first, last)
			cur = a; first = bs[b]
		}
		last = bs[b]
	}
	runs = runs (runs != "" ? ", " : "") run_text(cur, first, last)
	close(dir "/frontier_np" n ".win.dat")
	printf "plot\037%s\037%s\037%.0f\037%.0f\037%g\037%s\n", n, list, bs[1], bs[nb], rmax, runs
}
function run_text(a, lo, hi) {
	return a " " (lo == hi ? hbytes(lo) : hbytes(lo) "-" hbytes(hi))
}
