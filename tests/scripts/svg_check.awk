# svg_check.awk: what a person checks on a figure, read from the SVG gnuplot wrote (its
# terminal svg: each text a <g transform="translate(X,Y)[ rotate(A)]" ... font-size="F"
# text-anchor="A"> followed by <text>...</text>):
#   - every text lies inside the canvas (a title cut at an edge, a key pushed out);
#   - no two texts overlap (tic labels that run together, point labels on each other);
# and, from the line cb_gnuplot printed for it (CB_PLOT_GEOMETRY: name, the plot area's
# xmin xmax ymin ymax, the canvas width and height, in pixels), whether the plot area is at
# least half the canvas wide and a third of it high (a key that squeezes the plot).
# A text's box is estimated as the PNG shows it (pngcairo draws DejaVu Sans 1.25 times the
# SVG's font size, wider than a browser draws the SVG): a digit 0.8 F wide (DejaVu's 0.636
# em; tic labels are mostly digits, "128K256K512K" measured 97 px at F = 10), a capital 0.85 F,
# a narrow character (space . , : ; ' | ! i l j) 0.4 F, any other 0.71 F (lowercase on
# average); F high. Two boxes are too close when they share more than 1.5 px of height and
# are less than a space (0.4 F, the smaller F) apart across (labels that run together: "128K256K").
# Usage: awk -v geo="name xmin xmax ymin ymax w h" -f svg_check.awk FIGURE.svg
# Prints one line per problem, "FIGURE: what"; exits 1 when there is any.
BEGIN { split(geo, g, " "); W = g[6] + 0; H = g[7] + 0; n = 0 }
!W && match($0, /viewBox="0 0 [0-9.]+ [0-9.]+"/) {
	split(substr($0, RSTART + 13, RLENGTH - 14), vb, " ")
	W = vb[1] + 0; H = vb[2] + 0
}
/<g transform="translate\(/ && /font-size=/ {
	match($0, /translate\([-0-9.]+,[-0-9.]+\)/)
	split(substr($0, RSTART + 10, RLENGTH - 11), xy, ",")
	tx = xy[1] + 0; ty = xy[2] + 0
	rot = ($0 ~ /rotate\((90|270|-90)\)/)
	match($0, /font-size="[0-9.]+"/); fs = substr($0, RSTART + 11, RLENGTH - 12) + 0
	anchor = "start"
	if (match($0, /text-anchor="[a-z]+"/)) anchor = substr($0, RSTART + 13, RLENGTH - 14)
	want = 1
	next
}
want && /<text>/ {
	want = 0
	s = $0
	sub(/^.*<text>/, "", s); sub(/<\/text>.*$/, "", s)
	gsub(/<[^>]*>/, "", s)
	gsub(/&[a-z]+;/, "x", s)
	if (s ~ /^[ \t]*$/) next
	len = twidth(s) * fs
	if (anchor == "middle") a0 = -len / 2
	else if (anchor == "end") a0 = -len
	else a0 = 0
	n++; txt[n] = s; f[n] = fs
	if (rot) { x0[n] = tx - 0.8 * fs; x1[n] = tx + 0.2 * fs; y0[n] = ty - a0 - len; y1[n] = ty - a0 }
	else { x0[n] = tx + a0; x1[n] = tx + a0 + len; y0[n] = ty - 0.8 * fs; y1[n] = ty + 0.2 * fs }
}
END {
	name = FILENAME
	for (i = 1; i <= n; i++) {
		if (x0[i] < -2 || y0[i] < -2 || x1[i] > W + 2 || y1[i] > H + 2)
			problem(sprintf("text '%s' outside the %dx%d canvas (%.0f..%.0f, %.0f..%.0f)", txt[i], W, H, x0[i], x1[i], y0[i], y1[i]))
		for (j = i + 1; j <= n; j++)
			if (min(x1[i], x1[j]) - max(x0[i], x0[j]) > -0.4 * min(f[i], f[j]) && min(y1[i], y1[j]) - max(y0[i], y0[j]) > 1.5)
				problem(sprintf("texts '%s' and '%s' overlap or run together", txt[i], txt[j]))
	}
	if (geo != "") {
		pw = g[3] - g[2]; ph = g[5] - g[4]
		if (pw < W / 2) problem(sprintf("plot area %.0f px wide, under half the canvas (%d)", pw, W))
		if (ph < H / 3) problem(sprintf("plot area %.0f px high, under a third of the canvas (%d)", ph, H))
	}
	exit bad
}
function problem(what) { print name ": " what; bad = 1 }
function min(a, b) { return a < b ? a : b }
function max(a, b) { return a > b ? a : b }
# twidth(s): the width of s in units of the font size (the estimate above)
function twidth(s,   w, i, c) {
	w = 0
	for (i = 1; i <= length(s); i++) {
		c = substr(s, i, 1)
		if (c ~ /[0-9]/) w += 0.8
		else if (c ~ /[A-Z]/) w += 0.85
		else if (c ~ /[ .,:;'|!ilj]/) w += 0.4
		else w += 0.71
	}
	return w
}
