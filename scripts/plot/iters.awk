# iters.awk: the data of the figure iterations (every iteration's time of one row, warm-up
# included) from allreduce_perf's JSON Lines files (--json: sweep.sh's np<N>.jsonl), whose
# rows carry "iterations" (cb_report.h). Keeps the rows of one combination (b, d, o, p) with
# status ok and iterations; draws the one at the largest rank count, then largest size, with
# the largest coefficient of variation there (the spikiest). The JSON is allreduce_perf's own,
# compact, one object per line: keys are found by name, arrays hold numbers or null.
# Writes dir/iters.max.dat (iteration <TAB> max over ranks, us), dir/iters.warm.dat (warm-up
# iterations numbered -w .. -1), dir/iters.ranks.dat (each rank's own times, one gnuplot data
# block per rank); prints (| stands for US, the unit separator)
#   plot | algo | N | size in words | warm-up count | timed count | median | p99 | ymax
#        | ranks with their own times
# p99 is empty under 100 timed iterations: there it would be the largest one (the figure
# names that "max of K" instead).
#   skip | reason

BEGIN { OFS = "\037" }
# the value of scalar key k in line s ("" when absent or null)
function jval(s, k,    v) {
	if (!match(s, "\"" k "\":(\"[^\"]*\"|[-+0-9.eE]+|true|false|null)")) return ""
	v = substr(s, RSTART + length(k) + 3, RLENGTH - length(k) - 3)
	gsub(/"/, "", v)
	return v == "null" ? "" : v
}
# array key k of s into a[1..n]; returns n (-1 when absent)
function jarr(s, k, a,    body) {
	if (!match(s, "\"" k "\":\\[[^]]*\\]")) return -1
	body = substr(s, RSTART + length(k) + 4, RLENGTH - length(k) - 5)
	return body == "" ? 0 : split(body, a, ",")
}
{
	at = index($0, "\"iterations\":")
	if (at == 0) next
	top = substr($0, 1, at - 1)
	if (jval(top, "status") != "ok") next
	if (jval(top, "backend") != b || jval(top, "dtype") != d || jval(top, "op") != o) next
	ip = jval(top, "in_place"); ip = ip == "true" ? 1 : ip == "false" ? 0 : ip
	if (ip != p) next
	n = jval(top, "nranks") + 0; s = jval(top, "bytes") + 0; cv = jval(top, "time_us_cv") + 0
	if (best == "" || n > bn || (n == bn && s > bs) || (n == bn && s == bs && cv > bcv)) {
		best = $0; bat = at; bn = n; bs = s; bcv = cv
	}
}
END {
	if (best == "") { print "skip", "no JSON rows with iterations (allreduce_perf --json)"; exit 0 }
	top = substr(best, 1, bat - 1); it = substr(best, bat)
	ri = index(it, "\"ranks\":")
	head = ri ? substr(it, 1, ri - 1) : it
	k = jarr(head, "time_us", t); w = jarr(head, "warmup_us", wu)
	if (k <= 0) { print "skip", "the chosen row has no timed iterations"; exit 0 }
	ymax = 0
	for (i = 1; i <= k; i++) { printf "%d\t%s\n", i, t[i] > (dir "/iters.max.dat"); if (t[i] > ymax) ymax = t[i] }
	for (i = 1; i <= w; i++) { printf "%d\t%s\n", i - w - 1, wu[i] > (dir "/iters.warm.dat"); if (wu[i] > ymax) ymax = wu[i] }
	if (w <= 0) printf "" > (dir "/iters.warm.dat")
	rest = ri ? substr(it, ri) : ""
	nr = 0
	while (match(rest, /"time_us":\[[^]]*\]/)) {
		m = jarr(substr(rest, RSTART, RLENGTH), "time_us", rt)
		if (nr++) printf "\n\n" > (dir "/iters.ranks.dat")
		for (i = 1; i <= m; i++) printf "%d\t%s\n", i, rt[i] > (dir "/iters.ranks.dat")
		rest = substr(rest, RSTART + RLENGTH)
	}
	if (nr == 0) printf "" > (dir "/iters.ranks.dat")
	print "plot", jval(top, "algo"), bn, hbytes(bs), (w > 0 ? w : 0), k, jval(top, "time_us_median"),
	      (k >= 100 ? jval(top, "time_us_p99") : ""), ymax, nr
}
