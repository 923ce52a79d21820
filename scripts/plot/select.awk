# select.awk: picks the (backend, dtype, op, in_place) combination to draw from rows.awk's
# table: the first row's that matches the requested values (b, d, o, p; empty = any). Writes
# that combination's rows, with the header line, to the file cur, then prints on stdout (|
# stands for US, the unit separator)
#   combo | backend | dtype | op | in_place | combinations in the run
# or, when no row matches, one "avail | --backend B --dtype D --op O --inplace P" line
# per combination the run has.

BEGIN { FS = "\t"; OFS = "\037" }   # lines for plot.sh: fields apart by US
NR == 1 { tsv_header(); hdr = $0; next }
{
	key = get("backend") FS get("dtype") FS get("op") FS get("in_place")
	if (!(key in seen)) { seen[key] = 1; keys[++nkeys] = key }
	line[NR] = $0; lkey[NR] = key
	if (chosen == "" && (b == "" || get("backend") == b) && (d == "" || get("dtype") == d) &&
	    (o == "" || get("op") == o) && (p == "" || get("in_place") == p))
		chosen = key
}
END {
	if (chosen == "") {
		for (i = 1; i <= nkeys; i++) {
			split(keys[i], k, FS)
			printf "avail\037  --backend %s --dtype %s --op %s --inplace %s\n", k[1], k[2], k[3], k[4]
		}
		exit 0
	}
	print hdr > cur
	for (i = 2; i <= NR; i++) if (lkey[i] == chosen) print line[i] > cur
	close(cur)
	split(chosen, k, FS)
	print "combo", k[1], k[2], k[3], k[4], nkeys
}
