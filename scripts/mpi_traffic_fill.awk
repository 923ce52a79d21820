# mpi_traffic_fill.awk: the mpi traffic measured by sweep.sh --mpi-traffic into one results
# file of a launch, in that file's form; the one place that writes it, so that every file of
# a run says the same (summary.csv and ranks.csv are merged from the launches' files after).
#   awk -v form=FORM [-v np=N] -f mpi_traffic_fill.awk TRAFFIC FILE >NEW
# TRAFFIC: mpi_traffic.txt, lines "nranks bytes rank tx_bytes rx_bytes calls" (sweep.sh's
# mpi_traffic_np, from mpi_traffic.awk). FILE, by FORM (rows of algorithm mpi whose nranks
# and bytes were measured; every other line is copied as it is):
#   csv    a summary or per-rank CSV, columns found by header name: tx_bytes and rx_bytes of
#          each rank's row; tx_total_bytes, txrx_max_bytes and imbalance of an "ok" row
#   jsonl  allreduce_perf's JSON Lines (compact, one row a line): tx_total_bytes,
#          txrx_max_bytes and imbalance of an "ok" row, null before
#   table  allreduce_perf's table of the N-rank launch (np<N>.txt; -v np=N): the tx_total,
#          txrx_max and imbal columns (12th-14th) of an "ok" row, right-aligned where the "-"
#          stood
# The figures are allreduce_perf's (DESIGN.md, "Terms"): tx_total = the sum over ranks of tx,
# txrx_max = the largest tx+rx of a rank, imbalance = txrx_max / the mean over ranks of tx+rx
# (%.6g in the files, %.3f in the table as the program prints it).
BEGIN {
	if ((form != "csv" && form != "jsonl" && form != "table") || (form == "table" && np + 0 < 1)) {
		print "mpi_traffic_fill.awk: form must be csv, jsonl or table (with np)" > "/dev/stderr"
		bad = 1
		exit 1
	}
}
FNR == NR {
	k = $1 SUBSEP $2
	tx[k, $3] = $4; rx[k, $3] = $5
	tot[k] += $4; s = $4 + $5; sum[k] += s; n[k]++
	if (s > mx[k]) mx[k] = s
	next
}
form == "csv" { print csv_row($0); next }
form == "jsonl" { print json_row($0); next }
form == "table" { print table_row($0); next }
END { if (bad) exit 1 }

function imb(k) { return sum[k] > 0 ? sprintf("%.6g", mx[k] / (sum[k] / n[k])) : "" }

function csv_row(line,    f, i, nf, k, out) {
	if (FNR == 1) {
		nf = split(line, f, ",")
		for (i = 1; i <= nf; i++) c[f[i]] = i
		return line
	}
	# a quoted field (a reason with a comma) is in no ok row: such rows stay as they are
	if (index(line, "\"")) return line
	nf = split(line, f, ",")
	if (f[c["algo"]] != "mpi") return line
	k = f[c["nranks"]] SUBSEP f[c["bytes"]]
	if (!(k in tot)) return line
	if ("tx_bytes" in c && (k, f[c["rank"]]) in tx) {
		f[c["tx_bytes"]] = tx[k, f[c["rank"]]]; f[c["rx_bytes"]] = rx[k, f[c["rank"]]]
	}
	if ("tx_total_bytes" in c && f[c["status"]] == "ok") {
		f[c["tx_total_bytes"]] = tot[k]; f[c["txrx_max_bytes"]] = mx[k]
		f[c["imbalance"]] = imb(k)
	}
	out = f[1]
	for (i = 2; i <= nf; i++) out = out "," f[i]
	return out
}

# the number after "key": in a compact JSON line ("" when absent)
function json_num(line, key,    v) {
	if (!match(line, "[{,]\"" key "\":[0-9]+")) return ""
	v = substr(line, RSTART, RLENGTH)
	sub(/^.*:/, "", v)
	return v
}

function json_row(line,    k, v) {
	if (index(line, "\"algo\":\"mpi\"") == 0 || index(line, "\"status\":\"ok\"") == 0) return line
	k = json_num(line, "nranks") SUBSEP json_num(line, "bytes")
	if (!(k in tot)) return line
	v = imb(k)
	sub(/"tx_total_bytes":null/, "\"tx_total_bytes\":" tot[k], line)
	sub(/"txrx_max_bytes":null/, "\"txrx_max_bytes\":" mx[k], line)
	sub(/"imbalance":null/, "\"imbalance\":" (v == "" ? "null" : v), line)
	return line
}

# Fields 12-14 of an ok mpi row of the table (15 fields: status "ok" last) given their new
# text, each ending where the old one ended (the columns are right-aligned).
function table_row(line,    k, pos, i, start, len, out, val, w) {
	if ($1 != "mpi" || NF != 15 || $15 != "ok") return line
	k = np SUBSEP $2
	if (!(k in tot)) return line
	val[12] = tot[k]; val[13] = mx[k]
	val[14] = sum[k] > 0 ? sprintf("%.3f", mx[k] / (sum[k] / n[k])) : "-"
	out = ""; pos = 1
	for (i = 1; i <= 15; i++) {
		match(substr(line, pos), /[^ ]+/)
		start = pos + RSTART - 1; len = RLENGTH
		if (i >= 12 && i <= 14) {
			w = start + len - pos   # the spaces before it and the field
			out = out sprintf("%" (w > length(val[i]) ? w : length(val[i]) + 1) "s", val[i])
		} else
			out = out substr(line, pos, start + len - pos)
		pos = start + len
	}
	return out substr(line, pos)
}

