# rows.awk: summary.csv -> the rows plot.sh draws, as a tab-separated table on stdout whose
# first line names the columns (the summary's names):
#   backend algo nranks bytes dtype op in_place time_us algbw_GBps busbw_GBps tx_total_bytes
#   imbalance transport nhosts
# (transport and nhosts empty where the summary has no such column: schema 1), then the
# optional columns (empty where the file lacks them: older files):
#   busy_imbalance straggler_rank straggler_share straggler_ratio time_us_cv time_us_median
# Keeps rows with status "ok", of allreduce (the collective column of schema 3; older files'
# rows are allreduce's: the figures but zero_step_np<N> draw allreduce only; zero.awk reads the
# summary itself), and a numeric nranks and
# bytes; a number that is not one becomes empty (unmeasured). Says on stderr what it left out; exits 1 (said) on a file without the
# required columns, without rows, or without any "ok" row.
# Variables: prog (name in messages), file (the path, for messages).

BEGIN {
	FS = "\n"; OFS = "\t"
	required = "backend algo nranks bytes dtype op in_place time_us algbw_GBps busbw_GBps " \
	           "tx_total_bytes imbalance status"
	nout = split("backend algo nranks bytes dtype op in_place time_us algbw_GBps busbw_GBps " \
	             "tx_total_bytes imbalance transport nhosts", out, " ")
	nopt = split("busy_imbalance straggler_rank straggler_share straggler_ratio time_us_cv " \
	             "time_us_median", optc, " ")
}
/^[ \t\r]*$/ { next }
!have_header {
	have_header = 1
	header($0, c)
	missing = missing_cols(c, required)
	if (missing != "") {
		printf "%s: error: %s lacks required column(s):%s\n", prog, file, missing > "/dev/stderr"
		bad = 1; exit 1
	}
	line = out[1]
	for (i = 2; i <= nout; i++) line = line OFS out[i]
	for (i = 1; i <= nopt; i++) line = line OFS optc[i]
	print line
	next
}
{
	csv_split($0, f)
	if (("schema" in c) && f[c["schema"]] == "schema") next   # a repeated header row
	rows++
	st = f[c["status"]]; gsub(/^[ \t]+|[ \t]+$/, "", st)
	if (st != "ok") { notok++; if (first_bad == "") first_bad = st; next }
	# -2 added columns at the end (transport, nhosts), -3 collective: read by name, -1's read
	# the same
	if (("schema" in c) && f[c["schema"]] !~ /^collbench-summary-[123]$/ && !warned++)
		printf "%s: warning: unknown schema \"%s\" in %s, reading it as collbench-summary-3\n",
		       prog, f[c["schema"]], file > "/dev/stderr"
	if (("collective" in c) && f[c["collective"]] != "" && f[c["collective"]] != "allreduce") {
		othercoll++; if (first_coll == "") first_coll = f[c["collective"]]; next
	}
	nr = num(f[c["nranks"]]); by = num(f[c["bytes"]])
	if (nr == "" || by == "") { skipped++; next }
	algo = f[c["algo"]]; gsub(/[^A-Za-z0-9_.+-]/, "_", algo)
	# integers printed with %.0f: mawk prints 2^31 and above as 2.14748e+09 otherwise
	opts = ""
	for (i = 1; i <= nopt; i++) opts = opts OFS ((optc[i] in c) ? num(f[c[optc[i]]]) : "")
	print f[c["backend"]], algo, sprintf("%.0f", nr), sprintf("%.0f", by), f[c["dtype"]], f[c["op"]],
	      bool01(f[c["in_place"]]), num(f[c["time_us"]]), num(f[c["algbw_GBps"]]),
	      num(f[c["busbw_GBps"]]), num(f[c["tx_total_bytes"]]), num(f[c["imbalance"]]),
	      ("transport" in c) ? f[c["transport"]] : "", (("nhosts" in c) ? num(f[c["nhosts"]]) : "") opts
	ok++
}
END {
	if (bad) exit 1
	if (!have_header) {
		printf "%s: error: %s has no header row\n", prog, file > "/dev/stderr"; exit 1
	}
	if (rows == 0) {
		printf "%s: error: %s has a header but no data rows\n", prog, file > "/dev/stderr"; exit 1
	}
	if (skipped)
		printf "%s: warning: %d row(s) without a numeric nranks/bytes ignored\n", prog,
		       skipped > "/dev/stderr"
	if (ok == 0 && othercoll) {
		printf "%s: error: none of the %d rows of %s is an allreduce row with status ok (the " \
		       "figures draw allreduce only so far; first other collective: %s)\n", prog, rows,
		       file, first_coll > "/dev/stderr"
		exit 1
	}
	if (ok == 0) {
		printf "%s: error: none of the %d rows of %s has status ok (first: %s)\n", prog, rows,
		       file, first_bad > "/dev/stderr"
		exit 1
	}
	if (notok)
		printf "%s: note: %d row(s) with a status other than ok are not plotted (first: %s)\n",
		       prog, notok, first_bad > "/dev/stderr"
	if (othercoll)
		printf "%s: note: %d row(s) of other collectives than allreduce are left out of the " \
		       "allreduce figures (first: %s; zero_step_np* draw reduce_scatter and all_gather)\n",
		       prog, othercoll, first_coll > "/dev/stderr"
}
