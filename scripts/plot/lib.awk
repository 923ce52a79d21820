# lib.awk: functions shared by plot.sh's and model.sh's awk programs (awk -f lib.awk -f X.awk;
# POSIX awk, mawk included). Columns are always found by their header name, never by position.
#
#   csv_split(line, f)    split one CSV line into f[1..n] (RFC 4180 quoting, "" = one quote);
#                         returns n
#   header(line, col)     col[name] = column number for each header name (a leading UTF-8
#                         byte-order mark and blanks around names skipped); returns the count
#   tsv_header()          the same for plot.sh's own tab-separated tables, whose first line
#                         names their columns with the summary's names: fills col[]
#   get(name)             the current line's value of column name (tab-separated tables)
#   num(s)                s if it is a finite number, else "" (empty = unmeasured)
#   bool01(s)             true/yes -> 1, false/no -> 0, anything else unchanged
#   hbytes(b)             b bytes with binary units: 67108864 -> "64 MiB"
#   see_algo(a)           record algorithm a (in the order found) for algo_list()
#   algo_list(copy)       the recorded algorithms, space-separated, in the figures' order: ps,
#                         ring, nccl, mpi, then the others as found; copy (the roofline) last
#                         when copy is 1, else left out
#   add_pt(s, x, y)       add the point (x, y) to the series named s
#   write_pts(s, file)    write series s as "x<TAB>y" lines sorted by x into file; returns the
#                         number of points (0: no file written)
#   write_algos(list, key, prefix)  the series key a of each algorithm a of list (space-
#                         separated) that has points, into prefix.1.dat, prefix.2.dat, ... in
#                         that order; returns the algorithms written, space-separated
#   keys_sorted(set)      the keys of the array set (numbers), space-separated, ascending
#   widen(x, y)           widen the ranges lib_xl..lib_xh and lib_yl..lib_yh (empty until
#                         the first point) by the point (x, y)
# Figures of a value vs rank count at the largest message size that has the value:
#   vs_ranks_row(v)       call for every row, v its value (empty: none); lib_big is the largest
#                         size seen with a value (empty: none)
#   vs_ranks_points(pos)  the rows at lib_big as points (nranks, v) of their algorithm's series
#                         (only v > 0 when pos is 1); sets vmin and vmax (their range) and
#                         ranks (their rank counts, ascending); returns the number of points

function csv_split(line, f,    n, i, c, fld, inq, len) {
	sub(/\r$/, "", line)
	if (index(line, "\"") == 0) return split(line, f, ",")
	n = 0; fld = ""; inq = 0; len = length(line)
	for (i = 1; i <= len; i++) {
		c = substr(line, i, 1)
		if (inq) {
			if (c != "\"") fld = fld c
			else if (substr(line, i + 1, 1) == "\"") { fld = fld "\""; i++ }
			else inq = 0
		} else if (c == "\"") inq = 1
		else if (c == ",") { f[++n] = fld; fld = "" }
		else fld = fld c
	}
	f[++n] = fld
	return n
}

function header(line, col,    h, n, i, name) {
	sub(/^\357\273\277/, "", line)   # a UTF-8 byte-order mark (spreadsheets) is not in a name
	n = csv_split(line, h)
	for (i = 1; i <= n; i++) {
		name = h[i]; gsub(/^[ \t]+|[ \t]+$/, "", name)
		if (!(name in col)) col[name] = i
	}
	return n
}

function tsv_header(    i) {
	for (i = 1; i <= NF; i++) col[$i] = i
}

# median_scale(): the factor that turns this row's mean-time figures (time_us, algbw, busbw)
# into its median time's: time_us / time_us_median (bandwidth is bytes over time), or 1 when
# the row has no median (an older schema: the figures then say "mean"); median_time(): the
# row's median time (else its mean)
function median_scale(    m) {
	m = get("time_us_median") + 0
	return (m > 0 && get("time_us") + 0 > 0) ? get("time_us") / m : 1
}
function median_time(    m) {
	m = get("time_us_median")
	return m != "" && m + 0 > 0 ? m : get("time_us")
}

function get(name) {
	if (!(name in col)) {
		printf "plot.sh: internal error: no column %s in %s\n", name, FILENAME > "/dev/stderr"
		exit 3
	}
	return $(col[name])
}

function num(s) {
	gsub(/^[ \t]+|[ \t]+$/, "", s)
	if (s !~ /^[-+]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?$/) return ""
	# finite and not absurd (1e999 overflows to inf in awk): else unmeasured
	return (s + 0 < 1e300 && s + 0 > -1e300) ? s : ""
}

function bool01(s) {
	s = tolower(s)
	if (s == "true" || s == "yes") return "1"
	if (s == "false" || s == "no") return "0"
	return s
}

function hbytes(b,    u, i) {
	split("B KiB MiB GiB TiB PiB", u, " ")
	for (i = 1; b >= 1024 && i < 6; i++) b /= 1024
	return sprintf("%.4g %s", b, u[i])
}

function see_algo(a) {
	if (!(a in lib_algo_seen)) { lib_algo_seen[a] = 1; lib_algo_order[++lib_nalgo] = a }
}

function algo_list(copy,    pref, np, i, a, out, done) {
	np = split("ps ring nccl mpi", pref, " ")
	out = ""
	for (i = 1; i <= np; i++)
		if (pref[i] in lib_algo_seen) { out = out " " pref[i]; done[pref[i]] = 1 }
	for (i = 1; i <= lib_nalgo; i++) {
		a = lib_algo_order[i]
		if (!(a in done) && a != "copy") out = out " " a
	}
	if (copy && ("copy" in lib_algo_seen)) out = out " copy"
	return substr(out, 2)
}

function add_pt(s, x, y) {
	lib_pts[s]++
	lib_px[s, lib_pts[s]] = x
	lib_py[s, lib_pts[s]] = y
}

# insertion sort: a series holds one point per message size or rank count
function write_pts(s, file,    n, i, j, x, y, xs, ys) {
	n = lib_pts[s] + 0
	for (i = 1; i <= n; i++) {
		x = lib_px[s, i]; y = lib_py[s, i]
		for (j = i - 1; j >= 1 && xs[j] + 0 > x + 0; j--) { xs[j + 1] = xs[j]; ys[j + 1] = ys[j] }
		xs[j + 1] = x; ys[j + 1] = y
	}
	for (i = 1; i <= n; i++) printf "%s\t%s\n", xs[i], ys[i] > file
	if (n) close(file)
	return n
}

function keys_sorted(set,    k, n, j, l, out) {
	n = 0
	for (k in set) {
		for (j = ++n; j > 1 && l[j - 1] + 0 > k + 0; j--) l[j] = l[j - 1]
		l[j] = k
	}
	out = ""
	for (j = 1; j <= n; j++) out = out " " l[j]
	return substr(out, 2)
}

function widen(x, y) {
	x += 0; y += 0
	if (lib_xl == "" || x < lib_xl) lib_xl = x
	if (lib_xh == "" || x > lib_xh) lib_xh = x
	if (lib_yl == "" || y < lib_yl) lib_yl = y
	if (lib_yh == "" || y > lib_yh) lib_yh = y
}

function write_algos(list, key, prefix,    n, i, l, k, out) {
	n = split(list, l, " "); k = 0; out = ""
	for (i = 1; i <= n; i++)
		if (write_pts(key l[i], prefix "." (k + 1) ".dat")) { k++; out = out " " l[i] }
	return substr(out, 2)
}

function vs_ranks_row(v,    by) {
	if (v == "") return
	by = get("bytes") + 0
	if (lib_big == "" || by > lib_big) lib_big = by
	lib_nv++
	lib_v[lib_nv] = v; lib_a[lib_nv] = get("algo"); lib_r[lib_nv] = get("nranks"); lib_b[lib_nv] = by
}

function vs_ranks_points(pos,    i, v, set, np) {
	vmin = vmax = ""; np = 0
	for (i = 1; i <= lib_nv; i++) {
		v = lib_v[i] + 0
		if (lib_b[i] != lib_big || (pos && v <= 0)) continue
		add_pt(lib_a[i], lib_r[i], lib_v[i]); np++
		if (vmin == "" || v < vmin) vmin = v
		if (vmax == "" || v > vmax) vmax = v
		set[lib_r[i]] = 1
	}
	ranks = keys_sorted(set)
	return np
}

# missing_cols(c, names): the names (apart by spaces) that are not columns of c, each after a
# space ("" when every one is there)
function missing_cols(c, names,    req, n, i, out) {
	n = split(names, req, " ")
	for (i = 1; i <= n; i++) if (!(req[i] in c)) out = out " " req[i]
	return out
}

# rank_filter(opt, want, b, d, o, p): the combination a per-rank row must be of, for
# rank_row_wanted: opt[1..4] the column names, want[name] the value (b, d, o, p: backend,
# dtype, op, in_place as 0 or 1)
function rank_filter(opt, want, b, d, o, p) {
	split("backend dtype op in_place", opt, " ")
	want["backend"] = b; want["dtype"] = d; want["op"] = o; want["in_place"] = p
}

# rank_row_wanted(f, c, opt, want, n, bytes): whether a per-rank CSV row, split into f
# (column numbers in c), is of n ranks and bytes per rank and of the combination drawn:
# want[k] for each name k in opt[1..4] (backend dtype op in_place) that the file has
function rank_row_wanted(f, c, opt, want, n, bytes,    i, v) {
	if (num(f[c["nranks"]]) + 0 != n || num(f[c["bytes"]]) + 0 != bytes) return 0
	for (i = 1; i <= 4; i++) {
		if (!(opt[i] in c)) continue
		v = f[c[opt[i]]]
		if (opt[i] == "in_place") v = bool01(v)
		if (v != want[opt[i]]) return 0
	}
	return 1
}

# model_csv_header(line, cols, what): the header of a collbench-model CSV into c[]; 0 and a
# message on stderr when it lacks one of cols (what: the table it must be, for the message)
function model_csv_header(line, cols, what) {
	header(line, c)
	if (missing_cols(c, cols) == "") return 1
	printf "%s: error: %s is not %s\n", prog, file, what > "/dev/stderr"
	return 0
}

# allreduce_row(f): 1 when row f (csv_split, columns in c) is allreduce's: the model's
# figures draw allreduce only (its tables have a collective column since issue 22; older
# ones, without it, are allreduce's)
function allreduce_row(f) {
	return !("collective" in c) || f[c["collective"]] == "" || f[c["collective"]] == "allreduce"
}

# first_combo(f): 1 when row f (csv_split) is of the first (backend, dtype, op, in_place)
# seen, whose text is then in lib_combo
function first_combo(f,    key) {
	key = f[c["backend"]] ", " f[c["dtype"]] " " f[c["op"]] (f[c["in_place"]] == "1" ? ", in-place" : "")
	if (lib_combo == "") lib_combo = key
	return key == lib_combo
}
